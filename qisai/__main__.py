from qisai.cli import main

main()

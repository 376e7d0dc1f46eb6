"""A GTP engine for the tests that writes down every command it is sent.

``python gtp_recorder.py LOG [--no-kgs] [--refuse-once VERTEX] [--moves A,B,...]``

* every command line is appended to the file LOG as it arrives;
* ``--no-kgs``: ``kgs-time_settings`` and ``time_left`` are not listed
  (an engine that knows only ``time_settings``);
* ``--refuse-once VERTEX``: the first ``play`` at VERTEX is refused with
  ``? illegal move`` (the engine's rules differ from the referee's);
* ``--moves``: the answers to ``genmove``, in order; then ``pass``.

It keeps no board: it answers, and the test reads what it was told.
"""

import sys


def main() -> None:
    log_path = sys.argv[1]
    args = sys.argv[2:]
    kgs = "--no-kgs" not in args
    refuse = args[args.index("--refuse-once") + 1].upper() if "--refuse-once" in args else None
    moves = args[args.index("--moves") + 1].split(",") if "--moves" in args else []
    commands = ["protocol_version", "name", "version", "list_commands", "boardsize",
                "clear_board", "komi", "play", "genmove", "time_settings", "quit"]
    if kgs:
        commands += ["kgs-time_settings", "time_left"]
    with open(log_path, "a", encoding="utf-8") as log:
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            log.write(line.strip() + "\n")
            log.flush()
            cmd = words[0]
            if cmd == "protocol_version":
                out = "= 2"
            elif cmd == "name":
                out = "= Recorder"
            elif cmd == "version":
                out = "= 1"
            elif cmd == "list_commands":
                out = "= " + "\n".join(commands)
            elif cmd not in commands:
                out = "? unknown command"
            elif cmd == "play" and refuse is not None and words[2].upper() == refuse:
                refuse = None
                out = "? illegal move"
            elif cmd == "genmove":
                out = "= " + (moves.pop(0) if moves else "pass")
            elif cmd == "quit":
                print("=\n", flush=True)
                return
            else:
                out = "="
            print(out + "\n", flush=True)


if __name__ == "__main__":
    main()

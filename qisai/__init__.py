"""qisai (棋赛): Xiangqi and Go competitions under the official Chinese rules."""

__version__ = "0.1.0"

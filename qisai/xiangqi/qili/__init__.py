"""The repetition code 棋例: classify the moves of a repeated cycle, rule on
the cycle and explain the ruling in Chinese and English.

Rule text: 象棋竞赛规则 第24条 (待判局面的裁定), 棋例总纲 25-29, 棋例细则 1-13
(``docs/rules``); algorithm after ``docs/specs/qili.md``.  Where the two
disagree the code follows the rule text and says so at the spot.

The modules, by subject (each name has one import path; this package
re-exports nothing):

* :mod:`~qisai.xiangqi.qili.cycle` - the ruling on a repeated position
  (:func:`~qisai.xiangqi.qili.cycle.judge`), the moves a side may not
  play (``forbidden_moves``, UCCI ``banmoves``), ``first_ruling``;
* :mod:`~qisai.xiangqi.qili.classify` - one move's label 将/杀/捉/闲
  (28.1-28.9) with its reason, clause by clause;
* :mod:`~qisai.xiangqi.qili.verdict` - each side's cycle status (25.2) and
  the verdict table (24, 26);
* :mod:`~qisai.xiangqi.qili.rulings` - the values returned: labels, cycle
  kinds, verdicts, the ruling;
* :mod:`~qisai.xiangqi.qili.profiles` - the CXA and AXF rule sets, every
  difference a field;
* :mod:`~qisai.xiangqi.qili.threats` - what a side can win at once (the
  content of a chase, 29.1), with its kind and exclusion;
* :mod:`~qisai.xiangqi.qili.material` - piece values (25.3);
* :mod:`~qisai.xiangqi.qili.mates` - checks and mates by checks (28.1, 28.2);
* :mod:`~qisai.xiangqi.qili.pins` - the AXF rule on a rook pinned by a horse;
* :mod:`~qisai.xiangqi.qili.limits` - the natural move limit (4.2.4) and
  the audit of a claim (23.3).
"""

"""No refusal a person reads is English only (issue 32.8), read statically:

* in ``qisai/competition``, the rules cores ``qisai/xiangqi`` and
  ``qisai/go`` (and ``qisai/cli``, which raises some of them), every
  ``raise`` of a two-language error class (a subclass of
  :class:`~qisai.bilingual.BilingualError` that takes the two
  texts) gives two texts, the first Chinese; the lines of the list errors
  (a bad entries row, a manual pairing's finding, a bad bulk item) carry
  their Chinese too;
* in ``qisai/cli``, no message is printed as ``error: ...`` alone: errors
  go through :mod:`qisai.cli.say`, which prints ``错误：`` then ``error:``.

A scan that fails when such a message is added later; the checks are run
on small sources here first, so that they are seen to catch what they
are for.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import qisai.competition
import qisai.go
import qisai.xiangqi
from qisai.bilingual import BilingualError

ROOT = Path(__file__).resolve().parents[1]
HAN = re.compile(r"[\u4e00-\u9fff\u3000-\u303f\uff01-\uff5e]")
"""Chinese characters, and the full-width punctuation of a Chinese text that
is all place and inner message (``f"{source}：{exc.zh}"``)."""


def _bilingual_classes() -> set[str]:
    """The names of the error classes that take ``(zh, en)``: every
    subclass of BilingualError in qisai.competition, qisai.xiangqi and
    qisai.go whose constructor takes ``zh`` and ``en`` first (the list
    errors, and Go's illegal move, build both texts themselves)."""
    for package in (qisai.competition, qisai.xiangqi, qisai.go):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)
    out, todo = set(), [BilingualError]
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if list(inspect.signature(cls.__init__).parameters)[1:3] == ["zh", "en"]:
            out.add(cls.__name__)
    return out


def _text(node: ast.expr) -> str | None:
    """The literal text of a string or f-string (its constant parts), or
    ``None`` for another expression."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values
                       if isinstance(v, ast.Constant) and isinstance(v.value, str))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left), _text(node.right)
        return None if left is None and right is None else (left or "") + (right or "")
    return None


def _name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def english_only(source: str, classes: set[str]) -> list[str]:
    """Return ``line: what`` for every message of ``source`` that lacks its
    Chinese."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                and _name(node.exc) in classes:
            call = node.exc
            first = _text(call.args[0]) if call.args else None
            pair = isinstance(call.args[0], ast.Starred) if len(call.args) == 1 else False
            if (len(call.args) < 2 and not pair) or (first is not None and not HAN.search(first)):
                out.append(f"{node.lineno}: raise {_name(call)} without its Chinese")
        elif isinstance(node, ast.Call) and _name(node) in ("Finding", "EntryProblem") \
                and not any(k.arg == "zh" for k in node.keywords):
            out.append(f"{node.lineno}: {_name(node)} without zh=")
        elif isinstance(node, ast.Call) and _name(node) == "BilingualText" and len(node.args) < 2:
            out.append(f"{node.lineno}: BilingualText without its Chinese")
    return out


def printed_english_only(source: str) -> list[str]:
    """Return ``line: what`` for every ``echo``/``print`` of ``source`` that
    prints an ``error:`` line by itself."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _name(node) in ("echo", "print", "secho") and node.args:
            text = _text(node.args[0]) or ""
            if re.match(r"\s*(\[red\])?error:", text) or (
                    isinstance(node.args[0], ast.BinOp) and "error:" in ast.unparse(node.args[0])):
                out.append(f"{node.lineno}: {ast.unparse(node)[:80]}")
    return out


def test_the_checks_catch_an_english_only_message() -> None:
    classes = _bilingual_classes()
    assert {"ResultError", "EventStateError", "MatchError", "SimulError"} <= classes
    assert {"FenError", "IllegalMoveError", "AmbiguousMoveError", "PgnError", "XqfError",
            "CblError", "SvgError", "NotationError", "XiangqiError"} <= classes
    assert "EntriesError" not in classes  # a list error: its rows carry the Chinese
    bad = '''
def f(n):
    raise ResultError(f"round {n} is not paired")
    raise EventStateError(f"round {n} is not paired", f"round {n} is not paired")
    raise PairingError("第 1 轮", "round 1")
    Finding("error", "entries", "no entry")
    BilingualText("item 1: bad")
    raise FenError(f"FEN field {n}: bad")
    raise SgfError("bad komi", "bad komi", "KM", 0)
    raise IllegalMoveError(*board.illegal_reasons(move))
    raise AmbiguousMoveError(f"第 {n} 步", f"ply {n}", names)
'''
    assert sorted(int(line.split(":")[0]) for line in english_only(bad, classes)) == \
        [3, 4, 6, 7, 8, 9]
    echo = '''
typer.echo(f"error: round {n} is not paired", err=True)
console.print(f"[red]error:[/red] {exc}")
typer.echo(typer.style("error:", fg="red") + f" {exc}")
say.error("第 1 轮尚未编排", "round 1 is not paired")
'''
    assert [line.split(":")[0] for line in printed_english_only(echo)] == ["2", "3", "4"]


def test_no_competition_or_cli_refusal_is_english_only() -> None:
    classes = _bilingual_classes()
    found = []
    for folder in ("competition", "xiangqi", "go", "cli"):
        for path in sorted((ROOT / "qisai" / folder).rglob("*.py")):
            for problem in english_only(path.read_text(encoding="utf-8"), classes):
                found.append(f"{path.relative_to(ROOT)}:{problem}")
    assert found == []


def test_the_command_line_prints_no_english_only_error() -> None:
    found = []
    for path in sorted((ROOT / "qisai" / "cli").rglob("*.py")):
        if path.name == "say.py":
            continue  # the one place that writes the "error:" line, after the Chinese
        for problem in printed_english_only(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(ROOT)}:{problem}")
    assert found == []

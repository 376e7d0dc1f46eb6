"""Results of a round in bulk: one text, many boards (10.1: the result of
each game as the players and arbiter signed it).

An item names a game and its result, optionally the fouls (犯规, 9.2):

* by board: ``7 1-0`` (result from Red's side, as on the board);
* by the two players: ``12-7 1-0`` or ``12:7 =`` -- the result is read from
  the side of the first-named player, whatever colour he had;
* by one player (``by_player``): ``12 0-1`` -- player 12 lost;
* fouls: ``7 1-0 f=1/0`` -- in the order the item names the sides: Red's
  then Black's for a board, the first-named player's first otherwise.

Items are separated by commas, semicolons or new lines; ``#`` starts a
comment.  Every item is checked before any is recorded: one bad item
records nothing, and the error lists each bad item with its board.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from qisai.bilingual import BilingualText
from qisai.competition.errors import CompetitionError, ResultError
from qisai.competition.model import Game, Result
from qisai.competition.tournament import Tournament

_FLIP = {Result.RED_WIN: Result.BLACK_WIN, Result.BLACK_WIN: Result.RED_WIN,
         Result.DRAW: Result.DRAW, Result.RED_FORFEIT_WIN: Result.BLACK_FORFEIT_WIN,
         Result.BLACK_FORFEIT_WIN: Result.RED_FORFEIT_WIN,
         Result.DOUBLE_FORFEIT: Result.DOUBLE_FORFEIT, Result.BYE: Result.BYE}
_PAIR = re.compile(r"^(\d+)\s*[-:vV/]\s*(\d+)$")
_FOULS = re.compile(r"^(?:f|fouls)=(\d+)/(\d+)$")


def _zh(line: str) -> str:
    return line.zh if isinstance(line, BilingualText) else line


class BulkResultError(ResultError):
    """Some items of a bulk entry are wrong; :attr:`problems` has one line
    per bad item, naming it and its board.  Nothing was recorded."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__(f"{len(self.problems)} 项有误，未登记任何成绩："
                         + "；".join(_zh(p) for p in self.problems),
                         f"{len(self.problems)} bad item(s), nothing recorded: "
                         + "; ".join(self.problems))


@dataclass(frozen=True, slots=True)
class ResultItem:
    """One parsed item: the text typed, what it names (a board, two players,
    or one player), the result as written, and the fouls."""

    text: str
    board: int | None = None
    players: tuple[int, ...] = ()
    result: Result = Result.DRAW
    fouls: tuple[int, int] | None = None
    number: int = 0
    """The item's place in the text (1-based), as the error lines name it."""


def parse_items(text: str, *, by_player: bool = False) -> list[ResultItem]:
    """Parse the items of ``text`` (see the module docstring).
    With ``by_player`` a single number is a player, not a board.
    Returns the items in order.  Raises :class:`BulkResultError` listing
    every item that cannot be read (or if there is none).
    """
    items, problems = parse_items_checked(text, by_player=by_player)
    if problems:
        raise BulkResultError(problems)
    if not items:
        raise BulkResultError([BilingualText("no results given", "没有给出成绩")])
    return items


def parse_items_checked(text: str, *, by_player: bool = False
                        ) -> tuple[list[ResultItem], list[str]]:
    """Parse what can be read of ``text``: return the items read and one
    line per item that cannot be read, so that :func:`record_results` can
    report those together with the board errors of the rest (issue 33.6:
    a file's syntax errors and its board errors in one run)."""
    items: list[ResultItem] = []
    problems: list[str] = []
    chunks = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        chunks += [c.strip() for c in re.split(r"[,;，；]", line) if c.strip()]
    for k, chunk in enumerate(chunks, start=1):
        tokens = chunk.split()
        where = f"item {k} {chunk!r}"
        wzh = f"第 {k} 项 {chunk!r}"
        if len(tokens) not in (2, 3):
            problems.append(BilingualText(f"{where}: expected 'BOARD RESULT' or 'A-B RESULT'",
                                    f"{wzh}：应写作“台号 成绩”或“甲-乙 成绩”"))
            continue
        fouls = None
        if len(tokens) == 3:
            m = _FOULS.match(tokens[2].lower())
            if m is None:
                problems.append(BilingualText(f"{where}: fouls are written f=RED/BLACK, e.g. f=1/0",
                                        f"{wzh}：犯规写作 f=红/黑，如 f=1/0"))
                continue
            fouls = (int(m.group(1)), int(m.group(2)))
        try:
            res = Result.parse(tokens[1])
        except ResultError as exc:
            problems.append(BilingualText(f"{where}: {exc.en}", f"{wzh}：{exc.zh}"))
            continue
        pair = _PAIR.match(tokens[0])
        if pair is not None:
            items.append(ResultItem(chunk, None, (int(pair.group(1)), int(pair.group(2))),
                                    res, fouls, k))
        elif tokens[0].isdigit():
            if by_player:
                items.append(ResultItem(chunk, None, (int(tokens[0]),), res, fouls, k))
            else:
                items.append(ResultItem(chunk, int(tokens[0]), (), res, fouls, k))
        else:
            problems.append(BilingualText(f"{where}: {tokens[0]!r} is neither a board nor two players",
                                    f"{wzh}：{tokens[0]!r} 既不是台号也不是两名棋手"))
    return items, problems


def _item_number(line: str) -> int:
    m = re.match(r"item (\d+)", line)
    return int(m.group(1)) if m else 0


def record_results(t: Tournament, round_no: int, items: Sequence[ResultItem], *,
                   overwrite: bool = False, unread: Sequence[str] = ()) -> list[Game]:
    """Record ``items`` in round ``round_no`` of ``t``, all or none.

    Returns the stored games in item order.  Raises :class:`BulkResultError`
    naming each bad item and its board (unknown board or player, a bye, a
    board given twice, a result already entered without ``overwrite``) --
    then nothing is recorded.  ``unread`` are the lines of items that could
    not be read (:func:`parse_items_checked`): they are reported with the
    rest, in item order, and nothing is recorded.
    """
    if not 1 <= round_no <= len(t.rounds):
        raise ResultError(f"{t.name}：第 {round_no} 轮尚未编排",
                          f"{t.name}: round {round_no} has not been paired")
    rec = t.rounds[round_no - 1]
    by_board = {p.board: p for p in rec.pairings}
    by_player = {pid: p for p in rec.pairings for pid in p.players()}
    problems: list[str] = []
    resolved: list[tuple[int, Result, tuple[int, int]]] = []
    seen: dict[int, int] = {}
    for k, item in enumerate(items, start=1):
        k = item.number or k
        where = f"item {k} {item.text!r}"
        wzh = f"第 {k} 项 {item.text!r}"
        res = item.result
        if item.board is not None:
            p = by_board.get(item.board)
            if p is None:
                problems.append(BilingualText(f"{where}: round {round_no} has no board {item.board}",
                                        f"{wzh}：第 {round_no} 轮没有第 {item.board} 台"))
                continue
        else:
            first = item.players[0]
            p = by_player.get(first)
            if p is None:
                problems.append(BilingualText(f"{where}: player {first} is not paired in round {round_no}",
                                        f"{wzh}：棋手 {first} 在第 {round_no} 轮没有编排"))
                continue
            if len(item.players) == 2 and item.players[1] not in p.players():
                other = p.red if first == p.black else p.black
                problems.append(BilingualText(f"{where} (board {p.board}): {first} plays {other}, not "
                                        f"{item.players[1]}",
                                        f"{wzh}（第 {p.board} 台）：{first} 的对手是 {other}，"
                                        f"不是 {item.players[1]}"))
                continue
            if first == p.black:
                res = _FLIP[res]  # written from the first-named player's side
        where += f" (board {p.board})"
        wzh += f"（第 {p.board} 台）"
        if p.is_bye:
            problems.append(BilingualText(f"{where}: {p.red} has the bye; a bye takes no result",
                                    f"{wzh}：{p.red} 轮空；轮空不登记成绩"))
            continue
        if p.board in seen:
            problems.append(BilingualText(f"{where}: board {p.board} is also given by item {seen[p.board]}",
                                    f"{wzh}：第 {p.board} 台也出现在第 {seen[p.board]} 项"))
            continue
        seen[p.board] = k
        if p.board in rec.results and not overwrite:
            problems.append(BilingualText(f"{where}: result already entered "
                                    f"({rec.results[p.board].result.value}; use overwrite)",
                                    f"{wzh}：成绩已登记（{rec.results[p.board].result.value}；"
                                    "更正请用 overwrite）"))
            continue
        fouls = item.fouls or (0, 0)
        if item.fouls is not None and item.players and item.players[0] == p.black:
            fouls = (fouls[1], fouls[0])
        resolved.append((p.board, res, fouls))
    if problems or unread:
        raise BulkResultError(sorted([*unread, *problems], key=_item_number))
    games = []
    for board, res, (rf, bf) in resolved:
        try:
            games.append(t.record_result(round_no, board, res, red_fouls=rf, black_fouls=bf,
                                         overwrite=overwrite))
        except CompetitionError as exc:  # checked above; kept for safety
            raise BulkResultError([BilingualText(f"board {board}: {exc.en}",
                                           f"第 {board} 台：{exc.zh}")]) from None
    return games

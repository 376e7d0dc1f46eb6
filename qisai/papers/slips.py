"""记录纸: the score sheet of a game, a page each.

7.1 wants every move of both sides recorded round by round ("双方对每一回合
都要逐着记录"; four moves missed in a row are a foul), in the form of 7.5: a
column 回合 and the moves of 红方 and 黑方 (完整 ``炮二平五 马8进7`` or 简写
``炮25 马87``).  The sheet therefore has a grid of numbered rounds, each
with room for both moves and the time used after them (the clock of 6.x),
then the result, the time used and the fouls of both sides, and the
signatures of both players and the arbiter (10.1: 双方棋手和裁判当场签字认可).

A knock-out match gets a sheet for each game it may still need (one game;
two games, 13.5; best of three, 000 clause 6; the 2021 league's slow and
rapid games and the decider, whose colours are chosen later), each with
its colours; a 2021-league team board a sheet for its next game.
"""

from __future__ import annotations

from dataclasses import dataclass

from qisai.competition.events.file import EventFile
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.team_event import TeamEvent
from qisai.competition.events.views import BoardRow, round_count, round_rows
from qisai.papers.pdf import Document, FontSpec, Frame, Label, PapersError

__all__ = ["GRID_ROUNDS", "ROW_HEIGHT", "Sheet", "foot", "move_grid", "sheets", "slips"]

GRID_ROUNDS = 60
"""Rounds (回合) of the grid on the front of a sheet: two columns of 30."""

_KIND = {"slow": "慢棋", "rapid": "超快棋", "decider": "附加赛", "extra": "加赛"}
_GAMES = {"single": 1, "two_games": 2, "best_of_three": 3, "league_2021": 3}


@dataclass(frozen=True, slots=True)
class Sheet:
    """One game to record: its board label, the game's label (``第2局``,
    empty for a one-game board), and both sides as ``(number, name,
    club)``; ``colours_open`` when the colours are chosen later (the 2021
    decider)."""

    board: str
    game: str
    red: tuple[str, str, str]
    black: tuple[str, str, str]
    colours_open: bool = False


def _side(no: int | None, name: str, club: str) -> tuple[str, str, str]:
    return ("" if no is None else str(no), name, club)


def sheets(ef: EventFile, round_no: int) -> list[Sheet]:
    """The games of round ``round_no`` to print a sheet for (byes have
    none; a decided knock-out match none)."""
    ev = ef.event
    out: list[Sheet] = []
    rows = [b for b in round_rows(ef, round_no) if not b.is_bye]
    if isinstance(ev, KnockoutEvent):
        for b in rows:
            if b.pending:
                out.extend(_ko_sheets(ev, round_no, b))
        return out
    for b in rows:
        game = ""
        if isinstance(ev, TeamEvent) and ev.series == "league_2021":
            m_text, bd_text = b.board.split(".")
            r_, m_, bd = round_no, int(m_text), int(bd_text)
            nxt = ev.next_board_game(r_, m_, bd)
            if nxt is None and not ev.awaiting_choice(r_, m_, bd):
                continue  # decided
            kind = nxt["kind"] if nxt else "decider"
            game = _KIND[kind] + (f"（{nxt['time']}）" if nxt and nxt.get("time") else "")
            if nxt is not None and nxt["red"] != b.red_name:  # the rapid game: 换先
                out.append(Sheet(b.board, game, _side(b.black_no, b.black_name, b.black_club),
                                 _side(b.red_no, b.red_name, b.red_club)))
                continue
            if nxt is None:
                out.append(Sheet(b.board, game, _side(b.red_no, b.red_name, b.red_club),
                                 _side(b.black_no, b.black_name, b.black_club), True))
                continue
        out.append(Sheet(b.board, game, _side(b.red_no, b.red_name, b.red_club),
                         _side(b.black_no, b.black_name, b.black_club)))
    return out


def _ko_sheets(ev: KnockoutEvent, round_no: int, b: BoardRow) -> list[Sheet]:
    """The sheets of an open knock-out match: its next game in the colours
    shown, then the regular games after it, colours alternating (13.5:
    互换先后走; 三局两胜 alternates; the 2021 rapid game swaps and its
    decider is chosen)."""
    index = int(b.board) - 1
    s = ev.series(round_no, index)
    assert s is not None
    nxt = ev.next_game(round_no, index)
    a = _side(b.red_no, b.red_name, b.red_club)
    c = _side(b.black_no, b.black_name, b.black_club)
    if nxt is None:  # the 2021 decider waits for its colour choice
        return [Sheet(b.board, "第3局（附加赛）", a, c, True)]
    out = []
    last = _GAMES.get(ev.series_format, 1)
    for number in range(nxt.number, max(last, nxt.number) + 1):
        kind = nxt.kind if number == nxt.number else (
            {2: "rapid", 3: "decider"}[number] if ev.series_format == "league_2021" else "")
        label = f"第{number}局" + (f"（{_KIND[kind]}）" if kind in _KIND else "")
        if last == 1 and number == 1:
            label = ""
        swapped = (number - nxt.number) % 2 == 1
        out.append(Sheet(b.board, label, c if swapped else a, a if swapped else c,
                         kind == "decider" and number != nxt.number))
    return out


def slips(ef: EventFile, round_no: int | None = None,
          font: FontSpec | None = None) -> Document:
    """记录纸 of round ``round_no`` (default: the last paired): a page a
    game, with the 7.1/7.5 grid.  Raises :class:`PapersError` for a round
    not paired."""
    n = round_count(ef)
    r = round_no or n
    if not 1 <= r <= n:
        raise PapersError(f"{ef.header.name}: round {r} is not paired ({n} paired)")
    doc = Document(ef.header, f"第{r}轮 记录纸", font=font)
    first, second = ef.header.colour_names
    todo = sheets(ef, r)
    grid, under = move_grid(doc, first, second), foot(doc, first, second)
    for sheet in todo:
        _draw(doc, r, sheet, first, second, grid, under)
    if not todo:
        doc.new_page()
        doc.text(f"第{r}轮没有需要登记的对局。")
    return doc


ROW_HEIGHT = 5.6
"""Height (mm) of a row of the move grid."""


def move_grid(doc: Document, first: str, second: str) -> Frame:
    """The move grid of 7.1/7.5 on a sheet of ``doc``, laid out once for
    every sheet: two columns of :data:`GRID_ROUNDS` // 2 rounds, each
    回合 | ``first``方 | 用时 | ``second``方 | 用时 under a shaded header row,
    the rounds numbered 1..:data:`GRID_ROUNDS` down the first column, then
    the second."""
    per_col = GRID_ROUNDS // 2
    col_w = doc.width / 2
    widths = [col_w * f for f in (0.12, 0.30, 0.14, 0.30, 0.14)] * 2
    xs = [0.0]
    for w in widths:
        xs.append(xs[-1] + w)
    ys = [k * ROW_HEIGHT for k in range(per_col + 2)]
    heads = ("回合", f"{first}方", "用时", f"{second}方", "用时") * 2
    labels: list[Label] = [(xs[j], 0.0, widths[j], ROW_HEIGHT, h, 9, True)
                           for j, h in enumerate(heads)]
    for c in range(2):
        labels.extend((xs[5 * c], ys[k + 1], widths[5 * c], ROW_HEIGHT,
                       str(c * per_col + k + 1), 8.5, False) for k in range(per_col))
    return doc.frame(labels, xs=xs, ys=ys, shaded=[(0.0, ROW_HEIGHT)])


def foot(doc: Document, first: str, second: str) -> Frame:
    """What a sheet has under its grid, the same on every sheet: how to
    record (7.5, 7.1), the result's boxes, the time used and the fouls of
    both sides, the signatures of both players and the arbiter and 10.1."""
    w, half, third = doc.width, doc.width / 2, doc.width / 3
    labels: list[Label] = [
        (0, 0, w, 4.5, "7.5 记录示例：完整 1 炮二平五 马8进7；简写 1 炮25 马87。"
                       "用时：走完该着后棋钟所示本方已用时间。续记另页。", 8, False),
        (0, 4.5, w, 4.5, "7.1 双方对每一回合都要逐着记录；每连续漏记4着，判犯规一次。", 8, False),
        (0, 11, w, 7, f"结果：  □ {first}胜 (1-0)     □ 和棋 (=)     "
                      f"□ {second}胜 (0-1)     □ 弃权 ________", 11, False),
        (0, 18, half, 7, f"用时  {first}方：________    {second}方：________", 11, False),
        (half, 18, half, 7, f"犯规  {first}方：______    {second}方：______", 11, False)]
    labels.extend((k * third, 28, third, 7, f"{label}：____________", 11, False)
                  for k, label in enumerate((f"{first}方签字", f"{second}方签字", "裁判签字")))
    labels.append((0, 36, w, 5, "10.1 对局终了后，在记录纸上记录比赛结果及双方所用时间、犯规情况，"
                                "双方棋手和裁判当场签字认可。", 7.5, False))
    return doc.frame(labels, align="L")


def _draw(doc: Document, r: int, sheet: Sheet, first: str, second: str,
          grid: Frame, under: Frame) -> None:
    doc.new_page()
    pdf = doc.pdf
    x0 = doc.MARGIN
    # the heading: left-aligned lines placed where cells would put them (a
    # page a game; a cell costs ten placed texts)
    title = f"第{r}轮   第 {sheet.board} 台" + (f"   {sheet.game}" if sheet.game else "")
    half = doc.width / 2
    labels: list[Label] = [(0.0, 0.0, doc.width, 7.0, title, 12.0, True)]
    if sheet.colours_open:
        labels += [(0.0, 7.0, doc.width, 6.0, "先后手由超快棋执黑的一方选择（001）：" + "  /  ".join(
                        f"{no} {name} {club}".strip() for no, name, club in (sheet.red, sheet.black)),
                    10.5, False),
                   (0.0, 13.0, half, 6.0, f"{first}方：________________", 10.5, False),
                   (half, 13.0, half, 6.0, f"{second}方：________________", 10.5, False)]
    else:
        labels += [(0.0, 7.0, half, 6.0, f"{first}方：" + " ".join(x for x in sheet.red if x),
                    10.5, False),
                   (half, 7.0, half, 6.0, f"{second}方：" + " ".join(x for x in sheet.black if x),
                    10.5, False)]
    heading = doc.frame(labels, align="L")
    top = float(pdf.get_y())
    doc.draw_frame(heading, x0, top)
    top += heading.height + 1
    pdf.set_xy(x0, top)
    # the grid (7.1, 7.5), the same frame on every page (laid out once)
    doc.draw_frame(grid, x0, top)
    doc.draw_frame(under, x0, top + grid.height + 2)

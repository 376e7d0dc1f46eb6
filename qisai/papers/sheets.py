"""The papers of an event, each drawn on a :class:`~qisai.papers.pdf.Document`.

* :func:`pairings` — 对阵表 of a round: board numbers, both sides with their
  numbers, clubs and scores before the round, colours as the game names them
  (红/黑, Go 黑/白), results entered so far, byes;
* :func:`standings` — 成绩册: places (shared places ``3=``), points (场分 and
  局分 for teams) and every tie-break column, penalties (18.4), signature
  lines of the chief arbiter;
* :func:`crosstable` — the Swiss (or round robin) crosstable: per round the
  opponent, the colour and the result, byes shown;
* :func:`lineups` — team line-up forms (出场名单) for a round, with the
  registered roster and the line-up rule of the event (12.1-12.3);
* :func:`bracket` — the knock-out bracket as a picture.
"""

from __future__ import annotations

from qisai.competition.events.file import EventFile
from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.team_event import TeamEvent
from qisai.competition.events.views import (
    BoardRow,
    bracket_rounds,
    crosstable_table,
    group_crosstables,
    group_tables,
    result_text,
    round_count,
    round_rows,
    standings_table,
)
from qisai.competition.teams import board_colour
from qisai.papers.pdf import Document, FontSpec, PapersError

__all__ = ["bracket", "crosstable", "lineups", "pairings", "standings"]

_LINEUP_RULE = {
    "fixed": "12.1 分台定人制：按报名台次出场。",
    "substitutes": "12.2 分台换人制：可用替补，台次顺序不能前后颠倒。",
    "free": "12.3 临时定台制：赛前临时排定台次。",
}


def _round(ef: EventFile, round_no: int | None) -> int:
    n = round_count(ef)
    r = round_no or n
    if not 1 <= r <= n:
        raise PapersError(f"{ef.header.name}: round {r} is not paired ({n} paired)")
    return r


def pairings(ef: EventFile, round_no: int | None = None,
             font: FontSpec | None = None) -> Document:
    """对阵表 of round ``round_no`` (default: the last paired).
    Raises :class:`PapersError` for a round not paired."""
    r = _round(ef, round_no)
    rows = round_rows(ef, r)
    first, second = ef.header.colour_names
    doc = Document(ef.header, f"第{r}轮 对阵表", font=font)
    doc.new_page()
    ev = ef.event
    if isinstance(ev, TeamEvent):
        head = ["台次", f"{first}方队", f"{first}方", "结果", f"{second}方", f"{second}方队"]
        body = [[b.board, b.red_club, b.red_name, result_text(b.result), b.black_name,
                 b.black_club] if not b.is_bye else [b.board, b.red_name, "轮空", "", "", ""]
                for b in rows]
    elif isinstance(ev, KnockoutEvent):
        head = ["场次", "编号", f"{first}方", "单位", "编号", f"{second}方", "单位", "比分",
                "备注"]
        body = [_ko_row(b) for b in rows]
    else:
        head = ["台次", "编号", f"{first}方", "单位", "积分", "结果", "积分", f"{second}方",
                "单位", "编号"]
        body = [_board_row(b) for b in rows]
    doc.table(head, body, shade=[b.is_bye for b in rows])
    doc.pdf.ln(4)
    if isinstance(ev, TeamEvent):
        rule = f"各场列前的队单数台执{first}、双数台执{second}（13.2、13.3）"
    elif isinstance(ev, KnockoutEvent):
        rule = (f"未决出的对局按下一局的先后列出（备注注明第几局），已决出的按首局先后列出；首局列前者执"
                f"{first}（13.4 猜先；抽牌制抽到红牌者执红），其后各局按赛制交换先后；比分按列出顺序")
    else:
        rule = f"每台列前者执{first}先行（13.1、13.3）"
    doc.text(f"{rule}。结果：1-0 {first}胜，0-1 {second}胜，= 和棋，+ - / - + 弃权（21.4）。", 9)
    return doc


def _board_row(b: BoardRow) -> list[str]:
    if b.is_bye:
        return [b.board, str(b.red_no), b.red_name, b.red_club, b.red_score, "轮空", "", "",
                "", ""]
    return [b.board, str(b.red_no), b.red_name, b.red_club, b.red_score,
            result_text(b.result), b.black_score, b.black_name, b.black_club, str(b.black_no)]


def _ko_row(b: BoardRow) -> list[str]:
    if b.is_bye:
        return [b.board, str(b.red_no), b.red_name, b.red_club, "", "轮空", "", "", b.note]
    return [b.board, str(b.red_no), b.red_name, b.red_club, str(b.black_no), b.black_name,
            b.black_club, b.result, b.note]


def standings(ef: EventFile, round_no: int | None = None,
             font: FontSpec | None = None) -> Document:
    """成绩册: the standings with every tie-break column."""
    table = standings_table(ef)
    n = round_count(ef)
    title = "最终成绩" if ef.event.finished else f"第{n}轮后 成绩"
    groups = group_tables(ef) if isinstance(ef.event, GroupEvent) else []
    wide = max([len(table.header)] + [len(g.header) for g in groups]) > 11
    doc = Document(ef.header, f"{title}（成绩册）", landscape=wide, font=font)
    doc.new_page()
    for g in groups:  # 11.3: every group's table (and the final's)
        doc.text(g.title.removeprefix(ef.header.name).strip(), 11, bold=True)
        doc.table(g.header, g.rows)
        doc.pdf.ln(4)
    if groups and table.rows:
        doc.text("总名次", 11, bold=True)
    if table.rows or not groups:
        doc.table(table.header, table.rows)
    doc.pdf.ln(3)
    if table.note:  # which reading ranks a 12.4 match (总局分 or 场分)
        doc.text(table.note, 9)
    for group in ef.ties(1):
        doc.text("15.6：" + "、".join(ef.entry_name(e) for e in group) + " 并列第一，须加赛。", 9)
    if ef.penalties:
        doc.text("18.4：积分相同时，受处分者按轻重程度和次数列后。", 9)
    doc.pdf.ln(6)
    doc.signatures(["裁判长", "编排记录", "日期"])
    return doc


def ratings(ef: EventFile, round_no: int | None = None,
             font: FontSpec | None = None) -> Document:
    """等级分变化表: each rated player's rating before, rated games, score,
    expected score, change and rating after, over rounds 1..``round_no``
    (default: every round played) by the project's Elo
    (:mod:`qisai.competition.events.ratings`)."""
    from qisai.competition.events.ratings import rating_table

    n = round_count(ef)
    through = round_no if round_no is not None else n
    table = rating_table(ef, through)
    final = ef.event.finished and through >= n
    title = "赛后等级分变化" if final else f"第{through}轮后 等级分变化"
    doc = Document(ef.header, title, landscape=False, font=font)
    doc.new_page()
    doc.table(table.header, table.rows)
    doc.pdf.ln(3)
    doc.text("按赛前等级分计算：变化 = K ×（得分 − 期望得分），期望得分 = 1 / (1 + 10^((对手 − 本人) / 400))；"
             "K = 20。弃权、轮空不计；无等级分者及其对局不计。", 8)
    return doc


def crosstable(ef: EventFile, round_no: int | None = None,
             font: FontSpec | None = None) -> Document:
    """The crosstable: per round the opponent, colour and result
    (``12红1``), byes (轮空) and rounds not played (—)."""
    tables = group_crosstables(ef) if isinstance(ef.event, GroupEvent) \
        else [crosstable_table(ef)]
    widest = max(len(t.header) for t in tables)
    doc = Document(ef.header, "交叉表 (成绩总表)", landscape=widest > 9, font=font)
    doc.new_page()
    size = 9 if widest <= 14 else 7
    for table in tables:
        if len(tables) > 1:  # 11.3: a crosstable a group, then the final's
            doc.text(table.title.removeprefix(ef.header.name).strip(), 11, bold=True)
        doc.table(table.header, table.rows, size=size, height=6.5)
        doc.pdf.ln(3)
    first, second = ef.header.colour_names
    notes = {t.note for t in tables if t.note}
    if notes:  # a team crosstable says how its cells read
        for note in sorted(notes):
            doc.text(note, 8)
    else:
        doc.text(f"格式：对手编号 + 执色（{first}/{second}） + 结果（1 胜，= 和，0 负，+ 对方弃权，"
                 "- 弃权，注销 = 成绩注销 20.3）；轮空 = 本轮轮空。", 8)
    return doc


def lineups(ef: EventFile, round_no: int | None = None,
             font: FontSpec | None = None) -> Document:
    """Team line-up forms (出场名单) of a round: per team of every match,
    its boards with the line-up entered (or blanks), its registered roster
    and the line-up rule.  Raises :class:`PapersError` for another kind."""
    ev = ef.event
    if not isinstance(ev, TeamEvent):
        raise PapersError(f"{ef.header.name}: line-up forms belong to team events")
    r = _round(ef, round_no)
    tt = ev.team_tournament()
    doc = Document(ef.header, f"第{r}轮 出场名单", font=font)
    first, second = ef.header.colour_names
    forms = []
    for m in tt.rounds[r - 1]:
        if m.black_team is None:
            continue
        state = ev.matches.get(f"{r}:{m.board}", {})
        lus = state.get("lineups")
        default = [tt.team(m.red_team).roster[: ev.boards],
                   tt.team(m.black_team).roster[: ev.boards]]
        if ev.lineup_mode.value != "fixed" and not state.get("results") and not m.results \
                and lus == default:
            lus = None  # not set yet: the team writes it in
        for side, tid, other in ((0, m.red_team, m.black_team), (1, m.black_team, m.red_team)):
            forms.append((m.board, side, tid, other, None if lus is None else lus[side]))
    pdf = doc.pdf
    for k, (match, side, tid, other, lu) in enumerate(forms):
        if k % 2 == 0:
            doc.new_page()
        else:
            pdf.ln(8)
        team, opp = tt.team(tid), tt.team(other)
        doc.text(f"第{match}场  {team.name}  对  {opp.name}   "
                 f"（{'先行队：单数台执' + first if side == 0 else '后行队：单数台执' + second}）",
                 11, bold=True)
        body = []
        for b in range(1, ev.boards + 1):
            colour = board_colour(b, side == 0)
            body.append([f"第{b}台", ef.header.colour(colour), lu[b - 1] if lu else "", ""])
        doc.table(["台次", "执色", "棋手姓名", "备注"], body, height=8,
                  widths=[doc.width * f for f in (0.15, 0.15, 0.45, 0.25)])
        doc.text("报名名单（台次顺序）：" + "、".join(f"{i}.{n}" for i, n in
                                        enumerate(team.roster, start=1)), 9)
        doc.text(_LINEUP_RULE[ev.lineup_mode.value], 9)
        doc.signatures(["领队签字", "裁判签字"])
    if not forms:
        doc.new_page()
        doc.text(f"第{r}轮没有团体对抗。")
    return doc


def bracket(ef: EventFile, round_no: int | None = None,
             font: FontSpec | None = None) -> Document:
    """The knock-out bracket: a column a round, a box a match (upper and
    lower entry, the winner's side in bold), lines to the next round's
    match; rounds not yet paired are empty boxes.  Raises
    :class:`PapersError` for another kind."""
    if not isinstance(ef.event, KnockoutEvent):
        raise PapersError(f"{ef.header.name}: only a knock-out event has a bracket")
    rounds = bracket_rounds(ef)
    doc = Document(ef.header, "淘汰赛 对阵图", landscape=True, font=font)
    doc.new_page()
    pdf = doc.pdf
    top = pdf.get_y() + 6
    height = doc.bottom - top - 4
    cols = len(rounds) + 1
    col_w = doc.width / cols
    box_w = col_w * 0.82
    tree = not ef.event.double and ef.event.draw == "bracket"
    first_n = max(len(rounds[0]), 1) if rounds else 1
    unit = height / first_n
    size = max(5.0, min(9.0, unit * 0.9))
    line_h = min(6.0, unit / 2.2)
    centres: list[list[float]] = []
    for r, rnd in enumerate(rounds):
        x = doc.MARGIN + r * col_w
        pdf.set_font("cjk", "B", 9)
        pdf.set_xy(x, top - 6)
        pdf.cell(box_w, 5, _round_name(r, len(rounds), tree), align="C")
        mids = []
        for k, (a, b, w) in enumerate(rnd):
            if tree and r > 0 and len(centres[r - 1]) >= 2 * k + 2:
                mid = (centres[r - 1][2 * k] + centres[r - 1][2 * k + 1]) / 2
            else:
                mid = top + (k + 0.5) * (height / max(len(rnd), 1))
            mids.append(mid)
            y = mid - line_h
            pdf.rect(x, y, box_w, 2 * line_h)
            pdf.line(x, mid, x + box_w, mid)
            for j, name in enumerate((a, b)):
                won = bool(w) and name == w
                pdf.set_font("cjk", "B" if won else "", size)
                pdf.set_xy(x + 1, y + j * line_h)
                pdf.cell(box_w - 2, line_h, name, align="L")
            if tree and r > 0 and len(centres[r - 1]) >= 2 * k + 2:
                px = x - (col_w - box_w)
                for m in (centres[r - 1][2 * k], centres[r - 1][2 * k + 1]):
                    pdf.line(px, m, px + (col_w - box_w) / 2, m)
                    pdf.line(px + (col_w - box_w) / 2, m, px + (col_w - box_w) / 2, mid)
                pdf.line(px + (col_w - box_w) / 2, mid, x, mid)
        centres.append(mids)
    ko = ef.event.ko
    champion = ko.champion if ko is not None else None
    x = doc.MARGIN + len(rounds) * col_w
    pdf.set_font("cjk", "B", 9)
    pdf.set_xy(x, top - 6)
    pdf.cell(box_w, 5, "冠军", align="C")
    mid = centres[-1][0] if centres and centres[-1] else top + height / 2
    pdf.rect(x, mid - line_h, box_w, 2 * line_h)
    if centres and centres[-1]:
        pdf.line(x - (col_w - box_w), mid, x, mid)
    if champion is not None:
        pdf.set_font("cjk", "B", size + 1)
        pdf.set_xy(x + 1, mid - line_h / 2)
        pdf.cell(box_w - 2, line_h, f"{champion} {ef.event.player(champion).name}", align="C")
    pdf.set_font("cjk", "", 10)
    return doc


def _round_name(r: int, total: int, tree: bool) -> str:
    if tree:
        left = total - r
        return {1: "决赛", 2: "半决赛", 3: "四分之一决赛"}.get(left, f"第{r + 1}轮")
    return f"第{r + 1}轮"

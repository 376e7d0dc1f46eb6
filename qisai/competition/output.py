"""Pairings, standings and crosstables as text, CSV, JSON and HTML.

Each function takes a :class:`~qisai.competition.tournament.Tournament` and
returns a string (or, for JSON, a JSON-ready object); nothing here touches
files.  Shared places (名次并列) print as ``3=``.
"""

from __future__ import annotations

import csv
import html
import io
from typing import Any

from qisai.competition.errors import CompetitionError
from qisai.competition.tiebreaks import Criterion, Standing
from qisai.competition.tournament import Tournament


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, tuple):
        return "/".join(_fmt(x) for x in v)
    return str(v)


def _place(s: Standing) -> str:
    return f"{s.rank}=" if s.shared else str(s.rank)


def pairings_text(t: Tournament, round_no: int) -> str:
    """Return round ``round_no`` as lines ``board  red  -  black  result``.

    Raises :class:`CompetitionError` if the round is not paired.
    """
    if not 1 <= round_no <= len(t.rounds):
        raise CompetitionError(f"{t.name}：第 {round_no} 轮尚未编排",
                               f"{t.name}: round {round_no} has not been paired")
    rec = t.rounds[round_no - 1]
    lines = [f"{t.name} — round {round_no}"]
    for p in rec.pairings:
        red = t.player(p.red)
        if p.black is None:
            lines.append(f"{p.board:3d}  {red.id:3d} {red.name}  —  bye (轮空)")
            continue
        black = t.player(p.black)
        g = rec.results.get(p.board)
        res = g.result.value if g else ""
        lines.append(f"{p.board:3d}  {red.id:3d} {red.name}  -  {black.id:3d} {black.name}  {res}")
    return "\n".join(lines) + "\n"


def pairings_rows(t: Tournament, round_no: int) -> list[dict[str, Any]]:
    """Return round ``round_no`` as dicts: board, red and black (number and
    name; black None for the bye) and the result (None until entered).

    Raises :class:`CompetitionError` if the round is not paired.
    """
    if not 1 <= round_no <= len(t.rounds):
        raise CompetitionError(f"{t.name}：第 {round_no} 轮尚未编排",
                               f"{t.name}: round {round_no} has not been paired")
    rec = t.rounds[round_no - 1]
    rows = []
    for p in rec.pairings:
        g = rec.results.get(p.board)
        rows.append({"round": round_no, "board": p.board, "red": p.red,
                     "red_name": t.player(p.red).name, "black": p.black,
                     "black_name": None if p.black is None else t.player(p.black).name,
                     "result": None if g is None else g.result.value})
    return rows


def pairings_csv(t: Tournament, round_no: int) -> str:
    """Return round ``round_no`` as CSV (empty cells for the bye and missing
    results)."""
    rows = pairings_rows(t, round_no)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(rows[0]) if rows else ["round"],
                       lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def pairings_html(t: Tournament, round_no: int) -> str:
    """Return round ``round_no`` as an HTML table (escaped)."""
    out = [f"<table class=\"pairings\"><caption>{html.escape(t.name)} — "
           f"round {round_no}</caption><thead><tr><th>台</th><th>红方</th><th>黑方</th>"
           "<th>结果</th></tr></thead><tbody>"]
    for r in pairings_rows(t, round_no):
        black = "轮空 (bye)" if r["black"] is None else f"{r['black']} {r['black_name']}"
        cells = [str(r["board"]), f"{r['red']} {r['red_name']}", black, r["result"] or ""]
        out.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out) + "\n"


def _columns(t: Tournament) -> list[Criterion]:
    return list(t.tiebreaks)


def standings_rows(t: Tournament) -> list[dict[str, Any]]:
    """Return the standings as dicts: place, number, name, rating, points and
    one key per tie-break (its English key)."""
    rows = []
    for s in t.standings():
        p = t.player(s.entry)
        row: dict[str, Any] = {"place": s.rank, "shared": s.shared, "number": p.id,
                               "name": p.name, "rating": p.rating, "points": s.points,
                               "withdrawn_after": p.withdrawn_after}
        for c in _columns(t):
            v = s.values.get(c)
            row[c.value] = list(v) if isinstance(v, tuple) else v
        rows.append(row)
    return rows


def _withdrawn(t: Tournament, pid: int) -> str:
    """``第3轮后退出`` for an entry that withdrew (20.3/20.4), else empty."""
    w = t.player(pid).withdrawn_after
    return "" if w is None else f"第{w}轮后退出"


def standings_text(t: Tournament) -> str:
    """Return the standings as an aligned text table with Chinese headers;
    a 备注 column names the round after which an entry withdrew (20.3,
    20.4) when one did."""
    cols = _columns(t)
    gone = any(p.withdrawn_after is not None for p in t.players)
    head = ["名次", "编号", "姓名", "积分"] + [c.chinese for c in cols] + (["备注"] if gone else [])
    body = []
    for s in t.standings():
        p = t.player(s.entry)
        body.append([_place(s), str(p.id), p.name, _fmt(s.points)]
                    + ["" if s.values.get(c) is None else _fmt(s.values[c]) for c in cols]
                    + ([_withdrawn(t, p.id)] if gone else []))
    widths = [max(_w(r[i]) for r in [head] + body) for i in range(len(head))]
    lines = ["  ".join(_pad(x, w) for x, w in zip(r, widths, strict=True)).rstrip()
             for r in [head] + body]
    return "\n".join(lines) + "\n"


def _w(s: str) -> int:
    # East Asian wide characters take two columns
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in s)


def _pad(s: str, width: int) -> str:
    return s + " " * (width - _w(s))


def standings_csv(t: Tournament) -> str:
    """Return the standings as CSV (English keys in the header)."""
    rows = standings_rows(t)
    buf = io.StringIO()
    fields = ["place", "shared", "number", "name", "rating", "points", "withdrawn_after"] + [
        c.value for c in _columns(t)]
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: _fmt(tuple(v)) if isinstance(v, list) else "" if v is None else v
                    for k, v in r.items()})
    return buf.getvalue()


def standings_json(t: Tournament) -> dict[str, Any]:
    """Return the standings and the tie-break names as a JSON-ready dict."""
    return {"event": t.name, "round": t.current_round,
            "tiebreaks": [{"key": c.value, "name": c.chinese} for c in _columns(t)],
            "standings": standings_rows(t)}


def standings_html(t: Tournament) -> str:
    """Return the standings as an HTML table (escaped)."""
    cols = _columns(t)
    out = [f"<table class=\"standings\"><caption>{html.escape(t.name)}</caption>",
           "<thead><tr><th>名次</th><th>编号</th><th>姓名</th><th>积分</th>"
           + "".join(f"<th title=\"{c.value}\">{c.chinese}</th>" for c in cols)
           + "</tr></thead><tbody>"]
    for s in t.standings():
        p = t.player(s.entry)
        cells = [_place(s), str(p.id), p.name, _fmt(s.points)] + [
            "" if s.values.get(c) is None else _fmt(s.values[c]) for c in cols]
        out.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out) + "\n"


def crosstable_grid(t: Tournament) -> list[list[str]]:
    """Return the crosstable as rows: number, name, one cell per opponent
    number (``x`` on the diagonal), points."""
    marks = t.crosstable()
    games = t.games()
    totals = {p.id: 0.0 for p in t.players}
    for g in games:
        for pid in (g.red, g.black):
            if pid is not None and pid in totals:
                totals[pid] += t.scoring.game_points(g, pid)
    n = len(t.players)
    rows = [["#", "name"] + [str(k) for k in range(1, n + 1)] + ["points"]]
    for p in t.players:
        cells = []
        for q in range(1, n + 1):
            cells.append("x" if q == p.id else "".join(marks[p.id].get(q, [])))
        rows.append([str(p.id), p.name] + cells + [_fmt(totals[p.id])])
    return rows


def crosstable_text(t: Tournament) -> str:
    """Return the crosstable as aligned text."""
    rows = crosstable_grid(t)
    widths = [max(_w(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(_pad(x, w) for x, w in zip(r, widths, strict=True)).rstrip()
                     for r in rows) + "\n"


def crosstable_csv(t: Tournament) -> str:
    """Return the crosstable as CSV."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(crosstable_grid(t))
    return buf.getvalue()


def crosstable_html(t: Tournament) -> str:
    """Return the crosstable as an HTML table (escaped)."""
    rows = crosstable_grid(t)
    out = ["<table class=\"crosstable\"><thead><tr>"
           + "".join(f"<th>{html.escape(c)}</th>" for c in rows[0]) + "</tr></thead><tbody>"]
    for r in rows[1:]:
        out.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out) + "\n"


def tournament_trf(t: Tournament, columns: str = "chars") -> str:
    """Return the event as TRF-16 (see :func:`qisai.competition.trf.export_trf`),
    the rank column holding the places of the standings (clause 15).

    Raises :class:`qisai.competition.trf.TrfError` where TRF cannot express it.
    """
    from qisai.competition.trf import export_trf

    ranks = {s.entry: s.rank for s in t.standings()}
    return export_trf(t.name, [(p.id, p.name, p.rating) for p in t.players],
                      t.games(annul=False), t.scoring, t.rounds_planned or t.current_round,
                      ranks=ranks, columns=columns)

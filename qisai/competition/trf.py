"""FIDE TRF-16 read and write, for the part of an event TRF can express.

TRF has one result code per game (``1``, ``=``, ``0``, ``+``, ``-``, byes
``U``/``H``/``Z``/``F``) and points per result, so it cannot hold a draw worth
different points to Red and Black (2007 trial), fouls (犯规), or team 场分/局分.
:func:`export_trf` refuses such events with :class:`TrfError` rather than
writing something wrong.  White is written for Red.

Columns and multi-byte names.  The spec (TRF-16, TRF-2026: 001 positions
5-8 number, 15-47 name, 49-52 rating, 81-84 points, 86-89 rank, round 1 at
92-99, 10 positions a round) gives positions but no character encoding.
bbpPairings decodes the file as UTF-8 and counts positions in Unicode code
points (``std::u32string`` lines in ``src/fileformats/trf.cpp``), so the
default here pads names in characters (``columns="chars"``); a reader that
counts bytes gets ``columns="bytes"``, where names are padded so that every
later field stands at its position counted in UTF-8 bytes.  Names are cut
on a character boundary.  :func:`parse_trf` reads either layout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from qisai.competition.errors import EventFileError
from qisai.competition.model import Colour, Game, Result
from qisai.competition.pairing.swiss import SwissPlayer
from qisai.competition.scoring import ScoringTable


class TrfError(EventFileError):
    """A TRF file cannot be read, or an event cannot be written as TRF."""


@dataclass(slots=True)
class TrfPlayer:
    """A TRF ``001`` line."""

    number: int
    name: str
    rating: int
    points: float
    rank: int
    rounds: list[tuple[int | None, str, str]] = field(default_factory=list)
    """(opponent or None, colour 'w'/'b'/'-', result code) per round"""


@dataclass(slots=True)
class TrfTournament:
    """The players and header lines of a TRF file."""

    name: str
    players: dict[int, TrfPlayer]
    rounds: int

    def games(self) -> list[Game]:
        """Return the games (each once, White as Red) and byes.

        Half-point and zero-point byes (``H``, ``Z``) and absences are not
        games and are left out; a pairing-allocated bye ``U`` or a full-point
        bye ``F`` is a :attr:`Result.BYE`.
        Raises :class:`TrfError` when two lines disagree about a game.
        """
        out: list[Game] = []
        for p in self.players.values():
            for r, (opp, colour, code) in enumerate(p.rounds, start=1):
                if opp is None:
                    if code in ("U", "F"):
                        out.append(Game(r, p.number, None, Result.BYE))
                    continue
                if colour != "w":
                    continue
                other = self.players.get(opp)
                if other is None or len(other.rounds) < r or other.rounds[r - 1][0] != p.number:
                    raise TrfError(f"第 {r} 轮：棋手 {p.number} 对 {opp}，但 {opp} 的行不一致",
                                   f"round {r}: player {p.number} meets {opp}, "
                                   f"but {opp}'s line disagrees")
                res = {"1": Result.RED_WIN, "=": Result.DRAW, "0": Result.BLACK_WIN,
                       "W": Result.RED_WIN, "D": Result.DRAW, "L": Result.BLACK_WIN,
                       "+": Result.RED_FORFEIT_WIN, "-": Result.BLACK_FORFEIT_WIN}.get(code)
                if res is None:
                    raise TrfError(f"第 {r} 轮：棋手 {p.number}：未知成绩 {code!r}",
                                   f"round {r}: player {p.number}: unknown result {code!r}")
                if code == "-" and other.rounds[r - 1][2] == "-":
                    res = Result.DOUBLE_FORFEIT
                out.append(Game(r, p.number, opp, res))
        out.sort(key=lambda g: (g.round, g.red))
        return out


    def swiss_players(self, rounds: int) -> list[SwissPlayer]:
        """Return the pairer's view of every player after ``rounds`` rounds
        (1/0.5/0 points; a player whose line has an entry for round
        ``rounds + 1`` that is a ``Z``/``H``/``F`` bye is absent and left out).
        """
        out = []
        for p in self.players.values():
            score = 0.0
            opponents = set()
            colours: list[Colour] = []
            byes = unplayed = 0
            for opp, colour, code in p.rounds[:rounds]:
                score += {"1": 1.0, "+": 1.0, "W": 1.0, "U": 1.0, "F": 1.0, "=": 0.5,
                          "D": 0.5, "H": 0.5}.get(code, 0.0)
                if opp is not None:
                    opponents.add(opp)
                    if code in ("1", "=", "0", "W", "D", "L") and colour in ("w", "b"):
                        colours.append(Colour.RED if colour == "w" else Colour.BLACK)
                        continue
                if code == "U":
                    byes += 1
                unplayed += 1
            if len(p.rounds) > rounds and p.rounds[rounds][0] is None and \
                    p.rounds[rounds][2] in ("Z", "H", "F", "-"):
                continue
            out.append(SwissPlayer(p.number, score, p.number, frozenset(opponents),
                                   tuple(colours), byes, None, unplayed))
        return out


def _layout(line: str) -> str | bytes:
    """Return the 001 line as the sequence its columns are counted in:
    characters when the fixed blanks and the points field stand at their
    character positions, else UTF-8 bytes (a file written for byte readers)."""
    if _fits(line) or line.isascii():
        return line
    raw = line.encode("utf-8")
    return raw if _fits(raw) else line


def _fits(seq: str | bytes) -> bool:
    blank = " " if isinstance(seq, str) else b" "
    dot = "." if isinstance(seq, str) else b"."
    # points are "11.5": the decimal point at position 83, a digit at 84
    if len(seq) < 84 or seq[3:4] != blank or seq[79:80] != blank or seq[82:83] != dot \
            or not _text(seq[83:84]).isdigit():
        return False
    try:
        float(_text(seq[80:84]))
    except ValueError:
        return False
    return True


def _text(seq: str | bytes) -> str:
    return seq if isinstance(seq, str) else seq.decode("utf-8", errors="replace")


def _name_field(name: str, columns: str) -> str:
    """The 33 positions 15-47: ``name`` cut on a character and padded, in
    characters or in UTF-8 bytes."""
    if columns == "chars":
        return f"{name[:33]:<33}"
    cut = name
    while len(cut.encode("utf-8")) > 33:
        cut = cut[:-1]
    return cut + " " * (33 - len(cut.encode("utf-8")))


def parse_trf(text: str, source: str = "<trf>") -> TrfTournament:
    """Parse TRF-16 text (CR, LF or CRLF line ends).

    Returns a :class:`TrfTournament`.  Raises :class:`TrfError` naming
    ``source`` and the line for a malformed ``001`` line.
    """
    name = ""
    rounds = 0
    players: dict[int, TrfPlayer] = {}
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for lineno, line in enumerate(lines, start=1):
        code = line[:3]
        try:
            if code == "012":
                name = line[4:].strip()
            elif code == "XXR":
                rounds = int(line[3:].strip())
            elif code == "001":
                seq = _layout(line)
                number = int(_text(seq[4:8]))
                pname = _text(seq[14:47]).strip()
                rating_s = _text(seq[48:52])
                rating = int(rating_s) if rating_s.strip() else 0
                points = float(_text(seq[80:84]))
                rank_s = _text(seq[85:89])
                prank = int(rank_s) if rank_s.strip() else 0
                rr: list[tuple[int | None, str, str]] = []
                pos = 0
                body = _text(seq[91:]).rstrip()  # the rounds, 10 positions each
                while pos < len(body):
                    block = body[pos:pos + 8].ljust(8)
                    if not block.strip():
                        break
                    opp_s = block[0:4].strip()
                    opp = int(opp_s) if opp_s and int(opp_s) != 0 else None
                    colour = block[5:6] or "-"
                    res = block[7:8].strip()
                    rr.append((opp, colour, res))
                    pos += 10
                players[number] = TrfPlayer(number, pname, rating, points, prank, rr)
        except (ValueError, IndexError) as exc:
            raise TrfError(f"{source}，第 {lineno} 行：{code} 行格式有误（{exc}）",
                           f"{source}, line {lineno}: malformed {code} line ({exc})") from None
    if not players:
        raise TrfError(f"{source}：没有 001 棋手行",
                       f"{source}: no 001 player lines")
    if not rounds:
        rounds = max(len(p.rounds) for p in players.values())
    return TrfTournament(name, players, rounds)


def export_trf(name: str, players: Sequence[tuple[int, str, int]], games: Sequence[Game],
               scoring: ScoringTable, rounds: int, *,
               ranks: Mapping[int, int] | None = None, columns: str = "chars") -> str:
    """Write an event as TRF-16 (with ``XXR`` and, for a points table other
    than 1/0.5/0, the ``BBW``/``BBD``/``BBL`` lines).

    ``players`` are (number, name, rating).  ``ranks`` are the places of the
    standings (positions 86-89, "exact definition, ties allowed": after the
    tie-breaks, shared places shared); without them, or for an entry they
    leave out, places go by points then number.  ``columns``: ``"chars"``
    (positions counted in characters, as bbpPairings reads) or ``"bytes"``
    (in UTF-8 bytes).  Returns the text.
    Raises :class:`TrfError` when the scoring gives Red and Black different
    draw points, which TRF cannot express, or for unknown ``columns``.
    """
    if columns not in ("chars", "bytes"):
        raise TrfError(f"columns 须为 'chars'（字符）或 'bytes'（字节），不是 {columns!r}",
                       f"columns must be 'chars' or 'bytes', not {columns!r}")
    if not scoring.colour_neutral:
        raise TrfError(f"计分方法 {scoring.name!r} 的红黑和局分不同；TRF 无法表示",
                       f"scoring {scoring.name!r} gives Red and Black different draw points; "
                       "TRF cannot express it")
    by_player: dict[int, dict[int, str]] = {p[0]: {} for p in players}
    totals = dict.fromkeys(by_player, 0.0)
    for g in games:
        if g.black is None:
            if g.red in by_player:
                by_player[g.red][g.round] = "0000 - U"
                totals[g.red] += scoring.game_points(g, g.red)
            continue
        codes = {Result.RED_WIN: ("1", "0"), Result.DRAW: ("=", "="),
                 Result.BLACK_WIN: ("0", "1"), Result.RED_FORFEIT_WIN: ("+", "-"),
                 Result.BLACK_FORFEIT_WIN: ("-", "+"), Result.DOUBLE_FORFEIT: ("-", "-")}
        rc, bc = codes[g.result]
        by_player[g.red][g.round] = f"{g.black:4d} w {rc}"
        by_player[g.black][g.round] = f"{g.red:4d} b {bc}"
        totals[g.red] += scoring.game_points(g, g.red)
        totals[g.black] += scoring.game_points(g, g.black)
    order = sorted(totals, key=lambda p: (-totals[p], p))
    place = {p: k + 1 for k, p in enumerate(order)}
    if ranks is not None:
        last = max(ranks.values(), default=0)
        unranked = [p for p in order if p not in ranks]  # e.g. struck out by 20.3
        place = dict(ranks) | {p: last + 1 + k for k, p in enumerate(unranked)}
    out = [f"012 {name}", f"XXR {rounds}"]
    if (scoring.win, scoring.draw_red, scoring.loss) != (1.0, 0.5, 0.0):
        out += [f"BBW {scoring.win:4.1f}", f"BBD {scoring.draw_red:4.1f}",
                f"BBL {scoring.loss:4.1f}"]
    for number, pname, rating in players:
        rating_s = f"{rating:4d}" if rating else "    "
        head = f"001 {number:4d}      {_name_field(pname, columns)} {rating_s}"
        head += " " * 28 + f"{totals[number]:4.1f} {place[number]:4d}"
        blocks = []
        for r in range(1, rounds + 1):
            blocks.append(by_player[number].get(r, "0000 - Z" if r <= max(
                (g.round for g in games), default=0) else "        "))
        line = head + "  " + "  ".join(blocks)
        out.append(line.rstrip())
    return "\n".join(out) + "\n"


def colour_of_code(code: str) -> Colour | None:
    """Map a TRF colour letter to a colour (``w`` is Red)."""
    return {"w": Colour.RED, "b": Colour.BLACK}.get(code)

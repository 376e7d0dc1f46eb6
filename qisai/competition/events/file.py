"""The event file: one JSON file holds any event from the command line.

An event file wraps one event model of any format (``kind``) together with
what the organiser and arbiters add around it:

* the header of the printed papers: name, dates, venue, 裁判长 (chief
  arbiter), organiser, and the game (Xiangqi: 红/黑; Go: 黑/白);
* the penalties given during the event (18.1 警告 by a board arbiter, 18.2
  取消当场比赛资格 by the chief arbiter, 18.3 除名 by the organisers, which
  counts as a withdrawal) and their weight in the ranking (18.4: among equal
  points the penalised go last, by severity, then number);
* the play-offs that settle a shared place (15.6: 冠军或不宜并列的名次，应安排
  加赛): two entries play a :class:`~qisai.competition.series.Series`, or
  the arbiter records the order a play-off of several entries produced;
* what the entries file said that the event model has no field for (sex,
  group, Go rank), so that the entries can be exported again.

Kinds: ``individual`` (:class:`Tournament`: round robin, double round
robin, 积分编排制), ``mcmahon`` (:class:`McMahonTournament`, Go),
``knockout`` (:class:`KnockoutEvent`), ``groups`` (:class:`GroupEvent`)
and ``team`` (:class:`TeamEvent`).  A bare ``qisai tournament create`` file
loads too, as an ``individual`` event.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from qisai.competition.errors import (
    CompetitionError,
    EntryError,
    EventFileError,
    EventStateError,
    ResultError,
)
from qisai.competition.events.allplay_event import AllPlayAllEvent
from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.mcmahon_event import McMahonTournament
from qisai.competition.events.team_event import TeamEvent
from qisai.competition.jsonfile import read_object, write_atomic
from qisai.competition.model import Colour, Result
from qisai.competition.series import Series, SeriesFormat
from qisai.competition.teams import Team
from qisai.competition.tiebreaks import Record, Standing, rank
from qisai.competition.tournament import Player, Tournament

__all__ = ["KINDS", "PENALTY_KINDS", "AnyEvent", "EventFile", "Header", "Penalty", "Playoff"]

KINDS = ("individual", "mcmahon", "knockout", "groups", "team")
AnyEvent = Tournament | McMahonTournament | KnockoutEvent | GroupEvent | TeamEvent

PENALTY_KINDS = {"warning": "18.1", "forfeit": "18.2", "expel": "18.3"}
"""Penalty kinds and their clauses: 警告 (board arbiter), 取消当场比赛资格
(chief arbiter: the game of that round is lost), 除名 (organisers: treated
as a withdrawal)."""

_WEIGHT = {"warning": 1, "forfeit": 1000, "expel": 1_000_000}


@dataclass(slots=True)
class Header:
    """The heading of every printed paper."""

    name: str
    date: str = ""
    venue: str = ""
    chief_arbiter: str = ""
    organiser: str = ""
    game: str = "xiangqi"

    def __post_init__(self) -> None:
        if self.game not in ("xiangqi", "go"):
            raise CompetitionError(f"棋种须为 xiangqi（象棋）或 go（围棋），不是 {self.game!r}",
                                   f"game must be xiangqi or go, not {self.game!r}")

    @property
    def colour_names(self) -> tuple[str, str]:
        """The printed names of the first- and second-listed sides."""
        return self.colour(Colour.RED), self.colour(Colour.BLACK)

    def colour(self, colour: Colour) -> str:
        """Return the printed name of a side: 红/黑 for Xiangqi (Red moves
        first, 2.1), 黑/白 for Go (Black moves first): the first-listed
        side of a pairing is 红 or 黑."""
        if self.game == "go":
            return "黑" if colour is Colour.RED else "白"
        return "红" if colour is Colour.RED else "黑"


@dataclass(slots=True)
class Penalty:
    """A penalty (18.1-18.3) on entry ``entry`` (team number in a team
    event) in round ``round``."""

    entry: int
    round: int
    kind: str
    note: str = ""

    @property
    def clause(self) -> str:
        """The clause the penalty is given under."""
        return PENALTY_KINDS[self.kind]


@dataclass(slots=True)
class Playoff:
    """A play-off for a shared place (15.6): ``entries`` tied; with two
    entries a series of ``series`` format (its game results in ``games``),
    or, for any number, the ``order`` the arbiter recorded (best first)."""

    entries: list[int]
    series: str = "single"
    games: list[str] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    note: str = ""
    seed: int = 0

    def replay(self) -> Series | None:
        """Return the two-entry series replayed from :attr:`games` (None for
        a play-off of more entries)."""
        if len(self.entries) != 2:
            return None
        s = Series(self.entries[0], self.entries[1], SeriesFormat(self.series), seed=self.seed,
                   first_colours="lot")  # 13.4: 猜先
        for value in self.games:
            if s.decided:
                break
            s.next_game()
            s.record(Result(value))
        return s

    def decided_order(self) -> list[int] | None:
        """The order the play-off settled, best first, or None while open."""
        if self.order:
            return list(self.order)
        s = self.replay()
        if s is None or not s.decided or s.winner is None:
            return None
        loser = s.b if s.winner == s.a else s.a
        return [s.winner, loser]


_INNER_FORMATS = {"qisai-knockout": "knockout", "qisai-web-knockout": "knockout",
                  "qisai-team": "team", "qisai-web-team": "team",
                  "qisai-groups": "groups", "qisai-web-groups": "groups",
                  "qisai-team-allplay": "team"}


class EventFile:
    """An event of any format with its header, penalties and play-offs."""

    def __init__(self, kind: str, event: AnyEvent, header: Header | None = None) -> None:
        """Raises :class:`CompetitionError` for an unknown kind."""
        if kind not in KINDS:
            raise CompetitionError(f"未知的比赛类型 {kind!r}；可选 {', '.join(KINDS)}",
                                   f"unknown event kind {kind!r}; use one of {', '.join(KINDS)}")
        self.kind = kind
        self.event = event
        self.header = header or Header(event.name)
        self.penalties: list[Penalty] = []
        self.playoffs: list[Playoff] = []
        self.extras: dict[str, dict[str, str]] = {}
        """Per entry name: sex, group and Go rank from the entries file."""

    # -- typed access ----------------------------------------------------------
    @property
    def individual(self) -> Tournament:
        """The event as an individual round robin / Swiss / McMahon.
        Raises :class:`EventStateError` for another kind."""
        if not isinstance(self.event, Tournament):
            raise EventStateError(f"{self.header.name}：{self.kind} 比赛没有这个命令",
                                  f"{self.header.name}: a {self.kind} event has no such command")
        return self.event

    def entry_name(self, number: int) -> str:
        """Return the name of entry (or team) ``number``.  Raises
        :class:`CompetitionError` for an unknown number."""
        ev = self.event
        if isinstance(ev, TeamEvent):
            return ev.team_tournament().team(number).name
        if isinstance(ev, Tournament | KnockoutEvent):
            return ev.player(number).name
        for p in ev.players:
            if p.id == number:
                return p.name
        raise EntryError(f"{self.header.name}：没有编号为 {number} 的参赛者",
                         f"{self.header.name}: no entry number {number}")

    def resolve(self, who: str) -> int:
        """Return the number of the entry (or team) given by number or name.
        Raises :class:`EntryError` if there is none."""
        who = who.strip()
        names = self.numbered()
        if who.isdigit() and int(who) in names:
            return int(who)
        for number, name in names.items():
            if name == who:
                return number
        raise EntryError(f"{self.header.name}：没有参赛者 {who!r}",
                         f"{self.header.name}: no entry {who!r}")

    def numbered(self) -> dict[int, str]:
        """Return every entry's (team's) number and name."""
        ev = self.event
        if isinstance(ev, TeamEvent):
            return {t.id: t.name for t in (ev.tt.teams if ev.tt else ev.teams)}
        return {p.id: p.name for p in ev.players}

    # -- penalties (18.1-18.4) -------------------------------------------------
    def add_penalty(self, who: str, kind: str, round_no: int, note: str = "") -> str:
        """Record a penalty; return what was done.

        18.2 loses the entry's game of ``round_no`` if it has no result yet
        (individual events; elsewhere the arbiter enters the forfeit);
        18.3 withdraws the entry (按退出处理, 20.3/20.4).
        Raises :class:`CompetitionError` for an unknown kind or entry.
        """
        if kind not in PENALTY_KINDS:
            raise CompetitionError(f"处罚类型须为 {', '.join(PENALTY_KINDS)} 之一，不是 {kind!r}",
                                   f"penalty kind must be one of {', '.join(PENALTY_KINDS)}, "
                                   f"not {kind!r}")
        number = self.resolve(who)
        if round_no < 0:
            raise CompetitionError(f"轮次 {round_no} 有误",
                                   f"bad round {round_no}")
        self.penalties.append(Penalty(number, round_no, kind, note))
        self._apply_penalties()
        name = self.entry_name(number)
        done = f"{name}: {kind} ({PENALTY_KINDS[kind]}) in round {round_no}"
        ev = self.event
        if kind == "forfeit" and isinstance(ev, Tournament) and 1 <= round_no <= len(ev.rounds):
            rec = ev.rounds[round_no - 1]
            for p in rec.pairings:
                if number in p.players() and not p.is_bye and p.board not in rec.results:
                    res = Result.BLACK_FORFEIT_WIN if p.red == number else Result.RED_FORFEIT_WIN
                    ev.record_result(round_no, p.board, res)
                    done += f"; board {p.board} lost ({res.value})"
        elif kind == "expel":
            done += "; " + self.withdraw(who)
        return done

    def penalty_weights(self) -> dict[int, int]:
        """Return each penalised entry's 18.4 weight: severity first
        (expulsion, then loss of a game), then the number of penalties."""
        out: dict[int, int] = {}
        for p in self.penalties:
            out[p.entry] = out.get(p.entry, 0) + _WEIGHT[p.kind]
        return out

    def _apply_penalties(self) -> None:
        weights = self.penalty_weights()
        ev = self.event
        if isinstance(ev, Tournament):
            for p in ev.players:
                p.penalty = weights.get(p.id, 0)
        elif isinstance(ev, GroupEvent):
            by_name = {self.entry_name(n): w for n, w in weights.items()}
            for t in ev.groups + ([ev.final] if ev.final is not None else []):
                for p in t.players:
                    p.penalty = by_name.get(p.name, 0)

    # -- entries and start (20.2) ---------------------------------------------
    @property
    def started(self) -> bool:
        """True once the numbers are drawn and the entries closed."""
        ev = self.event
        return ev.started

    def start(self) -> None:
        """Close the entries and draw the numbers (制签); a team event
        numbers its teams.  Raises :class:`CompetitionError` (already
        started, too few entries, what the format's start raises)."""
        self.event.start()

    def add_entry(self, player: Player, team: str = "") -> str:
        """Add an entry before the start (20.2: e.g. 积分编排制 may make the
        number even again); in a team event ``team`` names its team (a new
        team, or the roster's next player).  Raises
        :class:`CompetitionError` after the start or for a duplicate."""
        ev = self.event
        if isinstance(ev, TeamEvent):
            if ev.started:
                raise EventStateError(f"{self.header.name}：比赛已开始，报名已截止",
                                      f"{self.header.name}: entries are closed once the "
                                      "event started")
            if not team:
                raise EntryError(f"{self.header.name}：团体赛报名须写明所属队",
                                 f"{self.header.name}: a team event needs the entry's team")
            existing = next((t for t in ev.teams if t.name == team), None)
            if existing is None:
                raise EntryError(f"{self.header.name}：没有队 {team!r}（新队须在报名表中带全部队员报名）",
                                 f"{self.header.name}: no team {team!r} (a new team comes "
                                 "with its whole roster in the entries sheet)")
            if any(player.name in t.roster for t in ev.teams):
                raise EntryError(f"{self.header.name}：{player.name!r} 已报名",
                                 f"{self.header.name}: {player.name!r} is entered already")
            k = ev.teams.index(existing)
            ev.teams[k] = Team(team, existing.roster + [player.name], ev.boards)
            return f"{player.name} added to {team} as a reserve (12.2)"
        ev.add_player(player)
        return f"{player.name} added"

    # -- withdrawals (20.2-20.4) -----------------------------------------------
    def withdraw(self, who: str, after: int | None = None) -> str:
        """Withdraw an entry (team) after the start; return what was done
        (20.3 round robin, 20.4 Swiss and knock-out).  ``after`` (individual
        events) is the last round it took part in.  Raises
        :class:`CompetitionError`."""
        ev = self.event
        number = self.resolve(who)
        name = self.entry_name(number)
        if isinstance(ev, Tournament):
            ev.withdraw(number, after)
            rule = "20.4" if ev.system.value == "swiss" else "20.3"
            struck = " — fewer than half its opponents met: results struck out (20.3)" \
                if number in ev.annulled_entries() else ""
            return f"{name} withdrew after round {ev.player(number).withdrawn_after} " \
                   f"({rule}){struck}"
        if isinstance(ev, KnockoutEvent):
            ev.withdraw(number, "withdrawn")
            return f"{name} withdrew: its match goes to the opponent (20.4)"
        return ev.withdraw(name)

    def remove_entry(self, who: str) -> str:
        """Withdraw an entry before the start (20.2: the numbers are drawn
        again at the start).  Raises :class:`CompetitionError`."""
        ev = self.event
        if isinstance(ev, TeamEvent):
            ev.remove_team(who)
        else:
            ev.remove_player(who)
        return f"{who} removed before the start (20.2)"

    # -- standings, play-offs (15, 15.6, 18.4) ---------------------------------
    def team_records(self) -> dict[int, Record]:
        """Team records with the 18.4 penalty weights."""
        ev = self.event
        assert isinstance(ev, TeamEvent)
        recs = ev.records()
        weights = self.penalty_weights()
        for tid, rec in recs.items():
            rec.penalty = weights.get(tid, 0)
        return recs

    def standings(self) -> list[Standing]:
        """Return the standings of an individual, McMahon or team event with
        every tie-break value, penalties (18.4) and decided play-offs (15.6)
        applied.  Raises :class:`EventStateError` for a knock-out or group
        event (see :meth:`placements`)."""
        ev = self.event
        self._apply_penalties()
        if isinstance(ev, TeamEvent):
            tt = ev.team_tournament()
            st = rank(self.team_records(), tt.tiebreaks, tt.policy)
        elif isinstance(ev, Tournament):
            st = ev.standings()
        else:
            raise EventStateError(f"{self.header.name}：{self.kind} 比赛只有名次，没有积分表",
                                  f"{self.header.name}: a {self.kind} event has placements, "
                                  "not standings")
        return self._with_playoffs(st)

    def _with_playoffs(self, st: list[Standing]) -> list[Standing]:
        for po in self.playoffs:
            order = po.decided_order()
            if order is None:
                continue
            tied = [s for s in st if s.entry in order]
            if len(tied) != len(order) or len({s.rank for s in tied}) != 1:
                continue  # the standings changed since: the play-off no longer applies
            first = tied[0].rank
            group = [s for s in st if s.rank == first]
            if len(group) != len(order):
                continue
            by_entry = {s.entry: s for s in group}
            start = st.index(group[0])
            for k, e in enumerate(order):
                s = by_entry[e]
                s.rank, s.shared = first + k, False
                st[start + k] = s
        return st

    def placements(self) -> list[tuple[int, bool, int]]:
        """Return ``(place, shared, entry)`` best first for any kind."""
        ev = self.event
        if isinstance(ev, KnockoutEvent | GroupEvent):
            return ev.placements()
        return [(s.rank, s.shared, s.entry) for s in self.standings()]

    def ties(self, places: int = 1) -> list[list[int]]:
        """15.6: groups of entries still sharing one of the first ``places``
        places (each needs a play-off or a rule of the event)."""
        out: dict[int, list[int]] = {}
        for place, shared, entry in self.placements():
            if shared and place <= places:
                out.setdefault(place, []).append(entry)
        return [out[k] for k in sorted(out)]

    def start_playoff(self, entries: Sequence[int], series: str = "single",
                      note: str = "") -> Playoff:
        """Start a play-off (15.6) between entries that share a place.
        Raises :class:`CompetitionError` if they do not share one place or
        the series format is unknown."""
        entries = list(entries)
        places = {e: (p, s) for p, s, e in self.placements()}
        if len(entries) < 2 or any(e not in places for e in entries):
            raise CompetitionError("附加赛须有两名以上已排名次的参赛者",
                                   "a play-off needs two or more placed entries")
        if len({places[e][0] for e in entries}) != 1 or not places[entries[0]][1]:
            raise CompetitionError(f"参赛者 {', '.join(map(str, entries))} 名次不同",
                                   f"entries {', '.join(map(str, entries))} do not share a "
                                   "place")
        try:
            SeriesFormat(series)
        except ValueError:
            raise CompetitionError(f"未知的附加赛赛制 {series!r}",
                                   f"unknown play-off series {series!r}") from None
        po = Playoff(entries, series, note=note, seed=len(self.playoffs) + 1)
        self.playoffs.append(po)
        return po

    def playoff_game(self, index: int, result: str) -> Playoff:
        """Record the next game of two-entry play-off ``index`` (1-based).
        Raises :class:`ResultError` if it is decided or has more entries."""
        po = self._playoff(index)
        s = po.replay()
        if s is None:
            raise ResultError(f"第 {index} 组附加赛有 {len(po.entries)} 名参赛者：请登记其名次顺序",
                              f"play-off {index} has {len(po.entries)} entries: record its "
                              "order instead")
        if s.decided:
            raise ResultError(f"第 {index} 组附加赛已决出（{s.how}）",
                              f"play-off {index} is decided ({s.how})")
        s.next_game()
        res = Result.parse(result)
        s.record(res)
        po.games.append(res.value)
        return po

    def playoff_order(self, index: int, order: Sequence[int]) -> Playoff:
        """Record the order a play-off produced (best first).  Raises
        :class:`ResultError` unless it names exactly its entries."""
        po = self._playoff(index)
        if sorted(order) != sorted(po.entries):
            raise ResultError(f"第 {index} 组附加赛：顺序须列出参赛者 {', '.join(map(str, po.entries))}",
                              f"play-off {index}: the order must name entries "
                              f"{', '.join(map(str, po.entries))}")
        po.order = list(order)
        return po

    def _playoff(self, index: int) -> Playoff:
        if not 1 <= index <= len(self.playoffs):
            raise ResultError(f"{self.header.name}：没有第 {index} 组附加赛",
                              f"{self.header.name}: no play-off {index}")
        return self.playoffs[index - 1]

    # -- persistence -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Return the file's JSON-ready content."""
        return {"format": "qisai-event", "version": 1, "kind": self.kind,
                "header": asdict(self.header),
                "penalties": [asdict(p) for p in self.penalties],
                "playoffs": [asdict(p) for p in self.playoffs],
                "extras": self.extras, "event": self.event.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "<event>") -> EventFile:
        """Rebuild from :meth:`to_dict` output, or from a bare tournament,
        knock-out, group or team event.  Raises :class:`EventFileError`."""
        try:
            fmt = data.get("format")
            if fmt == "qisai-event":
                kind = str(data["kind"])
                inner = data["event"]
            elif fmt == "qisai-tournament":
                kind, inner = ("mcmahon" if "mcmahon" in data else "individual"), data
            elif fmt in _INNER_FORMATS:
                kind, inner = _INNER_FORMATS[str(fmt)], data
            else:
                raise EventFileError(f"{source}：不是 qisai 的比赛文件（format {fmt!r}）",
                                     f"{source}: not a qisai event file (format {fmt!r})")
            event: AnyEvent
            if kind == "individual":
                event = Tournament.from_dict(inner, source)
            elif kind == "mcmahon":
                event = McMahonTournament.from_dict(inner, source)
            elif kind == "knockout":
                event = KnockoutEvent.from_dict(inner)
            elif kind == "groups":
                event = GroupEvent.from_dict(inner)
            elif kind == "team" and inner.get("format") == "qisai-team-allplay":
                event = AllPlayAllEvent.from_dict(inner)  # 12.4 全队轮赛制
            elif kind == "team":
                event = TeamEvent.from_dict(inner)
            else:
                raise EventFileError(f"{source}：未知的比赛类型 {kind!r}",
                                     f"{source}: unknown kind {kind!r}")
            head = data.get("header") or {"name": event.name}
            ef = cls(kind, event, Header(**head))
            ef.penalties = [Penalty(**p) for p in data.get("penalties", [])]
            for p in ef.penalties:
                if p.kind not in PENALTY_KINDS:
                    raise EventFileError(f"{source}：未知的处罚类型 {p.kind!r}",
                                         f"{source}: unknown penalty kind {p.kind!r}")
            ef.playoffs = [Playoff(**p) for p in data.get("playoffs", [])]
            ef.extras = {str(k): dict(v) for k, v in data.get("extras", {}).items()}
            ef._apply_penalties()
        except EventFileError:
            raise
        except CompetitionError as exc:
            raise EventFileError(f"{source}：{exc.zh}",
                                 f"{source}: {exc.en}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise EventFileError(f"{source}：字段有误或缺失（{exc!r}）",
                                 f"{source}: bad or missing field ({exc!r})") from None
        return ef

    def save(self, path: str | Path) -> None:
        """Write the file atomically (a crash leaves the old file whole)."""
        write_atomic(path, json.dumps(self.to_dict(), ensure_ascii=False, indent=1))

    @classmethod
    def load(cls, path: str | Path) -> EventFile:
        """Read an event file.  Raises :class:`EventFileError` if it is
        missing or malformed."""
        return cls.from_dict(read_object(path), str(path))

    def players(self) -> list[Player]:
        """Every individual entry (for a team event, every rostered player
        with the team's name as ``team``), numbered as the event numbers
        them."""
        ev = self.event
        if isinstance(ev, TeamEvent):
            out: list[Player] = []
            teams = ev.tt.teams if ev.tt is not None else ev.teams
            for t in teams:
                for name in t.roster:
                    out.append(Player(name, team=t.name, id=len(out) + 1))
            return out
        return list(ev.players)

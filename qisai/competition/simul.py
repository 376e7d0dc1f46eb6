"""Simultaneous displays (同时对弈, 车轮战): one host against many boards.

Seed 001 records 柳大华 against 108 opponents at once in Chengdu (2006,
7 h 30 min, "69胜30和9负"), and blindfold displays of 1 against 19, 12 and 5
(蒙目棋).  A :class:`Simul` is the display's state: the host, its settings,
the entrants who joined while it was open, and once started one board per
entrant with the host's colour (and Go handicap) and the result.

Results are kept from the host's side, as the seed writes them: the host's
wins, draws and losses (:meth:`Simul.score_text`: "69胜30和9负").

The host walks the ring: :meth:`Simul.next_board` gives the next board, in
board order after the current one, that waits for the host's move; the
host's page lists :meth:`Simul.host_order` (boards waiting for the host
first).

Pure state with a JSON form (:meth:`Simul.to_dict` / :meth:`Simul.from_dict`);
the web layer stores it and starts the games.  Every refused action raises
:class:`SimulError` whose message is in Chinese and English.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from qisai.competition.errors import CompetitionError
from qisai.competition.model import Outcome

__all__ = [
    "SimulError", "SimulStatus", "SimulSettings", "SimulEntrant", "SimulBoard",
    "SimulScore", "Simul", "MAX_BOARDS", "MAX_GROUP", "MAX_ENGINES",
]

#: Hard cap of any display (the organiser's limit is at most this); the seed's
#: 108 boards and the issue's 120 fit with room.
MAX_BOARDS = 500

#: Most accounts one consultation group entrant may hold (the seed's 25
#: amateurs on five boards are five a board; room for twice that).
MAX_GROUP = 10

#: Most engine entrants of one display: each board against an engine holds a
#: seat of the bounded engine pool for the whole display.
MAX_ENGINES = 16

_COLOURS = {"xiangqi": ("red", "black"), "go": ("black", "white")}
_HOST_RESULTS = (Outcome.WIN, Outcome.DRAW, Outcome.LOSS,
                 Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS)


class SimulError(CompetitionError):
    """A simul action is refused; the message says why, in Chinese then
    English ("车轮战已满（20 台） / the simul is full (20 boards)")."""


def _refuse(zh: str, en: str) -> SimulError:
    return SimulError(zh, en)


class SimulStatus(enum.Enum):
    """Life of a display: entrants join while ``open``; boards are played
    while ``started``; ``finished`` once every board has a result."""

    OPEN = "open"
    STARTED = "started"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class SimulSettings:
    """What the organiser or host chose.

    ``host_colour``: for Xiangqi ``red``/``black``, for Go ``black``/``white``,
    or ``alternate`` (board 1 takes the game's first colour, board 2 the
    other, ...).  ``handicap``: Go stones the host gives on every board (0, or
    2..9, the host then plays White: 让子 means the stronger side is White);
    a board may override it.  ``max_boards``: the organiser's size limit
    (1..:data:`MAX_BOARDS`).  ``invited``: when not empty only these entrant
    keys may join.

    Raises :class:`SimulError` for any value out of range.
    """

    game: str = "xiangqi"
    rules: str = "cxa"
    host_colour: str = "red"
    handicap: int = 0
    max_boards: int = 120
    rated: bool = False
    invited: tuple[str, ...] = ()
    host_blindfold: bool = False

    def __post_init__(self) -> None:
        if self.game not in _COLOURS:
            raise _refuse(f"未知棋种 {self.game!r}", f"unknown game {self.game!r}")
        if self.host_colour not in (*_COLOURS[self.game], "alternate"):
            raise _refuse(f"执棋颜色 {self.host_colour!r} 不适用于本棋种",
                          f"host colour {self.host_colour!r} does not fit {self.game}")
        _check_handicap(self.game, self.handicap, self.host_colour)
        if not isinstance(self.max_boards, int) or not 1 <= self.max_boards <= MAX_BOARDS:
            raise _refuse(f"台数上限须在 1 到 {MAX_BOARDS} 之间",
                          f"the board limit must be 1..{MAX_BOARDS}")
        if len(self.invited) > MAX_BOARDS:
            raise _refuse("邀请名单过长", "too many invitations")


def _check_handicap(game: str, handicap: int, host_colour: str) -> None:
    if not isinstance(handicap, int) or isinstance(handicap, bool):
        raise _refuse("让子数须为整数", "the handicap must be a whole number")
    if handicap == 0:
        return
    if game != "go" or not 2 <= handicap <= 9:
        raise _refuse("让子只用于围棋，2 到 9 子", "handicap stones are for Go only, 2 to 9")
    if host_colour == "black":
        raise _refuse("让子的一方执白", "the side giving stones plays White")


@dataclass(frozen=True, slots=True)
class SimulEntrant:
    """One entrant: ``key`` identifies the account, engine or consultation
    group (``user:7``, ``engine:fairy-stockfish``, ``group:3``), ``name`` is
    shown; ``blindfold`` is the entrant's own choice; ``handicap`` overrides
    the simul's (Go) for this board; ``members`` names a group's accounts."""

    key: str
    name: str
    blindfold: bool = False
    handicap: int | None = None
    members: tuple[str, ...] = ()


@dataclass(slots=True)
class SimulBoard:
    """One board once the display started: its number (1-based, the order
    of joining), the entrant, the host's colour, the handicap, the server
    game's id when one is made, and the host's result."""

    number: int
    entrant: SimulEntrant
    host_colour: str
    handicap: int = 0
    game_id: str | None = None
    result: Outcome | None = None


@dataclass(frozen=True, slots=True)
class SimulScore:
    """The host's running score: wins, draws, losses and boards still playing.
    Forfeits count as wins or losses (21.4 scores them as such)."""

    wins: int
    draws: int
    losses: int
    playing: int

    def text(self, lang: str = "zh") -> str:
        """Return the score as the seed writes it: "69胜30和9负", or in English
        "69 wins, 30 draws, 9 losses"; boards in play are not shown."""
        if lang == "en":
            return f"{self.wins} wins, {self.draws} draws, {self.losses} losses"
        return f"{self.wins}胜{self.draws}和{self.losses}负"


@dataclass(slots=True)
class Simul:
    """A simultaneous display run by ``host`` (an account or engine key)."""

    host: str
    settings: SimulSettings = field(default_factory=SimulSettings)
    status: SimulStatus = SimulStatus.OPEN
    entrants: list[SimulEntrant] = field(default_factory=list)
    boards: list[SimulBoard] = field(default_factory=list)

    # -------------------------------------------------------------- entries
    def join(self, entrant: SimulEntrant) -> None:
        """Add ``entrant`` while the display is open.

        Raises :class:`SimulError` if it has started, is full, the entrant is
        the host or already in, not invited, or asks for a handicap that does
        not fit the game.
        """
        if self.status is not SimulStatus.OPEN:
            raise _refuse("车轮战已开始，不能再报名", "the simul has started; joining is closed")
        if entrant.key == self.host:
            raise _refuse("主将不能作为对手报名", "the host cannot join as an opponent")
        if any(e.key == entrant.key for e in self.entrants):
            raise _refuse(f"{entrant.name} 已报名", f"{entrant.name} has already joined")
        members = set(entrant.members)
        if self.host in members:
            raise _refuse("主将不能加入对手小组", "the host cannot be in an opponent's group")
        for e in self.entrants:
            if members & ({e.key} | set(e.members)) or entrant.key in e.members:
                raise _refuse(f"{entrant.name} 的成员已在另一台",
                              f"a member of {entrant.name} already plays another board")
        if len(self.entrants) >= self.settings.max_boards:
            raise _refuse(f"车轮战已满（{self.settings.max_boards} 台）",
                          f"the simul is full ({self.settings.max_boards} boards)")
        if entrant.key.startswith("engine:") and sum(
                e.key.startswith("engine:") for e in self.entrants) >= MAX_ENGINES:
            raise _refuse(f"引擎对手最多 {MAX_ENGINES} 个",
                          f"at most {MAX_ENGINES} engine entrants")
        if len(entrant.members) > MAX_GROUP:
            raise _refuse(f"会商小组最多 {MAX_GROUP} 人", f"a group has at most {MAX_GROUP} members")
        if self.settings.invited and entrant.key not in self.settings.invited:
            raise _refuse("本场车轮战只限受邀棋手", "this simul is by invitation only")
        if entrant.handicap is not None:
            # a board with stones makes the host White there, whatever the default
            _check_handicap(self.settings.game, entrant.handicap, "white")
        self.entrants.append(entrant)

    def leave(self, key: str) -> None:
        """Withdraw entrant ``key`` before the start.

        Raises :class:`SimulError` once started or if ``key`` never joined.
        """
        if self.status is not SimulStatus.OPEN:
            raise _refuse("车轮战已开始，不能退出报名（可认输）",
                          "the simul has started; resign the game instead")
        for i, e in enumerate(self.entrants):
            if e.key == key:
                del self.entrants[i]
                return
        raise _refuse("未报名", "not an entrant of this simul")

    def add_member(self, group: str, member: str) -> SimulEntrant:
        """Add account ``member`` (by its own request: a member's consent) to
        the consultation group entrant ``group`` while the display is open.

        Returns the group's new entrant.  Raises :class:`SimulError` once
        started, for no such group, a full group (:data:`MAX_GROUP`), the
        host, or an account already on a board (its own or a group's).
        """
        if self.status is not SimulStatus.OPEN:
            raise _refuse("车轮战已开始，不能再报名", "the simul has started; joining is closed")
        found = [i for i, e in enumerate(self.entrants) if e.key == group and e.members]
        if not found:
            raise _refuse("没有这个会商小组", "there is no such group")
        if member == self.host:
            raise _refuse("主将不能加入对手小组", "the host cannot be in an opponent's group")
        if any(member == e.key or member in e.members for e in self.entrants):
            raise _refuse("你已在本场车轮战的一台", "you already play a board of this simul")
        old = self.entrants[found[0]]
        if len(old.members) >= MAX_GROUP:
            raise _refuse(f"会商小组已满（{MAX_GROUP} 人）", f"the group is full ({MAX_GROUP})")
        new = SimulEntrant(old.key, old.name, old.blindfold, old.handicap,
                           (*old.members, member))
        self.entrants[found[0]] = new
        return new

    def remove_member(self, member: str) -> None:
        """Take account ``member`` out of its group before the start; a group
        left empty is withdrawn.  Raises :class:`SimulError` once started or
        if ``member`` is in no group."""
        if self.status is not SimulStatus.OPEN:
            raise _refuse("车轮战已开始，不能退出报名（可认输）",
                          "the simul has started; resign the game instead")
        for i, e in enumerate(self.entrants):
            if member in e.members:
                rest = tuple(m for m in e.members if m != member)
                if rest:
                    self.entrants[i] = SimulEntrant(e.key, e.name, e.blindfold, e.handicap, rest)
                else:
                    del self.entrants[i]
                return
        raise _refuse("你不在任何会商小组", "you are in no group of this simul")

    def set_handicap(self, key: str, handicap: int | None) -> SimulEntrant:
        """Set the Go handicap of entrant ``key``'s board (``None``: the
        display's own) while the display is open.  The host or the organiser
        calls this; an entrant never chooses his own stones.

        Returns the entrant.  Raises :class:`SimulError` once started, for no
        such entrant, or a handicap that does not fit the game.
        """
        if self.status is not SimulStatus.OPEN:
            raise _refuse("车轮战已开始，不能再改让子", "the simul has started; handicaps are fixed")
        if handicap is not None:
            # a board with stones makes the host White there, whatever the default
            _check_handicap(self.settings.game, handicap, "white")
        for i, e in enumerate(self.entrants):
            if e.key == key:
                self.entrants[i] = SimulEntrant(e.key, e.name, e.blindfold, handicap, e.members)
                return self.entrants[i]
        raise _refuse("没有这个对手", "there is no such entrant")

    # -------------------------------------------------------------- start
    def _colour_for(self, number: int) -> str:
        first, second = _COLOURS[self.settings.game]
        if self.settings.host_colour == "alternate":
            return first if number % 2 == 1 else second
        return self.settings.host_colour

    def start(self) -> list[SimulBoard]:
        """Close entries and make one board per entrant, numbered in joining
        order, with the host's colour and the handicap.

        Returns the boards.  Raises :class:`SimulError` if already started
        or nobody joined.
        """
        if self.status is not SimulStatus.OPEN:
            raise _refuse("车轮战已开始", "the simul has already started")
        if not self.entrants:
            raise _refuse("还没有对手报名", "nobody has joined yet")
        for e in self.entrants:
            if e.key.startswith("group:") and len(e.members) < 2:
                # a consultation side is two or more accounts; a lone member
                # plays better as an ordinary entrant
                raise _refuse(f"会商小组 {e.name} 只有 {len(e.members)} 人，须至少 2 人",
                              f"group {e.name} has {len(e.members)} member(s); it needs 2")
        boards = []
        for n, e in enumerate(self.entrants, start=1):
            handicap = self.settings.handicap if e.handicap is None else e.handicap
            colour = self._colour_for(n)
            if handicap:
                colour = "white"  # the stronger side gives stones and plays White
            boards.append(SimulBoard(n, e, colour, handicap))
        self.boards = boards
        self.status = SimulStatus.STARTED
        return boards

    def board(self, number: int) -> SimulBoard:
        """Return board ``number``; raises :class:`SimulError` if there is none."""
        if isinstance(number, int) and 1 <= number <= len(self.boards):
            return self.boards[number - 1]
        raise _refuse(f"没有第 {number} 台", f"there is no board {number}")

    def board_of(self, key: str) -> SimulBoard | None:
        """Return the board of entrant ``key`` (or of a group it belongs to),
        or None."""
        for b in self.boards:
            if b.entrant.key == key or key in b.entrant.members:
                return b
        return None

    # -------------------------------------------------------------- results
    def record(self, number: int, host_result: Outcome) -> None:
        """Record board ``number``'s result from the host's side; the display
        is finished when the last board ends.

        Raises :class:`SimulError` before the start, for an unknown board, a
        result that is not a game result, or a board already decided.
        """
        if self.status is SimulStatus.OPEN:
            raise _refuse("车轮战尚未开始", "the simul has not started")
        b = self.board(number)
        if host_result not in _HOST_RESULTS:
            raise _refuse("不是对局结果", f"{host_result!r} is not a game result")
        if b.result is not None:
            raise _refuse(f"第 {number} 台已有结果", f"board {number} already has a result")
        b.result = host_result
        if all(x.result is not None for x in self.boards):
            self.status = SimulStatus.FINISHED

    def score(self) -> SimulScore:
        """Return the host's running score."""
        wins = draws = losses = playing = 0
        for b in self.boards:
            if b.result in (Outcome.WIN, Outcome.FORFEIT_WIN):
                wins += 1
            elif b.result is Outcome.DRAW:
                draws += 1
            elif b.result in (Outcome.LOSS, Outcome.FORFEIT_LOSS):
                losses += 1
            else:
                playing += 1
        return SimulScore(wins, draws, losses, playing)

    def score_text(self, lang: str = "zh") -> str:
        """Return :meth:`SimulScore.text` of the running score."""
        return self.score().text(lang)

    # -------------------------------------------------------------- the ring
    def next_board(self, current: int | None, waiting: Iterable[int]) -> int | None:
        """Return the board the host goes to next: the first board after
        ``current`` in ring order (wrapping round) among ``waiting`` (the
        boards where the host is to move and the game runs), or None when no
        board waits.  ``current`` None starts from board 1."""
        ready = {n for n in waiting if 1 <= n <= len(self.boards)
                 and self.boards[n - 1].result is None}
        if not ready:
            return None
        start = 0 if current is None else current
        count = len(self.boards)
        for step in range(1, count + 1):
            n = (start + step - 1) % count + 1
            if n in ready:
                return n
        return None  # unreachable: ready is a non-empty subset of the boards

    def host_order(self, waiting: Iterable[int]) -> list[int]:
        """Return the board numbers in the order the host's page lists them:
        boards waiting for the host first, then boards waiting for the
        entrant, then finished boards; board order within each."""
        ready = set(waiting)
        def key(b: SimulBoard) -> tuple[int, int]:
            if b.result is not None:
                return (2, b.number)
            return (0 if b.number in ready else 1, b.number)
        return [b.number for b in sorted(self.boards, key=key)]

    # -------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        """Return the display as JSON-ready data (:meth:`from_dict` reads it)."""
        s = self.settings
        return {
            "host": self.host,
            "settings": {"game": s.game, "rules": s.rules, "host_colour": s.host_colour,
                         "handicap": s.handicap, "max_boards": s.max_boards,
                         "rated": s.rated, "invited": list(s.invited),
                         "host_blindfold": s.host_blindfold},
            "status": self.status.value,
            "entrants": [_entrant_dict(e) for e in self.entrants],
            "boards": [{"number": b.number, "entrant": b.entrant.key,
                        "host_colour": b.host_colour, "handicap": b.handicap,
                        "game_id": b.game_id,
                        "result": None if b.result is None else b.result.value}
                       for b in self.boards],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Simul:
        """Rebuild a display from :meth:`to_dict` data.

        Raises :class:`SimulError` naming the key for malformed data.
        """
        try:
            st = data["settings"]
            settings = SimulSettings(
                game=st["game"], rules=st["rules"], host_colour=st["host_colour"],
                handicap=int(st["handicap"]), max_boards=int(st["max_boards"]),
                rated=bool(st["rated"]), invited=tuple(st.get("invited", ())),
                host_blindfold=bool(st.get("host_blindfold", False)))
            entrants = [SimulEntrant(str(e["key"]), str(e["name"]), bool(e.get("blindfold")),
                                     e.get("handicap"), tuple(e.get("members", ())))
                        for e in data["entrants"]]
            by_key = {e.key: e for e in entrants}
            boards = [SimulBoard(int(b["number"]), by_key[b["entrant"]], str(b["host_colour"]),
                                 int(b["handicap"]), b.get("game_id"),
                                 None if b.get("result") is None else Outcome(b["result"]))
                      for b in data["boards"]]
            return cls(str(data["host"]), settings, SimulStatus(data["status"]),
                       entrants, boards)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, SimulError):
                raise
            raise _refuse(f"车轮战数据有误：{exc!r}", f"malformed simul data: {exc!r}") from exc


def _entrant_dict(e: SimulEntrant) -> dict[str, Any]:
    return {"key": e.key, "name": e.name, "blindfold": e.blindfold,
            "handicap": e.handicap, "members": list(e.members)}

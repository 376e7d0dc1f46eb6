"""The time controls of quick pairing, by game, each with its name.

Xiangqi: the rule book's schemes, clause 6 (6.1-6.4 by stages, 6.5 包干),
the 2007 trial rules' time and point odds (seed 001: Red 80 min + 30 s a
move, Black 40 min + 30 s; win 3, loss 0, draw Red 1 / Black 2; the
``cxa-2007`` profile carries both), and the common online controls
(5+3, 10+5, 15+10: sudden death with a Fischer increment).

Go, on 9x9, 13x13 and 19x19: sudden death; Chinese byo-yomi as Go §3
describes it ("全国比赛保留五分钟读秒，基层比赛亦可保留一分钟"); Japanese
periods; Canadian periods.  The main times grow with the board.

Every control is a game's stored settings (:func:`qisai.web.play.referee_games.
parse_time_control` reads them), so a pool's game is made exactly like a
custom one, and its clock is the referee's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from qisai.referee.time_families import FAMILIES
from qisai.web.play.referee_games import family_of_settings

__all__ = ["CONTROLS", "QuickControl", "control"]


@dataclass(frozen=True)
class QuickControl:
    """One quick-pairing button: a pool's game and its time control."""

    id: str
    kind: str
    """``xiangqi`` or ``go``."""
    ruleset: str
    time: dict[str, Any] | None
    """The game's ``settings["time"]``; ``None``: the profile's own."""
    zh: str
    en: str
    clause: str
    group: str
    """Where the page shows it: ``rules`` (the rule book), ``online``, or the
    Go board size (``9``, ``13``, ``19``)."""
    size: int | None = None
    short: str = ""
    """The button's headline when it is not the clause (``5+3``)."""
    family: str = field(init=False)

    def __post_init__(self) -> None:
        # Raises for a control the referee would refuse: caught at import.
        object.__setattr__(self, "family", family_of_settings(self.kind, self.ruleset,
                                                              self.settings()))

    def settings(self) -> dict[str, Any]:
        """Return the settings a game of this pool is stored with."""
        out: dict[str, Any] = {}
        if self.time is not None:
            out["time"] = dict(self.time)
        if self.size is not None:
            out["size"] = self.size
        return out

    def public(self) -> dict[str, Any]:
        """Return the control as the page and the API show it."""
        return {"id": self.id, "kind": self.kind, "ruleset": self.ruleset, "size": self.size,
                "zh": self.zh, "en": self.en, "clause": self.clause, "group": self.group,
                "short": self.short or self.clause,
                "family": self.family, "family_zh": FAMILIES[self.family][0],
                "family_en": FAMILIES[self.family][1]}


def _sd(minutes: int, increment: int = 0) -> dict[str, Any]:
    return {"minutes": minutes, "increment": increment}


def _by(minutes: int, kind: str, periods: int, seconds: int, moves: int = 1) -> dict[str, Any]:
    return {"minutes": minutes, "byoyomi": {"kind": kind, "periods": periods,
                                            "seconds": seconds, "moves": moves}}


def _xiangqi() -> list[QuickControl]:
    x = "xiangqi"
    return [
        QuickControl("xq-6.1", x, "cxa", {"scheme": "6.1"},
                     "90分钟40着，以后每15分钟10着", "40 moves in 90 min, then 10 per 15 min",
                     "6.1", "rules"),
        QuickControl("xq-6.2", x, "cxa", {"scheme": "6.2"},
                     "60分钟30着，以后每10分钟10着", "30 moves in 60 min, then 10 per 10 min",
                     "6.2", "rules"),
        QuickControl("xq-6.3", x, "cxa", {"scheme": "6.3"},
                     "快棋：10分钟40着，以后每5分钟30着", "Rapid: 40 moves in 10 min, then 30 per 5 min",
                     "6.3", "rules"),
        QuickControl("xq-6.4", x, "cxa", {"scheme": "6.4"},
                     "快棋：每5分钟30着", "Rapid: 30 moves in every 5 min", "6.4", "rules"),
        QuickControl("xq-6.5", x, "cxa", _sd(20),
                     "包干：每方20分钟", "Sudden death: 20 min each", "6.5", "rules"),
        QuickControl("xq-2007", x, "cxa-2007", None,
                     "2007试行贴时贴分：红80分钟、黑40分钟，每步加30秒；胜3分，和红1黑2",
                     "2007 trial odds: Red 80 min, Black 40 min, +30 s a move; "
                     "win 3, draw Red 1 / Black 2", "2007 试行规则", "rules"),
        QuickControl("xq-5+3", x, "cxa", _sd(5, 3), "5分钟 + 每步3秒", "5 min + 3 s",
                     "6.5", "online", short="5+3"),
        QuickControl("xq-10+5", x, "cxa", _sd(10, 5), "10分钟 + 每步5秒", "10 min + 5 s",
                     "6.5", "online", short="10+5"),
        QuickControl("xq-15+10", x, "cxa", _sd(15, 10), "15分钟 + 每步10秒", "15 min + 10 s",
                     "6.5", "online", short="15+10"),
    ]


# Main minutes by board: sudden death, national 读秒, club 读秒, Japanese,
# Canadian (and the Japanese periods, the Canadian moves and minutes).
_GO = {
    9: {"sd": 10, "cn5": 10, "cn1": 5, "jp": 5, "jp_periods": 3, "ca": 5, "ca_moves": 10,
        "ca_minutes": 2},
    13: {"sd": 20, "cn5": 15, "cn1": 10, "jp": 10, "jp_periods": 5, "ca": 10, "ca_moves": 15,
         "ca_minutes": 5},
    19: {"sd": 40, "cn5": 30, "cn1": 20, "jp": 20, "jp_periods": 5, "ca": 20, "ca_moves": 25,
         "ca_minutes": 10},
}


def _go() -> list[QuickControl]:
    out = []
    for size, m in _GO.items():
        g = str(size)
        out += [
            QuickControl(f"go{size}-sd", "go", "chinese", _sd(m["sd"]),
                         f"{size}路 包干{m['sd']}分钟", f"{size}x{size} sudden death {m['sd']} min",
                         "§3 时限", g, size),
            QuickControl(f"go{size}-cn5", "go", "chinese", _by(m["cn5"], "chinese", 5, 60),
                         f"{size}路 {m['cn5']}分钟 + 保留5分钟读秒（全国比赛）",
                         f"{size}x{size} {m['cn5']} min + 5 min kept for 读秒 (national)",
                         "§3 读秒", g, size),
            QuickControl(f"go{size}-cn1", "go", "chinese", _by(m["cn1"], "chinese", 1, 60),
                         f"{size}路 {m['cn1']}分钟 + 保留1分钟读秒（基层比赛）",
                         f"{size}x{size} {m['cn1']} min + 1 min kept for 读秒 (club)",
                         "§3 读秒", g, size),
            QuickControl(f"go{size}-jp", "go", "chinese",
                         _by(m["jp"], "japanese", m["jp_periods"], 30),
                         f"{size}路 {m['jp']}分钟 + 日本读秒 {m['jp_periods']}×30秒",
                         f"{size}x{size} {m['jp']} min + Japanese {m['jp_periods']}×30 s",
                         "§3", g, size),
            QuickControl(f"go{size}-ca", "go", "chinese",
                         _by(m["ca"], "canadian", 1, m["ca_minutes"] * 60, m["ca_moves"]),
                         f"{size}路 {m['ca']}分钟 + 加拿大读秒 每{m['ca_minutes']}分钟{m['ca_moves']}手",
                         f"{size}x{size} {m['ca']} min + Canadian {m['ca_moves']} moves "
                         f"in {m['ca_minutes']} min", "§3", g, size),
        ]
    return out


CONTROLS: dict[str, QuickControl] = {c.id: c for c in _xiangqi() + _go()}
"""Every quick-pairing control by id, in the page's order."""


def control(pool_id: str) -> QuickControl | None:
    """Return the control of pool ``pool_id``, or ``None`` if there is none."""
    return CONTROLS.get(pool_id)

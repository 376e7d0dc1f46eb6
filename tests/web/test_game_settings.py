"""A server game's settings read into fields (qisai.web.play.game_settings,
issue 34.2): what the arena acts on is typed; shapes not as written read as
absent, so a game always loads."""

from __future__ import annotations

from qisai.referee.verdict import Side
from qisai.web.play.game_settings import Driven, GameSettings


def test_the_fields_are_read_from_the_stored_json() -> None:
    stored = {"time": {"minutes": 10}, "blindfold": ["second"],
              "driven": {"side": "first", "engine": "builtin", "account": "7", "name": "qisai"},
              "groups": {"first": {"members": [1, 2], "names": ["jia", "yi"]}},
              "simul": {"id": 3, "name": "春节车轮战", "board": 4}}
    s = GameSettings.read(stored)
    assert s.driven == Driven(Side.FIRST, "builtin", 7, "qisai")
    assert s.blindfold == ("second",) and s.simul_board() == 4
    assert s.group(Side.FIRST) == {"members": [1, 2], "names": ["jia", "yi"]}
    assert s.group(Side.SECOND) is None
    assert s.stored == stored  # what the profile is built from and a rematch copies


def test_bad_shapes_read_as_absent() -> None:
    s = GameSettings.read({"driven": {"engine": "x", "account": "seven"},
                           "groups": ["first"], "blindfold": "first", "simul": 5,
                           "extra": 1})
    assert s.driven is None and s.groups == {} and s.blindfold == ()
    assert s.simul is None and s.simul_board() is None
    assert GameSettings.read(None) == GameSettings()
    assert GameSettings.read({"blindfold": ["left", "first"]}).blindfold == ("first",)
    assert GameSettings.read({"simul": {"board": True}}).simul_board() is None


def test_a_change_is_stored_and_read_again() -> None:
    s = GameSettings.read({"time": {"minutes": 5}})
    t = s.with_stored(blindfold=["first"])
    assert t.blindfold == ("first",) and t.stored == {"time": {"minutes": 5}, "blindfold": ["first"]}
    assert s.blindfold == ()  # the old settings are unchanged

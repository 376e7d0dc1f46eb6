"""The event object a process saved last is given back for the next change
only while it still writes exactly the stored JSON (issue 29:
:func:`qisai.web.events.model.load_event`)."""

from __future__ import annotations

from pathlib import Path

from qisai.competition import Player, Tournament
from qisai.store import Database, repo
from qisai.web.events.model import load_event, save


def _event() -> Tournament:
    t = Tournament("working copy", rounds=3)
    for k in range(1, 7):
        t.add_player(Player(f"棋手{k}", rating=2000 - k))
    t.start()
    t.pair_next_round()
    return t


def test_the_saved_object_is_kept_only_while_it_matches_the_row(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'q.sqlite3'}")
    db.upgrade()
    with db.session() as s:
        org = repo.create_user(s, "org", password_hash=None)
        row = repo.create_tournament(s, name="w", kind="xiangqi", format="swiss",
                                     ruleset="xiangqi", organiser_id=org.id,
                                     settings={"event": _event().to_dict()})
        rid = row.id
    with db.session() as s:
        row = repo.get_tournament(s, rid)
        ev = load_event(row)
        assert isinstance(ev, Tournament)
        ev.record_result(1, 1, "1-0")
        save(s, row, ev)
    with db.session() as s:  # unchanged since: the same object, with its result
        again = load_event(repo.get_tournament(s, rid))
        assert again is ev and again.rounds[0].results[1].result.value == "1-0"
        again.record_result(1, 2, "0-1")  # changed but never saved
    with db.session() as s:  # the stored state wins: board 2 has no result there
        fresh = load_event(repo.get_tournament(s, rid))
        assert fresh is not ev and isinstance(fresh, Tournament)
        assert 2 not in fresh.rounds[0].results and 1 in fresh.rounds[0].results
        save(s, repo.get_tournament(s, rid), fresh)
    with db.session() as s:  # changed in the row by someone else (another process)
        row = repo.get_tournament(s, rid)
        other = Tournament.from_dict(row.settings["event"], source="test")
        other.record_result(1, 3, "=")
        repo.save_tournament(s, rid, settings={**row.settings, "event": other.to_dict()})
    with db.session() as s:
        seen = load_event(repo.get_tournament(s, rid))
        assert seen is not fresh and isinstance(seen, Tournament)
        assert seen.rounds[0].results[3].result.value == "=-="
    with db.session() as s:  # taken once: a second reader parses its own copy
        row = repo.get_tournament(s, rid)
        first, second = load_event(row), load_event(row)
        assert first is not second
    db.dispose()

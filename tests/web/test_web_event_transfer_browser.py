"""Browser test of importing a desk event file into the arena: an
organiser picks a file made by ``qisai tournament`` (a Swiss with round 1
played) on the Tournaments page; the new event's page shows its entries
and standings and offers the event file back.  Screenshots go to
``$QISAI_TEST_ARTIFACTS`` (else the test's temporary folder).

Skipped when playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from qisai.cli import app as cli_app

pytestmark = pytest.mark.slow
runner = CliRunner()


def _desk_file(tmp: Path) -> Path:
    sheet = tmp / "entries.csv"
    sheet.write_text("姓名,等级分\n王天一,2700\n郑惟桐,2690\n许银川,2650\n赵鑫鑫,2600\n",
                     encoding="utf-8")
    path = tmp / "desk.json"
    for args in (["create", str(path), "--entries", str(sheet), "--name", "Desk Swiss",
                  "--rounds", "3"], ["pair", str(path)],
                 ["result", str(path), "--round", "1", "1 1-0, 2 ="]):
        res = runner.invoke(cli_app, ["tournament", *args])
        assert res.exit_code == 0, res.output
    return path


def test_organiser_imports_a_desk_file(live_server: tuple[str, Path], browser: Any,
                                       shots: Path, tmp_path: Path) -> None:
    base, data = live_server
    path = _desk_file(tmp_path)
    ctx = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.goto(f"{base}/login")
    page.fill("#username", "importer")
    page.fill("#password", "a board of my own")
    page.click("#register-button")
    page.wait_for_url(f"{base}/")
    from qisai.store import Database, repo
    from qisai.store.models import Role

    db = Database(f"sqlite:///{data / 'qisai.sqlite3'}")
    with db.session() as s:
        user = repo.find_user(s, "importer")
        assert user is not None
        repo.set_role(s, user.id, Role.ORGANISER)
    db.dispose()
    page.goto(f"{base}/tournaments")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    page.set_input_files("#import-file", str(bad))
    page.click("#import-button")
    page.wait_for_selector("#t-error:has-text('not JSON')")
    page.set_input_files("#import-file", str(path))
    page.click("#import-button")
    page.wait_for_url(f"{base}/tournaments/*")
    text = page.inner_text("main")
    for name in ("王天一", "郑惟桐", "许银川", "赵鑫鑫"):
        assert name in text
    assert page.locator("#event-file").count() == 1  # the file back, for the staff
    standings = json.loads(runner.invoke(cli_app, ["tournament", "standings", str(path),
                                                   "--format", "json"]).output)
    leader = standings["standings"][0]["name"]
    assert leader in text
    page.screenshot(path=str(shots / "imported-event.png"), full_page=True)

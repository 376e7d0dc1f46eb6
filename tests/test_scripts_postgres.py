"""``scripts/test`` starts a private PostgreSQL when none is given (issue 32
item 10: ``scripts/install-tools`` installed PostgreSQL, yet only CI's
``.ci/run`` made a database, so a developer's run skipped every PostgreSQL
test).  The helper it sources, ``scripts/lib/test-postgres.sh``, is run here
as scripts/test runs it: with ``QISAI_TEST_POSTGRES_URL`` unset it starts a
server in a temporary folder, the URL it exports reaches a PostgreSQL that
qisai's store upgrades and writes to, and the server and its folder are gone
when the script ends; with the variable set it leaves it alone.
"""

from __future__ import annotations

import glob
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HELPER = ROOT / "scripts" / "lib" / "test-postgres.sh"

pytestmark = pytest.mark.slow


def _bash(script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", f"set -euo pipefail; source {HELPER}; {script}"],
                          env=env, capture_output=True, text=True, timeout=240, cwd=ROOT)


def test_a_private_postgres_for_the_tests() -> None:
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        pytest.skip("PostgreSQL is not installed (scripts/install-tools)")
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")
    env = {k: v for k, v in os.environ.items() if k != "QISAI_TEST_POSTGRES_URL"}
    env["PYTHONPATH"] = str(ROOT)
    check = ("from qisai.store import Database, repo; import os; "
             "db = Database(os.environ['QISAI_TEST_POSTGRES_URL']); db.upgrade(); "
             "s = db.session().__enter__(); repo.create_user(s, 'pgcheck', password_hash=None); "
             "print('dialect', db.engine.dialect.name, repo.find_user(s, 'pgcheck').username)")
    done = _bash("trap qisai_pg_stop EXIT; qisai_pg_start; "
                 "echo \"URL=$QISAI_TEST_POSTGRES_URL\"; echo \"DIR=$qisai_pg_dir\"; "
                 f"python3 -c \"{check}\"", env)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    assert lines["URL"].startswith("postgresql+psycopg://qisai@127.0.0.1:")
    assert "dialect postgresql pgcheck" in done.stdout
    assert not Path(lines["DIR"]).exists()  # stopped and removed at the end


def test_a_given_postgres_url_is_left_alone() -> None:
    env = dict(os.environ, QISAI_TEST_POSTGRES_URL="postgresql+psycopg://x@db.example/y")
    done = _bash("qisai_pg_start; echo \"URL=$QISAI_TEST_POSTGRES_URL DIR=$qisai_pg_dir.\"", env)
    assert done.returncode == 0, done.stderr
    assert "URL=postgresql+psycopg://x@db.example/y DIR=." in done.stdout

"""The worker's side of an engine job (issue 15 item 3), as arq runs it:
the request pickled and unpickled (arq's serializer), qisai's own engines
in a pool of the worker's processes, the answer checked by the rules cores;
an engine the worker is not configured with is an error the server rules
on, never a crash."""

from __future__ import annotations

import asyncio
import pickle
from typing import Any

import pytest

pytest.importorskip("arq", reason="the cluster extra (arq) is not installed")

from qisai.engines.pool import EnginePool  # noqa: E402
from qisai.go.coords import parse_gtp  # noqa: E402
from qisai.referee.rulesets import GoRules  # noqa: E402
from qisai.referee.verdict import Side  # noqa: E402
from qisai.web.cluster.remote_engines import engine_job  # noqa: E402
from qisai.web.play.referee_games import new_referee_game  # noqa: E402
from qisai.web.seats.opponents import GoRequest, XiangqiRequest  # noqa: E402


def _job(what: str, kind: str, name: str, request: Any, engines: dict[str, str] | None = None
         ) -> dict[str, Any]:
    async def go() -> dict[str, Any]:
        pool = EnginePool(1)
        ctx = {"pool": pool, "engines": engines or {}, "job_id": "t1"}
        try:
            return await engine_job(ctx, what, kind, name, pickle.loads(pickle.dumps(request)))
        finally:
            await pool.close()
    return asyncio.run(go())


def test_a_xiangqi_move_from_the_builtin_engine_is_legal() -> None:
    game = new_referee_game("xiangqi", "casual", {}, lambda: 0.0)
    board = game.board.copy()  # type: ignore[attr-defined]
    answer = _job("move", "xiangqi", "builtin", XiangqiRequest(board, 0.1, 60.0))
    assert answer["ok"] in {m.iccs() for m in board.legal_moves()}


def test_a_go_move_and_dead_stones_from_the_builtin_engine() -> None:
    game = new_referee_game("go", "chinese", {"size": 5}, lambda: 0.0)
    rules = game.rules
    assert isinstance(rules, GoRules)
    board = game.board.copy()  # type: ignore[attr-defined]
    answer = _job("move", "go", "builtin", GoRequest(board, rules, Side.FIRST, 0.2, 60.0))
    point = parse_gtp(answer["ok"], 5)
    assert point is not None and board.is_legal(point)
    dead = _job("dead", "go", "builtin", GoRequest(board, rules, Side.FIRST, 0.2, 60.0))
    assert dead == {"ok": []}  # an empty board has no dead stones


def test_an_engine_the_worker_does_not_know_is_an_error_not_a_crash() -> None:
    game = new_referee_game("xiangqi", "casual", {}, lambda: 0.0)
    board = game.board.copy()  # type: ignore[attr-defined]
    answer = _job("move", "xiangqi", "nonesuch", XiangqiRequest(board, 0.1, 10.0))
    assert answer["error"] == "RuntimeError" and "not configured on this worker" in answer["message"]
    # A Go engine named for a Xiangqi game is refused the same way.
    answer = _job("move", "xiangqi", "gg", XiangqiRequest(board, 0.1, 10.0),
                  engines={"gg": "gtp:gnugo --mode gtp"})
    assert answer["error"] == "RuntimeError" and "plays go" in answer["message"]

"""Arena commands: ``qisai serve`` (the web arena) and ``qisai play`` (a
terminal game against the built-in engine or a friend).

``register(app)`` adds them to the ``qisai`` command.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["grant_role", "play", "register", "serve"]


def _stderr() -> Console:
    """A console on standard error (rich is imported when first needed)."""
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: MESSAGE`` on standard error (``MESSAGE`` is plain text,
    no markup) and return the exit to raise with status ``code``."""
    from rich.markup import escape

    _stderr().print(f"[red]error:[/red] {escape(message)}")
    return typer.Exit(code)


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="TCP port."),
    data_dir: Path | None = typer.Option(
        None, "--data-dir", help="Data folder (default $QISAI_DATA_DIR or the user's data dir)."),
    database_url: str | None = typer.Option(
        None, "--database-url",
        help="SQLAlchemy URL, e.g. postgresql+psycopg://u:p@host/db (default $QISAI_DATABASE_URL "
             "or an SQLite file in the data folder)."),
    engine: list[str] = typer.Option(  # noqa: B008 - typer's idiom
        [], "--engine",
        help="An external engine players may choose (repeatable): NAME=gtp:COMMAND for a Go "
             "engine (GTP), NAME=[ucci:]COMMAND for a Xiangqi engine (UCI, or UCCI)."),
    engine_think: float | None = typer.Option(
        None, "--engine-think", min=0.01, max=600.0,
        help="Seconds an engine opponent thinks a move (default $QISAI_ENGINE_THINK or 1)."),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn log level."),
) -> None:
    """Start the web arena: play, watch and run events at http://HOST:PORT/."""
    _err = _stderr()
    try:
        import uvicorn

        from qisai.web import Settings, create_app
    except ImportError as exc:  # pragma: no cover - a broken install
        _err.print(f"[red]error:[/red] the arena needs its dependencies: {exc}")
        raise typer.Exit(2) from exc
    engines: dict[str, str] = {}
    for spec in engine:
        name, sep, command = spec.partition("=")
        if not sep or not name.strip() or not command.strip():
            _err.print(f"[red]error:[/red] --engine {spec!r}: expected NAME=COMMAND")
            raise typer.Exit(2)
        from qisai.web.opponents import parse_spec

        try:
            parse_spec(command.strip())
        except ValueError as exc:
            _err.print(f"[red]error:[/red] --engine {spec!r}: {exc}")
            raise typer.Exit(2) from None
        engines[name.strip()] = command.strip()
    try:
        folder = data_dir.expanduser() if data_dir is not None else None
        if folder is not None:
            os.environ["QISAI_DATA_DIR"] = str(folder)
        settings = Settings.from_env(folder, url=database_url)
    except (OSError, ValueError) as exc:
        _err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    settings.engines = engines
    if engine_think is not None:
        settings.engine_think = engine_think
    shown = settings.database_url.split("@")[-1]  # never print a password
    _err.print(f"qisai arena: http://{host}:{port}/  (data: {settings.data_dir}, db: {shown})")
    try:
        app = create_app(settings)
        # The server holds many small long-lived objects (games, boards,
        # event logs): with CPython's default thresholds full collections
        # run often and stall every game for 100-300 ms.  Freeze what start-up
        # made and collect young objects less eagerly (measured with
        # bench/arena_load.py: p99 round trip 270 -> about 150 ms).
        gc.freeze()
        gc.set_threshold(50_000, 50, 100)
        # No per-message compression: game frames are small and the CPU is
        # better spent on games.
        uvicorn.run(app, host=host, port=port, log_level=log_level,
                    ws_per_message_deflate=False)
    except OSError as exc:
        _err.print(f"[red]error:[/red] cannot serve on {host}:{port}: {exc}")
        raise typer.Exit(1) from exc


def play(
    opponent: str = typer.Option("engine", "--opponent", help="'engine' (built-in) or 'friend' "
                                 "(two players at one terminal)."),
    color: str = typer.Option("red", "--color", help="Your colour against the engine: red or black."),
    think: float = typer.Option(1.0, "--think", min=0.05, max=60.0,
                                help="Engine thinking time per move, seconds."),
    notation_name: str = typer.Option("chinese", "--notation",
                                      help="Move display: chinese, wxf or iccs."),
    fen: str | None = typer.Option(None, "--fen", help="Start position (Xiangqi FEN)."),
) -> None:
    """Play Xiangqi in the terminal under the casual rules; moves in Chinese
    notation (炮二平五), WXF (C2.5) or ICCS (h2e2).  Type 'resign', 'draw' or 'quit'."""
    _err = _stderr()
    from qisai.referee.errors import EventError
    from qisai.referee.rulesets import ruleset
    from qisai.referee.verdict import Side
    from qisai.referee.xiangqi_game import XiangqiGame
    from qisai.xiangqi import notation

    if opponent not in ("engine", "friend"):
        _err.print(f"[red]error:[/red] --opponent {opponent!r}: use engine or friend")
        raise typer.Exit(2)
    if color not in ("red", "black"):
        _err.print(f"[red]error:[/red] --color {color!r}: use red or black")
        raise typer.Exit(2)
    if notation_name not in ("chinese", "wxf", "iccs"):
        _err.print(f"[red]error:[/red] --notation {notation_name!r}: use chinese, wxf or iccs")
        raise typer.Exit(2)
    rules = ruleset("casual")
    try:
        game = XiangqiGame(rules, fen=fen, now=time.monotonic)  # type: ignore[arg-type]
    except EventError as exc:
        _err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    game.start()
    human = {Side.FIRST, Side.SECOND} if opponent == "friend" else (
        {Side.FIRST} if color == "red" else {Side.SECOND})
    searcher = None
    if opponent == "engine":
        from qisai.engines.builtin.xiangqi_search import SearchLimits, XiangqiSearcher

        searcher = XiangqiSearcher(hash_entries=1 << 18)
    from rich.console import Console

    out = Console(highlight=False)
    while not game.is_over:
        board = game.board
        out.print(board.unicode())
        side = game.to_move
        who = "红方 Red" if side is Side.FIRST else "黑方 Black"
        if side in human:
            try:
                text = input(f"{who} {'(将军!) ' if board.is_check() else ''}> ").strip()
            except EOFError:
                text = "quit"
            if text in ("quit", "exit"):
                out.print("bye")
                raise typer.Exit(0)
            if text == "resign":
                game.resign(side)
                break
            if text == "draw":
                if opponent == "engine":
                    out.print("the engine plays on (it takes no draw offers)")
                    continue
                game.offer_draw(side)
                game.accept_draw(side.other)
                break
            try:
                move = notation.parse(board, text)
            except ValueError as exc:
                out.print(f"[red]{exc}[/red]")
                continue
            shown = notation.format(board, move, notation_name)
            try:
                game.move(side, move.iccs())
            except EventError as exc:
                out.print(f"[red]{exc}[/red]")
                continue
            out.print(f"{who}: {shown}")
        else:
            assert searcher is not None
            result = searcher.search(board.copy(), SearchLimits(soft_deadline=time.monotonic() + think,
                                                                hard_deadline=time.monotonic() + 2 * think))
            if result.move is None:  # no legal move: the referee has ruled already
                break
            shown = notation.format(board, result.move, notation_name)
            game.move(side, result.move.iccs())
            out.print(f"{who}: {shown}")
    out.print(game.board.unicode())
    if game.result is not None:
        out.print(f"{game.result.pgn_result}  {game.result.explanation_zh}  {game.result.explanation_en}")
    sys.stdout.flush()


def _sqlite_file(url: str) -> Path | None:
    """The file of an SQLite URL, or None for an in-memory database or
    another backend.  Raises :class:`ValueError` for a malformed URL."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise ValueError(f"{url!r} is not a database URL ({exc})") from None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).expanduser()


def _shown_url(url: str) -> str:
    """``url`` with its password hidden (the URL must be well formed)."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def grant_role(
    username: str = typer.Argument(..., help="An account registered on the arena."),
    role: str = typer.Argument(..., help="guest, player, arbiter or organiser."),
    data_dir: Path | None = typer.Option(
        None, "--data-dir", help="Data folder (default $QISAI_DATA_DIR or the user's data dir)."),
    database_url: str | None = typer.Option(
        None, "--database-url", help="SQLAlchemy URL (default $QISAI_DATABASE_URL or the "
                                     "SQLite file in the data folder)."),
    create: bool = typer.Option(
        False, "--create", help="Create the database (the SQLite file, or qisai's tables in an "
                                "empty database) if it does not exist yet."),
) -> None:
    """Give an arena account a role (how the first organiser is made).

    Prints the database it uses (on standard error), then ACCOUNT: ROLE.
    The database must exist (made by `qisai serve`, or by --create here);
    a missing one is not created by accident.  Exit 2 for an unknown role or
    account or a missing database, 1 if the database cannot be reached.
    """
    _err = _stderr()
    from sqlalchemy import inspect
    from sqlalchemy.exc import SQLAlchemyError

    from qisai.store import Database, repo
    from qisai.store import config as store_config
    from qisai.store.models import Role

    try:
        wanted = Role(role.strip().lower())
    except ValueError:
        raise _fail(f"role {role!r}: expected one of {', '.join(r.value for r in Role)}") from None
    folder = data_dir.expanduser() if data_dir is not None else store_config.data_dir(create=False)
    url = database_url or store_config.database_url(folder)
    try:
        sqlite_file = _sqlite_file(url)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    where = str(sqlite_file) if sqlite_file is not None else _shown_url(url)
    _err.print(f"database: {where}", markup=False)
    if sqlite_file is not None and not sqlite_file.is_file():
        if not create:
            raise _fail(f"the database {where} does not exist; start the arena once (qisai "
                        "serve) with this data folder or URL, or pass --create to make a new one")
        try:
            sqlite_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise _fail(f"cannot create {sqlite_file.parent}: {exc}", 1) from exc
    try:
        db = Database(url)
    except SQLAlchemyError as exc:  # e.g. the driver of the URL is not installed
        raise _fail(f"database {where}: {exc}", 1) from exc
    try:
        if not create and not inspect(db.engine).has_table("alembic_version"):
            raise _fail(f"the database {where} has no qisai tables; start the arena once (qisai "
                        "serve) with it, or pass --create to create them")
        db.upgrade()
        with db.session() as s:
            user = repo.find_user(s, username)
            if user is None:
                raise _fail(f"no account named {username!r} in {where} (register it on the "
                            "arena first)")
            repo.set_role(s, user.id, wanted)
            print(f"{user.username}: {wanted.value}")
    except SQLAlchemyError as exc:
        raise _fail(f"database {where}: {exc}", 1) from exc
    finally:
        db.dispose()


def register(app: typer.Typer) -> None:
    """Add ``serve``, ``play`` and ``role`` to the ``qisai`` command."""
    app.command("serve")(serve)
    app.command("play")(play)
    app.command("role")(grant_role)

"""Arena commands: ``qisai serve`` (the web arena) and ``qisai role`` (grant
an account a role); ``qisai play`` (a terminal game) is in
:mod:`qisai.cli.play`.

``register(app)`` adds the three to the ``qisai`` command.
"""

from __future__ import annotations

import gc
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["grant_role", "register", "serve"]


def _stderr() -> Console:
    """A console on standard error (rich is imported when first needed)."""
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(zh: str, en: str, code: int = 2) -> typer.Exit:
    """Print ``错误：ZH`` and ``error: EN`` on standard error (plain text, no
    markup; issue 32.8) and return the exit to raise with status ``code``."""
    from qisai.cli.say import print_error

    print_error(_stderr(), zh, en)
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
             "engine (GTP), NAME=[ucci:|xboard:]COMMAND for a Xiangqi engine (UCI, UCCI or "
             "xboard/CECP).  PROTOCOL:COMMAND alone (xboard:maxqi) is named after its program."),
    engine_think: float | None = typer.Option(
        None, "--engine-think", min=0.01, max=600.0,
        help="Seconds an engine opponent thinks a move (default $QISAI_ENGINE_THINK or 1)."),
    engine_processes: int | None = typer.Option(
        None, "--engine-processes", min=1, max=1024,
        help="Most engine processes at once, qisai's own engines included; games wait for a "
             "free one (default $QISAI_ENGINE_PROCESSES or the number of CPUs)."),
    engine_nice: int | None = typer.Option(
        None, "--engine-nice", min=0, max=19,
        help="Steps of niceness for the engine processes over the server, so that they "
             "search with the CPU the server leaves (default $QISAI_ENGINE_NICE or 10; "
             "0: the same priority)."),
    discover_engines: bool | None = typer.Option(
        None, "--discover-engines/--no-discover-engines",
        help="Offer the strong engines installed here (Fairy-Stockfish; GNU Go, Pachi, KataGo; "
             "looked for on PATH and in /usr/games) at named levels (default on, unless "
             "$QISAI_DISCOVER_ENGINES=0)."),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn log level."),
    workers: int = typer.Option(
        1, "--workers", min=1, max=64,
        help="Server processes on this port (more than one needs --redis-url, and a "
             "PostgreSQL database is advised)."),
    redis_url: str | None = typer.Option(
        None, "--redis-url",
        help="Redis of several server processes, on one or many machines (default "
             "$QISAI_REDIS_URL; none: one process)."),
    engine_queue: bool = typer.Option(
        False, "--engine-queue",
        help="Have engine moves played by `qisai worker` processes through the Redis "
             "(default $QISAI_ENGINE_QUEUE)."),
) -> None:
    """Start the web arena: play, watch and run events at http://HOST:PORT/.

    Several processes (--workers, or several `qisai serve` on many machines
    behind a load balancer) serve one arena when they share a database and
    a Redis (--redis-url); see the README's "running several servers"."""
    _err = _stderr()
    try:
        import uvicorn

        from qisai.web import Settings, create_app
    except ImportError as exc:  # pragma: no cover - a broken install
        raise _fail(f"竞技场缺少所需的软件包：{exc}",
                    f"the arena needs its dependencies: {exc}") from exc
    engines: dict[str, str] = {}
    for spec in engine:
        from qisai.web.seats.opponents import parse_spec

        name, sep, command = spec.partition("=")
        if not sep or not re.fullmatch(r"[\w.+-]+", name.strip()):
            name, command = "", spec  # PROTOCOL:COMMAND alone: named after its program
            if not re.match(r"[A-Za-z]+:\S", spec.strip()):
                raise _fail(f"--engine {spec!r}：应写作 名称=命令 或 协议:命令（如 xboard:maxqi）",
                            f"--engine {spec!r}: expected NAME=COMMAND "
                            "or PROTOCOL:COMMAND (e.g. xboard:maxqi)")
        try:
            parsed = parse_spec(command.strip())
        except ValueError as exc:
            raise _fail(f"--engine {spec!r}：{exc}", f"--engine {spec!r}: {exc}") from None
        engines[name.strip() or Path(parsed.argv[0]).name] = command.strip()
    try:
        folder = data_dir.expanduser() if data_dir is not None else None
        if folder is not None:
            os.environ["QISAI_DATA_DIR"] = str(folder)
        settings = Settings.from_env(folder, url=database_url)
    except (OSError, ValueError) as exc:
        raise _fail(f"设置有误：{exc}", str(exc)) from exc
    settings.engines = engines
    if engine_think is not None:
        settings.engine_think = engine_think
    if engine_processes is not None:
        settings.engine_processes = engine_processes
    if engine_nice is not None:
        settings.engine_nice = engine_nice
    if discover_engines is None:
        discover_engines = os.environ.get("QISAI_DISCOVER_ENGINES", "1").lower() not in (
            "0", "false", "no")
    settings.discover_engines = discover_engines
    if redis_url is not None:
        from qisai.cluster.config import check_url

        try:
            settings.redis_url = check_url(redis_url)
        except ValueError as exc:
            raise _fail(f"--redis-url：{exc}", f"--redis-url: {exc}") from None
    settings.engine_queue = settings.engine_queue or engine_queue
    if (workers > 1 or settings.engine_queue) and settings.redis_url is None:
        raise _fail("--workers 大于 1 或 --engine-queue 时进程之间需要 Redis："
                    "请给出 --redis-url redis://主机:端口/0（或设置 QISAI_REDIS_URL）",
                    "--workers above 1 and --engine-queue need a Redis between the processes: "
                    "pass --redis-url redis://HOST:PORT/0 (or set QISAI_REDIS_URL)")
    shown = settings.database_url.split("@")[-1]  # never print a password
    _err.print(f"qisai arena: http://{host}:{port}/  (data: {settings.data_dir}, db: {shown}"
               + (f", {workers} processes" if workers > 1 else "") + ")")
    from qisai.web.bounds import MAX_FRAME

    # No per-message compression: game frames are small and the CPU is
    # better spent on games.  A client's frame is at most 64 KiB (the
    # socket handler checks it again and closes with 1009).
    options: dict[str, Any] = {"host": host, "port": port, "log_level": log_level,
               "ws_per_message_deflate": False, "ws_max_size": MAX_FRAME,
               "proxy_headers": True, "forwarded_allow_ips": settings.trusted_proxies}
    try:
        if workers > 1:
            # uvicorn starts each process afresh: they read their settings
            # from the environment, which carries this command's options.
            from qisai.web.app import settings_to_env

            os.environ.update(settings_to_env(settings))
            uvicorn.run("qisai.web.app:app_from_env", factory=True, workers=workers, **options)
            return
        app = create_app(settings)
        tune_gc()
        uvicorn.run(app, **options)
    except OSError as exc:
        raise _fail(f"无法在 {host}:{port} 上服务：{exc}",
                    f"cannot serve on {host}:{port}: {exc}", 1) from exc


def tune_gc() -> None:
    """Tune the collector for a server process.

    The server holds many small long-lived objects (games, boards, event
    logs): with CPython's default thresholds full collections run often and
    stall every game for 100-300 ms.  Freeze what start-up made and collect
    young objects less eagerly (measured with bench/arena_load.py: p99
    round trip 270 -> about 150 ms)."""
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)


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


def _read_password(source: Path) -> str:
    """The first line of ``source`` (``-``: standard input), without its
    line end.  Raises the exit of :func:`_fail` when it cannot be read."""
    import sys

    try:
        text = sys.stdin.readline() if str(source) == "-" else \
            source.expanduser().read_text(encoding="utf-8").partition("\n")[0]
    except (OSError, UnicodeDecodeError) as exc:
        raise _fail(f"--password-file {source}：{exc}", f"--password-file {source}: {exc}") from None
    return text.rstrip("\r\n")


def _new_account(s: Any, username: str, password: str) -> Any:
    """Create the account ``username`` with ``password`` under the rules of
    the arena's sign-up (name, look-alike names, password strength; role
    player); return it.  Raises the exit of :func:`_fail` when refused."""
    from qisai.store import ConflictError, repo
    from qisai.web.accounts.policy import normalise_username, password_problem, username_problem
    from qisai.web.security import new_hasher

    name = normalise_username(username)
    problem = username_problem(name) or password_problem(password, name)
    if problem is None and repo.find_lookalike(s, name) is not None:
        problem = f"username: {name!r} looks like another user's name"
    if problem is not None:
        raise _fail(f"注册被拒绝：{problem}", problem)
    try:
        return repo.create_user(s, name, password_hash=new_hasher().hash(password))
    except ConflictError as exc:
        raise _fail(f"注册被拒绝：{exc}", str(exc)) from None


def grant_role(
    username: str = typer.Argument(..., help="An account registered on the arena."),
    role: str = typer.Argument(..., help="guest, player, arbiter, organiser or admin."),
    data_dir: Path | None = typer.Option(
        None, "--data-dir", help="Data folder (default $QISAI_DATA_DIR or the user's data dir)."),
    database_url: str | None = typer.Option(
        None, "--database-url", help="SQLAlchemy URL (default $QISAI_DATABASE_URL or the "
                                     "SQLite file in the data folder)."),
    create: bool = typer.Option(
        False, "--create", help="Create the database (the SQLite file, or qisai's tables in an "
                                "empty database) if it does not exist yet."),
    password_file: Path | None = typer.Option(
        None, "--password-file", help="Create the account if it does not exist, with the "
                                      "password on this file's first line ('-': standard "
                                      "input), checked as the arena's sign-up checks it."),
) -> None:
    """Give an arena account a role (how the first administrator is made).

    admin: the site's administrators, who alone grant and revoke roles on
    the arena (the site keeps one: the last cannot be demoted); organiser:
    creates events and appoints their staff; arbiter: a site arbiter, who
    rules on casual games.  An existing database's earliest organiser
    became its administrator when the admin role came (migration 0002).

    Prints the database it uses (on standard error), then ACCOUNT: ROLE.
    The database must exist (made by `qisai serve`, or by --create here);
    a missing one is not created by accident.  The account must exist
    (registered on the arena), or be made here with --password-file: on a
    fresh set-up, `qisai role alice admin --create --password-file FILE`
    makes the database and the first administrator.  Exit 2 for an unknown
    role or account, a missing database, or a name or password the sign-up
    refuses; 1 if the database cannot be reached.
    """
    _err = _stderr()
    from sqlalchemy import inspect
    from sqlalchemy.exc import SQLAlchemyError

    from qisai.store import ConflictError, Database, repo
    from qisai.store import config as store_config
    from qisai.store.models import Role

    try:
        wanted = Role(role.strip().lower())
    except ValueError:
        raise _fail(f"角色 {role!r}：须为 {', '.join(r.value for r in Role)} 之一",
                    f"role {role!r}: expected one of {', '.join(r.value for r in Role)}") from None
    folder = data_dir.expanduser() if data_dir is not None else store_config.data_dir(create=False)
    url = database_url or store_config.database_url(folder)
    try:
        sqlite_file = _sqlite_file(url)
    except ValueError as exc:
        raise _fail(f"数据库地址有误：{exc}", str(exc)) from None
    where = str(sqlite_file) if sqlite_file is not None else _shown_url(url)
    _err.print(f"database: {where}", markup=False)
    if sqlite_file is not None and not sqlite_file.is_file():
        if not create:
            raise _fail(f"数据库 {where} 不存在；请先用这个数据文件夹或地址启动一次竞技场（qisai serve），"
                        "或给出 --create 新建",
                        f"the database {where} does not exist; start the arena once (qisai "
                        "serve) with this data folder or URL, or pass --create to make a new one")
        try:
            sqlite_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise _fail(f"无法建立 {sqlite_file.parent}：{exc}",
                        f"cannot create {sqlite_file.parent}: {exc}", 1) from exc
    try:
        db = Database(url)
    except SQLAlchemyError as exc:  # e.g. the driver of the URL is not installed
        raise _fail(f"数据库 {where}：{exc}", f"database {where}: {exc}", 1) from exc
    try:
        if not create and not inspect(db.engine).has_table("alembic_version"):
            raise _fail(f"数据库 {where} 中没有 qisai 的表；请先用它启动一次竞技场（qisai serve），"
                        "或给出 --create 建表",
                        f"the database {where} has no qisai tables; start the arena once (qisai "
                        "serve) with it, or pass --create to create them")
        db.upgrade()
        with db.session() as s:
            user = repo.find_user(s, username)
            if user is None and password_file is not None:
                user = _new_account(s, username, _read_password(password_file))
                _err.print(f"account {user.username} created", markup=False)
            elif user is None:
                raise _fail(f"{where} 中没有名为 {username!r} 的账号（请先在竞技场注册，"
                            "或给出 --password-file 在这里建立）",
                            f"no account named {username!r} in {where} (register it on the "
                            "arena first, or give --password-file to create it here)")
            elif password_file is not None:
                _err.print(f"account {user.username} exists: its password is left as it is",
                           markup=False)
            try:
                repo.set_role(s, user.id, wanted)
            except ConflictError as exc:
                raise _fail(f"不能改角色：{exc}", str(exc)) from None
            print(f"{user.username}: {wanted.value}")
    except SQLAlchemyError as exc:
        raise _fail(f"数据库 {where}：{exc}", f"database {where}: {exc}", 1) from exc
    finally:
        db.dispose()


def register(app: typer.Typer) -> None:
    """Add ``serve``, ``play`` and ``role`` to the ``qisai`` command."""
    app.command("serve")(serve)
    from qisai.cli.play import play

    app.command("play")(play)
    app.command("role")(grant_role)

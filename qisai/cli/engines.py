"""Engine commands: ``qisai engine xiangqi|go`` (qisai's own engines on
stdio) and ``qisai match`` (refereed engine matches, cutechess-cli style).

Example (each engine's ``key=value`` words follow its ``--engine``, as in
cutechess-cli; quoting a whole spec, ``--engine "name=fsf cmd=..."``, works
too)::

    qisai match --game xiangqi \\
        --engine name=fsf cmd=/usr/games/fairy-stockfish option.Skill_Level=0 \\
        --engine name=qisai cmd=builtin --tc movetime=0.2 --games 10 --concurrency 2 \\
        --rules cxa --pgnout games.pgn --sprt "elo0=0 elo1=50"

The match machinery (:mod:`qisai.competition.match`) is imported by the
commands themselves, so that other commands start fast.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
import typer.core

from qisai.cli import say

if TYPE_CHECKING:
    from qisai.engines.play import Adjudication

__all__ = ["regroup_engine_specs", "register"]

engine_app = typer.Typer(no_args_is_help=True, add_completion=False,
                         help="Run qisai's own engines on standard input/output.")


@engine_app.command("xiangqi")
def engine_xiangqi() -> None:
    """Speak UCI (ranks 0-9) or UCCI, whichever the GUI opens with."""
    from qisai.engines.builtin.xiangqi_server import main

    main()


@engine_app.command("go")
def engine_go(
    seconds: float = typer.Option(1.0, "--seconds", help="Seconds a move when no clock is set."),
    playouts: int = typer.Option(0, "--playouts", help="Fixed playouts a move instead of time (0: off)."),
    resign: bool = typer.Option(False, "--resign", help="Resign hopeless games."),
    seed: int = typer.Option(-1, "--seed", help="Random seed (-1: from the system)."),
    log: Path | None = typer.Option(
        None, "--log", help="Append one line a move (playouts, seconds, win rate) to this file."),
) -> None:
    """Speak GTP version 2."""
    from qisai.engines.builtin.go_server import main

    argv = ["--seconds", str(seconds)]
    if playouts:
        argv += ["--playouts", str(playouts)]
    if resign:
        argv.append("--resign")
    if seed >= 0:
        argv += ["--seed", str(seed)]
    if log is not None:
        argv += ["--log", str(log)]
    main(argv)


def _pairs(text: str, what: str) -> dict[str, int]:
    from qisai.competition.match import MatchError

    out: dict[str, int] = {}
    for word in text.split():
        key, _, value = word.partition("=")
        try:
            out[key] = int(value)
        except ValueError:
            raise MatchError(f"--{what}：{word!r} 不是 键=数字 形式",
                             f"--{what}: {word!r} is not key=number") from None
    return out


def _adjudication(resign: str, draw: str, max_plies: int) -> Adjudication:
    from qisai.competition.match import MatchError
    from qisai.engines.play import Adjudication

    r = _pairs(resign, "resign")
    d = _pairs(draw, "draw")
    for key in r:
        if key not in ("movecount", "score"):
            raise MatchError(f"--resign：未知字段 {key!r}（movecount、score）",
                             f"--resign: unknown field {key!r} (movecount, score)")
    for key in d:
        if key not in ("movenumber", "movecount", "score"):
            raise MatchError(f"--draw：未知字段 {key!r}（movenumber、movecount、score）",
                             f"--draw: unknown field {key!r} (movenumber, movecount, score)")
    return Adjudication(
        resign_moves=r.get("movecount", 3) if resign else None,
        resign_score=r.get("score", 1000),
        draw_from=d.get("movenumber", 40) if draw else None,
        draw_moves=d.get("movecount", 8),
        draw_score=d.get("score", 10),
        max_plies=max_plies or None,
    )


def match(
    game: str = typer.Option("xiangqi", "--game", help="xiangqi or go."),
    engine: list[str] = typer.Option(
        ..., "--engine", help="name=N cmd=C [proto=uci|ucci|xboard|gtp] [arg=A] [option.X=V], as "
        "separate words (cutechess-cli) or one quoted spec; cmd=builtin for qisai's own engine.  "
        "Repeat for each engine."),
    tc: str = typer.Option("movetime=1", "--tc", help="40/5400+0, 60+1, '300 byoyomi 5x60', "
                           "'3600 chinese 5', '600 canadian 25/300', movetime=0.1, none."),
    rules: str = typer.Option("", "--rules", help="cxa, axf, cxa-local (Xiangqi); chinese, "
                              "japanese, korean, ing, aga, tromp-taylor (Go)."),
    openings: Path | None = typer.Option(None, "--openings", help="FEN/EPD lines or PGN "
                                         "(Xiangqi), SGF (Go); each played with both colours."),
    games: int = typer.Option(2, "--games", min=1, help="Games per pairing (made even)."),
    concurrency: int = typer.Option(1, "--concurrency", min=1, help="Games at once."),
    tournament: str = typer.Option("match", "--tournament", help="match, round-robin, gauntlet."),
    pgnout: Path | None = typer.Option(None, "--pgnout", help="Write the Xiangqi games here."),
    sgfout: Path | None = typer.Option(None, "--sgfout", help="Write the Go games here."),
    resign: str = typer.Option("", "--resign", help="Score resignation: 'movecount=3 score=1000'."),
    draw: str = typer.Option("", "--draw", help="Score draw: 'movenumber=40 movecount=8 score=10'."),
    max_plies: int = typer.Option(0, "--maxplies", help="Adjudicate a game at this many plies."),
    sprt: str = typer.Option("", "--sprt", help="'elo0=0 elo1=5 alpha=0.05 beta=0.05'."),
    size: int = typer.Option(9, "--size", help="Go board size."),
    komi: float | None = typer.Option(None, "--komi", help="Go komi in points (default: the rules')."),
    handicap: int = typer.Option(0, "--handicap", help="Go handicap stones (fixed placement)."),
    queue: str = typer.Option("", "--queue", help="redis://HOST:PORT/DB: play the games on "
                              "`qisai worker` machines (--concurrency games queued at once)."),
) -> None:
    """Play a refereed engine match and print score, Elo ± 95%, LOS, SPRT and endings.

    Each --engine is followed by its key=value words (cutechess-cli style) or
    by one quoted spec.  Exit 2 for a bad setting."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from qisai.competition.match import (
        EngineSpec,
        GameRecord,
        MatchConfig,
        MatchError,
        MatchReport,
        Sprt,
        load_openings,
        parse_time_control,
        play_match,
    )

    _console = Console(highlight=False, stderr=True)
    try:
        if game not in ("xiangqi", "go"):
            raise MatchError("--game 须为 xiangqi（象棋）或 go（围棋）",
                             "--game must be xiangqi or go")
        config = MatchConfig(
            game=game,
            engines=[EngineSpec.parse(text, game) for text in engine],
            time=parse_time_control(tc),
            rules=rules or None,
            openings=load_openings(openings, game) if openings else [],
            games=games,
            concurrency=concurrency,
            tournament=tournament,
            adjudication=_adjudication(resign, draw, max_plies),
            sprt=Sprt.parse(sprt) if sprt else None,
            board_size=size,
            komi=komi,
            handicap=handicap,
            pgnout=pgnout,
            sgfout=sgfout,
        )
        config.pairings()
        config.profile()
    except MatchError as exc:
        from qisai.cli.say import print_error

        print_error(_console, exc.zh, exc.en)
        raise typer.Exit(2) from exc
    total = len(config.pairings()) * (games + games % 2)
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("{task.fields[score]}"), console=_console,
                  transient=False) as progress:
        task = progress.add_task("games", total=total, score="")

        def on_game(record: GameRecord, report: MatchReport) -> None:
            first = next(iter(sorted(report.pairs.values(), key=lambda p: (p.a, p.b))))
            progress.update(task, advance=1,
                            score=f"+{first.wins} ={first.draws} -{first.losses}")

        if queue:
            report = _play_queued(config, queue, on_game)
        else:
            report = play_match(config, on_game)
    if report.stopped_by_sprt:
        _console.print(f"SPRT: {report.stopped_by_sprt}; match stopped")
    print(report.summary())


def _play_queued(config: Any, url: str, on_game: Any) -> Any:
    """Play the match on the workers of the Redis at ``url`` (exit 2 for a
    bad URL or a missing ``cluster`` extra, 1 if Redis cannot be reached)."""
    import asyncio

    from qisai.cluster.config import check_url

    try:
        url = check_url(url)
        from redis.exceptions import RedisError

        from qisai.competition.queued import run_match_queued
    except (ValueError, ImportError) as exc:
        raise say.fail(f"--queue：{exc}",
                       f"--queue: {exc}") from exc
    try:
        return asyncio.run(run_match_queued(config, url, on_game))
    except (RedisError, OSError) as exc:
        raise say.fail(f"--queue：连不上 Redis：{exc}",
                       f"--queue: cannot reach Redis: {exc}", 1) from exc


def _is_spec_word(word: str, keys: Sequence[str]) -> bool:
    """Whether ``word`` is one ``key=value`` of an engine spec."""
    key, sep, _ = word.partition("=")
    return bool(sep) and (key in keys or (key.startswith("option.") and len(key) > 7))


def _spec_text(word: str, keys: Sequence[str]) -> str:
    """``word`` as a part of a spec string: kept if it already is a whole
    spec of several words (the quoted form), else quoted as one word."""
    try:
        parts = shlex.split(word)
    except ValueError:
        parts = []
    if len(parts) > 1 and all(_is_spec_word(p, keys) for p in parts):
        return word
    return shlex.quote(word)


def regroup_engine_specs(args: Sequence[str], keys: Sequence[str]) -> list[str]:
    """Rewrite the cutechess-cli form ``--engine name=a cmd=b proto=uci`` into
    the one-value form ``--engine 'name=a cmd=b proto=uci'`` that the option
    parser takes.

    After each ``--engine`` (or ``--engine=WORD``), the following words that
    are ``K=V`` with ``K`` in ``keys`` or ``option.X`` belong to that engine;
    each word is quoted so that a value with spaces (``cmd="gnugo --mode
    gtp"`` from the shell) stays one value.  A value that is already a whole
    quoted spec is kept as it is.  Other words, and everything after
    ``--``, are left alone.  Returns the new argument list (``args`` is not
    changed).
    """
    out: list[str] = []
    i = 0
    n = len(args)
    while i < n:
        word = args[i]
        if word == "--":
            out.extend(args[i:])
            break
        if word == "--engine" and i + 1 < n:
            group, j = [args[i + 1]], i + 2
        elif word.startswith("--engine="):
            group, j = [word[len("--engine="):]], i + 1
        else:
            out.append(word)
            i += 1
            continue
        if _is_spec_word(group[0], keys):
            while j < n and _is_spec_word(args[j], keys):
                group.append(args[j])
                j += 1
            out += ["--engine", " ".join(_spec_text(w, keys) for w in group)]
        else:
            out += ["--engine", group[0]]
        i = j
    return out


class _MatchCommand(typer.core.TyperCommand):
    """``qisai match``: regroups the cutechess-cli engine form before parsing."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        from qisai.competition.match import ENGINE_SPEC_KEYS

        return super().parse_args(ctx, regroup_engine_specs(args, ENGINE_SPEC_KEYS))


def register(app: typer.Typer) -> None:
    """Add ``qisai engine xiangqi|go`` and ``qisai match`` to ``app``."""
    app.add_typer(engine_app, name="engine", help="qisai's own engines on stdio (UCI/UCCI, GTP).")
    app.command("match", cls=_MatchCommand)(match)

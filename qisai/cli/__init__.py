"""The ``qisai`` command line.

Each family of commands lives in its own module of this package (one Typer
sub-application each) so that the layers below never import the CLI.
"""

from __future__ import annotations

import typer

from qisai.cli import arena as _arena
from qisai.cli import engines as _engines
from qisai.cli import event as _event
from qisai.cli import go as _go
from qisai.cli import judge as _judge
from qisai.cli import notation as _notation
from qisai.cli import records as _records
from qisai.cli import tournament as _tournament
from qisai.cli import worker as _worker
from qisai.cli import xiangqi as _xiangqi

app = typer.Typer(
    name="qisai",
    help="qisai (棋赛): Xiangqi and Go under the official Chinese rules.",
    no_args_is_help=True,
    add_completion=False,
)

_arena.register(app)
_xiangqi.register(app)
_notation.register(app)
_records.register(app)
_judge.register(app)
_engines.register(app)
_worker.register(app)
app.add_typer(_go.app, name="go", help="Go (围棋): replay and score SGF games.")
app.add_typer(_tournament.app, name="tournament", help="Competitions (比赛): pairings, results, standings.")
app.add_typer(_event.app, name="event", help="Events of every format (赛事): knock-out, groups, "
                                             "teams, McMahon; standings and papers.")
_event.register_papers(_tournament.app)


def main() -> None:
    """Entry point of the ``qisai`` console script."""
    app()

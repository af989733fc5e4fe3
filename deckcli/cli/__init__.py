"""The ``deckcli`` command line: one Typer sub-app per noun, no logic of its own."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from deckcli import __version__
from deckcli.cli import db as db_cli
from deckcli.cli import deck as deck_cli
from deckcli.cli import export as export_cli
from deckcli.cli import formats as formats_cli
from deckcli.cli import games as games_cli
from deckcli.cli import goldfish as goldfish_cli
from deckcli.cli import play as play_cli
from deckcli.cli import validate as validate_cli
from deckcli.cli.common import DeckcliGroup

app = typer.Typer(
    cls=DeckcliGroup,
    name="deckcli",
    help=(
        "Deck builder, format validator and goldfish simulator for Elestrals, Elekin, "
        "Aestery TCG, Elemental Clash and Elemystic."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Plain click help: rich-formatted help costs ~75 ms of imports at every start.
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"deckcli {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            envvar="DECKCLI_DB",
            help="SQLite card store to use (default: the user data folder; env DECKCLI_DB).",
            dir_okay=False,
        ),
    ] = None,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """Deck builder, format validator and goldfish simulator for elemental TCGs."""
    ctx.obj = {"db": str(db) if db else None}


app.command("validate")(validate_cli.validate)
app.command("export")(export_cli.export)
app.add_typer(formats_cli.app, name="formats")
app.add_typer(db_cli.app, name="db")
app.add_typer(deck_cli.app, name="deck")
app.command("games")(games_cli.games)
app.command("goldfish")(goldfish_cli.goldfish)
app.command("odds")(goldfish_cli.odds)
app.command("play")(play_cli.play)


def main() -> None:
    """Console-script entry point."""
    app()

"""``deckcli export``: a tournament registration sheet for a deck (txt, md, csv, json, html, pdf)."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from deckcli.cli.common import EXIT_INVALID, console, fail, open_store, print_error


class ExportFormat(StrEnum):
    """Output forms of ``--to``."""

    txt = "txt"
    md = "md"
    csv = "csv"
    json = "json"
    html = "html"
    pdf = "pdf"


class SortKey(StrEnum):
    """Orders of ``--sort``."""

    name = "name"
    type = "type"
    cost = "cost"


class PaperSize(StrEnum):
    """Paper sizes of ``--paper``."""

    a4 = "a4"
    letter = "letter"


def export(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(help="The decklist file (.txt, .json, ...), holding one deck.")],
    to: Annotated[ExportFormat, typer.Option("--to", "-t", case_sensitive=False, help="Output form.")],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            dir_okay=False,
            help="File to write (default: standard output; required for pdf). Never overwritten without --force.",
        ),
    ] = None,
    player: Annotated[
        str | None, typer.Option("--player", help="Player name (default: the deck's Player: line).")
    ] = None,
    event: Annotated[str | None, typer.Option("--event", help="Event name (default: the deck's Event: line).")] = None,
    date: Annotated[
        str | None,
        typer.Option(
            "--date",
            help="Event date (default: the deck's Date: line, else today). A YYYY-MM-DD date also "
            "chooses the banned/restricted lists checked.",
        ),
    ] = None,
    deck_name: Annotated[
        str | None, typer.Option("--deck-name", help="Deck name (default: the deck's Name: line).")
    ] = None,
    sort: Annotated[
        SortKey | None,
        typer.Option("--sort", case_sensitive=False, help="Order cards within each section (default: file order)."),
    ] = None,
    paper: Annotated[
        PaperSize, typer.Option("--paper", case_sensitive=False, help="Paper size for pdf and html.")
    ] = PaperSize.a4,
    format_name: Annotated[
        str | None,
        typer.Option("--format", "-f", help="Format id, game, or house-format .toml (default: the deck's Game: line)."),
    ] = None,
    allow_illegal: Annotated[
        bool, typer.Option("--allow-illegal", help="Export an illegal deck anyway, marked NOT LEGAL on the sheet.")
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
) -> None:
    """Write a tournament registration sheet (decklist) for a deck.

    The sheet follows the game's sections, with quantities, card names as the card
    database spells them, types, costs, section totals, player/event/date/deck name, a
    signature line and a judge-use box; pdf and html fit one A4 or Letter page. An
    illegal deck is refused (exit 1) unless --allow-illegal. Exit 2 for usage or input
    errors, including an existing OUTPUT without --force.
    """
    from deckcli.export import (
        IllegalDeckError,
        SheetOverrides,
        prepare,
        render,
        violation_lines,
        write_output,
    )

    if to is ExportFormat.pdf and output is None:
        fail("--to pdf needs an output file", "pass -o FILE.pdf (a PDF is not written to the terminal)")
    if output is not None and output.exists() and not force:
        fail(f"{output} already exists", "pass --force to overwrite it")
    store = open_store(ctx)
    overrides = SheetOverrides(player=player, event=event, date=date, deck_name=deck_name)
    try:
        sheet = prepare(
            store,
            path,
            format_name=format_name,
            overrides=overrides,
            sort=sort.value if sort else None,
            allow_illegal=allow_illegal,
        )
    except IllegalDeckError as exc:
        print_error(exc.message)
        err = console(stderr=True)
        for line in violation_lines(exc.sheet, 12):
            err.print(f"  - {line}", markup=False, highlight=False)
        if exc.hint:
            err.print(f"[yellow]hint:[/] {exc.hint}")
        raise typer.Exit(EXIT_INVALID) from None
    data = render(sheet, to.value, paper.value)
    if output is None:
        assert isinstance(data, str)
        sys.stdout.write(data)
        sys.stdout.flush()
    else:
        write_output(output, data, force=force)
    err = console(stderr=True)
    if not sheet.legal:
        err.print(f"[bold red]warning:[/] the deck is NOT LEGAL ({len(sheet.errors)} errors); the sheet is marked so")
    if output is not None:
        verdict = "legal" if sheet.legal else "NOT LEGAL"
        err.print(
            f"wrote {output} ({to.value}, {paper.value}; {sheet.total} cards, {verdict})", markup=False, highlight=False
        )

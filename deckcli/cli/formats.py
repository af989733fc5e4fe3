"""``deckcli formats``: list, show and check the formats in ``formats/``."""

from __future__ import annotations

from typing import Annotated

import typer

from deckcli.cli.common import EXIT_INVALID, console, new_app, open_store, print_json

app = new_app("Deck construction formats: list them, show their rules, check their card names.")

FormatArg = Annotated[str, typer.Argument(help="Format id, game id/alias, or path to a house-format .toml file.")]


@app.command("list")
def list_(as_json: Annotated[bool, typer.Option("--json", help="Write JSON.")] = False) -> None:
    """Every bundled format, with its game and rulebook."""
    from deckcli.rules import list_formats

    formats = list_formats()
    if as_json:
        print_json(
            [{"id": f.id, "game": f.game, "name": f.name, "rulebook": f.rulebook, "path": f.path} for f in formats]
        )
        return
    from rich.table import Table

    table = Table(title="Formats")
    for column in ("Id", "Game", "Name", "Sections", "Rules", "File"):
        table.add_column(column, overflow="fold")
    for f in formats:
        table.add_row(f.id, f.game, f.name, ", ".join(s.title for s in f.sections), str(len(f.rules)), f.path)
    console().print(table)


@app.command()
def show(name: FormatArg, as_json: Annotated[bool, typer.Option("--json", help="Write JSON.")] = False) -> None:
    """The format's sections and rules as readable tables, with rulebook references."""
    from deckcli.rules import find_format

    fmt = find_format(name)
    if as_json:
        data = fmt.model_dump(mode="json", exclude={"rules"})
        data["rules"] = [rule.model_dump(mode="json") for rule in fmt.rules]
        print_json(data)
        return
    from rich.markup import escape
    from rich.table import Table

    out = console()
    out.print(f"[bold]{escape(fmt.name)}[/] ({fmt.id}, game {fmt.game}; rulebook {fmt.rulebook})")
    sections = Table(title="Sections", title_justify="left")
    for column in ("Section", "Header words", "Card types", "Size", "Rulebook"):
        sections.add_column(column, overflow="fold")
    for s in fmt.sections:
        if s.min is not None and s.min == s.max:
            size = f"exactly {s.min}"
        else:
            size = (
                " to ".join(str(v) for v in (s.min or 0, s.max) if v is not None)
                if s.max is not None
                else f"{s.min or 0}+"
            )
        if s.optional:
            size += " (optional)"
        sections.add_row(s.title, ", ".join(s.aliases), ", ".join(s.types or ["any"]), size, escape(s.cite))
    out.print(sections)
    rules = Table(title="Rules", title_justify="left")
    for column in ("Kind", "Code", "Rule", "Severity", "Rulebook"):
        rules.add_column(column, overflow="fold")
    for rule in fmt.rules:
        rules.add_row(rule.kind, rule.violation_code, escape(rule.describe()), rule.severity, escape(rule.cite))
    out.print(rules)
    if fmt.sideboarding:
        sb = fmt.sideboarding
        keep = ", ".join(sb.keep_sizes) or "none"
        out.print(
            f"Sideboarding: cards move between {', '.join(sb.pool)}; sizes kept: {keep}. [dim]{escape(sb.cite)}[/]"
        )


@app.command()
def check(
    ctx: typer.Context,
    name: FormatArg,
    as_json: Annotated[bool, typer.Option("--json", help="Write JSON.")] = False,
) -> None:
    """Check that every card the format names exists in the card store (exit 1 if not)."""
    from deckcli.cards.pool import CardPool
    from deckcli.rules import find_format
    from deckcli.rules.intake import missing_names

    fmt = find_format(name)
    pool = CardPool.load(open_store(ctx), fmt.game)
    missing = missing_names(fmt, pool)
    if as_json:
        print_json(
            {
                "format": fmt.id,
                "names": len(set(fmt.names())),
                "missing": [{"card": n, "suggestions": s} for n, s in missing],
            }
        )
    else:
        out = console()
        for card, suggestions in missing:
            hint = f" — did you mean {', '.join(suggestions)}?" if suggestions else ""
            out.print(f"[red]✘[/] {fmt.path}: '{card}' is not a {fmt.game} card{hint}")
        names = len(set(fmt.names()))
        if missing:
            out.print(f"{len(missing)} of {names} card names in {fmt.id} match no card.")
        else:
            out.print(f"[green]✔[/] all {names} card names in {fmt.id} match cards.")
    if missing:
        raise typer.Exit(EXIT_INVALID)

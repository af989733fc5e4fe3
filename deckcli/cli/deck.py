"""``deckcli deck``: build decks (new, add, remove), look at them (show), convert them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcli.cli.common import console, fail, new_app, open_store, print_json

if TYPE_CHECKING:
    from deckcli.cards.pool import CardPool
    from deckcli.decks.analysis import DeckAnalysis
    from deckcli.decks.edit import EditResult, SectionLayout
    from deckcli.decks.model import Deck
    from deckcli.rules.formats import Format
    from deckcli.rules.report import Report

app = new_app("Build decks: create a decklist, add and remove cards, show its breakdown, convert it to other forms.")

FileArg = Annotated[Path, typer.Argument(help="Native text decklist file (.txt).", dir_okay=False)]
FormatOpt = Annotated[
    str | None,
    typer.Option("--format", "-f", help="Format id, game, or house-format .toml (default: the deck's Game: line)."),
]
#: how many violations the one-line legality summary names
SHOWN_VIOLATIONS = 3


def _single_deck(path: Path) -> Deck:
    from deckcli.decks.io import read_deck_file

    decks = read_deck_file(path)
    if len(decks) != 1:
        fail(f"{path} holds {len(decks)} decks", "deck commands work on files with one deck")
    return decks[0]


def _deck_setup(ctx: typer.Context, path: Path, format_name: str | None) -> tuple[Format, CardPool, SectionLayout]:
    """The deck's format, its game's card pool and the format's sections."""
    from deckcli.decks.edit import SectionLayout
    from deckcli.rules.intake import Pools, choose_format

    deck = _single_deck(path)
    pools = Pools(open_store(ctx))
    fmt, _ = choose_format(deck, format_name, pools)
    return fmt, pools(fmt.game), SectionLayout.from_sections(fmt.sections)


def legality_line(report: Report) -> str:
    """The verdict in one line (rich markup): legal, or the count and the first violations."""
    from rich.markup import escape

    if report.valid:
        warnings = len(report.warnings)
        return "[bold green]legal[/]" + (f" ({warnings} warning{'s' if warnings != 1 else ''})" if warnings else "")
    errors = report.errors
    shown = "; ".join(f"{v.code}: {v.message}" for v in errors[:SHOWN_VIOLATIONS])
    more = "; …" if len(errors) > SHOWN_VIOLATIONS else ""
    noun = "violation" if len(errors) == 1 else "violations"
    return f"[bold red]not legal[/]: {len(errors)} {noun} — {escape(shown)}{more}"


def _report(path: Path, fmt: Format, pool: CardPool) -> Report:
    from deckcli.rules.validate import validate

    return validate(_single_deck(path), fmt, pool)


def _print_edit(path: Path, result: EditResult, fmt: Format, pool: CardPool) -> None:
    from rich.markup import escape

    verb, preposition = ("Added", "to") if result.action == "added" else ("Removed", "from")
    where = {
        "new-line": f"new line {result.line}",
        "count": f"line {result.line}",
        "deleted-line": f"line {result.line} deleted",
    }[result.change]
    out = console()
    out.print(
        f"{verb} {result.count} [bold]{escape(result.name)}[/] {preposition} the {escape(result.section_title)}"
        f" (now {result.after}; {escape(str(path))}, {where})."
    )
    out.print(f"Deck: {legality_line(_report(path, fmt, pool))}", soft_wrap=True)


@app.command()
def new(
    game: Annotated[
        str, typer.Argument(help="Game id or alias: elestrals, elekin, aestery, elemental-clash, elemystic.")
    ],
    file: Annotated[Path, typer.Argument(help="Decklist file to create (native text form, e.g. my-deck.txt).")],
    name: Annotated[str | None, typer.Option("--name", help="Deck name (the Name: line).")] = None,
    player: Annotated[str | None, typer.Option("--player", help="Player name (the Player: line).")] = None,
    event: Annotated[str | None, typer.Option("--event", help="Event name (the Event: line).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
) -> None:
    """Create an empty decklist with a Game: line and the format's section headers.

    An existing FILE is never overwritten without --force.
    """
    from deckcli.decks.edit import SectionLayout, new_deck_text
    from deckcli.decks.io import write_text_atomic
    from deckcli.games import find_game
    from deckcli.rules.formats import find_format

    if file.suffix.lower() in (".json", ".csv", ".dek"):
        fail(
            f"{file}: deck new writes the native text form",
            "use a .txt file name; `deckcli deck convert` makes the other forms",
        )
    game_id = find_game(game).id
    fmt = find_format(game_id)
    text = new_deck_text(game_id, SectionLayout.from_sections(fmt.sections), name=name, player=player, event=event)
    write_text_atomic(file, text, force)
    titles = ", ".join(s.title for s in fmt.sections)
    console().print(f"Created {file} ({fmt.name}; sections: {titles}).", markup=False)
    console().print(f'Add cards with: deckcli deck add {file} "3 Card Name"', markup=False)


@app.command()
def add(
    ctx: typer.Context,
    file: FileArg,
    card: Annotated[
        str, typer.Argument(help="Card and count: '3 Name', '3x Name', 'Name x3', or 'Name' for one copy.")
    ],
    to: Annotated[
        str | None,
        typer.Option("--to", help="Section (main, spirit, shields, side, ...; default: where the card's type goes)."),
    ] = None,
    format_name: FormatOpt = None,
) -> None:
    """Add copies of a card to a decklist, then show whether the deck is legal.

    The card's line gets a higher count, or a new line (with the database's spelling of
    the name) goes at the end of its section; every other line stays as it was. An
    unknown name changes nothing and lists "did you mean" choices (exit 2).
    """
    from deckcli.decks.edit import add_card_to_file

    fmt, pool, layout = _deck_setup(ctx, file, format_name)
    result = add_card_to_file(file, card, layout, pool, to)
    _print_edit(file, result, fmt, pool)


@app.command()
def remove(
    ctx: typer.Context,
    file: FileArg,
    card: Annotated[
        str, typer.Argument(help="Card and count: '1 Name', '2x Name', 'Name x2', or 'Name' for one copy.")
    ],
    from_: Annotated[
        str | None,
        typer.Option("--from", help="Section to remove from (default: the one section that holds the card)."),
    ] = None,
    format_name: FormatOpt = None,
) -> None:
    """Remove copies of a card from a decklist, then show whether the deck is legal.

    The card's line gets a lower count, or is deleted when no copy is left. Removing
    more copies than the section holds is an error and changes nothing (exit 2).
    """
    from deckcli.decks.edit import remove_card_from_file

    fmt, pool, layout = _deck_setup(ctx, file, format_name)
    result = remove_card_from_file(file, card, layout, pool, from_)
    _print_edit(file, result, fmt, pool)


@app.command()
def show(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="Decklist file (.txt, .json, .csv, .dek).", dir_okay=False)],
    format_name: FormatOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Write the breakdown as JSON.")] = False,
) -> None:
    """The deck by section and card type, its cost curve, elements, types and resources."""
    from deckcli.decks.analysis import analyze
    from deckcli.decks.edit import SectionLayout
    from deckcli.rules.intake import Pools, choose_format
    from deckcli.rules.validate import validate

    deck = _single_deck(file)
    pools = Pools(open_store(ctx))
    fmt, _ = choose_format(deck, format_name, pools)
    pool = pools(fmt.game)
    analysis = analyze(deck, pool, SectionLayout.from_sections(fmt.sections))
    report = validate(deck, fmt, pool)
    if as_json:
        print_json({"format": fmt.id, "legal": report.valid, **analysis.to_json()})
        return
    _render_analysis(analysis, fmt)
    console().print(f"Deck: {legality_line(report)}", soft_wrap=True)


def _bar(value: int, largest: int, width: int = 30) -> str:
    if largest <= 0 or value <= 0:
        return ""
    eighths = round(value / largest * width * 8)
    full, part = divmod(max(eighths, 1), 8)
    return "█" * full + ("▏▎▍▌▋▊▉"[part - 1] if part else "")


def _curve_rows(curve: dict[int, int], cap: int = 8) -> list[tuple[str, int]]:
    if not curve:
        return []
    top = max(curve)
    rows = [(str(cost), curve.get(cost, 0)) for cost in range(min(curve), min(top, cap - 1) + 1)]
    if top >= cap:
        rows.append((f"{cap}+", sum(n for cost, n in curve.items() if cost >= cap)))
    return rows


def _render_analysis(analysis: DeckAnalysis, fmt: Format) -> None:
    from rich.markup import escape
    from rich.table import Table

    out = console()
    out.print(f"[bold]{escape(analysis.deck)}[/] — {escape(fmt.name)}: {analysis.total} cards")
    for section in analysis.sections:
        table = Table(title=f"{section.title} ({section.count})", title_justify="left", show_edge=False)
        for column in ("#", "Card", "Type", "Cost", "Elements", "Stats"):
            table.add_column(column, overflow="fold", justify="right" if column == "#" else "left")
        for group in section.groups:
            table.add_row("", f"[underline]{escape(group.type)}[/] ({group.count})", "", "", "", "")
            for row in group.cards:
                name = escape(row.name) + (f" [yellow]{row.flags}[/]" if row.flags else "")
                if not row.known:
                    name = f"[red]{escape(row.name)}[/] [red](unknown card)[/]"
                table.add_row(
                    str(row.count),
                    name,
                    escape(row.type_label),
                    escape(row.cost),
                    escape(row.elements),
                    escape(row.stats),
                )
        out.print(table)
    main_title = fmt.titles().get(analysis.main_section, analysis.main_section)
    rows = _curve_rows(analysis.curve)
    if rows:
        out.print(f"\n[bold]Curve[/] ({escape(main_title)}, by {analysis.cost_label})")
        largest = max(n for _, n in rows)
        width = max(len(label) for label, _ in rows)
        for label, n in rows:
            out.print(f"  {label:>{width}} │[cyan]{_bar(n, largest)}[/] {n}")
        average = f"{analysis.average_cost:.2f}" if analysis.average_cost is not None else "-"
        extra = f"; {analysis.uncosted} without a {analysis.cost_label}" if analysis.uncosted else ""
        out.print(f"  average {analysis.cost_label}: {average}{extra}")
    _render_counts(
        f"Elements ({main_title})" if analysis.game != "aestery" else f"Colours ({main_title})", analysis.elements
    )
    _render_counts(f"Card types ({main_title})", analysis.types)
    _render_resources(analysis)
    if analysis.unknown:
        out.print(f"\n[bold red]Unknown cards[/] ({len(analysis.unknown)})")
        for unknown in analysis.unknown:
            hint = f" — did you mean {', '.join(unknown.suggestions)}?" if unknown.suggestions else ""
            line = f"line {unknown.line}, " if unknown.line else ""
            out.print(f"  {unknown.count} {escape(unknown.name)} ({line}{escape(unknown.section)}){escape(hint)}")


def _render_counts(title: str, counts: dict[str, int]) -> None:
    from rich.markup import escape

    if not counts:
        return
    out = console()
    out.print(f"\n[bold]{escape(title)}[/]")
    largest = max(counts.values())
    width = max(len(key) for key in counts)
    for key, n in counts.items():
        out.print(f"  {escape(key):<{width}} │[cyan]{_bar(n, largest, 20)}[/] {n}")


def _render_resources(analysis: DeckAnalysis) -> None:
    from rich.markup import escape
    from rich.table import Table

    resources = analysis.resources
    out = console()
    if resources.balance:
        titles = {
            "spirits": "Spirits against costs",
            "essence": "Essence against costs",
            "stones": "Element-stones against levels",
        }
        table = Table(title=titles.get(resources.kind, "Resources"), title_justify="left", show_edge=False)
        table.add_column("Element")
        table.add_column(resources.supply_label[:1].upper() + resources.supply_label[1:], justify="right")
        table.add_column(resources.demand_label[:1].upper() + resources.demand_label[1:], justify="right")
        table.add_column("Cards needing it", justify="right")
        for row in resources.balance:
            short = row.demand > 0 and row.supply == 0 and row.element not in ("omni", "neutral")
            supply = f"[red]{row.supply}[/]" if short else str(row.supply)
            table.add_row(escape(row.element), supply, str(row.demand), str(row.cards))
        out.print()
        out.print(table)
        if resources.kind == "stones" and resources.other_stones:
            out.print(f"  plus {resources.other_stones} special element-stones (no element)")
    if resources.kind == "pitch" and resources.pitch_distribution:
        average = f"{resources.pitch_average:.2f}" if resources.pitch_average is not None else "-"
        out.print(f"\n[bold]Pitch[/]: total {resources.pitch_total}, average {average}")
        largest = max(resources.pitch_distribution.values())
        for pitch, n in resources.pitch_distribution.items():
            out.print(f"  pitch {pitch} │[cyan]{_bar(n, largest, 20)}[/] {n}")
    if resources.elements:
        table = Table(title="Elements", title_justify="left", show_edge=False)
        for column in ("Element", "STR", "DEF", "Invocation STR", "Invocation DEF", "SPD"):
            table.add_column(column, justify="left" if column == "Element" else "right")

        def cell(value: int | None) -> str:
            return "?" if value is None else str(value)

        for element in resources.elements:
            name = escape(element.name) + (" [yellow]PROVISIONAL[/]" if element.provisional else "")
            table.add_row(
                name,
                cell(element.strength),
                cell(element.defense),
                cell(element.invocation_strength),
                cell(element.invocation_defense),
                cell(element.speed),
            )
        out.print()
        out.print(table)


@app.command()
def convert(
    ctx: typer.Context,
    source: Annotated[Path, typer.Argument(help="Decklist to read (.txt, .json, .csv, .dek).", dir_okay=False)],
    target: Annotated[Path, typer.Argument(help="File to write; its suffix picks the form unless --to is given.")],
    to: Annotated[
        str | None, typer.Option("--to", help="Form to write: text, json, csv or mtgo (default: by TARGET's suffix).")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite TARGET if it exists.")] = False,
) -> None:
    """Convert a decklist between the text, JSON, CSV and MTGO-style forms, losing nothing.

    TARGET is never overwritten without --force. A line of SOURCE that cannot be read
    stops the conversion (exit 2) rather than being dropped.
    """
    from deckcli.decks.io import form_for_path, render_deck, write_text_atomic

    form = form_for_path(target, to)
    deck = _single_deck(source)
    if deck.problems:
        problem = deck.problems[0]
        where = f"{source}, line {problem.line}" if problem.line else str(source)
        more = f" (and {len(deck.problems) - 1} more)" if len(deck.problems) > 1 else ""
        fail(f"{where}: {problem.message}: {problem.text!r}{more}", "fix the line, then convert again")
    if not force and target.exists():
        fail(f"{target} already exists", "pass --force to overwrite it")
    titles, deck = _titles_and_settled(ctx, deck)
    text = render_deck(deck, form, titles)
    write_text_atomic(target, text, force)
    cards = deck.total()
    sections = sum(1 for entries in deck.sections.values() if entries)
    console().print(
        f"Wrote {target} ({form}: {cards} cards in {sections} section{'s' if sections != 1 else ''}).", markup=False
    )


def _titles_and_settled(ctx: typer.Context, deck: Deck) -> tuple[dict[str, str] | None, Deck]:
    """The format's section titles, and the deck with header-less cards in their sections.

    Both need the deck's game; a deck whose game cannot be told is written as it is.
    """
    from deckcli.errors import DeckcliError
    from deckcli.rules.formats import find_format

    implicit = any(e.implicit for entries in deck.sections.values() for e in entries)
    if not implicit:
        if not deck.game:
            return None, deck
        try:
            return find_format(deck.game).titles(), deck
        except DeckcliError:
            return None, deck
    from deckcli.decks.edit import SectionLayout, settle_implicit
    from deckcli.rules.intake import Pools, choose_format

    pools = Pools(open_store(ctx))
    try:
        fmt, _ = choose_format(deck, None, pools)
    except DeckcliError:
        return None, deck
    return fmt.titles(), settle_implicit(deck, SectionLayout.from_sections(fmt.sections), pools(fmt.game))

"""``deckcli db``: the card store (import, search, show, stats, reset)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from deckcli.cli.common import console, fail, game_arg, new_app, open_store, print_json

app = new_app("The card store: import card data, search and show cards.")

GameArg = Annotated[
    str, typer.Argument(help="Game id or alias: elestrals, elekin, aestery, elemental-clash, elemystic.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Write JSON instead of a table.")]


@app.command("import")
def import_cards(
    ctx: typer.Context,
    game: GameArg,
    source: Annotated[str, typer.Argument(help="A .json or .csv file, a folder of .json files, or an http(s) URL.")],
    replace: Annotated[
        bool, typer.Option("--replace", help="Delete the game's current cards first (same transaction).")
    ] = False,
    importer: Annotated[
        str | None,
        typer.Option(
            "--importer",
            help="Force a source format: canonical-json, canonical-csv, elestrals-api, elekin-gallery.",
        ),
    ] = None,
) -> None:
    """Import cards from SOURCE. Any bad record rejects the whole import; the store is unchanged."""
    from deckcli.cards.importers import import_source

    game_id = game_arg(game).id
    store = open_store(ctx)
    result = import_source(store, game_id, source, replace=replace, importer=importer)
    out = console()
    verb = "Replaced the store's cards with" if replace else "Imported"
    out.print(f"{verb} [bold]{len(result.cards)}[/] {game_id} cards from {result.source} ({result.importer}).")
    for note in result.notes:
        out.print(f"  note: {note}")
    out.print(f"The store now holds {store.card_count(game_id)} {game_id} cards.")


@app.command()
def search(
    ctx: typer.Context,
    game: GameArg,
    query: Annotated[str | None, typer.Argument(help="Text to find in names or rules text.")] = None,
    card_type: Annotated[
        str | None, typer.Option("--type", "-t", help="Card type, e.g. creature, rune, spirit.")
    ] = None,
    element: Annotated[
        str | None, typer.Option("--element", "--color", "-e", help="Element or colour (also matches cost symbols).")
    ] = None,
    cost: Annotated[
        float | None, typer.Option("--cost", "-c", help="Exact cost (Elestrals: number of Spirits; Clash: level).")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", help="Show at most this many cards (0 = all).", min=0)] = 50,
    as_json: JsonOpt = False,
) -> None:
    """Search a game's cards by name or text, type, element/colour and cost."""
    from deckcli.cards.display import summarize

    game_id = game_arg(game).id
    store = open_store(ctx)
    cards = store.search(game_id, query, card_type=card_type, element=element, cost=cost)
    shown = cards if limit == 0 else cards[:limit]
    if as_json:
        print_json([card.data for card in shown])
        return
    if not cards:
        console().print(f"No {game_id} cards match.")
        return
    from rich.table import Table

    table = Table(
        title=f"{game_id}: {len(cards)} card(s)" + (f", first {len(shown)} shown" if len(shown) < len(cards) else "")
    )
    for column in ("Name", "Type", "Cost", "Elements", "Stats", "Flags"):
        table.add_column(column, overflow="fold")
    for card in shown:
        row = summarize(card)
        table.add_row(
            row.name, row.type, row.cost, row.elements, row.stats, f"[yellow]{row.flags}[/]" if row.flags else ""
        )
    console().print(table)


@app.command()
def show(
    ctx: typer.Context,
    game: GameArg,
    name: Annotated[str, typer.Argument(help="Card name (case, quotes and title separators are ignored).")],
    as_json: JsonOpt = False,
) -> None:
    """Show one card with all its fields and printings."""
    game_id = game_arg(game).id
    store = open_store(ctx)
    card = store.get(game_id, name)
    if card is None:
        from deckcli.cards.lookup import NameIndex

        NameIndex(game_id, store.names(game_id)).resolve(name)  # raises with suggestions
        card = store.get(game_id, name)
        assert card is not None
    if as_json:
        print_json(card.data)
        return
    from rich.markup import escape
    from rich.table import Table

    from deckcli.cards.display import card_flags

    out = console()
    flags = card_flags(card)
    title = escape(card.name) + (f"  [yellow]{flags}[/]" if flags else "")
    table = Table(title=title, show_header=False, title_justify="left")
    table.add_column("field", style="bold")
    table.add_column("value", overflow="fold")
    for key, value in card.data.items():
        if key == "printings":
            continue
        if isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        table.add_row(key, escape(str(value)))
    out.print(table)
    printings = card.data.get("printings") or []
    if printings:
        ptable = Table(title=f"{len(printings)} printing(s)", title_justify="left")
        for column in ("Set", "Number", "Rarity", "Released", "Id", "Differs"):
            ptable.add_column(column)
        for p in printings:
            ptable.add_row(
                escape(str(p.get("set") or "")),
                str(p.get("number") or ""),
                str(p.get("rarity") or ""),
                str(p.get("released") or ""),
                str(p.get("source_id") or ""),
                "[yellow]yes[/]" if p.get("differs") else "",
            )
        out.print(ptable)


@app.command()
def stats(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Card counts per game and type, and where the store lives."""
    from deckcli.games import game_ids

    store = open_store(ctx)
    counts = store.counts()
    if as_json:
        print_json({"store": str(store.path), "games": {g: counts.get(g, {"total": 0}) for g in game_ids()}})
        return
    from rich.table import Table

    table = Table(title=f"Card store {store.path}")
    for column in ("Game", "Cards", "By type", "Demo", "Provisional", "Incomplete"):
        table.add_column(column)
    for game_id in game_ids():
        entry = counts.get(game_id, {"total": 0, "demo": 0, "provisional": 0, "incomplete": 0})
        by_type = ", ".join(f"{k[5:]} {v}" for k, v in sorted(entry.items()) if k.startswith("type:"))
        table.add_row(
            game_id,
            str(entry["total"]),
            by_type,
            str(entry["demo"]),
            str(entry["provisional"]),
            str(entry["incomplete"]),
        )
    console().print(table)


@app.command()
def reset(
    ctx: typer.Context,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
) -> None:
    """Delete the card store and refill it from the bundled data (imports are lost)."""
    from deckcli.cards.store import CardStore, default_db_path, reset_store
    from deckcli.cli.common import db_path

    path = db_path(ctx) or default_db_path()
    if not yes:
        if not sys.stdin.isatty():
            fail(f"refusing to delete {path} without confirmation", "pass --yes to reset non-interactively")
        typer.confirm(f"Delete {path} and every imported card?", abort=True)
    reset_store(path)
    with CardStore.open(path) as store:
        total = sum(entry["total"] for entry in store.counts().values())
    console().print(f"Reset {path}: {total} bundled cards loaded.")

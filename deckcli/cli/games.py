"""``deckcli games``: the supported games, their card counts and data sources."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from deckcli.cli.common import console, open_store, print_json


def games(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Write JSON instead of a table.")] = False,
) -> None:
    """List each game: id, aliases, cards in the store and where its data came from."""
    from deckcli.games import GAMES

    store = open_store(ctx)
    counts = store.counts()
    rows: list[dict[str, Any]] = []
    for game in GAMES:
        history = store.imports(game.id)
        rows.append(
            {
                "id": game.id,
                "name": game.name,
                "aliases": list(game.aliases),
                "cards": counts.get(game.id, {}).get("total", 0),
                "sources": [h.source for h in history],
            }
        )
    if as_json:
        print_json(rows)
        return
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="Games")
    for column in ("Id", "Name", "Aliases", "Cards", "Data source"):
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(
            str(row["id"]),
            str(row["name"]),
            ", ".join(row["aliases"]),
            str(row["cards"]),
            escape("\n".join(row["sources"])),
        )
    console().print(table)

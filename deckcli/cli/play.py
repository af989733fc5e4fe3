"""``deckcli play``: full two-player games between two policies (Elemystic)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from deckcli.cli.common import console, fail, game_arg, open_store, print_json

#: games the play command can run as full two-player games
PLAYABLE = ("elemystic",)


def play(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="Game id or alias (full two-player games: elemystic).")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games to play.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Run seed: game i uses a seed derived from (seed, i).")] = 1,
    policies: Annotated[
        str,
        typer.Option("--policies", help="Seat 1 and seat 2 policies: greedy, random or module:Class, comma-separated."),
    ] = "greedy,random",
    mirror: Annotated[bool, typer.Option("--mirror", help="Swap the two policies' seats on every odd game.")] = False,
    max_rounds: Annotated[
        int, typer.Option("--max-rounds", min=1, help="A game still running after this many rounds is a draw.")
    ] = 30,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", min=1, help="Worker processes (default: every core).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Write JSON instead of tables.")] = False,
) -> None:
    """Play full games between two policies and report win rates by seat, policy and front element.

    Results depend only on the seed, the number of games and the options, never on --workers.
    """
    from deckcli.cards.pool import CardPool
    from deckcli.engine.matches import elemystic_deck, run_matches

    chosen = game_arg(game)
    if chosen.id not in PLAYABLE:
        fail(
            f"`deckcli play` runs full two-player games of {', '.join(PLAYABLE)} only, not {chosen.id}",
            "Elemystic is the game without deck building; the other games are simulated against an empty board",
        )
    specs = [s.strip() for s in policies.split(",") if s.strip()]
    if len(specs) != 2:
        fail(
            f"--policies: expected two policies separated by a comma, got '{policies}'",
            "e.g. --policies greedy,random",
        )
    store = open_store(ctx)
    deck = elemystic_deck(CardPool.load(store, chosen.id))
    provisional = [c.name for c in deck.section("elements") if c.data.get("provisional")]
    stats = run_matches(deck, games, seed, (specs[0], specs[1]), mirror=mirror, max_rounds=max_rounds, workers=workers)
    result: dict[str, Any] = {
        "game": chosen.id,
        "seed": seed,
        "policies": specs,
        "mirror": mirror,
        "max_rounds": max_rounds,
        "provisional_elements": provisional,
        **stats.to_json(),
    }
    if as_json:
        print_json(result)
        return
    _render(result)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def _render(result: dict[str, Any]) -> None:
    from rich.markup import escape
    from rich.table import Table

    out = console()
    specs = result["policies"]
    seating = "policies swap seats on odd games" if result["mirror"] else f"P1 = {specs[0]}, P2 = {specs[1]}"
    out.print(
        f"[bold]Elemystic[/]: {result['games']} games, seed {result['seed']}, {escape(seating)}, "
        f"round cap {result['max_rounds']}"
    )
    seats = Table(title="By seat")
    for column in ("Seat", "Policy", "Wins", "Win %"):
        seats.add_column(column, justify="right" if column in ("Wins", "Win %") else "left")
    for row in result["by_seat"]:
        policy = "mixed" if result["mirror"] and specs[0] != specs[1] else specs[row["seat"] - 1]
        seats.add_row(f"P{row['seat']}", escape(policy), str(row["wins"]), _pct(row["win_rate"]))
    draw_rate = result["draws"] / result["games"] if result["games"] else None
    seats.add_row("draws", "", str(result["draws"]), _pct(draw_rate))
    out.print(seats)

    by_policy = Table(title="By policy")
    for column in ("Policy", "Seat-games", "Wins", "Win %"):
        by_policy.add_column(column, justify="left" if column == "Policy" else "right")
    for row in result["by_policy"]:
        by_policy.add_row(escape(row["policy"]), str(row["seat_games"]), str(row["wins"]), _pct(row["win_rate"]))
    out.print(by_policy)
    starter = result["starting_player"]
    rounds = result["rounds"]
    out.print(
        f"Starting player (both arrows in round 1) won {starter['wins']} games ({_pct(starter['win_rate'])}); "
        f"rounds per game: mean {rounds['mean']}, max {rounds['max']}."
    )

    elements = Table(title="By front element")
    for column in ("Element", "Fronts", "Race won", "Tied", "Lost", "Race win %", "Game win %"):
        elements.add_column(column, justify="left" if column == "Element" else "right")
    for row in sorted(result["elements"], key=lambda r: (-(r["race_win_rate"] or 0), r["element"])):
        mark = "[yellow]*[/]" if row["element"] in result["provisional_elements"] else ""
        elements.add_row(
            escape(row["element"]) + mark,
            str(row["fronts"]),
            str(row["race_won"]),
            str(row["race_tied"]),
            str(row["race_lost"]),
            _pct(row["race_win_rate"]),
            _pct(row["game_win_rate"]),
        )
    out.print(elements)
    out.print(
        "[dim]A front is one player's front element in one resolved round. Race won: that player took more "
        "Energy than they lost that round. Game win %: that player went on to win the game.[/]"
    )
    if result["provisional_elements"]:
        out.print(
            "[yellow]*[/] provisional card data (guessed stats, see card_db/DATA_NOTES.md): "
            + escape(", ".join(result["provisional_elements"]))
        )

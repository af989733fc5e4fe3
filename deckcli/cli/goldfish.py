"""``deckcli goldfish`` and ``deckcli odds``: play a deck against an empty board, and draw odds.

``goldfish`` plays many seeded games with the game's engine and greedy policy (or
``--policy module:Class``) over worker processes and summarises how fast the deck wins;
the result depends only on the deck, seed and options, never on ``--workers``.
``odds`` gives the exact hypergeometric chance of seeing a card (or any of a group) by
each turn, beside the same share from dealing the deck with the engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from deckcli.cli.common import EXIT_USAGE, console, fail, open_store, print_json

if TYPE_CHECKING:
    from deckcli.cards.pool import CardPool
    from deckcli.engine.base import EngineDeck, GameEngine
    from deckcli.engine.decks import IncompleteCard
    from deckcli.engine.runner import GoldfishStats

DEFAULT_GAMES = 10_000
DEFAULT_SIMULATE = 10_000
DEFAULT_SEED = 0
HISTOGRAM_WIDTH = 40

FormatOption = Annotated[
    str | None,
    typer.Option("--format", "-f", help="Format id, game, or house-format .toml (default: the deck's Game: line)."),
]
OnTheDrawOption = Annotated[
    bool, typer.Option("--on-the-draw", help="Play second (the first player skips their first draw in most games).")
]


# -- shared loading ------------------------------------------------------------------------


def _find_engine(game_id: str) -> GameEngine:
    from deckcli.engine import ENGINE_MODULES, find_engine
    from deckcli.engine.base import EngineError

    try:
        return find_engine(game_id)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name == ENGINE_MODULES.get(game_id):
            raise EngineError(f"there is no goldfish engine for {game_id} yet") from None
        raise


def load_engine_deck(
    ctx: typer.Context, path: Path, format_name: str | None
) -> tuple[GameEngine, EngineDeck, CardPool]:
    """The deck in ``path`` (one deck per file) ready for its game's engine, and the card pool."""
    from deckcli.decks.io import read_deck_file
    from deckcli.engine.decks import engine_deck
    from deckcli.rules.intake import Pools, choose_format

    decks = read_deck_file(path)
    if len(decks) != 1:
        fail(f"{path} holds {len(decks)} decks; give a file with exactly one deck")
    deck = decks[0]
    pools = Pools(open_store(ctx))
    fmt, _how = choose_format(deck, format_name, pools)
    engine = _find_engine(fmt.game)
    pool = pools(fmt.game)
    return engine, engine_deck(deck, fmt, pool), pool


def _describe_incomplete(cards: list[IncompleteCard]) -> list[str]:
    lines = []
    for card in cards:
        why = []
        if card.missing:
            why.append("missing " + ", ".join(card.missing))
        if card.provisional:
            why.append("provisional data")
        if not why:
            why.append("marked incomplete")
        lines.append(f"{card.name}: {'; '.join(why)}")
    return lines


# -- goldfish ------------------------------------------------------------------------------


def goldfish(
    ctx: typer.Context,
    deck_path: Annotated[Path, typer.Argument(metavar="DECK", help="Decklist file (one deck).", dir_okay=False)],
    games: Annotated[int, typer.Option("-n", "--games", help="Games to play.", min=1)] = DEFAULT_GAMES,
    seed: Annotated[int, typer.Option("--seed", help="Run seed: the same deck and seed give the same results.")] = (
        DEFAULT_SEED
    ),
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", help="Worker processes (default: every core).", min=1)
    ] = None,
    on_the_draw: OnTheDrawOption = False,
    turns: Annotated[
        int, typer.Option("--turns", help="Stop a game after this many of the player's own turns.", min=1)
    ] = 20,
    policy: Annotated[
        str | None,
        typer.Option("--policy", help="Policy 'module:Class' with choose(state, actions) (default: the greedy one)."),
    ] = None,
    allow_incomplete: Annotated[
        bool,
        typer.Option("--allow-incomplete", help="Play even if some cards lack stats or have provisional data."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Write the summary as JSON (no progress bar).")] = False,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot", metavar="FILE.png", help="Also draw the winning-turn chart (needs deckcli[plot]).", dir_okay=False
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the --plot file if it exists.")] = False,
    format_name: FormatOption = None,
) -> None:
    """Goldfish a deck: play it against an empty board many times and report how fast it wins.

    Turns are the player's own turns from 1. Exit code 2 when the deck has cards the
    engine lacks stats for (unless --allow-incomplete) or for a usage error.
    """
    from deckcli.engine.base import GameOptions
    from deckcli.engine.decks import incomplete_cards
    from deckcli.engine.runner import load_policy, run_goldfish

    if plot is not None:
        if plot.exists() and not force:
            fail(f"{plot} exists", "pass --force to overwrite it")
        _require_matplotlib()
    engine, deck, _pool = load_engine_deck(ctx, deck_path, format_name)
    incomplete = incomplete_cards(deck, engine)
    err = console(stderr=True)
    if incomplete:
        _report_incomplete(incomplete, allow_incomplete)
    load_policy(policy, engine)  # fail on a bad --policy before starting workers
    options = GameOptions(on_the_draw=on_the_draw, max_turns=turns)

    if as_json:
        stats = run_goldfish(engine, deck, games, seed, options=options, policy_spec=policy, workers=workers)
    else:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        with Progress(
            TextColumn("[bold]goldfish[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=True,
            # No refresh thread: worker processes are forked while the bar is shown.
            auto_refresh=False,
        ) as progress:
            task = progress.add_task("games", total=games)
            stats = run_goldfish(
                engine,
                deck,
                games,
                seed,
                options=options,
                policy_spec=policy,
                workers=workers,
                progress=lambda n: _advance(progress, task, n),
            )

    summary = goldfish_summary(engine, deck, stats, seed, options, policy, incomplete)
    if as_json:
        print_json(summary)
    else:
        _render_goldfish(summary, stats, deck.name, incomplete)
    if plot is not None:
        _plot(stats, plot, f"{deck.name}: {stats.games:,} games, seed {seed}")
        err.print(f"wrote {plot}")


def _advance(progress: Any, task: Any, games: int) -> None:
    progress.advance(task, games)
    progress.refresh()


def _require_matplotlib() -> None:
    import importlib

    try:
        importlib.import_module("matplotlib")
    except ImportError:
        fail("--plot needs matplotlib, which is not installed", "pip install 'deckcli[plot]'")


def _report_incomplete(cards: list[IncompleteCard], allowed: bool) -> None:
    from rich.markup import escape

    err = console(stderr=True)
    heading = "the engine lacks data for these cards" if not allowed else "playing with incomplete card data"
    err.print(f"[yellow]warning:[/] {heading} ({len(cards)}):")
    for line in _describe_incomplete(cards):
        err.print(f"  - {escape(line)}")
    if not allowed:
        fail(
            "refusing to goldfish a deck with incomplete card data",
            "fix the card data, or pass --allow-incomplete to play anyway (cards lacking stats are then"
            " never played or count as 0, as the game engine documents; provisional values are used as given)",
        )


def goldfish_summary(
    engine: GameEngine,
    deck: EngineDeck,
    stats: GoldfishStats,
    seed: int,
    options: Any,
    policy: str | None,
    incomplete: list[IncompleteCard],
) -> dict[str, Any]:
    """The JSON summary of a goldfish run (nothing in it depends on the number of workers)."""
    return {
        "game": engine.game_id,
        "games": stats.games,
        "seed": seed,
        "on_the_draw": options.on_the_draw,
        "wins_by_turn": {str(turn): stats.wins_by_turn[turn] for turn in sorted(stats.wins_by_turn)},
        "no_win": stats.no_win,
        "mean_win_turn": stats.mean_win_turn,
        "median_win_turn": stats.median_win_turn,
        "p90_win_turn": stats.p90_win_turn,
        "mulligan_rate": stats.mulligan_rate,
        "engine_version": engine.version,
        "stall_rate": stats.stall_rate,
        "deck": deck.name,
        "max_turns": options.max_turns,
        "policy": policy or "greedy",
        "incomplete_cards": [card.name for card in incomplete],
    }


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _render_goldfish(
    summary: dict[str, Any], stats: GoldfishStats, deck_name: str, incomplete: list[IncompleteCard]
) -> None:
    from rich.markup import escape
    from rich.table import Table

    out = console()
    games = stats.games
    table = Table(title=f"Goldfish: {escape(deck_name)}", show_header=False)
    table.add_column("", style="bold")
    table.add_column("", justify="right")
    mean = stats.mean_win_turn
    rows = [
        ("Game", f"{summary['game']} (engine {summary['engine_version']})"),
        ("Games", f"{games:,}"),
        ("Seed", str(summary["seed"])),
        ("Play", "on the draw (second)" if summary["on_the_draw"] else "on the play (first)"),
        ("Policy", escape(summary["policy"])),
        ("Wins", f"{stats.wins:,} ({_pct(stats.wins / games if games else 0)})"),
        (f"No win by turn {summary['max_turns']}", f"{stats.no_win:,} ({_pct(stats.no_win / games if games else 0)})"),
        ("Mean winning turn", "-" if mean is None else f"{mean:.2f}"),
        ("Median winning turn", str(stats.median_win_turn or "-")),
        ("90th percentile winning turn", str(stats.p90_win_turn or "-")),
        ("Mulligan rate", _pct(stats.mulligan_rate)),
        ("Stall rate", _pct(stats.stall_rate)),
    ]
    for label, value in rows:
        table.add_row(label, value)
    if incomplete:
        table.add_row("[yellow]Incomplete data[/]", f"[yellow]{len(incomplete)} card(s), --allow-incomplete[/]")
    out.print(table)
    ended = ", ".join(f"{escape(reason)} {n:,}" for reason, n in stats.reasons.most_common())
    out.print(f"Games ended: {ended}")
    out.print()
    for line in histogram_lines(stats):
        out.print(line, markup=False, highlight=False)


def histogram_lines(stats: GoldfishStats, width: int = HISTOGRAM_WIDTH) -> list[str]:
    """A text histogram of the winning turn with the cumulative share of all games won."""
    if not stats.wins_by_turn:
        return [f"No game won ({stats.games:,} games)."]
    first, last = min(stats.wins_by_turn), max(stats.wins_by_turn)
    peak = max(stats.wins_by_turn.values())
    cumulative = stats.won_by_turn()
    lines = [f"{'Turn':>4}  {'Wins':>9}  {'':<{width}}  {'Won by turn':>11}"]
    running = 0.0
    for turn in range(first, last + 1):
        wins = stats.wins_by_turn.get(turn, 0)
        running = cumulative.get(turn, running)
        length = wins * width / peak
        bar = "█" * int(length) + ("▌" if length - int(length) >= 0.5 else "")
        if wins and not bar:
            bar = "▏"
        lines.append(f"{turn:>4}  {wins:>9,}  {bar:<{width}}  {_pct(running):>11}")
    if stats.no_win:
        lines.append(f"{'none':>4}  {stats.no_win:>9,}  {'':<{width}}  {'':>11}")
    return lines


def _plot(stats: GoldfishStats, path: Path, title: str) -> None:
    import importlib

    # Imported by name: matplotlib is an optional extra (deckcli[plot]) without type stubs.
    matplotlib = importlib.import_module("matplotlib")
    matplotlib.use("Agg")
    plt = importlib.import_module("matplotlib.pyplot")

    turns = list(range(1, max(stats.wins_by_turn, default=1) + 1))
    wins = [stats.wins_by_turn.get(t, 0) for t in turns]
    cumulative = stats.won_by_turn()
    running = 0.0
    shares = []
    for t in turns:
        running = cumulative.get(t, running)
        shares.append(100 * running)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar(turns, wins, width=0.8, color="#4c72b0", label="games won on this turn")
    ax.set_xlabel("own turn")
    ax.set_ylabel("games won")
    ax.set_xticks(turns)
    ax.set_title(title)
    ax2 = ax.twinx()
    ax2.plot(turns, shares, color="#dd8452", marker="o", label="won by this turn (% of all games)")
    ax2.set_ylim(0, 105)
    ax2.set_ylabel("% of games won by turn")
    handles = ax.get_legend_handles_labels()[0] + ax2.get_legend_handles_labels()[0]
    labels = ax.get_legend_handles_labels()[1] + ax2.get_legend_handles_labels()[1]
    fig.legend(handles, labels, loc="lower center", ncol=2, frameon=False)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    try:
        fig.savefig(path)
    except (OSError, ValueError) as exc:
        fail(f"cannot write {path}: {exc}")
    finally:
        plt.close(fig)


# -- odds ----------------------------------------------------------------------------------


def odds(
    ctx: typer.Context,
    deck_path: Annotated[Path, typer.Argument(metavar="DECK", help="Decklist file (one deck).", dir_okay=False)],
    cards: Annotated[
        list[str],
        typer.Option("--card", "-c", help="Card to look for; repeat for a group (any of them counts)."),
    ],
    by_turn: Annotated[int, typer.Option("--by-turn", "-t", help="Last own turn to show (0 = opening hand).", min=0)],
    copies: Annotated[int, typer.Option("--copies", "-k", help="Copies wanted (at least this many).", min=1)] = 1,
    on_the_draw: OnTheDrawOption = False,
    as_json: Annotated[bool, typer.Option("--json", help="Write JSON instead of a table.")] = False,
    simulate: Annotated[
        int, typer.Option("--simulate", help="Also deal the deck this many times with the engine (0: don't).", min=0)
    ] = DEFAULT_SIMULATE,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the simulated deals.")] = DEFAULT_SEED,
    format_name: FormatOption = None,
) -> None:
    """Chance of seeing at least K copies of a card (or any of several) by each turn.

    Turn 0 is the opening hand before any mulligan; turn t adds the Draw Phase draws of
    own turns 1..t. Exact (hypergeometric) values, with the share of simulated deals beside.
    """
    from deckcli.engine.odds import count_copies, odds_by_turn, standard_error

    engine, deck, pool = load_engine_deck(ctx, deck_path, format_name)
    names = _resolve_cards(cards, deck, engine, pool)
    in_deck = count_copies(engine, deck, names)
    size = len(deck.section(engine.draw_section))
    rows = odds_by_turn(
        engine, deck, names, by_turn, copies=copies, on_the_draw=on_the_draw, simulate=simulate, seed=seed
    )
    label = " / ".join(names)
    if as_json:
        print_json(
            {
                "card": label,
                "copies": copies,
                "deck_size": size,
                "by_turn": [{"turn": r.turn, "probability": r.probability, "simulated": r.simulated} for r in rows],
                "copies_in_deck": in_deck,
                "on_the_draw": on_the_draw,
                "simulated_games": simulate,
                "seed": seed,
            }
        )
        return
    from rich.markup import escape
    from rich.table import Table

    play = "on the draw" if on_the_draw else "on the play"
    title = f"P(at least {copies} of {escape(label)}) — {in_deck} in {size} cards, {play}"
    table = Table(title=title)
    table.add_column("Turn", justify="right")
    table.add_column("Cards seen", justify="right")
    table.add_column("Exact", justify="right")
    if simulate:
        table.add_column(f"Simulated ({simulate:,} deals)", justify="right")
        table.add_column("± 2 s.e.", justify="right")
    for r in rows:
        cells = [str(r.turn) if r.turn else "0 (hand)", str(r.seen), _pct_fine(r.probability)]
        if simulate and r.simulated is not None:
            cells += [_pct_fine(r.simulated), _pct_fine(2 * standard_error(r.probability, simulate))]
        table.add_row(*cells)
    console().print(table)


def _pct_fine(value: float) -> str:
    return f"{100 * value:.2f}%"


def _resolve_cards(cards: list[str], deck: EngineDeck, engine: GameEngine, pool: CardPool) -> list[str]:
    """The card names (as the card data spells them) of ``--card`` values, each in the draw section."""
    in_section = {card.name for card in deck.section(engine.draw_section)}
    names: list[str] = []
    for raw in cards:
        card = pool.find(raw)
        if card is None:
            suggestions = pool.suggest(raw)
            fail(f"unknown card '{raw}'", f"did you mean: {', '.join(suggestions)}?" if suggestions else None)
        if card.name not in in_section:
            fail(
                f"'{card.name}' is not in the deck's {engine.draw_section} deck",
                "odds are for cards drawn from the " + engine.draw_section + " deck",
                code=EXIT_USAGE,
            )
        if card.name not in names:
            names.append(card.name)
    return names

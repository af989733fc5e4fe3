"""Running many goldfish games: deterministic per-game seeds, worker processes, streamed counts.

Game ``i`` of a run is played with ``random.Random(game_seed(seed, i))``, so the result
of a run depends only on (deck, seed, options, policy), never on how many workers
played it or in what order chunks finished. Workers return only counts, so memory
stays flat however many games are played.
"""

from __future__ import annotations

import importlib
import math
import multiprocessing
import os
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from deckcli.engine.base import EngineDeck, EngineError, GameEngine, GameOptions, GameOutcome, GameState, Policy
from deckcli.engine.seeds import game_seed


def play_game(
    engine: GameEngine,
    deck: EngineDeck,
    seed: int,
    policy: Policy,
    options: GameOptions = GameOptions(),
) -> tuple[GameOutcome, GameState]:
    """Play one game to the end with ``policy``; return its outcome and final state."""
    state = engine.new_game(deck, random.Random(seed), options)
    # A game module may offer a faster loop for its own greedy policy; it must give the
    # same actions as the generic loop (each module tests that).
    fast = getattr(state, "play_out", None)
    if fast is not None and getattr(policy, "supports_play_out", False):
        fast(policy)
    else:
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply(policy.choose(state, actions))
    return state.outcome(), state


@dataclass
class GoldfishStats:
    """Streamed counts of a goldfish run; merging two is adding their counts."""

    games: int = 0
    wins_by_turn: Counter[int] = field(default_factory=Counter)
    no_win: int = 0
    mulligan_games: int = 0
    mulligans: int = 0
    stalled: int = 0
    reasons: Counter[str] = field(default_factory=Counter)

    def add(self, outcome: GameOutcome) -> None:
        """Count one game."""
        self.games += 1
        if outcome.won and outcome.win_turn is not None:
            self.wins_by_turn[outcome.win_turn] += 1
        else:
            self.no_win += 1
        if outcome.mulligans:
            self.mulligan_games += 1
            self.mulligans += outcome.mulligans
        if outcome.stalled:
            self.stalled += 1
        self.reasons[outcome.reason] += 1

    def merge(self, other: GoldfishStats) -> None:
        """Add another run's counts to these."""
        self.games += other.games
        self.wins_by_turn.update(other.wins_by_turn)
        self.no_win += other.no_win
        self.mulligan_games += other.mulligan_games
        self.mulligans += other.mulligans
        self.stalled += other.stalled
        self.reasons.update(other.reasons)

    @property
    def wins(self) -> int:
        return sum(self.wins_by_turn.values())

    def _percentile(self, fraction: float) -> int | None:
        """The smallest turn by which ``fraction`` of the *won* games were won."""
        wins = self.wins
        if not wins:
            return None
        target = math.ceil(fraction * wins)
        running = 0
        for turn in sorted(self.wins_by_turn):
            running += self.wins_by_turn[turn]
            if running >= target:
                return turn
        return max(self.wins_by_turn)

    @property
    def mean_win_turn(self) -> float | None:
        wins = self.wins
        return sum(t * n for t, n in self.wins_by_turn.items()) / wins if wins else None

    @property
    def median_win_turn(self) -> int | None:
        return self._percentile(0.5)

    @property
    def p90_win_turn(self) -> int | None:
        return self._percentile(0.9)

    @property
    def mulligan_rate(self) -> float:
        return self.mulligan_games / self.games if self.games else 0.0

    @property
    def stall_rate(self) -> float:
        return self.stalled / self.games if self.games else 0.0

    def won_by_turn(self) -> dict[int, float]:
        """Share of *all* games won by each turn (cumulative)."""
        shares: dict[int, float] = {}
        running = 0
        for turn in sorted(self.wins_by_turn):
            running += self.wins_by_turn[turn]
            shares[turn] = running / self.games
        return shares


def load_policy(spec: str | None, engine: GameEngine) -> Policy:
    """The policy named by ``spec``: None/'greedy' for the game's greedy policy, or 'module:Class'."""
    if spec is None or spec == "greedy":
        return engine.greedy_policy()
    module_name, _, class_name = spec.partition(":")
    if not module_name or not class_name:
        raise EngineError(f"--policy '{spec}': expected 'module:Class' or 'greedy'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise EngineError(f"--policy '{spec}': cannot import module '{module_name}' ({exc})") from exc
    cls = getattr(module, class_name, None)
    if cls is None:
        raise EngineError(f"--policy '{spec}': module '{module_name}' has no '{class_name}'")
    policy = cls()
    if not callable(getattr(policy, "choose", None)):
        raise EngineError(f"--policy '{spec}': {class_name} has no choose(state, actions) method")
    return policy  # type: ignore[no-any-return]


# -- worker side -------------------------------------------------------------------------

_worker: dict[str, Any] = {}


def _init_worker(game_id: str, deck: EngineDeck, options: GameOptions, policy_spec: str | None) -> None:
    from deckcli.engine import find_engine

    engine = find_engine(game_id)
    _worker.update(engine=engine, deck=deck, options=options, policy=load_policy(policy_spec, engine))


def _run_chunk(task: tuple[int, int, int]) -> GoldfishStats:
    run_seed, start, stop = task
    engine: GameEngine = _worker["engine"]
    stats = GoldfishStats()
    for index in range(start, stop):
        seed = game_seed(run_seed, index)
        outcome, _ = play_game(engine, _worker["deck"], seed, _worker["policy"], _worker["options"])
        stats.add(outcome)
    return stats


def chunk_ranges(
    games: int, workers: int, *, per_worker: int = 16, smallest: int = 50, largest: int = 2000
) -> list[tuple[int, int]]:
    """``(start, stop)`` game ranges: about ``per_worker`` chunks a worker, so progress is
    smooth and the last chunks finish together."""
    size = max(smallest, min(largest, games // (workers * per_worker) or 1))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def run_goldfish(
    engine: GameEngine,
    deck: EngineDeck,
    games: int,
    seed: int,
    *,
    options: GameOptions = GameOptions(),
    policy_spec: str | None = None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> GoldfishStats:
    """Play ``games`` games and return their counts; identical for any ``workers``.

    ``workers`` defaults to every core. ``progress`` is called with the number of games
    just finished.
    """
    if games < 0:
        raise EngineError("the number of games must be at least 0")
    workers = max(1, workers or os.cpu_count() or 1)
    chunks = chunk_ranges(games, workers)
    total = GoldfishStats()
    if workers == 1 or len(chunks) <= 1:
        _init_worker(engine.game_id, deck, options, policy_spec)
        for start, stop in chunks:
            total.merge(_run_chunk((seed, start, stop)))
            if progress:
                progress(stop - start)
        return total
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with context.Pool(workers, initializer=_init_worker, initargs=(engine.game_id, deck, options, policy_spec)) as pool:
        for stats in pool.imap_unordered(_run_chunk, [(seed, a, b) for a, b in chunks]):
            total.merge(stats)
            if progress:
                progress(stats.games)
    return total

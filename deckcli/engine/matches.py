"""Two-player Elemystic matches: policies, per-game seeds, worker processes, streamed statistics.

Game ``i`` of a run is dealt with ``random.Random(game_seed(seed, i))``; a random policy
in seat ``s`` gets ``random.Random(game_seed(game_seed(seed, i), s + 1))``. So a run's
statistics depend only on (elements, seed, number of games, policies, seating, round
cap), never on the number of workers: workers return additive counts.

Statistics (:class:`MatchStats`):

* by seat: games won by P1 and by P2, and draws (the round cap was reached);
* by policy: for each policy, the seats it filled and how many of those games it won
  (with ``mirror`` the policies swap seats on every odd game, which separates a
  policy's strength from its seat);
* by starting player: games won by the player the rulebook's random draw gave both
  arrows in round 1 (the only real "who goes first" in Elemystic);
* by front element: every time a player played an element to the front of their column
  in a round whose attacks were resolved counts as one *front*. That front **won the
  round's damage race** when its player took more Energy from the opponent that round
  than they lost (equal damage is a tied race; a round that ended the game counts the
  defeated player's attack, if it never happened, as 0 damage). It **won the game** when
  its player went on to win the game (draws are not wins). Chaos counts as Chaos, whatever
  its shuffle revealed.
"""

from __future__ import annotations

import importlib
import inspect
import multiprocessing
import os
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckcli.cards.pool import CardPool
from deckcli.engine.base import EngineCard, EngineDeck, EngineError, Policy, RandomPolicy
from deckcli.engine.elemystic import Elements, ElemysticState, GreedyPolicy
from deckcli.engine.runner import chunk_ranges
from deckcli.engine.seeds import game_seed

#: policies known by name
POLICY_NAMES = ("greedy", "random")


def elemystic_deck(pool: CardPool) -> EngineDeck:
    """The game's components from the card store: its elements (by name) and its tokens."""
    elements = [EngineCard(c.name, c.type, c.data) for c in pool.cards() if c.type == "element"]
    tokens = [EngineCard(c.name, c.type, c.data) for c in pool.cards() if c.type == "token"]
    if len(elements) != 9:
        raise EngineError(
            f"the card store has {len(elements)} Elemystic elements; a game needs the nine Element Cards",
            hint="run `deckcli db reset` to restore the bundled data",
        )
    return EngineDeck("elemystic", "Elemystic components", {"elements": tuple(elements), "tokens": tuple(tokens)})


def make_policy(spec: str, rng: random.Random) -> Policy:
    """The policy named ``spec``: 'greedy', 'random' or 'module:Class' (given ``rng`` if it takes one)."""
    if spec == "greedy":
        return GreedyPolicy()
    if spec == "random":
        return RandomPolicy(rng)
    module_name, _, class_name = spec.partition(":")
    if not module_name or not class_name:
        raise EngineError(f"unknown policy '{spec}'", hint=f"use {', '.join(POLICY_NAMES)} or 'module:Class'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise EngineError(f"policy '{spec}': cannot import module '{module_name}' ({exc})") from exc
    cls = getattr(module, class_name, None)
    if cls is None or not callable(cls):
        raise EngineError(f"policy '{spec}': module '{module_name}' has no '{class_name}'")
    try:
        takes_rng = len(inspect.signature(cls).parameters) >= 1
    except (TypeError, ValueError):
        takes_rng = False
    policy = cls(rng) if takes_rng else cls()
    if not callable(getattr(policy, "choose", None)):
        raise EngineError(f"policy '{spec}': {class_name} has no choose(state, actions) method")
    return policy  # type: ignore[no-any-return]


def check_policies(specs: Sequence[str]) -> tuple[str, str]:
    """Two policy specs, each loadable (raises EngineError otherwise)."""
    if len(specs) != 2:
        raise EngineError(
            f"expected two policies (seat 1, seat 2), got {len(specs)}", hint="e.g. --policies greedy,random"
        )
    for spec in specs:
        make_policy(spec, random.Random(0))
    return specs[0], specs[1]


def seating(policies: tuple[str, str], index: int, mirror: bool) -> tuple[str, str]:
    """The policies of seats 1 and 2 in game ``index`` (swapped on odd games when mirroring)."""
    return (policies[1], policies[0]) if mirror and index % 2 else policies


def play_match_game(
    elements: Elements,
    seed: int,
    policies: tuple[str, str],
    *,
    max_rounds: int = 30,
) -> ElemysticState:
    """Play one whole game with ``policies`` in seats 1 and 2; return the final state."""
    state = ElemysticState(elements, random.Random(seed), max_rounds=max_rounds)
    players = [make_policy(spec, random.Random(game_seed(seed, seat + 1))) for seat, spec in enumerate(policies)]
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(players[state.to_act].choose(state, actions))
    return state


@dataclass
class ElementFronts:
    """How the fronts of one element went (see the module docstring)."""

    fronts: int = 0
    race_won: int = 0
    race_tied: int = 0
    race_lost: int = 0
    game_won: int = 0

    def merge(self, other: ElementFronts) -> None:
        self.fronts += other.fronts
        self.race_won += other.race_won
        self.race_tied += other.race_tied
        self.race_lost += other.race_lost
        self.game_won += other.game_won


@dataclass
class MatchStats:
    """Streamed counts of a run of games; merging two adds their counts."""

    games: int = 0
    seat_wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    policy_seats: Counter[str] = field(default_factory=Counter)
    policy_wins: Counter[str] = field(default_factory=Counter)
    starter_wins: int = 0
    rounds: Counter[int] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    elements: dict[str, ElementFronts] = field(default_factory=dict)

    def add(self, state: ElemysticState, seats: tuple[str, str]) -> None:
        """Count one finished game played with ``seats`` (policy of seat 1, seat 2)."""
        self.games += 1
        winner = state.winner
        for seat, spec in enumerate(seats):
            self.policy_seats[spec] += 1
            if winner == seat:
                self.policy_wins[spec] += 1
        if winner < 0:
            self.draws += 1
        else:
            self.seat_wins[winner] += 1
            if winner == state.starting_player:
                self.starter_wins += 1
        self.rounds[state.round] += 1
        self.reasons["round cap" if winner < 0 else "opponent at 0 Energy"] += 1
        for record in state.rounds:
            for seat in (0, 1):
                fronts = self.elements.setdefault(record.fronts[seat], ElementFronts())
                fronts.fronts += 1
                dealt, taken = record.damage[seat], record.damage[1 - seat]
                if dealt > taken:
                    fronts.race_won += 1
                elif dealt == taken:
                    fronts.race_tied += 1
                else:
                    fronts.race_lost += 1
                if winner == seat:
                    fronts.game_won += 1

    def merge(self, other: MatchStats) -> None:
        """Add another run's counts to these."""
        self.games += other.games
        self.seat_wins = [a + b for a, b in zip(self.seat_wins, other.seat_wins, strict=True)]
        self.draws += other.draws
        self.policy_seats.update(other.policy_seats)
        self.policy_wins.update(other.policy_wins)
        self.starter_wins += other.starter_wins
        self.rounds.update(other.rounds)
        self.reasons.update(other.reasons)
        for name, fronts in other.elements.items():
            self.elements.setdefault(name, ElementFronts()).merge(fronts)

    @property
    def mean_rounds(self) -> float | None:
        return sum(r * n for r, n in self.rounds.items()) / self.games if self.games else None

    def to_json(self) -> dict[str, Any]:
        """The counts and rates as plain JSON values."""

        def rate(wins: int, games: int) -> float | None:
            return round(wins / games, 4) if games else None

        return {
            "games": self.games,
            "draws": self.draws,
            "by_seat": [
                {"seat": seat + 1, "wins": wins, "win_rate": rate(wins, self.games)}
                for seat, wins in enumerate(self.seat_wins)
            ],
            "by_policy": [
                {
                    "policy": spec,
                    "seat_games": self.policy_seats[spec],
                    "wins": self.policy_wins[spec],
                    "win_rate": rate(self.policy_wins[spec], self.policy_seats[spec]),
                }
                for spec in sorted(self.policy_seats)
            ],
            "starting_player": {"wins": self.starter_wins, "win_rate": rate(self.starter_wins, self.games)},
            "rounds": {
                "mean": round(self.mean_rounds, 3) if self.mean_rounds is not None else None,
                "max": max(self.rounds) if self.rounds else None,
                "histogram": {str(r): n for r, n in sorted(self.rounds.items())},
            },
            "reasons": dict(sorted(self.reasons.items())),
            "elements": [
                {
                    "element": name,
                    "fronts": f.fronts,
                    "race_won": f.race_won,
                    "race_tied": f.race_tied,
                    "race_lost": f.race_lost,
                    "race_win_rate": rate(f.race_won, f.fronts),
                    "game_won": f.game_won,
                    "game_win_rate": rate(f.game_won, f.fronts),
                }
                for name, f in sorted(self.elements.items())
            ],
        }


# -- worker side -------------------------------------------------------------------------

_worker: dict[str, Any] = {}


def _init_worker(deck: EngineDeck, policies: tuple[str, str], mirror: bool, max_rounds: int) -> None:
    _worker.update(elements=Elements.from_deck(deck), policies=policies, mirror=mirror, max_rounds=max_rounds)


def _run_chunk(task: tuple[int, int, int]) -> MatchStats:
    run_seed, start, stop = task
    stats = MatchStats()
    for index in range(start, stop):
        seats = seating(_worker["policies"], index, _worker["mirror"])
        state = play_match_game(
            _worker["elements"], game_seed(run_seed, index), seats, max_rounds=_worker["max_rounds"]
        )
        stats.add(state, seats)
    return stats


def run_matches(
    deck: EngineDeck,
    games: int,
    seed: int,
    policies: tuple[str, str] = ("greedy", "random"),
    *,
    mirror: bool = False,
    max_rounds: int = 30,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> MatchStats:
    """Play ``games`` games between ``policies`` and return their counts; identical for any ``workers``.

    ``workers`` defaults to every core; ``progress`` is called with the games just finished.
    """
    if games < 0:
        raise EngineError("the number of games must be at least 0")
    if max_rounds < 1:
        raise EngineError("the round cap must be at least 1")
    policies = check_policies(policies)
    Elements.from_deck(deck)  # fail early on bad data
    workers = max(1, workers or os.cpu_count() or 1)
    chunks = chunk_ranges(games, workers, per_worker=8, smallest=10, largest=500)
    total = MatchStats()
    if workers == 1 or len(chunks) <= 1:
        _init_worker(deck, policies, mirror, max_rounds)
        for start, stop in chunks:
            total.merge(_run_chunk((seed, start, stop)))
            if progress:
                progress(stop - start)
        return total
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with context.Pool(workers, initializer=_init_worker, initargs=(deck, policies, mirror, max_rounds)) as pool:
        for stats in pool.imap_unordered(_run_chunk, [(seed, a, b) for a, b in chunks]):
            total.merge(stats)
            if progress:
                progress(stats.games)
    return total

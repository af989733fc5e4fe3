"""Draw odds: the exact hypergeometric chance of seeing cards by a turn, and a simulated check.

By own turn ``t`` the player has seen the opening hand plus every card drawn in the
Draw Phases of turns 1..t (turn 0 is the opening hand, before any mulligan). With
``N`` cards in the draw section, ``K`` of them the wanted card(s) and ``n`` cards seen,
the chance of at least ``k`` of them is

    P(X >= k) = 1 - sum_{i < k} C(K, i) * C(N - K, n - i) / C(N, n)

computed exactly with :func:`math.comb` and :class:`fractions.Fraction`.

The simulation deals the deck ``games`` times with the engine's own dealing: game ``i``
is a new game of the engine seeded ``game_seed(seed, i)`` (as the goldfish runner seeds
it), with no mulligan, and the cards seen are read from its ``dealt_order()`` — the
draw section in the order the player sees it, opening hand first. An engine whose state
lacks ``dealt_order`` is dealt by shuffling the draw section with the same seeded RNG.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from deckcli.engine.base import EngineDeck, EngineError, GameEngine, GameOptions
from deckcli.engine.seeds import game_seed


def at_least(deck_size: int, copies: int, seen: int, wanted: int = 1) -> Fraction:
    """Exact P(at least ``wanted`` of ``copies`` cards among ``seen`` cards from ``deck_size``)."""
    if deck_size < 0 or not 0 <= copies <= deck_size:
        raise EngineError(f"{copies} copies cannot be in a deck of {deck_size} cards")
    seen = max(0, min(seen, deck_size))
    if wanted <= 0:
        return Fraction(1)
    if wanted > copies or wanted > seen:
        return Fraction(0)
    total = math.comb(deck_size, seen)
    below = sum(math.comb(copies, i) * math.comb(deck_size - copies, seen - i) for i in range(wanted))
    return 1 - Fraction(below, total)


def cards_seen(engine: GameEngine, deck: EngineDeck, turn: int, on_the_draw: bool) -> int:
    """Cards of the draw section seen by own turn ``turn`` (0 = the opening hand), capped at its size."""
    seen = engine.opening_hand(deck) + sum(engine.draws_on_turn(deck, t, on_the_draw) for t in range(1, turn + 1))
    return min(seen, len(deck.section(engine.draw_section)))


@dataclass(frozen=True)
class TurnOdds:
    """The chance of having seen the cards by one turn."""

    turn: int
    #: cards seen by then
    seen: int
    #: exact probability
    probability: float
    #: the simulated share, if simulated
    simulated: float | None = None


def count_copies(engine: GameEngine, deck: EngineDeck, names: Iterable[str]) -> int:
    """How many cards of the draw section are one of ``names``."""
    wanted = set(names)
    return sum(1 for card in deck.section(engine.draw_section) if card.name in wanted)


def exact_by_turn(
    engine: GameEngine,
    deck: EngineDeck,
    names: Sequence[str],
    by_turn: int,
    *,
    copies: int = 1,
    on_the_draw: bool = False,
) -> list[TurnOdds]:
    """Exact odds of seeing at least ``copies`` of ``names`` (any of them) by each turn 0..``by_turn``."""
    _check(by_turn, copies)
    size = len(deck.section(engine.draw_section))
    in_deck = count_copies(engine, deck, names)
    rows = []
    for turn in range(by_turn + 1):
        seen = cards_seen(engine, deck, turn, on_the_draw)
        rows.append(TurnOdds(turn, seen, float(at_least(size, in_deck, seen, copies))))
    return rows


def _check(by_turn: int, copies: int) -> None:
    if by_turn < 0:
        raise EngineError("the last turn must be at least 0")
    if copies < 1:
        raise EngineError("the number of copies wanted must be at least 1")


def _dealer(engine: GameEngine, deck: EngineDeck, on_the_draw: bool) -> Callable[[int], list[str]]:
    """game seed -> the draw section's card names in the order the player sees them."""
    options = GameOptions(on_the_draw=on_the_draw)
    names = [card.name for card in deck.section(engine.draw_section)]

    def deal(seed: int) -> list[str]:
        rng = random.Random(seed)
        state = engine.new_game(deck, rng, options)
        order = getattr(state, "dealt_order", None)
        if order is not None:
            return list(order())
        cards = list(names)
        random.Random(seed).shuffle(cards)
        return cards

    return deal


def simulate_by_turn(
    engine: GameEngine,
    deck: EngineDeck,
    names: Sequence[str],
    by_turn: int,
    games: int,
    seed: int,
    *,
    copies: int = 1,
    on_the_draw: bool = False,
) -> list[float]:
    """The share of ``games`` dealt games that saw at least ``copies`` of ``names`` by each turn."""
    _check(by_turn, copies)
    if games <= 0:
        raise EngineError("the number of simulated games must be at least 1")
    wanted = set(names)
    seen_by_turn = [cards_seen(engine, deck, turn, on_the_draw) for turn in range(by_turn + 1)]
    deal = _dealer(engine, deck, on_the_draw)
    hits = [0] * (by_turn + 1)
    for index in range(games):
        order = deal(game_seed(seed, index))
        # the position (1-based) at which the copies-th wanted card is seen
        found = 0
        position = 0
        for index_in_order, name in enumerate(order, start=1):
            if name in wanted:
                found += 1
                if found >= copies:
                    position = index_in_order
                    break
        if not position:
            continue
        for turn, seen in enumerate(seen_by_turn):
            if seen >= position:
                hits[turn] += 1
    return [h / games for h in hits]


def odds_by_turn(
    engine: GameEngine,
    deck: EngineDeck,
    names: Sequence[str],
    by_turn: int,
    *,
    copies: int = 1,
    on_the_draw: bool = False,
    simulate: int = 0,
    seed: int = 0,
) -> list[TurnOdds]:
    """Exact odds by turn, with the simulated share beside each when ``simulate`` > 0."""
    rows = exact_by_turn(engine, deck, names, by_turn, copies=copies, on_the_draw=on_the_draw)
    if simulate <= 0:
        return rows
    shares = simulate_by_turn(engine, deck, names, by_turn, simulate, seed, copies=copies, on_the_draw=on_the_draw)
    return [TurnOdds(r.turn, r.seen, r.probability, q) for r, q in zip(rows, shares, strict=True)]


def standard_error(probability: float, games: int) -> float:
    """The standard error of a share estimated from ``games`` independent games."""
    return math.sqrt(max(probability * (1 - probability), 0.0) / games)

"""Draw odds: exact hypergeometric values checked by hand, and the simulation agreeing with them."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from deckcli.engine.base import EngineCard, EngineDeck, EngineError
from deckcli.engine.elestrals import ENGINE
from deckcli.engine.odds import (
    at_least,
    cards_seen,
    count_copies,
    exact_by_turn,
    odds_by_turn,
    simulate_by_turn,
    standard_error,
)


def card(name: str, kind: str = "elestral") -> EngineCard:
    return EngineCard(name, kind, {"name": name, "type": kind, "cost": ["fire"], "attack": 1, "subtype": "invoke"})


def deck_with(counts: dict[str, int], size: int = 40) -> EngineDeck:
    main = [card(name) for name, n in counts.items() for _ in range(n)]
    main += [card("Filler", "rune")] * (size - len(main))
    spirits = (EngineCard("Vipyro", "spirit", {"type": "spirit", "element": "fire"}),) * 20
    return EngineDeck("elestrals", "odds deck", {"main": tuple(main), "spirit": spirits})


def test_hand_computed_values() -> None:
    # 3 copies in 40, 5 cards: 1 - C(37,5)/C(40,5) = 1 - 435897/658008 = 222111/658008
    assert math.comb(37, 5) == 435_897 and math.comb(40, 5) == 658_008
    assert at_least(40, 3, 5) == Fraction(222_111, 658_008)
    # at least 2 of 3: 1 - (C(37,5) + 3*C(37,4)) / C(40,5) = 1 - (435897 + 198135)/658008 = 23976/658008
    assert at_least(40, 3, 5, 2) == Fraction(23_976, 658_008)
    # all 3 in 5: C(37,2)/C(40,5) = 666/658008
    assert at_least(40, 3, 5, 3) == Fraction(666, 658_008)
    # 1 copy: seen/size
    assert at_least(40, 1, 7) == Fraction(7, 40)


def test_edges() -> None:
    assert at_least(40, 0, 10) == 0
    assert at_least(40, 3, 0) == 0
    assert at_least(40, 3, 40) == 1
    assert at_least(40, 3, 60) == 1  # capped at the deck
    assert at_least(40, 2, 10, 3) == 0
    with pytest.raises(EngineError):
        at_least(40, 41, 5)


def test_cards_seen_follow_the_engine() -> None:
    deck = deck_with({"Target": 3})
    assert [cards_seen(ENGINE, deck, t, False) for t in range(4)] == [5, 5, 6, 7]
    assert [cards_seen(ENGINE, deck, t, True) for t in range(4)] == [5, 6, 7, 8]
    assert cards_seen(ENGINE, deck, 100, True) == 40


def test_exact_by_turn() -> None:
    deck = deck_with({"Target": 3})
    rows = exact_by_turn(ENGINE, deck, ["Target"], 3, on_the_draw=False)
    assert [(r.turn, r.seen) for r in rows] == [(0, 5), (1, 5), (2, 6), (3, 7)]
    assert rows[0].probability == pytest.approx(222_111 / 658_008)
    # turn 2 on the play: 6 cards seen, 1 - C(37,6)/C(40,6)
    assert rows[2].probability == pytest.approx(1 - math.comb(37, 6) / math.comb(40, 6))


def test_group_of_cards_counts_any_of_them() -> None:
    deck = deck_with({"Alpha": 2, "Beta": 3})
    assert count_copies(ENGINE, deck, ["Alpha", "Beta"]) == 5
    rows = exact_by_turn(ENGINE, deck, ["Alpha", "Beta"], 0)
    assert rows[0].probability == pytest.approx(1 - math.comb(35, 5) / math.comb(40, 5))


@pytest.mark.parametrize(("copies", "on_the_draw"), [(1, False), (2, True)])
def test_simulation_agrees_with_the_exact_odds(copies: int, on_the_draw: bool) -> None:
    deck = deck_with({"Target": 3, "Other": 4})
    games = 4000
    rows = odds_by_turn(
        ENGINE, deck, ["Target", "Other"], 6, copies=copies, on_the_draw=on_the_draw, simulate=games, seed=11
    )
    for row in rows:
        assert row.simulated is not None
        tolerance = 4 * standard_error(row.probability, games) + 1e-9
        assert abs(row.simulated - row.probability) <= tolerance, row


def test_simulation_is_seeded() -> None:
    deck = deck_with({"Target": 3})
    a = simulate_by_turn(ENGINE, deck, ["Target"], 4, 500, seed=3)
    b = simulate_by_turn(ENGINE, deck, ["Target"], 4, 500, seed=3)
    c = simulate_by_turn(ENGINE, deck, ["Target"], 4, 500, seed=4)
    assert a == b and a != c
    assert a == sorted(a)  # seeing a card by turn t means seeing it by every later turn


def test_bad_arguments() -> None:
    deck = deck_with({"Target": 3})
    with pytest.raises(EngineError):
        exact_by_turn(ENGINE, deck, ["Target"], -1)
    with pytest.raises(EngineError):
        exact_by_turn(ENGINE, deck, ["Target"], 2, copies=0)
    with pytest.raises(EngineError):
        simulate_by_turn(ENGINE, deck, ["Target"], 2, 0, seed=1)

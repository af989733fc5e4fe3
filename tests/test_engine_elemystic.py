"""Elemystic as a full two-player game: the rulebook's example, every ability and token, replays, policies.

Hand-built rounds use a fixed element table (``STATS`` below: the bundled values when these
tests were written) so the hand calculations in the docstrings stay true if provisional data
changes; the ATTACKS EXAMPLE uses the card store's data, whose printed values it checks.
Columns are written front first. Seat 0 is P1, seat 1 is P2.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import pytest

from deckcli.cards.pool import CardPool
from deckcli.cards.store import CardStore
from deckcli.engine import find_engine
from deckcli.engine.base import EngineCard, EngineDeck, GameOptions, IllegalActionError, RandomPolicy
from deckcli.engine.elemystic import (
    AIR,
    DRAFT,
    OVER,
    PLAY,
    SHADOW,
    Draft,
    Elements,
    ElemysticState,
    GreedyPolicy,
    PlaceAirToken,
    Play,
    ShadowSwap,
    missing_stats,
)
from deckcli.engine.matches import elemystic_deck, play_match_game, run_matches

#: name -> (strength, defense, invocation strength, invocation defense, speed)
STATS: dict[str, tuple[int, int, int, int, int]] = {
    "Earth": (2, 1, 4, 4, 1),
    "Light": (1, 2, 2, 3, 2),
    "Air": (2, 1, 2, 2, 8),
    "Storm": (2, 2, 2, 2, 7),
    "Water": (0, 3, 1, 3, 4),
    "Fire": (3, 0, 4, 0, 6),
    "Shadow": (2, 1, 2, 1, 5),
    "Chaos": (1, 1, 2, 2, 3),
    "Lightning": (1, 1, 2, 1, 9),
}
WATER_TEXT = "If you have less Energy than your opponent, set Water's Invocation Strength to 5."


def make_deck(overrides: dict[str, dict[str, Any]] | None = None) -> EngineDeck:
    """The nine elements with ``STATS`` (plus ``overrides``) and the Air Token (+2 / +3)."""
    cards = []
    for name, (s, d, i_s, i_d, sp) in STATS.items():
        data: dict[str, Any] = {
            "strength": s,
            "defense": d,
            "invocation_strength": i_s,
            "invocation_defense": i_d,
            "speed": sp,
            "text": WATER_TEXT if name == "Water" else "",
        }
        data.update((overrides or {}).get(name, {}))
        cards.append(EngineCard(name, "element", data))
    air_token = EngineCard("Air Token", "token", {"strength": 2, "defense": 3})
    return EngineDeck("elemystic", "test elements", {"elements": tuple(cards), "tokens": (air_token,)})


ELEMENTS = Elements.from_deck(make_deck())


def deal(unknown: str, secrets: tuple[str, str], p1: Sequence[str], p2: Sequence[str]) -> list[str]:
    """A stacked round: Unknown, P1's secret, P2's secret, then the six drafted cards."""
    return [unknown, secrets[0], secrets[1], *p1, *p2]


def draft(state: ElemysticState, p1: Sequence[str], p2: Sequence[str]) -> None:
    """Draft: each seat takes its listed cards in order, in the rulebook's 2-2-1-1 turns."""
    wanted = {0: list(p1), 1: list(p2)}
    while state.phase == DRAFT:
        seat = state.to_act
        state.apply(Draft(seat, wanted[seat].pop(0)))


def play(state: ElemysticState, moves: Sequence[tuple[str, bool]]) -> None:
    """Plays in turn order: (element, to the front?) for whoever is to act."""
    for name, front in moves:
        state.apply(Play(state.to_act, name, front))


def game(
    rounds: Sequence[Sequence[str]],
    *,
    first: int = 0,
    chaos: Sequence[Sequence[str]] = (),
    elements: Elements = ELEMENTS,
    max_rounds: int = 20,
) -> ElemysticState:
    return ElemysticState(
        elements, random.Random(0), first_player=first, deal_orders=rounds, chaos_orders=chaos, max_rounds=max_rounds
    )


def store_elements(store: CardStore) -> Elements:
    return Elements.from_deck(elemystic_deck(CardPool.load(store, "elemystic")))


# -- the rulebook -------------------------------------------------------------------------


def test_rulebook_attacks_example(store: CardStore) -> None:
    """ATTACKS EXAMPLE, with the card store's data.

    P1: Water, Earth, Light (front). P2: Shadow, Air, Fire (front). Fire's Speed 6 beats
    Light's 2, so P2 attacks first: Fire sets Light's Invocation Strength to 0; P2's
    Strength 4 + 3 + 2 + 2 = 11 against P1's Defense 3 + 2 + 1 + 3 = 9: P1 loses 2.
    P1 attacks: Light takes the Light Token; Strength 0 + 1 + 2 + 0 = 3 against
    1 + 1 + 0 + 0 = 2: P2 loses 1. Play First goes to P2 (Strength 11 > 3).
    """
    state = game(
        [deal("Storm", ("Chaos", "Lightning"), ["Water", "Light", "Earth"], ["Shadow", "Fire", "Air"])],
        elements=store_elements(store),
    )
    draft(state, ["Water", "Light", "Earth"], ["Shadow", "Fire", "Air"])
    assert sorted(state.hand[0]) == sorted(state.el.index[n] for n in ("Chaos", "Water", "Light", "Earth"))
    play(state, [("Water", True), ("Shadow", True), ("Earth", False), ("Air", False), ("Light", True), ("Fire", True)])
    record = state.rounds[0]
    assert record.fronts == ("Light", "Fire")
    assert record.first_attacker == 1
    assert record.damage == (1, 2)
    assert state.energy == [8, 9]
    assert record.strength == (3, 11)
    assert record.defense == (9, 2)
    assert state.light_until == [2, 0]
    assert state.play_first == 1 and state.draft_first == 1
    assert state.round == 2 and state.phase == DRAFT


def test_light_reveals_the_secret_until_the_end_of_the_next_play_phase() -> None:
    """Light (P1, as in the example) resolves in round 1: in round 2 P1 sees P2's secret during
    the draft and the Play phase; when round 2's attacks start (Shadow asks P2) it is hidden again.
    """
    state = game(
        [
            deal("Storm", ("Chaos", "Lightning"), ["Water", "Light", "Earth"], ["Shadow", "Fire", "Air"]),
            deal("Light", ("Air", "Fire"), ["Earth", "Water", "Storm"], ["Shadow", "Chaos", "Lightning"]),
        ]
    )
    draft(state, ["Water", "Light", "Earth"], ["Shadow", "Fire", "Air"])
    play(state, [("Water", True), ("Shadow", True), ("Earth", False), ("Air", False), ("Light", True), ("Fire", True)])
    assert state.round == 2 and state.phase == DRAFT
    fire = state.el.index["Fire"]
    assert state.light_active(0) and not state.light_active(1)
    seen = state.observation(0)
    assert seen.opp_secret == fire and fire in seen.opp_open and seen.opp_hidden == 0
    assert state.el.index["Light"] == seen.unseen[0] and len(seen.unseen) == 1  # the Unknown, by elimination
    assert state.observation(1).opp_secret == -1 and state.observation(1).opp_hidden == 1
    draft(state, ["Shadow", "Chaos", "Lightning"], ["Earth", "Water", "Storm"])  # P2 drafts first in round 2
    assert state.phase == PLAY and state.play_first == 1
    assert state.light_active(0)
    # P2 plays first: Earth, Water, Storm (back each) ... P1 ends with Shadow in front.
    play(state, [("Earth", True), ("Chaos", True), ("Water", False), ("Lightning", False), ("Storm", False)])
    assert state.light_active(0)
    play(state, [("Shadow", True)])
    # Shadow 5 beats Earth 1: P1 attacks first and must choose; the Play phase is over.
    assert state.phase == SHADOW and state.to_act == 0
    assert not state.light_active(0)
    assert state.observation(0).opp_secret == -1


# -- each element and token ---------------------------------------------------------------


def test_earth_counts_its_strong_invocation_and_storm_played_last_forces_nothing() -> None:
    """P1: Earth (front), Water, Light. P2: Storm (front, P2's last play), Shadow, Fire.

    Storm 7 > Earth 1: P2 attacks with 2 + 2 + 2 + 3 = 9 against 1 + 4 + 3 + 2 = 10: 0.
    P1 attacks with 2 + 4 + 0 + 1 = 7 against 2 + 2 + 1 + 0 = 5: P2 loses 2.
    Play First: P2 (9 > 7).
    """
    state = game([deal("Chaos", ("Air", "Lightning"), ["Earth", "Water", "Light"], ["Storm", "Shadow", "Fire"])])
    draft(state, ["Earth", "Water", "Light"], ["Storm", "Shadow", "Fire"])
    play(state, [("Water", True), ("Shadow", True), ("Light", False), ("Fire", False), ("Earth", True)])
    play(state, [("Storm", True)])
    record = state.rounds[0]
    assert record.damage == (2, 0) and state.energy == [10, 8]
    assert record.strength == (7, 9) and state.play_first == 1


def test_storm_forces_the_opponents_next_play_to_the_front() -> None:
    state = game([deal("Chaos", ("Air", "Lightning"), ["Storm", "Water", "Light"], ["Earth", "Shadow", "Fire"])])
    draft(state, ["Storm", "Water", "Light"], ["Earth", "Shadow", "Fire"])
    play(state, [("Water", True), ("Earth", True)])
    # P1's second card: Storm to the back forces nothing.
    twin = copy.deepcopy(state)
    play(twin, [("Storm", False)])
    assert {a.front for a in twin.legal_actions()} == {True, False}
    # Storm to the front: P2's next element must go to the front.
    play(state, [("Storm", True)])
    actions = state.legal_actions()
    assert actions and all(isinstance(a, Play) and a.front and a.player == 1 for a in actions)
    with pytest.raises(IllegalActionError):
        state.apply(Play(1, "Shadow", False))
    play(state, [("Shadow", True)])
    assert not state.forced[1]
    play(state, [("Light", False)])
    assert {a.front for a in state.legal_actions()} == {True, False}  # the force was used up


def test_storm_as_first_card_forces_an_opponent_who_has_a_column() -> None:
    """The first card is the front, so a first-card Storm forces the opponent's next play."""
    state = game([deal("Chaos", ("Air", "Lightning"), ["Water", "Light", "Fire"], ["Storm", "Shadow", "Earth"])])
    draft(state, ["Water", "Light", "Fire"], ["Storm", "Shadow", "Earth"])
    play(state, [("Water", True), ("Storm", True)])
    assert all(isinstance(a, Play) and a.front for a in state.legal_actions())


def test_water_with_less_energy_after_a_faster_fire() -> None:
    """P1: Water (front), Earth, Light. P2: Fire (front), Shadow, Air. Energy 10-10.

    Fire 6 > Water 4: Fire sets Water's Invocation Strength to 0; P2: 3 + 4 + 2 + 2 = 11
    against 3 + 3 + 1 + 2 = 9: P1 loses 2 (8 < 10). Water then resolves: P1 has less
    Energy, so Water's Invocation Strength is set to 5 (after Fire's 0): 0 + 5 + 2 + 1 = 8
    against 0 + 0 + 1 + 1 = 2: P2 loses 6.
    """
    state = game([deal("Chaos", ("Storm", "Lightning"), ["Water", "Earth", "Light"], ["Fire", "Shadow", "Air"])])
    draft(state, ["Water", "Earth", "Light"], ["Fire", "Shadow", "Air"])
    play(
        state, [("Water", True), ("Fire", True), ("Earth", False), ("Shadow", False), ("Light", False), ("Air", False)]
    )
    assert state.rounds[0].damage == (6, 2) and state.energy == [8, 4]


@pytest.mark.parametrize(("energy", "expected"), [((10, 10), (8, 10)), ((6, 9), (4, 7))])
def test_water_tied_does_nothing_behind_sets_five(energy: tuple[int, int], expected: tuple[int, int]) -> None:
    """P1: Water (front), Fire, Air. P2: Earth (front), Light, Shadow. Water 4 > Earth 1: P1 first.

    Tied (10-10): Water's Invocation Strength stays 1: 0 + 1 + 3 + 2 = 6 against
    1 + 4 + 2 + 1 = 8: 0. P2: 2 + 4 + 1 + 2 = 9 against 3 + 3 + 0 + 1 = 7: P1 loses 2.
    Behind (6-9): 0 + 5 + 3 + 2 = 10 against 8: P2 loses 2; P1 loses 2.
    """
    state = game([deal("Chaos", ("Storm", "Lightning"), ["Water", "Fire", "Air"], ["Earth", "Light", "Shadow"])])
    state.energy = list(energy)
    draft(state, ["Water", "Fire", "Air"], ["Earth", "Light", "Shadow"])
    play(state, [("Water", True), ("Earth", True), ("Fire", False), ("Light", False), ("Air", False)])
    play(state, [("Shadow", False)])
    assert tuple(state.energy) == expected


def test_fire_resolving_second_still_decides_play_first_and_air_grants_the_token() -> None:
    """Round 1 (P2 has both arrows). P1: Fire (front), Water, Light. P2: Air (front), Earth, Storm.

    Air 8 > Fire 6: Air's ability gives P2 the Air Token next round; P2: 2 + 2 + 2 + 2 = 8
    against 0 + 0 + 3 + 2 = 5: P1 loses 3. Fire sets Air's Invocation Strength to 0; P1:
    3 + 4 + 0 + 1 = 8 against 1 + 2 + 1 + 2 = 6: P2 loses 2. End of round Strength: P1 8,
    P2 2 + 0 + 2 + 2 = 6 (8 without Fire: a tie that would leave Play First with P2), so
    Play First goes to P1; Draft First rotates to P1.

    Round 2: P1: Earth (front), Light, Water. P2: Storm (front, last play), Fire, Shadow;
    after the six plays P2 takes a fourth turn to place the Air Token.
    As Defense: Storm 7 > Earth 1; P2: 2 + 2 + 3 + 2 = 9 against 1 + 4 + 2 + 3 = 10: 0;
    P1: 2 + 4 + 1 + 0 = 7 against 2 + 2 + 0 + 1 + 3 = 8: 0.
    As Strength: P2: 9 + 2 = 11 against 10: P1 loses 1; P1: 7 against 5: P2 loses 2.
    """
    state = game(
        [
            deal("Chaos", ("Shadow", "Lightning"), ["Fire", "Water", "Light"], ["Air", "Earth", "Storm"]),
            deal("Air", ("Chaos", "Lightning"), ["Earth", "Light", "Water"], ["Storm", "Fire", "Shadow"]),
        ],
        first=1,
    )
    draft(state, ["Fire", "Water", "Light"], ["Air", "Earth", "Storm"])
    play(state, [("Earth", True), ("Water", True), ("Storm", False), ("Light", False), ("Air", True), ("Fire", True)])
    record = state.rounds[0]
    assert record.first_attacker == 1 and record.damage == (2, 3) and state.energy == [7, 8]
    assert record.strength == (8, 6)
    assert state.play_first == 0 and state.draft_first == 0
    assert state.air_pending == [False, True]
    draft(state, ["Earth", "Light", "Water"], ["Storm", "Fire", "Shadow"])
    play(state, [("Earth", True), ("Fire", True), ("Light", False), ("Shadow", False), ("Water", False)])
    play(state, [("Storm", True)])
    assert state.phase == AIR and state.to_act == 1
    assert set(state.legal_actions()) == {PlaceAirToken(1, "strength"), PlaceAirToken(1, "defense")}
    as_strength = copy.deepcopy(state)
    state.apply(PlaceAirToken(1, "defense"))
    assert state.rounds[1].damage == (0, 0) and state.energy == [7, 8]
    assert state.rounds[1].defense[1] == 8
    as_strength.apply(PlaceAirToken(1, "strength"))
    assert as_strength.rounds[1].damage == (2, 1) and as_strength.energy == [6, 6]
    assert as_strength.air_pending == [False, False]


SHADOW_CASES = [
    # (after, target, energy after the round)
    (False, 0, [4, 9]),
    (False, 1, [10, 10]),
    (True, 0, [4, 10]),
    (True, 1, [10, 10]),
]


@pytest.mark.parametrize(("after", "target", "energy"), SHADOW_CASES)
def test_shadow_swaps_before_or_after_either_column(after: bool, target: int, energy: list[int]) -> None:
    """P1: Shadow (front), Water, Light: Strength 2 + 2 + 0 + 1 = 5, Defense 1 + 1 + 3 + 2 = 7.
    P2: Earth (front), Fire, Air: Strength 2 + 4 + 3 + 2 = 11, Defense 1 + 4 + 0 + 1 = 6.
    Shadow 5 > Earth 1: P1 attacks first and chooses.

    Before, own column: P1 7 vs 6: P2 loses 1; P2 11 vs 5: P1 loses 6 -> (4, 9).
    Before, P2's column: P1 5 vs 11: 0; P2 6 vs 7: 0 -> (10, 10).
    After, own column: P1 5 vs 6: 0; then P1's Defense is 5: P2 11 vs 5: 6 -> (4, 10).
    After, P2's column: P1 5 vs 6: 0; then P2's Strength is 6: 6 vs 7: 0 -> (10, 10).
    """
    state = game([deal("Chaos", ("Storm", "Lightning"), ["Shadow", "Water", "Light"], ["Earth", "Fire", "Air"])])
    draft(state, ["Shadow", "Water", "Light"], ["Earth", "Fire", "Air"])
    play(state, [("Water", True), ("Fire", True), ("Light", False), ("Air", False), ("Shadow", True)])
    play(state, [("Earth", True)])
    assert state.phase == SHADOW and state.to_act == 0
    assert set(state.legal_actions()) == {ShadowSwap(0, a, t) for a in (False, True) for t in (0, 1)}
    with pytest.raises(IllegalActionError):
        state.apply(ShadowSwap(1, False, 0))
    state.apply(ShadowSwap(0, after, target))
    assert state.energy == energy
    assert state.round == 2


def test_chaos_reveals_a_new_front_and_resolves_its_ability() -> None:
    """P1: Chaos (front), Water, Light; the Unknown Element is Fire. P2: Earth (front), Storm, Shadow.

    Chaos 3 > Earth 1: P1 attacks first. The shuffle (stacked) reveals Fire: the new column is
    Fire (front), Chaos, Water, Light and Fire's ability sets Earth's Invocation Strength to 0.
    P1: 3 + 4 + 1 + 0 + 1 = 9 against 1 + 4 + 2 + 1 = 8: P2 loses 1.
    P2: 2 + 0 + 2 + 2 = 6 against 0 + 0 + 1 + 3 + 2 = 6: 0.
    """
    state = game(
        [deal("Fire", ("Air", "Lightning"), ["Chaos", "Water", "Light"], ["Earth", "Storm", "Shadow"])],
        chaos=[["Fire", "Chaos", "Water", "Light"]],
    )
    draft(state, ["Chaos", "Water", "Light"], ["Earth", "Storm", "Shadow"])
    play(state, [("Water", True), ("Earth", True), ("Light", False), ("Storm", False), ("Chaos", True)])
    play(state, [("Shadow", False)])
    record = state.rounds[0]
    assert record.fronts == ("Chaos", "Earth") and record.final_fronts == ("Fire", "Earth")
    assert record.damage == (1, 0) and state.energy == [10, 9]
    assert record.strength == (9, 6)


def test_chaos_revealing_chaos_resolves_nothing() -> None:
    """As above, but Chaos comes up again: no ability. P1: 1 + 2 + 3 + 0 + 1 = 7 against 8: 0;
    P2: 2 + 4 + 2 + 2 = 10 against 1 + 2 + 0 + 3 + 2 = 8: P1 loses 2.
    """
    state = game(
        [deal("Fire", ("Air", "Lightning"), ["Chaos", "Water", "Light"], ["Earth", "Storm", "Shadow"])],
        chaos=[["Chaos", "Fire", "Water", "Light"]],
    )
    draft(state, ["Chaos", "Water", "Light"], ["Earth", "Storm", "Shadow"])
    play(state, [("Water", True), ("Earth", True), ("Light", False), ("Storm", False), ("Chaos", True)])
    play(state, [("Shadow", False)])
    assert state.rounds[0].damage == (0, 2) and state.energy == [8, 10]


def test_chaos_shuffles_with_the_game_rng_and_replays() -> None:
    order = [deal("Fire", ("Air", "Lightning"), ["Chaos", "Water", "Light"], ["Earth", "Storm", "Shadow"])]
    fronts = set()
    for seed in range(12):
        state = ElemysticState(ELEMENTS, random.Random(seed), first_player=0, deal_orders=order)
        draft(state, ["Chaos", "Water", "Light"], ["Earth", "Storm", "Shadow"])
        play(state, [("Water", True), ("Earth", True), ("Light", False), ("Storm", False), ("Chaos", True)])
        play(state, [("Shadow", False)])
        fronts.add(state.rounds[0].final_fronts[0])
        replay = ElemysticState(ELEMENTS, random.Random(seed), first_player=0, deal_orders=order)
        for action in state.log:
            replay.apply(action)
        assert replay.snapshot() == state.snapshot()
    assert fronts <= {"Chaos", "Fire", "Water", "Light"} and len(fronts) > 1


def test_lightning_thunder_token_once_per_game_and_only_for_its_round() -> None:
    """Round 1. P1: Lightning (front), Earth, Water. P2: Shadow (front), Fire, Air.

    Lightning 9 > Shadow 5: P1 plays the Thunder Token on P2's front, shutting off Shadow's
    invocation (2 / 1) and its ability. P1: 1 + 2 + 2 + 0 = 5 against 1 + 0 + 0 + 1 = 2: P2
    loses 3. P2 (no Shadow decision): 2 + 0 + 3 + 2 = 7 against 1 + 1 + 1 + 3 = 6: P1 loses 1.

    Round 2 (same columns, P2 plays first): P1's Thunder Token is spent, so Lightning does
    nothing and the token from round 1 is gone: P1 5 against 1 + 1 + 0 + 1 = 3: P2 loses 2
    (7 -> 5), then Shadow asks P2.
    """
    hands = (["Lightning", "Earth", "Water"], ["Shadow", "Fire", "Air"])
    state = game(
        [
            deal("Chaos", ("Storm", "Light"), *hands),
            deal("Chaos", ("Storm", "Light"), *hands),
        ]
    )
    draft(state, *hands)
    play(state, [("Earth", True), ("Fire", True), ("Water", False), ("Air", False), ("Lightning", True)])
    play(state, [("Shadow", True)])
    assert state.phase == DRAFT and state.round == 2
    assert state.rounds[0].damage == (3, 1) and state.energy == [9, 7]
    assert state.thunder_used == [True, False]
    assert state.play_first == 1  # Strength 5 vs 7
    draft(state, *hands)
    play(state, [("Fire", True), ("Earth", True), ("Air", False), ("Water", False), ("Shadow", True)])
    play(state, [("Lightning", True)])
    assert state.phase == SHADOW and state.to_act == 1
    assert state.energy == [9, 7]  # not yet written back
    assert state.combat is not None and state.combat.energy == [9, 5]
    assert state.combat.thunder_on == [False, False]


def test_winning_immediately_skips_the_second_attack() -> None:
    """As round 1 above with P2 at 3 Energy: P1's 3 damage ends the game before P2 attacks."""
    hands = (["Lightning", "Earth", "Water"], ["Shadow", "Fire", "Air"])
    state = game([deal("Chaos", ("Storm", "Light"), *hands)])
    state.energy = [10, 3]
    draft(state, *hands)
    play(state, [("Earth", True), ("Fire", True), ("Water", False), ("Air", False), ("Lightning", True)])
    play(state, [("Shadow", True)])
    assert state.is_terminal() and state.phase == OVER
    assert state.winner == 0 and state.reason == "P2 at 0 Energy"
    assert state.rounds[0].damage == (3, 0) and state.energy == [10, 0]
    outcome = state.outcome()
    assert outcome.won and outcome.win_turn == 1 and outcome.turns == 1
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.apply(Draft(0, "Earth"))


def test_speed_tie_goes_to_the_play_first_player() -> None:
    """Water's Speed set to Fire's 6 (P1 Water in front, P2 Fire in front): whoever has the
    Play First arrow attacks first."""
    elements = Elements.from_deck(make_deck({"Water": {"speed": 6}}))
    p1 = [("Water", True), ("Earth", False), ("Light", False)]
    p2 = [("Fire", True), ("Air", False), ("Storm", False)]
    for first in (0, 1):
        state = game(
            [deal("Chaos", ("Shadow", "Lightning"), ["Water", "Earth", "Light"], ["Fire", "Air", "Storm"])],
            first=first,
            elements=elements,
        )
        draft(state, ["Water", "Earth", "Light"], ["Fire", "Air", "Storm"])
        turns = zip(p1, p2, strict=True) if first == 0 else zip(p2, p1, strict=True)
        play(state, [move for pair in turns for move in pair])
        assert state.rounds[0].first_attacker == first


def test_equal_strength_leaves_play_first_where_it_was() -> None:
    """P1: Storm (front), Earth, Light: Strength 2 + 2 + 2 + 1 = 7. P2: Air (front), Fire, Water:
    2 + 2 + 3 + 0 = 7. Equal total Strength at the end of the round: Play First stays with P1.
    (Air 8 > Storm 7: P2: 7 against 2 + 2 + 1 + 2 = 7: 0; P1: 7 against 1 + 2 + 0 + 3 = 6: 1.)
    """
    state = game([deal("Chaos", ("Shadow", "Lightning"), ["Storm", "Earth", "Light"], ["Air", "Fire", "Water"])])
    draft(state, ["Storm", "Earth", "Light"], ["Air", "Fire", "Water"])
    play(state, [("Earth", True), ("Fire", True), ("Light", False), ("Water", False), ("Storm", True)])
    assert all(a.front for a in state.legal_actions() if isinstance(a, Play))  # Storm forces P2's Air
    play(state, [("Air", True)])
    record = state.rounds[0]
    assert record.strength == (7, 7) and record.damage == (1, 0)
    assert state.play_first == 0 and state.draft_first == 1


# -- the game as a whole ------------------------------------------------------------------


def test_draft_turns_and_legality() -> None:
    state = game(
        [deal("Chaos", ("Shadow", "Lightning"), ["Storm", "Earth", "Light"], ["Air", "Fire", "Water"])], first=1
    )
    turns = []
    wanted = {0: ["Storm", "Earth", "Light"], 1: ["Air", "Fire", "Water"]}
    with pytest.raises(IllegalActionError):
        state.apply(Draft(0, "Storm"))  # P2 drafts first
    with pytest.raises(IllegalActionError):
        state.apply(Draft(1, "Chaos"))  # the Unknown Element is not in the pool
    while state.phase == DRAFT:
        turns.append(state.to_act)
        state.apply(Draft(state.to_act, wanted[state.to_act].pop(0)))
    assert turns == [1, 1, 0, 0, 1, 0]
    assert state.to_act == 1  # Play First
    with pytest.raises(IllegalActionError):
        state.apply(Play(1, "Air", False))  # a column's first card is its front
    with pytest.raises(IllegalActionError):
        state.apply(Play(1, "Storm", True))  # not P2's card
    assert {a.element for a in state.legal_actions()} == {"Lightning", "Air", "Fire", "Water"}


def test_stats_come_from_the_data() -> None:
    """The example's columns with Fire's Invocation Strength raised to 10: P2's Strength is
    10 + 3 + 2 + 2 = 17 against 9, so P1 loses 8 instead of 2."""
    elements = Elements.from_deck(make_deck({"Fire": {"invocation_strength": 10}}))
    state = game(
        [deal("Storm", ("Chaos", "Lightning"), ["Water", "Light", "Earth"], ["Shadow", "Fire", "Air"])],
        elements=elements,
    )
    draft(state, ["Water", "Light", "Earth"], ["Shadow", "Fire", "Air"])
    play(state, [("Water", True), ("Shadow", True), ("Earth", False), ("Air", False), ("Light", True), ("Fire", True)])
    assert state.energy == [2, 9]


def test_missing_stats_and_bad_components() -> None:
    assert missing_stats(EngineCard("Odd", "element", {"strength": 1})) == [
        "defense",
        "invocation_strength",
        "invocation_defense",
        "speed",
    ]
    assert missing_stats(EngineCard("Air Token", "token", {})) == []
    deck = make_deck({"Storm": {"speed": None}})
    with pytest.raises(Exception, match="lack stats"):
        Elements.from_deck(deck)
    short = EngineDeck("elemystic", "short", {"elements": make_deck().section("elements")[:8]})
    with pytest.raises(Exception, match="nine distinct"):
        Elements.from_deck(short)


def test_round_cap_is_a_draw() -> None:
    state = game(
        [deal("Chaos", ("Shadow", "Lightning"), ["Storm", "Earth", "Light"], ["Air", "Fire", "Water"])], max_rounds=1
    )
    draft(state, ["Storm", "Earth", "Light"], ["Air", "Fire", "Water"])
    play(state, [("Earth", True), ("Fire", True), ("Light", False), ("Water", False), ("Storm", True), ("Air", True)])
    assert state.is_terminal() and state.winner == -1 and state.reason == "round cap"
    assert not state.outcome().won and state.outcome().turns == 1


def test_registered_engine_plays_a_full_game_replayed_from_its_log(store: CardStore) -> None:
    engine = find_engine("elemystic")
    deck = elemystic_deck(CardPool.load(store, "elemystic"))
    assert engine.opening_hand(deck) == 0 and engine.draws_on_turn(deck, 1, False) == 0
    for seed in (7, 8, 9):
        state = engine.new_game(deck, random.Random(seed), GameOptions(max_turns=30))
        assert isinstance(state, ElemysticState)
        players = [GreedyPolicy(), RandomPolicy(random.Random(seed))]
        while not state.is_terminal():
            state.apply(players[state.to_act].choose(state, state.legal_actions()))
        replay = engine.new_game(deck, random.Random(seed), GameOptions(max_turns=30))
        for action in state.log:
            replay.apply(action)
        assert replay.is_terminal()
        assert replay.snapshot() == state.snapshot()
        assert replay.outcome() == state.outcome()
        assert state.winner in (0, 1)
        # the same seed and policies give the same game
        again = play_match_game(Elements.from_deck(deck), seed, ("greedy", "random"))
        assert again.log == play_match_game(Elements.from_deck(deck), seed, ("greedy", "random")).log


def _hide_swap(state: ElemysticState, seat: int) -> ElemysticState | None:
    """A twin whose opponent's hidden secret and Unknown Element trade places (same observation)."""
    opp = 1 - seat
    secret = state.secret[opp]
    if state.light_active(seat) or secret not in state.hand[opp]:
        return None
    twin = copy.deepcopy(state, {id(state.el): state.el})
    unknown = twin.unknown
    twin.unknown = secret
    twin.secret[opp] = unknown
    twin.hand[opp] = [unknown if c == secret else c for c in twin.hand[opp]]
    return twin


def test_greedy_never_peeks_at_hidden_cards() -> None:
    checked = 0
    for seed in range(6):
        state = ElemysticState(ELEMENTS, random.Random(seed), max_rounds=4)
        players = [GreedyPolicy(), GreedyPolicy()]
        while not state.is_terminal():
            seat = state.to_act
            actions = state.legal_actions()
            choice = players[seat].choose(state, actions)
            twin = _hide_swap(state, seat)
            if twin is not None and state.phase in (DRAFT, PLAY):
                seen, twin_seen = state.observation(seat), twin.observation(seat)
                assert seen == twin_seen
                assert GreedyPolicy().choose(twin, twin.legal_actions()) == GreedyPolicy().choose(state, actions)
                checked += 1
            state.apply(choice)
    assert checked > 20


def test_greedy_beats_random_clearly(store: CardStore) -> None:
    deck = elemystic_deck(CardPool.load(store, "elemystic"))
    stats = run_matches(deck, 400, 2024, ("greedy", "random"), mirror=True, workers=1)
    assert stats.games == 400 and stats.policy_seats["greedy"] == 400
    assert stats.policy_wins["greedy"] >= 0.85 * 400
    assert sum(stats.seat_wins) + stats.draws == 400
    assert sum(f.fronts for f in stats.elements.values()) == 2 * sum(r * n for r, n in stats.rounds.items())


def test_match_statistics_do_not_depend_on_workers(store: CardStore) -> None:
    deck = elemystic_deck(CardPool.load(store, "elemystic"))
    one = run_matches(deck, 40, 5, ("random", "greedy"), workers=1)
    two = run_matches(deck, 40, 5, ("random", "greedy"), workers=2)
    assert one.to_json() == two.to_json()
    assert one.policy_wins["greedy"] == one.seat_wins[1]

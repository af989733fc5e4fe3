"""The Elekin goldfish engine: hand-checked stacked games, rules, keywords, legality, replay.

Hand-checked positions use real cards from the bundled card data (the sample deck's Lightning
Structure Deck cards); the rules tests use small made-up creatures whose numbers make the
arithmetic obvious. "R" below is the Rune "Essence Generation": a dead card (effects are out
of scope) that the greedy policy never needs to set in these games.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import CARD_DB

from deckcli.cards.pool import CardPool
from deckcli.cards.store import CardStore
from deckcli.decks.io import read_deck_file
from deckcli.engine import find_engine
from deckcli.engine.base import EngineCard, EngineDeck, EngineError, GameOptions, IllegalActionError
from deckcli.engine.decks import engine_deck, incomplete_cards
from deckcli.engine.elekin import (
    BATTLE,
    DIRECT,
    END,
    ENGINE,
    KEEP,
    KEYWORDS,
    MAIN1,
    MULLIGAN,
    MULLIGAN_ACTION,
    Attack,
    ElekinOptions,
    ElekinState,
    GreedyPolicy,
    SetCard,
    Summon,
    deck_facts,
    has_curve,
    keyword_is_static,
    missing_stats,
    new_game,
)
from deckcli.engine.runner import play_game, run_goldfish
from deckcli.rules import find_format

SAMPLE = CARD_DB / "decks" / "elekin-sample.txt"


# -- fixtures and helpers ----------------------------------------------------------------


@pytest.fixture(scope="module")
def pool(seeded_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[CardPool]:
    """The bundled Elekin cards (from a private copy of the seeded store)."""
    path = tmp_path_factory.mktemp("elekin") / "cards.sqlite"
    shutil.copyfile(seeded_template, path)
    with CardStore.open(path) as store:
        yield CardPool.load(store, "elekin")


@pytest.fixture(scope="module")
def sample(pool: CardPool) -> EngineDeck:
    """The bundled sample deck, ready to play."""
    deck = read_deck_file(SAMPLE)[0]
    return engine_deck(deck, find_format("elekin"), pool)


def real(pool: CardPool, name: str) -> EngineCard:
    card = pool.find(name)
    assert card is not None, name
    return EngineCard(card.name, card.type, card.data)


def stacked_real(pool: CardPool, names: Sequence[str]) -> EngineDeck:
    """A deck of real cards drawn in exactly this order (first name = top card)."""
    return EngineDeck("elekin", "stacked", {"main": tuple(real(pool, n) for n in names)})


def creature(
    name: str,
    strength: int | None,
    *,
    agility: int | None = 50,
    cost: int | None = 0,
    generation: int | None = 0,
    element: str = "fire",
    keywords: Sequence[str] = (),
    text: str = "",
    elements: Sequence[str] | None = None,
    dragon: bool = False,
) -> EngineCard:
    data: dict[str, Any] = {
        "name": name,
        "type": "creature",
        "elements": list(elements or [element]),
        "cost": cost,
        "strength": strength,
        "agility": agility,
        "generation": generation,
        "keywords": list(keywords),
        "text": text,
        "dragon": dragon,
    }
    return EngineCard(name, "creature", data)


RUNE = EngineCard("Test Rune", "rune", {"name": "Test Rune", "type": "rune", "rune_kind": "normal"})
COUNTER = EngineCard("Test Counter", "counter", {"name": "Test Counter", "type": "counter"})
#: a creature without stats: never summoned and cannot be set, so it offers no choice
DEAD = creature("Dead", None, agility=None)


def stacked(cards: Sequence[EngineCard], filler: EngineCard | None = DEAD, size: int = 30) -> EngineDeck:
    """A made-up deck drawn in this order, padded with ``filler``.

    With the default filler the only choices are the ones the test's creatures offer, and
    phases without a choice pass by themselves (e.g. Summon goes straight to the Battle
    Phase, and the last attack ends the turn).
    """
    main = list(cards)
    if filler is not None:
        main += [filler] * max(0, size - len(main))
    return EngineDeck("elekin", "test", {"main": tuple(main)})


def start(deck: EngineDeck, *, on_the_draw: bool = False, order: str = "123", max_turns: int = 20) -> ElekinState:
    """A stacked game with the opening hand kept (no greedy mulligan decision)."""
    options = ElekinOptions(on_the_draw=on_the_draw, max_turns=max_turns, shield_order=order)
    state = new_game(deck, random.Random(0), options, stacked=True)
    state.apply(KEEP)
    return state


def play_greedy(state: ElekinState) -> ElekinState:
    """Finish the game with the greedy policy through the generic (checked) loop."""
    policy = GreedyPolicy()
    while not state.is_terminal():
        state.apply(policy.choose(state, state.legal_actions()))
    return state


def names(state: ElekinState, cards: Sequence[int]) -> list[str]:
    return [state.fx.facts[c].name for c in cards]


def end_turn(state: ElekinState) -> None:
    """End phases until the next own turn starts (or the game ends)."""
    turn = state.turn
    while not state.is_terminal() and state.turn == turn:
        state.apply(END)


# -- hand-checked stacked games ----------------------------------------------------------

DECK_A = ["Night Vox", "Ember Flicker", "Lavrok", "Blazorn", "Pyro Mites"] + ["Essence Generation"] * 10


def test_hand_checked_going_first_wins_on_turn_5(pool: CardPool) -> None:
    """Going first, Shields tier I, II, III from the left (150, 300, 450), LP 500.

    Cards: Night Vox 95 (fire, free, gen 2); Ember Flicker 90 (free, gen 2); Lavrok 145 (1 fire,
    gen 0); Blazorn 125 (2 fire, gen 1); Pyro Mites 85 (free, gen 1). Hand = those five (a
    free creature plus another free one: the greedy policy keeps); the rest are Runes.

    T1: no draw, no essence. Summon the strongest free one, Night Vox. No Battle Phase (3.1.3).
    T2: draw R. Fire 0+2 = 2. Strongest affordable: Lavrok 145 (fire 2-1 = 1).
        Face-down Shield 1 (150): strongest first, Lavrok -> 5 left; Night Vox breaks it.
    T3: draw R. Fire 1+2 = 3. Blazorn 125 (fire 3-2 = 1). Shield 2 (300): Lavrok -> 155,
        nobody breaks 155, strongest Blazorn -> 30, Night Vox breaks it.
    T4: draw R. Fire 1+2+1 = 4. Ember Flicker 90 (over Pyro Mites 85). Shield 3 (450):
        Lavrok -> 305, Blazorn -> 180, Night Vox -> 85, Ember Flicker (90 >= 85) breaks it.
    T5: draw R. Pyro Mites. No Shield left: 95 + 145 + 125 + 90 + 85 = 540 >= 500: won on turn 5.
    """
    deck = stacked_real(pool, DECK_A)
    state = new_game(deck, random.Random(1), ElekinOptions(shield_order="123"), stacked=True)
    assert names(state, state.hand) == DECK_A[:5]
    assert GreedyPolicy().choose(state, state.legal_actions()) == KEEP
    play_greedy(state)
    outcome = state.outcome()
    assert (outcome.won, outcome.win_turn, outcome.reason, outcome.mulligans) == (True, 5, "opponent at 0 LP", 0)
    summons = [a.card for a in state.log if isinstance(a, Summon)]
    assert summons == ["Night Vox", "Lavrok", "Blazorn", "Ember Flicker", "Pyro Mites"]
    assert state.lp == 0 and state.shields == [0, 0, 0]
    assert state.essence == [0, 0, 0, 9]  # T5: 4 + 2 (Vox) + 1 (Blazorn) + 2 (Flicker)


def test_hand_checked_going_second_same_deck_turn_1_attack_is_undone(pool: CardPool) -> None:
    """Same deck and Shields, going second: still turn 5.

    T1: draw R; summon Night Vox; it attacks Shield 1: 150 - 95 = 55 left, restored at the End
        Phase to the next threshold, 150 (4.4): the turn-1 attack achieves nothing.
    T2-T5: as going first (the Rune draws change nothing): Lavrok; Shield 1 breaks
        (145 + 95); Blazorn; Shield 2 breaks; Ember Flicker; Shield 3 breaks; Pyro Mites;
        540 damage to the 500 LP. Won on turn 5.
    """
    state = new_game(
        stacked_real(pool, DECK_A), random.Random(1), ElekinOptions(True, shield_order="123"), stacked=True
    )
    state.apply(KEEP)
    assert state.phase == MAIN1 and len(state.hand) == 6  # drew on turn 1
    state.apply(Summon("Night Vox"))
    state.apply(END)
    assert state.phase == BATTLE
    state.apply(Attack(0, 0))
    assert state.shields[0] == 55
    state.apply(END)  # Main Phase 2 (a Rune could be set) -> End Phase -> turn 2
    assert state.turn == 2 and state.shields[0] == 150  # restored at the End Phase
    play_greedy(state)
    assert (state.outcome().won, state.outcome().win_turn) == (True, 5)


def test_hand_checked_going_second_descending_shields_with_dragon_wins_on_turn_6(pool: CardPool) -> None:
    """Going second, Shields tier III, II, I from the left (450, 300, 150).

    Cards: Stawid 85 (air, free, gen 2); Night Vox 95 (fire, free, gen 2); Veton, the Lightning
    Dragon 190 (5 air + 5 fire, no generation); Skerodact 130 (2 air, gen 1); Glint 80 (air,
    free, gen 1); Ember Flicker 90 (fire, free, gen 2). Hand: Stawid, Night Vox, Veton, R, R
    (two free creatures: keep). Then Skerodact, Glint, Ember Flicker, Runes.

    T1: draw Skerodact. No essence. Summon Night Vox (95 > 85). It hits Shield 1 (450) -> 355,
        restored to 450.
    T2: draw Glint. Fire 2, air 0. Free: Stawid 85 > Glint 80: Stawid. Shield 1 (revealed 450):
        nobody breaks it; Night Vox -> 355, Stawid -> 270; restored to 300.
    T3: draw Ember Flicker. Fire 4, air 2: Skerodact 130 (air 0). Shield 1 (300): strongest
        first, Skerodact -> 170; nobody breaks 170, Night Vox -> 75; Stawid (85) breaks it.
    T4: draw R. Fire 6, air 3: Veton unaffordable; Ember Flicker 90 (not the last slot, no
        wait). Shield 2 (face-down 300): Skerodact -> 170, Night Vox -> 75, Stawid (excess 10)
        breaks it rather than Ember (15). Ember hits Shield 3 (150) -> 60, restored to 150.
    T5: draw R. Fire 6+2+2 = 10, air 3+2+1 = 6: Veton (air 1, fire 5). Shield 3 (150): only
        Veton breaks it. Direct: 95 + 85 + 130 + 90 = 400: LP 100.
    T6: draw R. Night Vox 95 (LP 5), Stawid: LP 0. Won on turn 6.
    """
    order = ["Stawid", "Night Vox", "Veton | The Lightning Dragon", "Essence Generation", "Essence Generation"]
    order += ["Skerodact", "Glint", "Ember Flicker"] + ["Essence Generation"] * 8
    deck = stacked_real(pool, order)
    state = new_game(deck, random.Random(5), ElekinOptions(True, shield_order="321"), stacked=True)
    play_greedy(state)
    outcome = state.outcome()
    assert (outcome.won, outcome.win_turn, outcome.mulligans) == (True, 6, 0)
    summons = [a.card for a in state.log if isinstance(a, Summon)]
    assert summons == ["Night Vox", "Stawid", "Skerodact", "Ember Flicker", "Veton | The Lightning Dragon"]
    assert state.essence[0] == 1 + 3 and state.essence[3] == 5 + 4  # T6 generation after Veton's 5 + 5


# -- rules -------------------------------------------------------------------------------


def test_first_player_has_no_battle_on_turn_1_second_player_does() -> None:
    brute = creature("Brute", 200)
    first = start(stacked([brute]))
    first.apply(Summon("Brute"))
    assert first.turn == 2 and first.phase == BATTLE  # turn 1 passed with no Battle Phase
    assert first.shields == [150, 300, 450]
    assert not any(isinstance(a, Attack) for a in first.log)
    second = start(stacked([brute]), on_the_draw=True)
    second.apply(Summon("Brute"))
    assert second.phase == BATTLE and Attack(0, 0) in second.legal_actions()
    second.apply(Attack(0, 0))
    assert second.shields == [0, 300, 450]


@pytest.mark.parametrize(
    ("order", "damage", "restored"),
    [
        ("213", 200, 150),  # the rulebook's example (4.4): Tier II dealt 200 -> 150, not 300
        ("213", 100, 300),
        ("321", 100, 450),
        ("321", 200, 300),
        ("321", 300, 150),
        ("321", 449, 150),
        ("123", 149, 150),
    ],
)
def test_damaged_shield_is_restored_to_the_next_threshold(order: str, damage: int, restored: int) -> None:
    state = start(stacked([creature("Hitter", damage)]), on_the_draw=True, order=order)
    state.apply(Summon("Hitter"))
    state.apply(Attack(0, 0))
    assert state.turn == 2
    assert state.shields[0] == restored
    assert state.revealed[0]


def test_damage_accumulates_within_a_turn_and_excess_is_lost() -> None:
    cards = [creature("A", 100), creature("B", 100)]
    state = start(stacked(cards), on_the_draw=True)
    state.apply(Summon("A"))
    state.apply(Attack(0, 0))  # 150 -> 50, restored to 150
    assert state.turn == 2 and state.shields[0] == 150
    state.apply(Summon("B"))
    state.apply(Attack(0, 0))  # 150 -> 50
    state.apply(Attack(1, 0))  # breaks it; 50 excess is lost
    assert state.shields == [0, 300, 450] and state.lp == 500


def test_direct_attack_only_when_no_shield_remains() -> None:
    state = start(stacked([creature("Huge", 500)]), on_the_draw=True)
    state.apply(Summon("Huge"))
    assert Attack(0, DIRECT) not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply(Attack(0, DIRECT))
    state.shields = [0, 0, 450]
    state.shields_left = 1
    assert state.legal_actions() == [Attack(0, 2), END]
    state.apply(Attack(0, 2))
    assert state.turn == 2 and state.lp == 500
    assert state.legal_actions() == [Attack(0, DIRECT), END]
    state.apply(Attack(0, DIRECT))
    assert state.is_terminal() and state.outcome().won and state.outcome().win_turn == 2


def test_pierce_sends_the_breaking_hits_excess_to_life_points() -> None:
    """5.4.2: a Pierce hit that breaks a Shield deals the excess to LP, bypassing other Shields."""
    spear = creature("Spear", 200, keywords=["Pierce"])
    state = start(stacked([spear]), on_the_draw=True)
    state.apply(Summon("Spear"))
    state.apply(Attack(0, 0))
    assert state.shields == [0, 300, 450] and state.lp == 450
    # no excess when the hit does not break the Shield (300 - 200 = 100, restored to 150)
    state.apply(Attack(0, 1))
    assert state.shields[1] == 150 and state.lp == 450


def test_conditional_pierce_is_not_honoured(pool: CardPool) -> None:
    """Brimfang only gains Pierce "when this card attacks a creature": never against Shields."""
    brimfang = real(pool, "Brimfang")
    assert [use.name for use in KEYWORDS.of(brimfang)] == ["pierce"]
    assert not keyword_is_static(brimfang, "pierce")
    assert not keyword_is_static(real(pool, "Zoryn | The Lava Dragon"), "pierce")  # paid Special
    assert not keyword_is_static(real(pool, "Diamoria | The Crystal Dragon"), "double strike")
    assert keyword_is_static(creature("Plain", 10, keywords=["Pierce"]), "pierce")
    assert keyword_is_static(creature("X", 10, keywords=["Pierce"], text="While attacking, gain Pierce."), "pierce")
    state = start(stacked([brimfang]), on_the_draw=True)
    state.apply(Summon("Brimfang"))
    state.shields[0] = 100  # Brimfang's 105 breaks it with 5 excess, which is lost
    state.apply(Attack(0, 0))
    assert state.shields[0] == 0 and state.lp == 500


@pytest.mark.parametrize(
    ("strength", "pierce", "target_hp", "shield_after", "lp_after"),
    [
        (100, False, 300, 150, 500),  # two strikes: 300 -> 200 -> 100, restored to 150
        (100, False, 150, 0, 500),  # second strike breaks it; excess lost
        (150, False, 150, 0, 500),  # first strike breaks it, the second misses (9.3)
        (200, True, 150, 0, 450),  # first strike breaks it with 50 Pierce excess; second misses
        (100, True, 150, 0, 450),  # second strike breaks it with 50 excess, Pierced
    ],
)
def test_double_strike(strength: int, pierce: bool, target_hp: int, shield_after: int, lp_after: int) -> None:
    keywords = ["Double Strike", "Pierce"] if pierce else ["Double Strike"]
    name = "Piercing Twin" if pierce else "Twin"  # the keyword registry memoises by card name
    twin = creature(name, strength, keywords=keywords)
    order = "123" if target_hp == 150 else "213"
    state = start(stacked([twin]), on_the_draw=True, order=order)
    state.apply(Summon(name))
    state.apply(Attack(0, 0))
    assert state.turn == 2  # values after the End Phase
    assert state.shields[0] == shield_after and state.lp == lp_after
    assert state.shields[1:] == ([300, 450] if order == "123" else [150, 450])  # other Shields untouched


def test_double_strike_hits_life_points_twice() -> None:
    state = start(stacked([creature("Twin", 100, keywords=["Double Strike"])]), on_the_draw=True)
    state.apply(Summon("Twin"))
    state.shields = [0, 0, 0]
    state.shields_left = 0
    state.apply(Attack(0, DIRECT))
    assert state.lp == 300


def test_agility_zero_cannot_attack() -> None:
    state = start(stacked([creature("Slug", 100, agility=0)]), on_the_draw=True, max_turns=3)
    state.apply(Summon("Slug"))
    # no attacker and nothing else to do: every later phase passes by itself
    assert state.is_terminal() and state.outcome().reason == "turn cap"
    assert not any(isinstance(a, Attack) for a in state.log)


def test_frozen_creature_skips_its_next_action() -> None:
    state = start(stacked([creature("Ice", 100)]), on_the_draw=True)
    state.apply(Summon("Ice"))
    state.freeze(0)
    assert state.legal_actions() == [END]
    state.apply(END)
    # turn 2: it stays exhausted through Main Phase 1, so turn 2 passes with no attack
    assert state.turn == 3 and state.phase == BATTLE and state.ready[0]
    assert state.shields == [150, 300, 450]


def test_one_normal_summon_per_turn_and_five_creature_slots() -> None:
    state = start(stacked([creature(f"C{i}", 10) for i in range(7)]), on_the_draw=True, max_turns=10)
    state.apply(Summon("C0"))
    with pytest.raises(IllegalActionError):
        state.apply(Summon("C1"))
    while len(state.board) < 5:
        end_turn(state)
        summons = [a for a in state.legal_actions() if isinstance(a, Summon)]
        state.apply(summons[0])
        with pytest.raises(IllegalActionError):
            state.apply(summons[1])
    end_turn(state)
    assert state.turn == 6 and len(state.board) == 5
    assert {"C5", "C6"} <= set(names(state, state.hand))
    assert not any(isinstance(a, Summon) for a in state.legal_actions())


def test_summoning_pays_the_elements_essence_and_generation_is_capped_at_20() -> None:
    well = creature("Well", 10, generation=15, element="water")
    costly = creature("Costly", 10, cost=7, element="water")
    state = start(stacked([well, costly]), on_the_draw=True)
    assert Summon("Costly") not in state.legal_actions() and Summon("Well") in state.legal_actions()
    state.apply(Summon("Well"))
    end_turn(state)
    assert state.essence == [0, 15, 0, 0]
    state.apply(Summon("Costly"))
    assert state.essence == [0, 8, 0, 0]
    end_turn(state)
    assert state.essence == [0, 20, 0, 0]  # 8 + 15 capped at 20
    end_turn(state)
    assert state.essence == [0, 20, 0, 0]


def test_dragon_costs_five_of_each_element_and_generates_nothing() -> None:
    air = creature("Breeze", 10, generation=5, element="air")
    fire = creature("Spark", 10, generation=4, element="fire")
    dragon = creature("Storm Dragon", 190, cost=10, generation=3, elements=["air", "fire"], dragon=True)
    state = start(stacked([air, fire, dragon]), on_the_draw=True)
    state.apply(Summon("Breeze"))
    end_turn(state)
    state.apply(Summon("Spark"))
    end_turn(state)  # turn 3: air 10, fire 4
    assert state.essence == [10, 0, 0, 4]
    assert not state.can_summon(state.fx.index["Storm Dragon"])  # 10 air and 4 fire do not pay it
    end_turn(state)  # turn 4: air 15, fire 8
    assert Summon("Storm Dragon") in state.legal_actions()
    state.apply(Summon("Storm Dragon"))
    assert state.essence == [10, 0, 0, 3]
    end_turn(state)
    assert state.essence == [15, 0, 0, 7]  # the Dragon adds nothing


def test_hand_limit_stops_the_draw() -> None:
    """Seven dead cards that cannot be set: no draw while the hand holds 7 (3.2.1)."""
    # nothing to do, ever: KEEP plays every turn to the cap (T1 draws the 6th card, T2 the
    # 7th, T3 and T4 draw nothing)
    state = start(stacked([DEAD] * 12, filler=None), on_the_draw=True, max_turns=4)
    assert len(state.hand) == 7 and len(state.library) == 5
    outcome = state.outcome()
    assert outcome.reason == "turn cap" and outcome.stalled and not outcome.won and outcome.turns == 4


def test_greedy_sets_a_rune_only_to_keep_drawing() -> None:
    state = start(stacked([creature("Lone", 10)] + [COUNTER] * 10, filler=None), on_the_draw=True)
    policy = GreedyPolicy()
    assert SetCard("Test Counter") in state.legal_actions()
    assert policy.choose(state, state.legal_actions()) == Summon("Lone")  # hand 6 -> 5: no need to set
    state.apply(Summon("Lone"))
    while state.turn < 3:
        state.apply(policy.choose(state, state.legal_actions()))
    assert len(state.hand) == 7 and not state.zone
    assert policy.choose(state, state.legal_actions()) == SetCard("Test Counter")
    state.apply(SetCard("Test Counter"))
    assert len(state.hand) == 6 and len(state.zone) == 1


def test_greedy_keeps_the_last_slot_for_a_dragon_due_next_turn() -> None:
    """Four creatures in play, a free 90 in hand and a Dragon that next turn's generation pays:
    the greedy policy waits rather than filling the fifth slot for good."""
    gens = [creature(f"G{i}", 100, generation=3, element=e) for i, e in enumerate(["air", "fire", "air", "fire"])]
    small = creature("Small", 90)
    dragon = creature("Sky Dragon", 200, cost=10, elements=["air", "fire"], dragon=True)
    state = start(stacked([*gens, small, dragon]), on_the_draw=True)
    for i in range(4):
        state.board.append(state.fx.index[f"G{i}"])
        state.ready.append(True)
        state.frozen.append(0)
        state.hand.remove(state.fx.index[f"G{i}"])
    assert state.essence == [0, 0, 0, 0]  # next turn: 3 + 3 air, 3 + 3 fire
    policy = GreedyPolicy()
    assert Summon("Small") in state.legal_actions()
    assert policy.choose(state, state.legal_actions()) == END
    state.board[2] = state.board[0] = state.fx.index["G1"]  # only fire generation: no Dragon next turn
    assert policy.choose(state, state.legal_actions()) == Summon("Small")


def test_drawing_from_an_empty_deck_loses() -> None:
    cards = [creature(f"W{i}", 10) for i in range(6)]
    state = start(stacked(cards, filler=None))
    play_greedy(state)
    outcome = state.outcome()
    assert (outcome.won, outcome.reason, outcome.turns) == (False, "player decked", 3)


def test_stalled_when_attacks_leave_no_lasting_damage() -> None:
    """An 80-Strength creature alone never gets a Shield below its threshold: stalled."""
    state = start(stacked([creature("Weak", 80)]), on_the_draw=True, max_turns=6)
    play_greedy(state)
    outcome = state.outcome()
    assert outcome.reason == "turn cap" and outcome.stalled and state.shields == [150, 300, 450]


def test_mulligan_draws_one_fewer_and_greedy_mulligans_without_a_curve() -> None:
    costly = [creature(f"K{i}", 100, cost=3) for i in range(5)]
    free = [creature("Free1", 90, generation=1), creature("Free2", 90)]
    state = new_game(stacked(costly + free, filler=RUNE, size=40), random.Random(3), GameOptions(), stacked=True)
    assert state.phase == MULLIGAN and state.legal_actions() == [KEEP, MULLIGAN_ACTION]
    policy = GreedyPolicy()
    assert not has_curve(state.fx, state.hand)
    assert policy.choose(state, state.legal_actions()) == MULLIGAN_ACTION
    state.apply(MULLIGAN_ACTION)
    assert len(state.hand) == 4 and len(state.library) == 36 and state.mulligans == 1
    while state.phase == MULLIGAN:
        state.apply(policy.choose(state, state.legal_actions()))
    assert state.mulligans in (1, 2)
    with pytest.raises(IllegalActionError):
        state.apply(MULLIGAN_ACTION)


def test_mulligan_down_to_nothing_then_only_keep() -> None:
    state = new_game(stacked([RUNE] * 10, filler=None), random.Random(0), GameOptions(), stacked=True)
    for size in (4, 3, 2, 1, 0):
        state.apply(MULLIGAN_ACTION)
        assert len(state.hand) == size
    assert state.legal_actions() == [KEEP]


def test_illegal_actions_raise() -> None:
    cards = [creature("A", 100), creature("B", 100, cost=2), creature("C", 100)]
    state = start(stacked(cards), on_the_draw=True)
    with pytest.raises(IllegalActionError):
        state.apply(Summon("B"))  # no essence
    with pytest.raises(IllegalActionError):
        state.apply(Summon("Nobody"))
    with pytest.raises(IllegalActionError):
        state.apply(Attack(0, 0))  # no creature yet
    with pytest.raises(IllegalActionError):
        state.apply(KEEP)
    state.apply(Summon("A"))
    for bad in (Attack(0, DIRECT), Attack(1, 0), Summon("C")):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    state.apply(Attack(0, 0))
    state.apply(Summon("C"))  # turn 2
    state.apply(Attack(0, 0))
    with pytest.raises(IllegalActionError):
        state.apply(Attack(0, 1))  # A is exhausted
    state.max_turns = state.turn
    while not state.is_terminal():
        state.apply(END)
    with pytest.raises(IllegalActionError):
        state.apply(END)


def test_shield_order_option() -> None:
    deck = stacked([creature("A", 10)])
    assert new_game(deck, random.Random(0), ElekinOptions(shield_order="descending")).shields == [450, 300, 150]
    assert new_game(deck, random.Random(0), ElekinOptions(shield_order="ascending")).shields == [150, 300, 450]
    seen = {tuple(new_game(deck, random.Random(s), GameOptions()).shield_tiers) for s in range(60)}
    assert len(seen) == 6
    with pytest.raises(EngineError):
        new_game(deck, random.Random(0), ElekinOptions(shield_order="112"))


# -- data, registry, replay, fast path ---------------------------------------------------


def test_missing_stats_and_incomplete_cards_of_the_sample(sample: EngineDeck) -> None:
    found = {c.name: c.missing for c in incomplete_cards(sample, ENGINE)}
    assert found == {
        "Archen": ("strength", "agility"),
        "Aeris | The Air Slyph": ("strength", "agility"),
        "Nimbus | The Air Titan": ("strength", "agility"),
    }
    fx = deck_facts(sample)
    for name in found:
        assert not fx.facts[fx.index[name]].summonable
    assert missing_stats(creature("NoCost", 10, cost=None, generation=None)) == ["cost", "generation"]
    assert missing_stats(creature("D", 10, elements=["air"], dragon=True)) == ["elements"]
    assert missing_stats(RUNE) == []


def test_incomplete_creatures_are_never_summoned(sample: EngineDeck) -> None:
    incomplete = {"Archen", "Aeris | The Air Slyph", "Nimbus | The Air Titan"}
    for seed in range(40):
        _, state = play_game(ENGINE, sample, seed, GreedyPolicy())
        assert not incomplete & {a.card for a in state.log if isinstance(a, Summon)}


def test_engine_is_registered() -> None:
    engine = find_engine("elekin")
    assert engine is ENGINE and engine.draw_section == "main"
    deck = stacked([creature("A", 10)])
    assert engine.opening_hand(deck) == 5
    assert [engine.draws_on_turn(deck, t, False) for t in (1, 2)] == [0, 1]
    assert engine.draws_on_turn(deck, 1, True) == 1
    assert {"pierce", "double strike", "freeze", "frozen"} <= set(KEYWORDS.names())


def snapshot(state: ElekinState) -> tuple[Any, ...]:
    return (state.hand, state.board, state.ready, state.essence, state.zone, state.shields, state.lp, state.library)


@pytest.mark.parametrize("on_the_draw", [False, True])
def test_replaying_the_log_gives_the_same_game(sample: EngineDeck, on_the_draw: bool) -> None:
    options = GameOptions(on_the_draw=on_the_draw)
    for seed in range(25):
        outcome, state = play_game(ENGINE, sample, seed, GreedyPolicy(), options)
        assert isinstance(state, ElekinState)
        replay = new_game(sample, random.Random(seed), options)
        for action in state.log:
            replay.apply(action)
        assert replay.is_terminal() and replay.outcome() == outcome
        assert snapshot(replay) == snapshot(state)


@pytest.mark.parametrize("order", ["random", "123", "321"])
def test_play_out_matches_the_generic_loop(sample: EngineDeck, order: str) -> None:
    policy = GreedyPolicy()
    for on_the_draw in (False, True):
        options = ElekinOptions(on_the_draw=on_the_draw, shield_order=order)
        for seed in range(150):
            fast = new_game(sample, random.Random(seed), options)
            fast.play_out(policy)
            slow = new_game(sample, random.Random(seed), options)
            while not slow.is_terminal():
                slow.apply(policy.choose(slow, slow.legal_actions()))
            assert fast.log == slow.log
            assert fast.outcome() == slow.outcome()
            assert snapshot(fast) == snapshot(slow)


def test_random_policy_games_end_and_stay_legal(sample: EngineDeck) -> None:
    from deckcli.engine.base import RandomPolicy

    for seed in range(30):
        outcome, state = play_game(ENGINE, sample, seed, RandomPolicy(random.Random(seed)))
        assert state.is_terminal() and outcome.turns <= 20


def test_goldfish_run_on_the_sample(sample: EngineDeck) -> None:
    stats = run_goldfish(ENGINE, sample, 400, seed=11, workers=1)
    assert stats.games == 400
    assert stats.wins >= 390
    assert stats.median_win_turn in (6, 7)
    again = run_goldfish(ENGINE, sample, 400, seed=11, workers=1)
    assert again.wins_by_turn == stats.wins_by_turn


def test_dealt_order_is_the_hand_then_the_library_from_the_top(sample: EngineDeck) -> None:
    """`deckcli odds` simulates with this engine's own dealing through dealt_order()."""
    state = ElekinState(sample, random.Random(11))
    order = state.dealt_order()
    assert sorted(order) == sorted(card.name for card in sample.section("main"))
    assert order[:5] == names(state, state.hand)
    state._draw(1)
    assert names(state, state.hand)[-1] == order[5]

"""The Elemental Clash goldfish engine: hand-checked games, rules, keywords, reproducibility."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from deckcli.cards.pool import CardPool
from deckcli.cards.store import CardStore
from deckcli.decks.io import read_deck_file
from deckcli.engine import find_engine
from deckcli.engine.base import EngineCard, EngineDeck, GameOptions, IllegalActionError, RandomPolicy
from deckcli.engine.clash import (
    ENGINE,
    KEYWORDS,
    Attack,
    Cast,
    ClashGreedyPolicy,
    ClashState,
    Creature,
    CycleHand,
    Discard,
    EndMain,
    EndStandby,
    KeepDraw,
    KeepHand,
    Move,
    Place,
    PlayStone,
    Ranged,
    Reshuffle,
    SalvageDecline,
    SalvageZone,
    missing_stats,
    new_game,
)
from deckcli.engine.decks import engine_deck, incomplete_cards
from deckcli.engine.runner import play_game, run_goldfish
from deckcli.rules import find_format

SAMPLE = Path(__file__).resolve().parents[1] / "card_db" / "decks" / "elemental-clash-sample.txt"


def stone(name: str, produces: str) -> EngineCard:
    return EngineCard(name, "element-stone", {"element": "neutral", "produces": produces})


def creature(name: str, element: str, level: int, attack: int, *keywords: str) -> EngineCard:
    data: dict[str, Any] = {
        "element": element,
        "level": level,
        "attack": attack,
        "defense": 1,
        "keywords": list(keywords),
    }
    return EngineCard(name, "creature", data)


def spell(name: str, element: str, level: int, kind: str = "normal", *keywords: str) -> EngineCard:
    return EngineCard(
        name, "spell", {"element": element, "level": level, "spell_kind": kind, "keywords": list(keywords)}
    )


MARS = stone("Mars Stone", "fire")
JUPITER = stone("Jupiter Stone", "air")
HASTE = stone("Hastestone", "neutral")
IMP = creature("Fire Imp", "fire", 1, 3)
DRAKE = creature("Fire Drake", "fire", 2, 4)
QUICK = creature("Quick Imp", "fire", 1, 2, "Quickattacker")
ARCHER = creature("Archer", "fire", 1, 1, "Ranged Attack: 3")
GOLEM = creature("Golem", "neutral", 2, 2)
BOLT = spell("Bolt", "fire", 1)
WARD = spell("Ward", "fire", 1, "permanent")
DUD = spell("Dud", "water", 3)


def deck_of(cards: Sequence[EngineCard], caster: EngineCard | None = None) -> EngineDeck:
    sections: dict[str, tuple[EngineCard, ...]] = {"main": tuple(cards)}
    if caster is not None:
        sections["spellcaster"] = (caster,)
    return EngineDeck("elemental-clash", "test", sections)


def new(
    cards: Sequence[EngineCard],
    *,
    on_the_draw: bool = False,
    caster: EngineCard | None = None,
    opponent_spellbook: int = 40,
) -> ClashState:
    """A stacked game (the first card on top) at its keep/reshuffle decision."""
    return new_game(
        deck_of(cards, caster),
        random.Random(0),
        GameOptions(on_the_draw=on_the_draw),
        stacked=True,
        opponent_spellbook=opponent_spellbook,
    )


def to_main(state: ClashState) -> None:
    """Advance through Standby/Draw choices (creatures to ATK) to the Main-Phase."""
    while state.phase != "main" and not state.is_terminal():
        if state.phase == "mulligan":
            state.apply(KeepHand())
        elif state.phase == "place":
            zone = "atk" if Place(state.pending_place[0].uid, "atk") in state.legal_actions() else "def"
            state.apply(Place(state.pending_place[0].uid, zone))
        elif state.phase == "standby":
            state.apply(EndStandby())
        elif state.phase == "draw":
            state.apply(KeepDraw())
        elif state.phase == "discard":
            state.apply(Discard(state.hand[0].name))


def end_turn(state: ClashState) -> None:
    state.apply(EndMain())
    while state.phase == "discard":
        state.apply(Discard(state.hand[0].name))
    to_main(state)


def greedy(cards: Sequence[EngineCard], *, on_the_draw: bool) -> ClashState:
    state = new(cards, on_the_draw=on_the_draw)
    policy = ClashGreedyPolicy()
    while not state.is_terminal():
        state.apply(policy.choose(state, state.legal_actions()))
    return state


# -- hand-checked greedy games -------------------------------------------------------------

IMP_DECK = [MARS, IMP] * 20  # top card first: S I S I S I S I ...


def test_stones_and_imps_going_first_win_on_turn_5() -> None:
    """Spellbook (top first) Mars, Imp, Mars, Imp, ... (Imp: fire, level 1, ATK 3). The
    opponent's Spellbook is 40 - 7 (its hand) = 33; it draws one per Draw-Phase.

    Opening 7: S I S I S I S = 4 stones (the average is 3.5, rounded up 4) and 3 Imps
    (average 3): keep. Going first, no draw on T1.
    T1: Mars -> stack A; Imp on A. Opp draws -> 32.
    T2: Imp1 -> ATK. Draw I (S S S I I I). A new stack B lets 2 Imps be cast now (only 1 on
    A): stone on B, Imps on A and B. Imp1 attacks: 3 -> 29. Opp -> 28.
    T3: 2 Imps -> ATK (3). Draw S (S S S I). One Imp whichever stack: tie -> stack A. Imp on B
    (the shortest free). 3 attack: 9 -> 19. Opp -> 18.
    T4: 4 in ATK. Draw I. Stone on A, Imp on B. 4 x 3 = 12 -> 6. Opp -> 5.
    T5: 5 in ATK. Draw S. 5 x 3 = 15 -> 0 (excess ignored). The opponent cannot draw in its
    Draw-Phase right after: win on turn 5.
    """
    state = greedy(IMP_DECK, on_the_draw=False)
    outcome = state.outcome()
    assert outcome.won and outcome.win_turn == 5 and outcome.reason == "opponent decked"
    assert state.damage_dealt == 3 + 9 + 12 + 15
    assert outcome.mulligans == 0 and not outcome.stalled
    assert [len(s.stones) for s in state.stacks] == [4, 1]


def test_stones_and_imps_going_second_win_on_turn_5() -> None:
    """The same deck going second: the opponent begins and skips its first draw (33).
    T1: draw I (4 S, 4 I). Mars -> A, Imp on A. Opp -> 32.
    T2: Imp1 -> ATK. Draw S. New stack B; 2 Imps cast. Imp1: 3 -> 29. Opp -> 28.
    T3: 3 in ATK. Draw I (S S S I I). Both stacks are free, so 2 Imps either way: tie ->
    stone on A; 2 Imps cast. 9 -> 19. Opp -> 18.
    T4: 5 in ATK. Draw S. Stone on A. 15 -> 3. Opp -> 2.
    T5: Draw I. Stone on A, Imp cast. 15 -> 0: the opponent cannot draw next: win on turn 5.
    """
    state = greedy(IMP_DECK, on_the_draw=True)
    outcome = state.outcome()
    assert outcome.won and outcome.win_turn == 5
    assert state.damage_dealt == 3 + 9 + 15 + 15
    assert state.zone_count("atk") == 5


# -- rules ------------------------------------------------------------------------------------


def test_first_player_skips_first_draw() -> None:
    first = new(IMP_DECK)
    to_main(first)
    assert first.turn == 1 and len(first.hand) == 7
    second = new(IMP_DECK, on_the_draw=True)
    to_main(second)
    assert len(second.hand) == 8
    assert second.opponent_library == 33  # the beginning opponent skipped its first draw
    end_turn(first)
    assert first.opponent_library == 32 and len(first.hand) == 8 and first.turn == 2
    assert ENGINE.opening_hand(deck_of(IMP_DECK)) == 7
    assert ENGINE.draws_on_turn(deck_of(IMP_DECK), 1, False) == 0
    assert ENGINE.draws_on_turn(deck_of(IMP_DECK), 1, True) == 1


def test_reshuffles_draw_seven_then_one_fewer_each() -> None:
    state = new(IMP_DECK)
    assert list(state.legal_actions()) == [KeepHand(), Reshuffle()]
    sizes = []
    for _ in range(3):
        state.apply(Reshuffle())
        sizes.append(len(state.hand))
        assert len(state.hand) + len(state.library) == 40
    assert sizes == [7, 6, 5]
    state.apply(KeepHand())
    assert state.outcome().mulligans == 3 and state.hand_size == 7


def test_one_stone_per_turn_at_most_five_stacks() -> None:
    state = new([MARS] * 40)
    to_main(state)
    state.apply(PlayStone("Mars Stone", 0))
    with pytest.raises(IllegalActionError):
        state.apply(PlayStone("Mars Stone", 1))
    for _ in range(4):
        end_turn(state)
        state.apply(PlayStone("Mars Stone", len(state.stacks)))
    assert len(state.stacks) == 5
    end_turn(state)
    assert PlayStone("Mars Stone", 5) not in state.legal_actions()
    state.apply(PlayStone("Mars Stone", 2))
    assert [len(s.stones) for s in state.stacks] == [1, 1, 2, 1, 1]


def test_lowest_coloured_stone_gives_the_energy() -> None:
    state = new([HASTE, MARS, JUPITER, MARS, IMP, IMP, IMP] + [IMP] * 33)
    to_main(state)
    state.apply(PlayStone("Hastestone", 0))
    assert state.stacks[0].energy == "neutral"
    assert not any(isinstance(a, Cast) for a in state.legal_actions())  # no energy for fire
    end_turn(state)
    state.apply(PlayStone("Mars Stone", 0))  # the lowest coloured stone is now Mars
    assert state.stacks[0].energy == "fire"
    end_turn(state)
    state.apply(PlayStone("Jupiter Stone", 0))
    assert state.stacks[0].energy == "fire"  # Jupiter sits above Mars


def test_level_and_element_decide_where_a_card_goes() -> None:
    state = new([MARS, JUPITER, DRAKE, GOLEM, IMP, MARS, MARS] + [IMP] * 33)
    to_main(state)
    state.apply(PlayStone("Jupiter Stone", 0))
    legal = state.legal_actions()
    assert Cast("Fire Imp", 0) not in legal  # air stack
    assert Cast("Golem", 0) not in legal  # level 2 on one stone
    end_turn(state)
    state.apply(PlayStone("Mars Stone", 0))  # air stack of 2
    assert Cast("Golem", 0) in state.legal_actions()  # neutral: any energy
    assert Cast("Fire Drake", 0) not in state.legal_actions()
    end_turn(state)
    state.apply(PlayStone("Mars Stone", 1))
    assert Cast("Fire Imp", 1) in state.legal_actions()
    assert Cast("Fire Drake", 1) not in state.legal_actions()


def test_a_card_occupies_its_stack_until_the_next_standby() -> None:
    state = new([MARS, IMP, IMP, BOLT, WARD, MARS, MARS] + [IMP] * 33)
    to_main(state)
    state.apply(PlayStone("Mars Stone", 0))
    state.apply(Cast("Bolt", 0))
    assert not any(isinstance(a, Cast) for a in state.legal_actions())
    end_turn(state)
    assert "Bolt" in [c.name for c in state.archive] and state.stacks[0].occupant is None
    state.apply(Cast("Ward", 0))  # a Permanent spell
    end_turn(state)
    assert state.stacks[0].occupant is not None and state.stacks[0].permanent
    assert not any(isinstance(a, Cast) and a.stack == 0 for a in state.legal_actions())
    state.apply(PlayStone("Mars Stone", 0))  # stones may still be added under it
    assert len(state.stacks[0].stones) == 2 and state.stacks[0].occupant is not None


def test_creature_attacks_after_reaching_the_atk_zone_and_damage_mills() -> None:
    state = new([MARS, IMP, MARS, MARS, MARS, MARS, MARS] + [MARS] * 33)
    to_main(state)
    state.apply(PlayStone("Mars Stone", 0))
    state.apply(Cast("Fire Imp", 0))
    (imp,) = state.creatures
    assert Attack(imp.uid) not in state.legal_actions()
    state.apply(EndMain())
    assert state.phase == "place"
    state.apply(Place(imp.uid, "atk"))
    to_main(state)
    assert state.stacks[0].occupant is None
    before = state.opponent_library
    state.apply(Attack(imp.uid))
    assert state.opponent_library == before - 3
    with pytest.raises(IllegalActionError):
        state.apply(Attack(imp.uid))  # once per turn


def test_quickattacker_attacks_from_its_stack_and_still_moves_later() -> None:
    state = new([MARS, QUICK, MARS, MARS, MARS, MARS, MARS] + [MARS] * 33)
    to_main(state)
    state.apply(PlayStone("Mars Stone", 0))
    state.apply(Cast("Quick Imp", 0))
    (quick,) = state.creatures
    state.apply(Attack(quick.uid))
    assert state.opponent_library == 33 - 2
    state.apply(EndMain())
    assert state.phase == "place"


def test_ranged_attack_from_the_def_zone() -> None:
    state = new([MARS, ARCHER, MARS, MARS, MARS, MARS, MARS] + [MARS] * 33)
    to_main(state)
    state.apply(PlayStone("Mars Stone", 0))
    state.apply(Cast("Archer", 0))
    (archer,) = state.creatures
    assert Ranged(archer.uid) not in state.legal_actions()  # on its stack, not a Quickattacker
    state.apply(EndMain())
    state.apply(Place(archer.uid, "def"))
    to_main(state)
    assert Attack(archer.uid) not in state.legal_actions()
    state.apply(Ranged(archer.uid))
    assert state.opponent_library == 32 - 3
    assert Ranged(archer.uid) not in state.legal_actions()


def test_zone_limits_keep_a_creature_on_its_stack() -> None:
    state = new([MARS, IMP, MARS, MARS, MARS, MARS, MARS] + [MARS] * 33)
    to_main(state)
    imp = next(c for c in state.hand if c.name == "Fire Imp")
    for i in range(10):  # five creatures in each zone already
        state.creatures.append(Creature(100 + i, imp, "atk" if i < 5 else "def", -1))
    state.apply(PlayStone("Mars Stone", 0))
    state.apply(Cast("Fire Imp", 0))
    end_turn(state)
    assert len([c for c in state.creatures if c.zone == "stack"]) == 1
    assert state.stacks[0].occupant is not None
    assert state.zone_count("atk") == 5 and state.zone_count("def") == 5


def test_standby_moves_once_and_greedy_fills_the_atk_zone() -> None:
    state = new([MARS, IMP, MARS, MARS, MARS, MARS, MARS] + [MARS] * 33)
    to_main(state)
    state.apply(PlayStone("Mars Stone", 0))
    state.apply(Cast("Fire Imp", 0))
    state.apply(EndMain())
    (imp,) = state.creatures
    assert ClashGreedyPolicy().choose(state, state.legal_actions()) == Place(imp.uid, "atk")
    state.apply(Place(imp.uid, "def"))
    to_main(state)
    state.apply(EndMain())
    assert state.phase == "standby"  # turn 3: the creature may change zone
    assert Move(imp.uid) in state.legal_actions()
    assert ClashGreedyPolicy().choose(state, state.legal_actions()) == Move(imp.uid)
    state.apply(Move(imp.uid))
    assert imp.zone == "atk" and Move(imp.uid) not in state.legal_actions()


def test_cycle_hand_puts_it_under_and_skips_the_main_phase() -> None:
    spells = [spell(f"Rite {i}", "water", 3) for i in range(40)]
    state = new(spells)
    state.apply(KeepHand())
    assert state.phase == "draw" and state.turn == 1
    hand_before = [c.name for c in state.hand]
    assert hand_before == [f"Rite {i}" for i in range(7)]
    state.apply(CycleHand())
    assert state.turn == 2 and state.phase == "draw"  # turn 1 ended without a Main-Phase
    assert [c.name for c in state.hand] == [f"Rite {i}" for i in range(7, 15)]  # 7 new + turn 2's
    # under the Spellbook in hand order: the first hand card is drawn first of them
    assert [c.name for c in state.library[:7]] == list(reversed(hand_before))
    assert ClashGreedyPolicy().choose(state, state.legal_actions()) == CycleHand()  # nothing to do


def test_player_decked_loses() -> None:
    state = new([DUD] * 8)
    state.apply(KeepHand())
    policy = ClashGreedyPolicy()
    while not state.is_terminal():
        state.apply(policy.choose(state, state.legal_actions()))
    outcome = state.outcome()
    assert not outcome.won and outcome.reason == "player decked"


def test_opponent_loses_at_its_draw_when_its_spellbook_is_empty() -> None:
    """Opponent Spellbook 10: 3 cards after its opening 7. Going first: T1 a Quick Imp (ATK 2)
    attacks at once -> 1 card; the opponent draws it -> 0. T2: nothing more is needed - the
    opponent cannot draw in its next Draw-Phase, so the game is won on turn 2 (the player's
    last turn before the failed draw)."""
    state = new([MARS, QUICK, MARS, MARS, MARS, MARS, MARS] + [MARS] * 33, opponent_spellbook=10)
    assert state.opponent_library == 3
    to_main(state)
    state.apply(PlayStone("Mars Stone", 0))
    state.apply(Cast("Quick Imp", 0))
    state.apply(Attack(state.creatures[0].uid))
    assert state.opponent_library == 1
    end_turn(state)
    assert state.opponent_library == 0 and not state.is_terminal() and state.turn == 2
    state.apply(EndMain())
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome.won and outcome.win_turn == 2 and outcome.reason == "opponent decked"


def test_milling_the_last_card_wins_that_turn() -> None:
    state = new([MARS, QUICK, MARS, MARS, MARS, MARS, MARS] + [MARS] * 33, opponent_spellbook=9)
    to_main(state)
    state.apply(PlayStone("Mars Stone", 0))
    state.apply(Cast("Quick Imp", 0))
    state.apply(Attack(state.creatures[0].uid))  # 2 damage, 2 cards: the Spellbook is empty
    state.apply(EndMain())
    assert state.outcome().won and state.outcome().win_turn == 1


def test_turn_cap_and_stall() -> None:
    outcome, _ = play_game(ENGINE, deck_of([DUD] * 40), 1, ClashGreedyPolicy(), GameOptions(max_turns=4))
    assert not outcome.won and outcome.reason == "turn cap" and outcome.turns == 4 and outcome.stalled


def test_spellcaster_sets_hand_size_and_draw() -> None:
    caster = EngineCard("Caster", "spellcaster", {"hand_size": 5, "draw": 2, "deck_size": 40})
    deck = deck_of(IMP_DECK, caster)
    assert ENGINE.opening_hand(deck) == 5
    assert ENGINE.draws_on_turn(deck, 1, False) == 0 and ENGINE.draws_on_turn(deck, 2, False) == 2
    state = new(IMP_DECK, caster=caster)
    assert len(state.hand) == 5
    to_main(state)
    end_turn(state)
    assert state.turn == 2 and len(state.hand) == 5 + 2
    state.apply(EndMain())
    assert state.phase == "discard"  # the hand limit is the Hand Size, 5
    state.apply(Discard("Mars Stone"))
    state.apply(Discard("Mars Stone"))
    assert state.turn == 3 and len(state.hand) == 5 + 2


# -- keywords ----------------------------------------------------------------------------------


def test_registered_keywords() -> None:
    assert KEYWORDS.names() == ["boon", "purge", "quickattacker", "ranged attack", "salvage"]


def test_purge_mills_the_same_number_but_purges() -> None:
    purger = creature("Purger", "fire", 1, 2, "Quickattacker", "Purge")
    state = new([MARS, purger, MARS, MARS, MARS, MARS, MARS] + [MARS] * 33)
    to_main(state)
    state.apply(PlayStone("Mars Stone", 0))
    state.apply(Cast("Purger", 0))
    state.apply(Attack(state.creatures[0].uid))
    assert state.opponent_library == 31 and state.opponent_purged == 2 and state.opponent_archive == 0


def test_salvage_discard_plays_the_card_for_free() -> None:
    saver = creature("Salvager", "water", 3, 2, "Salvage")
    state = new([saver] + [DUD] * 39, on_the_draw=True)
    to_main(state)
    assert len(state.hand) == 8
    state.apply(EndMain())
    assert state.phase == "discard"
    state.apply(Discard("Salvager"))
    assert state.phase == "salvage"
    assert SalvageDecline() in state.legal_actions()
    state.apply(SalvageZone("atk"))
    (salvaged,) = state.creatures
    assert salvaged.zone == "atk" and "Salvager" not in [c.name for c in state.archive]
    to_main(state)
    state.apply(Attack(salvaged.uid))


def test_greedy_discards_salvage_cards_first() -> None:
    saver = creature("Salvager", "water", 3, 2, "Salvage")
    state = new([DUD, saver] + [DUD] * 38, on_the_draw=True)
    to_main(state)
    state.apply(EndMain())
    policy = ClashGreedyPolicy()
    assert policy.choose(state, state.legal_actions()) == Discard("Salvager")
    state.apply(Discard("Salvager"))
    assert policy.choose(state, state.legal_actions()) == SalvageZone("atk")


# -- reproducibility, fast path, data ---------------------------------------------------------------


@pytest.fixture(scope="module")
def sample_deck(tmp_path_factory: pytest.TempPathFactory) -> EngineDeck:
    store = CardStore.open(tmp_path_factory.mktemp("clash") / "cards.sqlite")
    try:
        pool = CardPool.load(store, "elemental-clash")
    finally:
        store.close()
    return engine_deck(read_deck_file(SAMPLE)[0], find_format("elemental-clash"), pool)


def test_engine_is_registered() -> None:
    assert find_engine("elemental-clash") is ENGINE


def test_replaying_the_log_gives_the_same_game(sample_deck: EngineDeck) -> None:
    for seed in range(15):
        for on_the_draw in (False, True):
            options = GameOptions(on_the_draw=on_the_draw)
            outcome, state = play_game(ENGINE, sample_deck, seed, ClashGreedyPolicy(), options)
            replay = ENGINE.new_game(sample_deck, random.Random(seed), options)
            for action in state.log:
                replay.apply(action)
            assert isinstance(replay, ClashState) and isinstance(state, ClashState)
            assert replay.is_terminal() and replay.outcome() == outcome
            assert replay.opponent_library == state.opponent_library
            assert [c.name for c in replay.library] == [c.name for c in state.library]
            assert [[s.name for s in st.stones] for st in replay.stacks] == [
                [s.name for s in st.stones] for st in state.stacks
            ]


def test_play_out_matches_the_generic_loop(sample_deck: EngineDeck) -> None:
    for seed in range(100):
        options = GameOptions(on_the_draw=seed % 2 == 1)
        fast_outcome, fast = play_game(ENGINE, sample_deck, seed, ClashGreedyPolicy(), options)
        slow = ENGINE.new_game(sample_deck, random.Random(seed), options)
        policy = ClashGreedyPolicy()
        while not slow.is_terminal():
            slow.apply(policy.choose(slow, slow.legal_actions()))
        assert slow.log == fast.log
        assert slow.outcome() == fast_outcome


def test_random_policy_games_always_end(sample_deck: EngineDeck) -> None:
    for seed in range(60):
        outcome, state = play_game(
            ENGINE, sample_deck, seed, RandomPolicy(random.Random(seed)), GameOptions(on_the_draw=seed % 2 == 0)
        )
        assert state.is_terminal() and outcome.turns <= 20


def test_sample_deck_goldfish(sample_deck: EngineDeck) -> None:
    stats = run_goldfish(ENGINE, sample_deck, 200, seed=3, workers=1)
    assert stats.games == 200 and stats.wins >= 190
    assert stats.median_win_turn is not None and 6 <= stats.median_win_turn <= 13
    again = run_goldfish(ENGINE, sample_deck, 200, seed=3, workers=1)
    assert again.wins_by_turn == stats.wins_by_turn


def test_missing_stats_and_incomplete_report(sample_deck: EngineDeck) -> None:
    assert missing_stats(EngineCard("C", "creature", {"element": "fire", "level": 1})) == ["attack"]
    assert missing_stats(EngineCard("S", "spell", {"element": None, "level": 1})) == ["element"]
    assert missing_stats(EngineCard("X", "element-stone", {})) == ["produces"]
    assert missing_stats(EngineCard("P", "spellcaster", {"hand_size": 7})) == ["draw"]
    report = {card.name: card for card in incomplete_cards(sample_deck, ENGINE)}
    assert "Prisma of the Many Colors" in report and report["Ball Lightning"].provisional
    assert "Mars Stone" not in report  # a real, complete card


def test_a_creature_without_attack_is_never_cast() -> None:
    broken = EngineCard("Broken", "creature", {"element": "fire", "level": 1})
    state = new([MARS, broken, MARS, MARS, MARS, MARS, MARS] + [MARS] * 33)
    to_main(state)
    state.apply(PlayStone("Mars Stone", 0))
    assert not any(isinstance(a, Cast) for a in state.legal_actions())

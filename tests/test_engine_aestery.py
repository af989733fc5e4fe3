"""The Aestery TCG goldfish engine: hand-checked games, rules, keywords, reproducibility."""

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
from deckcli.engine.aestery import (
    ENGINE,
    KEYWORDS,
    MULLIGAN,
    AesteryGreedyPolicy,
    AesteryState,
    BeginCombat,
    Declare,
    Discard,
    EndTurn,
    Keep,
    Mine,
    MineExile,
    Mulligan,
    Pitch,
    Play,
    Resolve,
    Support,
    TapMine,
    missing_stats,
)
from deckcli.engine.base import EngineCard, EngineDeck, GameOptions, IllegalActionError, RandomPolicy
from deckcli.engine.decks import engine_deck, incomplete_cards
from deckcli.engine.runner import play_game, run_goldfish
from deckcli.rules import find_format

SAMPLE = Path(__file__).resolve().parents[1] / "card_db" / "decks" / "aestery-sample.txt"


def fighter(name: str, cost: int = 1, pitch: int = 1, power: int = 2, *keywords: str) -> EngineCard:
    """A Fighter card."""
    data: dict[str, Any] = {"cost": cost, "pitch": pitch, "power": power, "defense": 2, "keywords": list(keywords)}
    return EngineCard(name, "fighter", data)


def other(name: str, kind: str = "instant", cost: int = 9, pitch: int = 1, *keywords: str) -> EngineCard:
    """An Instant or Story."""
    return EngineCard(name, kind, {"cost": cost, "pitch": pitch, "keywords": list(keywords)})


DUD = other("Dud")  # an Instant costing 9: never affordable, pitch 1
BEAR = fighter("Bear", 1, 1, 2)
RAIDER = fighter("Raider", 0, 1, 5, "Madness")


def deck_of(cards: Sequence[EngineCard]) -> EngineDeck:
    """A Main Deck in this order (the first card on top when stacked)."""
    return EngineDeck("aestery", "test", {"main": tuple(cards)})


def start(cards: Sequence[EngineCard], *, on_the_draw: bool = False, max_turns: int = 20) -> AesteryState:
    """A stacked game, kept, at its first main phase."""
    state = ENGINE.new_game(
        deck_of(cards), random.Random(0), GameOptions(on_the_draw=on_the_draw, max_turns=max_turns), stacked=True
    )
    assert isinstance(state, AesteryState)
    state.apply(Keep())
    return state


def greedy_game(cards: Sequence[EngineCard], *, on_the_draw: bool) -> AesteryState:
    state = ENGINE.new_game(deck_of(cards), random.Random(0), GameOptions(on_the_draw=on_the_draw), stacked=True)
    assert isinstance(state, AesteryState)
    policy = AesteryGreedyPolicy()
    while not state.is_terminal():
        state.apply(policy.choose(state, state.legal_actions()))
    return state


def pay_with_mines_then_pitch(state: AesteryState, *pitches: str) -> None:
    while state.phase == "pay":
        if TapMine() in state.legal_actions():
            state.apply(TapMine())
        else:
            state.apply(Pitch(pitches[0]))
            pitches = pitches[1:]


def attack_with(state: AesteryState, *uids: int) -> None:
    state.apply(BeginCombat())
    for uid in uids:
        state.apply(Declare(uid))
    state.apply(Resolve())


def next_turn(state: AesteryState) -> None:
    state.apply(EndTurn())
    while state.phase == "discard":
        state.apply(Discard(state.hand[0].name))


# -- hand-checked greedy games ------------------------------------------------------------


def test_vanilla_bears_going_first_win_on_turn_4() -> None:
    """60 Bears (cost 1, pitch 1, Power 2, no keyword); opponent 20 LP; going first.

    T1 (no draw): 6 Bears. Keep (all Fighters). Not lethal (6 Bears = 12 < 20). Best plays:
    n Bears cost n and the other 6-n pay by pitching 1 each, so n <= 3: play 3, pitch 3; no
    card is left to Mine. New Bears would gain First Blood, so none attacks. End: 3 pitched
    Bears go under, draw 1 -> hand 1.
    T2: draw -> 2. 3 Bears attack (6) -> 14 LP. Play 1 Bear pitching the other. Hand 0 -> 1.
    T3: draw -> 2. Lethal? 4 Bears (8) + 2 playable (4) = 12 < 14: no. Play 1 Bear; 4 attack
    (8) -> 6 LP. Hand 0 -> 1.
    T4: draw -> 2. 5 Bears attack for 10 >= 6: win on turn 4.
    """
    state = greedy_game([BEAR] * 60, on_the_draw=False)
    assert state.outcome().won and state.outcome().win_turn == 4
    assert state.opponent_lp == -4
    assert state.outcome().reason == "opponent at 0 LP"
    assert state.mines_tapped + state.mines_untapped == 0


def test_vanilla_bears_going_second_win_on_turn_4() -> None:
    """The same 60 Bears, going second (draw on turn 1).

    T1: 6 + 1 = 7 Bears. n <= 7-n: play 3, pitch 3, 1 Bear left. A Mine pays 1 a turn; with
    6 Power on board and 20 LP the game has ceil(20/6) = 4 turns left > pitch 1 + 1, so the
    left-over Bear is Mined (tapped Mine). No attack (First Blood). Hand 0 -> 1.
    T2: draw -> 2; the Mine untaps. 3 Bears attack (6) -> 14. Two Bears would cost 2 with only
    the Mine to pay (the other card is cast): play 1 Bear with the Mine. Mine the last one?
    ceil((20-6)/8) = 2 turns left, not > 2: no. Hand 1 -> 2.
    T3: draw -> 3. Lethal? 4 Bears (8) + 3 playable (6) = 14, but 3 Bears cost 3 with 1 Mine
    and nothing to pitch: no. Play 2 (Mine + pitch 1); 4 Bears attack (8) -> 6. Hand 0 -> 1.
    T4: draw -> 2. 6 Bears attack for 12 >= 6: win on turn 4 (one Mine made).
    """
    state = greedy_game([BEAR] * 60, on_the_draw=True)
    assert state.outcome().won and state.outcome().win_turn == 4
    assert state.opponent_lp == 6 - 12
    assert state.mines_tapped + state.mines_untapped == 1
    assert len(state.fighters) == 6


RAIDER_ORDER = [RAIDER, RAIDER, RAIDER, DUD, DUD, DUD, RAIDER] + [DUD] * 53


def test_madness_raiders_going_first_win_on_turn_2() -> None:
    """Raiders: cost 0, Power 5, Madness (never First Blood); Duds never affordable.
    Deck top: R R R D D D R D D ...

    Going first, T1 hand R R R D D D: 3 Raiders = 15 < 20, not lethal; play all 3 (free)
    and, having Madness, they attack at once: 15 -> 5 LP. End: draw R.
    T2: draw D; 3 Raiders attack for 15 >= 5: win on turn 2.
    """
    state = greedy_game(RAIDER_ORDER, on_the_draw=False)
    assert state.outcome().won and state.outcome().win_turn == 2
    assert state.opponent_lp == 5 - 15


def test_madness_raiders_going_second_win_on_turn_1() -> None:
    """Going second, T1 draws the 7th card (the 4th Raider): 4 x 5 = 20 on turn 1."""
    state = greedy_game(RAIDER_ORDER, on_the_draw=True)
    assert state.outcome().won and state.outcome().win_turn == 1
    assert state.opponent_lp == 0


# -- rules ------------------------------------------------------------------------------------


def test_first_player_skips_draw_and_second_player_draws() -> None:
    first = start([BEAR] * 20)
    assert len(first.hand) == 6 and first.turn == 1
    second = start([BEAR] * 20, on_the_draw=True)
    assert len(second.hand) == 7
    assert ENGINE.opening_hand(deck_of([BEAR])) == 6
    assert ENGINE.draws_on_turn(deck_of([BEAR]), 1, False) == 0
    assert ENGINE.draws_on_turn(deck_of([BEAR]), 1, True) == 1
    assert ENGINE.draws_on_turn(deck_of([BEAR]), 2, False) == 1


def test_one_mulligan_only() -> None:
    state = ENGINE.new_game(deck_of([BEAR] * 30), random.Random(3), GameOptions(), stacked=True)
    assert list(state.legal_actions()) == [Keep(), Mulligan()]
    state.apply(MULLIGAN)
    assert isinstance(state, AesteryState)
    assert state.phase == "main" and len(state.hand) == 6 and len(state.library) == 24
    assert state.outcome().mulligans == 1
    with pytest.raises(IllegalActionError):
        state.apply(Mulligan())


def test_mining_once_per_turn_makes_a_tapped_mine_that_untaps_next_turn() -> None:
    state = start([BEAR] * 30)
    state.apply(Mine("Bear"))
    assert state.mines_tapped == 1 and state.mines_untapped == 0 and len(state.hand) == 5
    assert not any(isinstance(a, Mine) for a in state.legal_actions())
    with pytest.raises(IllegalActionError):
        state.apply(Mine("Bear"))
    next_turn(state)
    assert state.mines_untapped == 1 and state.mines_tapped == 0


def test_pitching_only_pays_costs_and_pitched_cards_go_under_the_deck() -> None:
    cheap = fighter("Cheap", 1, 3, 1)
    state = start([BEAR, cheap, DUD, DUD, DUD, DUD] + [BEAR] * 10)
    with pytest.raises(IllegalActionError):
        state.apply(Pitch("Dud"))  # no cost to pay
    state.apply(Play("Bear"))
    assert state.phase == "pay" and state.pay_due == 1
    state.apply(Pitch("Cheap"))  # pitch 3 for a cost of 1: 2 Aether stay in the pool
    assert state.pool == 2 and len(state.fighters) == 1
    bottom_before = len(state.library)
    next_turn(state)
    # the pitched card went under the deck, then the end-of-turn draw took the top card
    assert state.library[0].name == "Cheap"
    assert len(state.library) == bottom_before + 1 - 1 - 1  # +pitched, -end draw, -draw step
    assert state.pool == 0


def test_play_requires_affordable_cost() -> None:
    big = fighter("Big", 9, 1, 9)
    state = start([big, DUD, DUD, DUD, DUD, DUD] + [DUD] * 10)
    assert Play("Big") not in state.legal_actions()  # 5 Duds pitch 5 < 9
    with pytest.raises(IllegalActionError):
        state.apply(Play("Big"))


def test_first_blood_sacrifices_a_new_attacker_but_not_a_waiting_one() -> None:
    state = start([BEAR] * 30)
    state.apply(Play("Bear"))
    pay_with_mines_then_pitch(state, "Bear")
    state.apply(Play("Bear"))
    pay_with_mines_then_pitch(state, "Bear")
    first, second = (f.uid for f in state.fighters)
    attack_with(state, first)
    assert state.opponent_lp == 18
    assert state.fighter(first) is not None and state.fighter(first).first_blood  # type: ignore[union-attr]
    next_turn(state)
    assert state.fighter(first) is None  # sacrificed at end of turn
    assert state.fighter(second) is not None
    attack_with(state, second)
    next_turn(state)
    assert state.fighter(second) is not None  # it had spent an upkeep: no First Blood


def test_end_of_turn_draw_and_discard_to_six() -> None:
    state = start([DUD] * 30, on_the_draw=True)
    assert len(state.hand) == 7
    state.apply(EndTurn())
    assert state.phase == "discard" and len(state.hand) == 8
    state.apply(Discard("Dud"))
    assert state.phase == "discard"
    state.apply(Discard("Dud"))
    assert state.turn == 2 and len(state.hand) == 7  # 6 kept + draw step


def test_extra_combat_phases_cost_2_then_4() -> None:
    state = start([BEAR] * 30)
    attack_with(state)  # first combat: free, nobody attacks
    assert state.combats == 1
    state.apply(BeginCombat())  # second combat phase: 2 Aether
    assert state.phase == "pay" and state.pay_due == 2
    state.apply(Pitch("Bear"))
    state.apply(Pitch("Bear"))
    assert state.phase == "declare"
    state.apply(Resolve())
    state.apply(BeginCombat())
    assert state.pay_due == 4


def test_player_decked_loses() -> None:
    state = start([DUD] * 7)  # 6 in hand, 1 left
    next_turn(state)  # end-of-turn draw takes the last card; the turn-2 draw step fails
    assert state.is_terminal()
    outcome = state.outcome()
    assert not outcome.won and outcome.reason == "player decked" and outcome.turns == 2


def test_turn_cap_and_stall() -> None:
    outcome, _ = play_game(ENGINE, deck_of([DUD] * 60), 1, AesteryGreedyPolicy(), GameOptions(max_turns=5))
    assert not outcome.won and outcome.reason == "turn cap" and outcome.turns == 5 and outcome.stalled
    assert outcome.win_turn is None
    outcome, _ = play_game(ENGINE, deck_of([DUD] * 60), 1, AesteryGreedyPolicy(), GameOptions(max_turns=2))
    assert not outcome.stalled  # only 2 idle turns


# -- keywords ----------------------------------------------------------------------------------


def test_registered_keywords() -> None:
    assert KEYWORDS.names() == [
        "bloodthirst",
        "bravery",
        "dive",
        "efficiency",
        "madness",
        "mine",
        "repeat",
        "slumber",
        "support",
    ]


def test_madness_never_gains_first_blood() -> None:
    state = start([RAIDER] * 20)
    state.apply(Play("Raider"))
    uid = state.fighters[0].uid
    attack_with(state, uid)
    assert state.opponent_lp == 15 and not state.fighters[0].first_blood
    next_turn(state)
    assert state.fighter(uid) is not None


def test_bloodthirst_counter_saves_once_then_sacrificed() -> None:
    berserker = fighter("Berserker", 0, 1, 3, "Bloodthirst 1")
    state = start([berserker] * 20)
    state.apply(Play("Berserker"))
    uid = state.fighters[0].uid
    assert state.fighters[0].bloodthirst == 1
    attack_with(state, uid)
    next_turn(state)
    perm = state.fighter(uid)
    assert perm is not None and perm.bloodthirst == 0
    attack_with(state, uid)  # it spent an upkeep, but Bloodthirst gains First Blood on each attack
    assert perm.first_blood
    next_turn(state)
    assert state.fighter(uid) is None


def test_dive_enters_tapped_and_skips_the_untap_after_attacking() -> None:
    diver = fighter("Diver", 0, 1, 2, "Dive")
    state = start([diver] * 20)
    state.apply(Play("Diver"))
    uid = state.fighters[0].uid
    state.apply(BeginCombat())
    assert Declare(uid) not in state.legal_actions()  # tapped on entering
    state.apply(Resolve())
    next_turn(state)
    attack_with(state, uid)  # T2: untapped, no First Blood
    next_turn(state)  # T3: skips this untap
    state.apply(BeginCombat())
    assert Declare(uid) not in state.legal_actions()
    state.apply(Resolve())
    next_turn(state)  # T4: untaps again
    state.apply(BeginCombat())
    assert Declare(uid) in state.legal_actions()


def test_efficiency_untaps_mines() -> None:
    caller = fighter("Caller", 2, 1, 2, "Efficiency 1")
    state = start([caller, DUD, DUD, DUD, DUD, DUD] + [DUD] * 10)
    state.apply(Mine("Dud"))  # a tapped Mine
    state.apply(Play("Caller"))
    state.apply(Pitch("Dud"))
    state.apply(Pitch("Dud"))
    assert state.mines_untapped == 1 and state.mines_tapped == 0


def test_mine_x_exiles_cards_from_hand_for_tapped_mines() -> None:
    miner = fighter("Miner", 0, 3, 1, "Entry", "Mine 2")
    state = start([miner, DUD, DUD, DUD, DUD, DUD] + [DUD] * 10)
    state.apply(Play("Miner"))
    assert state.phase == "mine-exile" and state.pending_exiles == 2
    state.apply(MineExile("Dud"))
    state.apply(MineExile("Dud"))
    assert state.phase == "main" and state.mines_tapped == 2 and len(state.hand) == 3
    assert not state.mined  # the once-per-turn Mining is still available
    state.apply(Mine("Dud"))
    assert state.mines_tapped == 3


def test_mine_x_with_a_short_hand_exiles_what_there_is() -> None:
    miner = fighter("Deep Miner", 0, 3, 1, "Mine 3")
    state = start([miner, BEAR, BEAR, BEAR, BEAR, BEAR] + [DUD] * 10)
    for _ in range(2):
        state.apply(Play("Bear"))
        state.apply(Pitch("Bear"))
    assert [c.name for c in state.hand] == ["Deep Miner", "Bear"]
    state.apply(Play("Deep Miner"))
    assert state.phase == "mine-exile" and state.pending_exiles == 1  # min(3, hand of 1)
    state.apply(MineExile("Bear"))
    assert state.phase == "main" and state.hand == [] and state.mines_tapped == 1


def test_repeat_adds_x_per_earlier_attack_phase() -> None:
    duelist = fighter("Duelist", 0, 1, 3, "Repeat 2")
    state = start([BEAR, duelist, BEAR, BEAR, BEAR, BEAR] + [BEAR] * 10, on_the_draw=False)
    state.apply(Play("Duelist"))
    state.apply(Play("Bear"))
    pay_with_mines_then_pitch(state, "Bear")
    bear, duel = state.fighters[1].uid, state.fighters[0].uid
    next_turn(state)
    attack_with(state, bear)  # phase 1: the Bear (2)
    assert state.opponent_lp == 18
    state.apply(BeginCombat())
    state.apply(Pitch("Bear"))
    state.apply(Pitch("Bear"))
    state.apply(Declare(duel))
    state.apply(Resolve())  # phase 2: Duelist 3 + 2*1
    assert state.opponent_lp == 13


def test_support_and_mining_a_support_card_pump_the_target() -> None:
    scout = other("Scout", "instant", 9, 3, "Support 2")
    state = start([BEAR, scout, scout, BEAR, BEAR, BEAR] + [BEAR] * 10)
    state.apply(Play("Bear"))
    pay_with_mines_then_pitch(state, "Bear")
    uid = state.fighters[0].uid
    state.apply(Support("Scout", uid))
    assert state.fighters[0].bonus == 2
    state.apply(Mine("Scout", uid))  # Mining exiles it from hand: Support triggers
    assert state.fighters[0].bonus == 4 and state.mines_tapped == 1
    attack_with(state, uid)
    assert state.opponent_lp == 20 - 6
    next_turn(state)
    assert state.fighters == [] or state.fighters[0].bonus == 0


def test_support_needs_a_fighter() -> None:
    scout = other("Scout", "instant", 9, 3, "Support 2")
    state = start([scout] * 10)
    assert not any(isinstance(a, Support) for a in state.legal_actions())
    assert Mine("Scout", 0) in state.legal_actions()


def test_slumber_counts_both_players_upkeeps() -> None:
    """Slumber 3 played on T1: the opponent's upkeep -> 2, T2 upkeep -> 1 (cannot attack),
    opponent -> 0, so it attacks on T3 (and, having spent upkeeps, keeps living)."""
    oak = fighter("Oak", 0, 1, 4, "Slumber 3")
    state = start([oak] * 20)
    state.apply(Play("Oak"))
    uid = state.fighters[0].uid
    assert state.fighters[0].slumber == 3
    next_turn(state)
    assert state.fighters[0].slumber == 1
    state.apply(BeginCombat())
    assert Declare(uid) not in state.legal_actions()
    state.apply(Resolve())
    next_turn(state)
    assert state.fighters[0].slumber == 0
    attack_with(state, uid)
    assert state.opponent_lp == 16


def test_slumber_1_attacks_next_turn_even_on_the_draw() -> None:
    oak = fighter("Sapling", 0, 1, 4, "Slumber 1")  # keyword uses are memoised by card name
    state = start([oak] * 20, on_the_draw=True)
    state.apply(Play("Sapling"))
    next_turn(state)
    assert state.fighters[0].can_attack()


def test_bravery_counters_do_nothing_without_blockers() -> None:
    brute = fighter("Brute", 0, 1, 5, "Bravery 1")
    state = start([brute] * 20)
    state.apply(Play("Brute"))
    assert state.fighters[0].bravery == 1
    next_turn(state)
    attack_with(state, state.fighters[0].uid)
    assert state.opponent_lp == 15


# -- policy details ----------------------------------------------------------------------------


def test_greedy_waits_with_new_fighters_unless_lethal() -> None:
    state = start([BEAR] * 30)
    policy = AesteryGreedyPolicy()
    while state.turn == 1:
        state.apply(policy.choose(state, state.legal_actions()))
    assert state.opponent_lp == 20 and len(state.fighters) == 3


def test_greedy_buys_extra_combat_for_repeat() -> None:
    """Going second. T1 hand: Duelist (cost 0, Power 3, Repeat 2), Bear, 5 Duds of pitch 2:
    play both (a Dud pays the Bear, 1 Aether floats). T2 hand: 6 Duds, so one is spare (the
    hand is cut to 6 after the end-of-turn draw): its 2 Aether buy a second combat phase.
    The Bear attacks in the first (2), the Duelist in the second for 3 + 2 x 1 = 5."""
    duelist = fighter("Duelist", 0, 3, 3, "Repeat 2")
    dud2 = other("Dud2", "instant", 9, 2)
    state = start([duelist, BEAR] + [dud2] * 30, on_the_draw=True)
    state.apply(Play("Duelist"))
    state.apply(Play("Bear"))
    state.apply(Pitch("Dud2"))
    next_turn(state)
    assert len(state.hand) == 6
    policy = AesteryGreedyPolicy(mine_cap=0)
    while state.turn == 2:
        state.apply(policy.choose(state, state.legal_actions()))
    assert state.opponent_lp == 20 - 2 - 5
    assert state.log.count(BeginCombat()) == 2


def test_mulligan_rule_is_relative_to_the_deck() -> None:
    policy = AesteryGreedyPolicy()
    # 30 Bears + 30 Duds: an average hand has 3 Fighters; a stacked hand of 2 is mulliganed
    cards = [BEAR, BEAR, DUD, DUD, DUD, DUD] + [BEAR] * 28 + [DUD] * 24
    state = ENGINE.new_game(deck_of(cards), random.Random(0), GameOptions(), stacked=True)
    assert policy.choose(state, state.legal_actions()) == Mulligan()
    cards = [BEAR, BEAR, BEAR, DUD, DUD, DUD] + [BEAR] * 27 + [DUD] * 24
    state = ENGINE.new_game(deck_of(cards), random.Random(0), GameOptions(), stacked=True)
    assert policy.choose(state, state.legal_actions()) == Keep()


# -- reproducibility, fast path, data -------------------------------------------------------------


@pytest.fixture(scope="module")
def sample_deck(tmp_path_factory: pytest.TempPathFactory) -> EngineDeck:
    store = CardStore.open(tmp_path_factory.mktemp("aestery") / "cards.sqlite")
    try:
        pool = CardPool.load(store, "aestery")
    finally:
        store.close()
    return engine_deck(read_deck_file(SAMPLE)[0], find_format("aestery"), pool)


def test_engine_is_registered() -> None:
    assert find_engine("aestery") is ENGINE


def test_replaying_the_log_gives_the_same_game(sample_deck: EngineDeck) -> None:
    for seed in range(20):
        for on_the_draw in (False, True):
            options = GameOptions(on_the_draw=on_the_draw)
            outcome, state = play_game(ENGINE, sample_deck, seed, AesteryGreedyPolicy(), options)
            replay = ENGINE.new_game(sample_deck, random.Random(seed), options)
            for action in state.log:
                replay.apply(action)
            assert replay.is_terminal() and replay.outcome() == outcome
            assert isinstance(replay, AesteryState) and isinstance(state, AesteryState)
            assert replay.opponent_lp == state.opponent_lp
            assert [c.name for c in replay.hand] == [c.name for c in state.hand]
            assert [c.name for c in replay.library] == [c.name for c in state.library]


def test_play_out_matches_the_generic_loop(sample_deck: EngineDeck) -> None:
    for seed in range(150):
        options = GameOptions(on_the_draw=seed % 2 == 1)
        fast_outcome, fast = play_game(ENGINE, sample_deck, seed, AesteryGreedyPolicy(), options)
        slow = ENGINE.new_game(sample_deck, random.Random(seed), options)
        policy = AesteryGreedyPolicy()
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
    stats = run_goldfish(ENGINE, sample_deck, 300, seed=7, workers=1)
    assert stats.games == 300 and stats.wins == 300
    assert stats.median_win_turn is not None and 2 <= stats.median_win_turn <= 5
    again = run_goldfish(ENGINE, sample_deck, 300, seed=7, workers=1)
    assert again.wins_by_turn == stats.wins_by_turn


def test_missing_stats_and_incomplete_report(sample_deck: EngineDeck) -> None:
    assert missing_stats(EngineCard("X", "fighter", {"cost": 1, "pitch": 1})) == ["power"]
    assert missing_stats(EngineCard("X", "instant", {"cost": None, "pitch": 2})) == ["cost"]
    assert missing_stats(EngineCard("H", "hero", {})) == []
    report = incomplete_cards(sample_deck, ENGINE)
    assert report and all(card.provisional and not card.missing for card in report)
    broken = deck_of([EngineCard("Broken", "fighter", {"cost": 2, "pitch": 1}), BEAR])
    (entry,) = [c for c in incomplete_cards(broken, ENGINE) if c.name == "Broken"]
    assert entry.missing == ("power",)


def test_a_fighter_without_power_is_never_played() -> None:
    broken = EngineCard("Broken", "fighter", {"cost": 0, "pitch": 1})
    state = start([broken] * 10)
    assert Play("Broken") not in state.legal_actions()

"""The Elestrals goldfish engine: hand-checked stacked games, legality, keywords, reproducibility.

Hand calculations use the rules as the engine module documents them: one Spirit action
per turn (Normal Cast / Ascend / Enchant / Expend-to-draw), an attacking Elestral makes
the opponent Expend one Spirit per Spirit Enchanting it, and the opponent (20 Spirits)
loses only when it must Expend from an empty Spirit Deck, i.e. at the 21st point of
damage. The first player skips the Draw and Battle Phases of turn 1.
"""

from __future__ import annotations

import dataclasses
import random
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import CARD_DB

from deckcli.cards.pool import CardPool
from deckcli.cards.store import CardStore
from deckcli.decks.io import read_deck_file
from deckcli.engine import find_engine
from deckcli.engine.base import (
    EngineCard,
    EngineDeck,
    EngineError,
    GameOptions,
    GameState,
    IllegalActionError,
    RandomPolicy,
)
from deckcli.engine.decks import engine_deck, incomplete_cards
from deckcli.engine.elestrals import (
    END_MAIN,
    END_TURN,
    ENGINE,
    KEEP,
    KEYWORDS,
    Ascend,
    Attack,
    CastRune,
    CastSetRune,
    ChangePosition,
    ElestralKeyword,
    ElestralsState,
    Enchant,
    ExpendDraw,
    GreedyPolicy,
    Mulligan,
    NormalCast,
    SetRune,
    new_game,
)
from deckcli.engine.keywords import KeywordRegistry
from deckcli.engine.runner import play_game
from deckcli.rules import find_format

# -- test cards ------------------------------------------------------------------------------


def elestral(name: str, cost: list[str], attack: int | None, **extra: Any) -> EngineCard:
    data = {"name": name, "type": "elestral", "cost": cost, "attack": attack, "defense": 2, **extra}
    return EngineCard(name, "elestral", data)


def rune(name: str, subtype: str, cost: list[str]) -> EngineCard:
    return EngineCard(name, "rune", {"name": name, "type": "rune", "subtype": subtype, "cost": cost})


def spirit(name: str, element: str) -> EngineCard:
    return EngineCard(name, "spirit", {"name": name, "type": "spirit", "element": element})


EMBERLING = elestral("Emberling", ["fire"], 3)
TIDEPUP = elestral("Tidepup", ["water"], 2)
SERPENT = elestral("Great Serpent", ["water", "water"], 5)
TITAN = elestral("Ancient Titan", ["earth", "earth", "earth"], 8)
WALLFLOWER = elestral("Wallflower", ["water"], 0)
SPARK = rune("Spark Bolt", "invoke", ["fire"])
WARD = rune("Mirror Ward", "counter", ["omni"])
BLADE = rune("Sun Blade", "artifact", ["fire", "omni"])
TEMPLE = rune("Sea Temple", "stadium", ["water"])
ALTAR = rune("Oracle Altar", "divine", ["water"])
VIPYRO = spirit("Vipyro", "fire")
LEVIAPHIN = spirit("Leviaphin", "water")


def make_deck(main: Iterable[tuple[EngineCard, int]], spirits: Iterable[tuple[EngineCard, int]]) -> EngineDeck:
    return EngineDeck(
        "elestrals",
        "test deck",
        {
            "main": tuple(card for card, n in main for _ in range(n)),
            "spirit": tuple(card for card, n in spirits for _ in range(n)),
        },
    )


#: 40 cards: 4 Emberling, 6 Great Serpent, 10 each of three Runes; 10 fire + 10 water Spirits
BASIC = make_deck(
    [(EMBERLING, 4), (SERPENT, 6), (SPARK, 10), (WARD, 10), (TEMPLE, 10)],
    [(VIPYRO, 10), (LEVIAPHIN, 10)],
)


def stacked(deck: EngineDeck, top: Sequence[str], *, on_the_draw: bool = False, max_turns: int = 20) -> ElestralsState:
    """A game whose Main Deck has ``top`` (top card first) above the rest in file order."""
    rest = [card.name for card in deck.section("main")]
    for name in top:
        rest.remove(name)
    return new_game(deck, random.Random(0), GameOptions(on_the_draw, max_turns), order=[*top, *rest])


def play_greedy(state: GameState) -> None:
    """Finish the game with the greedy policy through the generic (checked) loop."""
    policy = GreedyPolicy()
    while not state.is_terminal():
        state.apply(policy.choose(state, state.legal_actions()))


# -- hand-checked games -------------------------------------------------------------------------


def test_one_drop_on_the_play_wins_turn_7() -> None:
    """Going first with Emberling in the opening hand.

    T1: Normal Cast Emberling (1 Spirit); no Battle Phase on the first player's turn 1.
    T2: Enchant -> 2 Spirits, attack: opponent 20-2 = 18.  T3: 3 -> 15.  T4: 4 -> 11.
    T5: 5 -> 6.  T6: 6 -> 0: the opponent has Expended its last Spirit but has not lost.
    T7: 7 damage from an empty Spirit Deck: the opponent loses. Win on turn 7, having used
    7 of 20 Spirits (13 left). (Every Spirit action adds one Spirit to the attackers, whether
    it Casts another Emberling, Enchants, or Ascends into the Great Serpent in hand.)
    """
    state = stacked(BASIC, ["Emberling", "Spark Bolt", "Mirror Ward", "Sea Temple", "Great Serpent"])
    assert GreedyPolicy().choose(state, state.legal_actions()) == KEEP
    play_greedy(state)
    outcome = state.outcome()
    assert (outcome.won, outcome.win_turn, outcome.turns, outcome.reason) == (True, 7, 7, "opponent out of Spirits")
    assert outcome.mulligans == 0 and not outcome.stalled
    assert state.opponent_spirits == 0
    assert state.spirit_total == 13
    assert state.log[1] == NormalCast("Emberling", "fire", True)
    # The next draws are the other Emberlings: Casting one adds a Spirit just as Enchanting
    # does, and the policy prefers the Cast (T2-T4), then Enchants (T5-T7).
    spirit_actions = [type(a).__name__ for a in state.log if isinstance(a, (NormalCast, Enchant, Ascend, ExpendDraw))]
    assert spirit_actions == ["NormalCast"] * 4 + ["Enchant"] * 3


def test_one_drop_on_the_draw_wins_turn_6() -> None:
    """Going second with Emberling in the opening hand.

    T1: draw, Cast Emberling, attack for 1: 19.  T2: 2 -> 17.  T3: 3 -> 14.  T4: 4 -> 10.
    T5: 5 -> 5.  T6: 6 damage with 5 Spirits left: the opponent loses. Win on turn 6.
    """
    state = stacked(BASIC, ["Emberling", "Spark Bolt", "Mirror Ward", "Sea Temple", "Great Serpent"], on_the_draw=True)
    play_greedy(state)
    outcome = state.outcome()
    assert (outcome.won, outcome.win_turn, outcome.turns) == (True, 6, 6)
    assert state.spirit_total == 20 - 6


DEAD_TOP = ["Great Serpent", "Spark Bolt", "Mirror Ward", "Sea Temple", "Spark Bolt",  # hand
            "Spark Bolt", "Mirror Ward", "Sea Temple", "Spark Bolt", "Mirror Ward",  # cards 6-10
            "Emberling", "Sea Temple"]  # cards 11-12  # fmt: skip


def test_dead_hand_kept_on_the_play_stalls_and_wins_turn_9() -> None:
    """Going first, keeping (forced) a hand with no 1-Spirit Elestral; Emberling is card 11.

    T1 (no draw): nothing to Cast, Expend a Spirit to draw card 6.  T2: draw 7, Expend-draw 8.
    T3: draw 9, Expend-draw 10: three turns without a useful action -> stalled.
    T4: draw 11 = Emberling, Cast it, attack for 1: 19.  T5: 2 -> 17.  T6: 3 -> 14.
    T7: 4 -> 10.  T8: 5 -> 5.  T9: 6 > 5: win on turn 9.
    Spirits: 3 Expended + 1 Cast + 5 Enchanted = 9 used, 11 left, 3 in the Underworld.
    """
    state = stacked(BASIC, DEAD_TOP)
    assert isinstance(GreedyPolicy().choose(state, state.legal_actions()), Mulligan)  # the policy would mulligan
    state.apply(KEEP)
    play_greedy(state)
    outcome = state.outcome()
    assert (outcome.won, outcome.win_turn, outcome.stalled, outcome.mulligans) == (True, 9, True, 0)
    assert state.spirit_total == 11
    assert sum(state.underworld_spirits) == 3
    assert sum(isinstance(a, ExpendDraw) for a in state.log) == 3


def test_dead_hand_kept_on_the_draw_wins_turn_9() -> None:
    """The same stack going second: T1 draw 6, Expend-draw 7; T2 draw 8, Expend-draw 9;
    T3 draw 10, Expend-draw 11 = Emberling, but the Spirit action is spent (stalled: 3 idle
    turns). T4: draw 12, Cast Emberling, attack 1: 19; T5 2 -> 17; T6 3 -> 14; T7 4 -> 10;
    T8 5 -> 5; T9 6 > 5: win on turn 9."""
    state = stacked(BASIC, DEAD_TOP, on_the_draw=True)
    state.apply(KEEP)
    play_greedy(state)
    outcome = state.outcome()
    assert (outcome.won, outcome.win_turn, outcome.stalled) == (True, 9, True)


def test_ascend_set_up_from_an_elestral_with_no_attack() -> None:
    """Going first: Wallflower (1 Spirit, Attack 0) and Great Serpent (2 Spirits, Attack 5).

    Keep (an Ascend set-up). T1: Cast Wallflower (it deals no damage).  T2: Ascend it into
    Great Serpent with a second Spirit, Attack Position: 2 -> 18.  T3: Enchant 3 -> 15.
    T4: 4 -> 11.  T5: 5 -> 6.  T6: 6 -> 0.  T7: win.
    """
    deck = make_deck([(WALLFLOWER, 4), (SERPENT, 4), (SPARK, 16), (TEMPLE, 16)], [(LEVIAPHIN, 20)])
    state = stacked(deck, ["Wallflower", "Great Serpent", "Spark Bolt", "Spark Bolt", "Spark Bolt"])
    play_greedy(state)
    assert state.log[0] == KEEP
    assert state.log[1] == NormalCast("Wallflower", "water", False)
    assert Ascend(0, "Great Serpent", "water", True) in state.log
    outcome = state.outcome()
    assert (outcome.won, outcome.win_turn) == (True, 7)
    assert state.underworld == [state.facts.by_name["Wallflower"]]


def test_greedy_mulligans_a_dead_hand_with_spare_spirits() -> None:
    """A hand with no 1-Spirit Elestral is mulliganed: 2 Spirits Expended (the deck's
    Elestrals ask for more water than fire, so the spare Spirits are fire), 5 new cards."""
    state = stacked(BASIC, DEAD_TOP)
    action = GreedyPolicy().choose(state, state.legal_actions())
    assert action == Mulligan(("fire", "fire"))
    state.apply(action)
    assert state.spirit_total == 18 and state.mulligans == 1
    assert len(state.hand) == 5 and len(state.library) == 35
    assert state.underworld_spirits[state.facts.el_index["fire"]] == 2


def test_mulligans_stop_at_the_spirit_reserve_and_turn_cap() -> None:
    """A deck without Elestrals: the policy mulligans while 10 Spirits stay (5 times, 20 -> 10),
    then digs with Expend-to-draw every turn; the game stops at the turn cap, stalled."""
    deck = make_deck([(SPARK, 20), (TEMPLE, 20)], [(VIPYRO, 10), (LEVIAPHIN, 10)])
    outcome, state = play_game(ENGINE, deck, 1, GreedyPolicy(), GameOptions(max_turns=4))
    assert (outcome.won, outcome.reason, outcome.turns, outcome.mulligans, outcome.stalled) == (
        False,
        "turn cap",
        4,
        5,
        True,
    )
    assert outcome.win_turn is None
    assert isinstance(state, ElestralsState) and state.spirit_total == 10 - 4


def test_player_decked() -> None:
    """Five Main Deck cards: going second, the turn-1 draw is from an empty deck (lose, turn 1);
    going first, turn 1 is played (no draw) and the turn-2 draw loses."""
    deck = make_deck([(EMBERLING, 5)], [(VIPYRO, 20)])
    outcome, _ = play_game(ENGINE, deck, 3, GreedyPolicy(), GameOptions(on_the_draw=True))
    assert (outcome.won, outcome.reason, outcome.turns) == (False, "player decked", 1)
    outcome, _ = play_game(ENGINE, deck, 3, GreedyPolicy(), GameOptions(on_the_draw=False))
    assert (outcome.won, outcome.reason, outcome.turns) == (False, "player decked", 2)


def test_expend_to_draw_from_an_empty_main_deck_loses() -> None:
    deck = make_deck([(SPARK, 5)], [(VIPYRO, 20)])
    state = new_game(deck, random.Random(1), GameOptions())
    state.apply(KEEP)
    state.apply(ExpendDraw("fire"))
    assert state.is_terminal() and state.outcome().reason == "player decked"


def test_mulligan_without_two_spirits_loses() -> None:
    deck = make_deck([(SPARK, 40)], [(VIPYRO, 1)])
    state = new_game(deck, random.Random(1), GameOptions())
    assert Mulligan(("fire",)) in state.legal_actions()
    state.apply(Mulligan(("fire",)))
    assert state.outcome().reason == "player out of Spirits"


# -- rules and legality -------------------------------------------------------------------------


OPENING = ("Emberling", "Emberling", "Great Serpent", "Spark Bolt", "Mirror Ward")


def opened(deck: EngineDeck = BASIC, top: Sequence[str] = OPENING, on_the_draw: bool = False) -> ElestralsState:
    """A game past its Keep, with ``top`` stacked on the Main Deck."""
    state = stacked(deck, list(top), on_the_draw=on_the_draw)
    state.apply(KEEP)
    return state


def test_one_spirit_action_per_turn() -> None:
    state = opened()
    state.apply(NormalCast("Emberling", "fire", True))
    for action in (NormalCast("Emberling", "fire", True), Enchant(0, "fire"), ExpendDraw("water")):
        with pytest.raises(IllegalActionError):
            state.apply(action)
    assert Ascend(0, "Great Serpent", "water", True) not in state.legal_actions()


def test_only_one_spirit_elestrals_are_normal_cast() -> None:
    state = opened()
    with pytest.raises(IllegalActionError):
        state.apply(NormalCast("Great Serpent", "water", True))


def test_first_player_skips_battle_on_turn_1() -> None:
    state = opened()
    state.apply(NormalCast("Emberling", "fire", True))
    with pytest.raises(IllegalActionError):
        state.apply(Attack(0))
    state.apply(END_MAIN)
    assert state.turn == 2 and len(state.hand) == 5  # 5 - 1 cast + 1 draw
    state.apply(END_MAIN)
    assert Attack(0) in state.legal_actions()  # Battle Phase of turn 2


def test_second_player_draws_and_attacks_on_turn_1() -> None:
    state = opened(on_the_draw=True)
    assert len(state.hand) == 6
    state.apply(NormalCast("Emberling", "fire", True))
    state.apply(END_MAIN)
    state.apply(Attack(0))
    assert state.opponent_spirits == 19
    with pytest.raises(IllegalActionError):
        state.apply(Attack(0))  # once per turn


def test_position_rules() -> None:
    state = opened(on_the_draw=True)
    state.apply(NormalCast("Emberling", "fire", False))
    with pytest.raises(IllegalActionError):
        state.apply(ChangePosition(0))  # Cast this turn
    state.apply(END_MAIN)
    assert Attack(0) not in state.legal_actions()  # Defense Position does not attack
    state.apply(END_TURN)
    state.apply(ChangePosition(0))
    with pytest.raises(IllegalActionError):
        state.apply(ChangePosition(0))  # once per turn
    state.apply(END_MAIN)
    state.apply(Attack(0))
    assert state.opponent_spirits == 19


def test_misenchanted_elestral_still_attacks() -> None:
    """Emberling Cast with a water Spirit is Misenchanted but attacks for its Spirits; a fire
    Spirit Enchanted later makes it Enchanted."""
    state = opened(on_the_draw=True)
    state.apply(NormalCast("Emberling", "water", True))
    assert not state.enchanted(0)
    state.apply(END_MAIN)
    state.apply(Attack(0))
    assert state.opponent_spirits == 19
    state.apply(END_TURN)
    state.apply(Enchant(0, "fire"))
    assert state.enchanted(0)


def test_zero_attack_deals_no_damage() -> None:
    deck = make_deck([(WALLFLOWER, 20), (SPARK, 20)], [(LEVIAPHIN, 20)])
    state = opened(deck, ["Wallflower"] * 5, on_the_draw=True)
    state.apply(NormalCast("Wallflower", "water", True))
    state.apply(END_MAIN)
    state.apply(Attack(0))
    assert state.opponent_spirits == 20


def test_ascend_needs_enough_spirits_and_reuses_them() -> None:
    deck = make_deck([(EMBERLING, 10), (SERPENT, 10), (TITAN, 10), (SPARK, 10)], [(VIPYRO, 10), (LEVIAPHIN, 10)])
    state = opened(deck, ["Emberling", "Great Serpent", "Ancient Titan", "Spark Bolt", "Spark Bolt"], on_the_draw=True)
    state.apply(NormalCast("Emberling", "fire", True))
    state.apply(END_MAIN)
    state.apply(END_TURN)
    legal = state.legal_actions()
    assert Ascend(0, "Great Serpent", "water", True) in legal  # 1 + 1 Spirits meet a cost of 2
    assert not any(isinstance(a, Ascend) and a.card == "Ancient Titan" for a in legal)  # 2 < 3
    state.apply(Ascend(0, "Great Serpent", "water", True))
    field = state.field[0]
    assert field is not None and field.n == 2 and not state.enchanted(0)  # fire + water for water-water
    assert state.underworld == [state.facts.by_name["Emberling"]]
    assert sum(state.underworld_spirits) == 0  # the Spirits stayed on the field


def test_four_elestrals_at_most() -> None:
    deck = make_deck([(EMBERLING, 20), (SPARK, 20)], [(VIPYRO, 20)])
    state = opened(deck, ["Emberling"] * 5, on_the_draw=True)
    for _ in range(4):
        state.apply(NormalCast("Emberling", "fire", True))
        state.apply(END_MAIN)
        state.apply(END_TURN)
    assert None not in state.field
    assert not any(isinstance(a, NormalCast) for a in state.legal_actions())
    assert Enchant(0, "fire") in state.legal_actions()


def test_runes() -> None:
    """Counter Runes must be Set and wait a turn; Rune costs are paid type for type; an
    Artifact leaves with the Elestral it Empowers; Invoke Runes go to the Underworld;
    a new Stadium replaces the old one."""
    deck = make_deck(
        [(EMBERLING, 8), (SERPENT, 8), (SPARK, 6), (WARD, 6), (BLADE, 6), (TEMPLE, 6)],
        [(VIPYRO, 10), (LEVIAPHIN, 10)],
    )
    top = ["Emberling", "Great Serpent", "Spark Bolt", "Mirror Ward", "Sun Blade", "Sea Temple", "Sea Temple"]
    state = opened(deck, top, on_the_draw=True)
    legal = state.legal_actions()
    assert not any(isinstance(a, CastRune) and a.card == "Mirror Ward" for a in legal)
    assert CastRune("Spark Bolt", ("water",)) not in legal  # wrong element
    assert not any(isinstance(a, CastRune) and a.card == "Sun Blade" for a in legal)  # nothing to Empower
    state.apply(CastRune("Spark Bolt", ("fire",)))
    assert state.facts.by_name["Spark Bolt"] in state.underworld and state.spirit_total == 19
    state.apply(SetRune("Mirror Ward"))
    assert not any(isinstance(a, CastSetRune) for a in state.legal_actions())  # Set this turn
    state.apply(NormalCast("Emberling", "fire", True))
    state.apply(CastRune("Sun Blade", ("fire", "water"), 0))
    state.apply(CastRune("Sea Temple", ("water",)))
    state.apply(END_MAIN)
    state.apply(END_TURN)
    # turn 2: drew the second Sea Temple
    state.apply(CastRune("Sea Temple", ("water",)))
    assert state.underworld.count(state.facts.by_name["Sea Temple"]) == 1
    state.apply(CastSetRune(0, ("fire",)))  # the Counter Rune, Set last turn
    assert state.runes[0] is None  # it went to the Underworld
    assert state.runes[1] is not None and state.runes[1].empower == 0
    state.apply(Ascend(0, "Great Serpent", "water", True))
    assert state.runes[1] is None  # the Artifact followed its Elestral
    assert state.facts.by_name["Sun Blade"] in state.underworld


def test_illegal_after_the_end_and_unknown_actions() -> None:
    deck = make_deck([(SPARK, 5)], [(VIPYRO, 20)])
    state = new_game(deck, random.Random(1), GameOptions(on_the_draw=True))
    state.apply(KEEP)
    assert state.is_terminal()
    with pytest.raises(IllegalActionError):
        state.apply(END_MAIN)
    assert state.legal_actions() == []


def test_a_deck_of_another_game_is_refused() -> None:
    with pytest.raises(EngineError):
        new_game(dataclasses.replace(BASIC, game="elekin"), random.Random(1), GameOptions())


def test_stacked_order_must_be_the_main_deck() -> None:
    with pytest.raises(EngineError):
        new_game(BASIC, random.Random(1), GameOptions(), order=["Emberling"])


# -- keywords -----------------------------------------------------------------------------------


def test_rulebook_keywords_registered_and_harmless_against_an_empty_board() -> None:
    assert {"piercing", "unaffected"} <= set(KEYWORDS.names())
    piercer = elestral("Spear Wyrm", ["fire"], 3, keywords=["Piercing"])
    assert [use.name for use in KEYWORDS.of(piercer)] == ["piercing"]
    deck = make_deck([(piercer, 20), (SPARK, 20)], [(VIPYRO, 20)])
    state = opened(deck, ["Spear Wyrm"] * 5, on_the_draw=True)
    state.apply(NormalCast("Spear Wyrm", "fire", True))
    state.apply(END_MAIN)
    state.apply(Attack(0))
    assert state.opponent_spirits == 19


def test_keyword_hooks_change_damage_and_attacks() -> None:
    """A registry with two made-up keywords shows the hooks work: Frenzy X adds X damage,
    Pacifist forbids attacking."""
    registry = KeywordRegistry("elestrals")

    @registry.register("frenzy")
    class Frenzy(ElestralKeyword):
        def spirit_damage(self, damage: int, value: int) -> int:
            return damage + value

    @registry.register("pacifist")
    class Pacifist(ElestralKeyword):
        def can_attack(self, value: int) -> bool:
            return False

    frenzied = elestral("Frenzied Imp", ["fire"], 1, keywords=["Frenzy 2"])
    peaceful = elestral("Peaceful Imp", ["fire"], 1, keywords=["Pacifist"])
    deck = make_deck([(frenzied, 10), (peaceful, 10), (SPARK, 20)], [(VIPYRO, 20)])
    rest = [c.name for c in deck.section("main")]
    top = ["Frenzied Imp", "Peaceful Imp", "Spark Bolt", "Spark Bolt", "Spark Bolt", "Peaceful Imp"]
    for name in top:
        rest.remove(name)
    state = new_game(deck, random.Random(0), GameOptions(on_the_draw=True), order=top + rest, registry=registry)
    state.apply(KEEP)
    state.apply(NormalCast("Frenzied Imp", "fire", True))
    state.apply(END_MAIN)
    state.apply(Attack(0))
    assert state.opponent_spirits == 20 - (1 + 2)
    state.apply(END_TURN)
    state.apply(NormalCast("Peaceful Imp", "fire", True))
    state.apply(END_MAIN)
    assert Attack(1) not in state.legal_actions()


# -- reproducibility and the fast loop ----------------------------------------------------------


@pytest.fixture(scope="module")
def sample_deck(tmp_path_factory: pytest.TempPathFactory, seeded_template: Path) -> EngineDeck:
    copy = tmp_path_factory.mktemp("elestrals") / "cards.sqlite"
    shutil.copyfile(seeded_template, copy)
    with CardStore.open(copy) as store:
        pool = CardPool.load(store, "elestrals")
        deck = read_deck_file(CARD_DB / "decks" / "elestrals-sample.txt")[0]
        return engine_deck(deck, find_format("elestrals"), pool)


def test_sample_deck_is_complete(sample_deck: EngineDeck) -> None:
    assert len(sample_deck.section("main")) == 40 and len(sample_deck.section("spirit")) == 20
    assert incomplete_cards(sample_deck, ENGINE) == []
    assert find_engine("elestrals") is ENGINE


@pytest.mark.parametrize("on_the_draw", [False, True])
def test_play_out_matches_the_generic_loop(sample_deck: EngineDeck, on_the_draw: bool) -> None:
    class Checked:
        """The greedy policy without the fast path: the runner uses the generic loop."""

        def __init__(self) -> None:
            self.inner = GreedyPolicy()

        def choose(self, state: GameState, actions: Sequence[Any]) -> Any:
            return self.inner.choose(state, actions)

    options = GameOptions(on_the_draw=on_the_draw)
    for seed in range(300):
        fast_outcome, fast = play_game(ENGINE, sample_deck, seed, GreedyPolicy(), options)
        slow_outcome, slow = play_game(ENGINE, sample_deck, seed, Checked(), options)
        assert fast_outcome == slow_outcome
        assert fast.log == slow.log
        assert isinstance(fast, ElestralsState) and isinstance(slow, ElestralsState)
        assert fast.snapshot() == slow.snapshot()


def test_replaying_the_log_reproduces_the_game(sample_deck: EngineDeck) -> None:
    """Random play (every kind of action) replayed on a fresh state from the same seed."""
    kinds: set[str] = set()
    for seed in range(150):
        options = GameOptions(on_the_draw=bool(seed % 2), max_turns=12)
        outcome, state = play_game(ENGINE, sample_deck, seed, RandomPolicy(random.Random(seed)), options)
        replay = new_game(sample_deck, random.Random(seed), options)
        for action in state.log:
            replay.apply(action)
        assert isinstance(state, ElestralsState)
        assert replay.snapshot() == state.snapshot()
        assert replay.outcome() == outcome
        kinds.update(type(a).__name__ for a in state.log)
    assert {"Mulligan", "NormalCast", "Ascend", "Enchant", "ExpendDraw", "CastRune", "SetRune", "Attack"} <= kinds


def test_same_seed_same_game(sample_deck: EngineDeck) -> None:
    a = play_game(ENGINE, sample_deck, 42, GreedyPolicy())
    b = play_game(ENGINE, sample_deck, 42, GreedyPolicy())
    assert a[0] == b[0] and a[1].log == b[1].log
    logs = {tuple(play_game(ENGINE, sample_deck, s, RandomPolicy(random.Random(1)))[1].log) for s in range(5)}
    assert len(logs) > 1


def test_sample_deck_greedy_results(sample_deck: EngineDeck) -> None:
    """With a 1-Spirit Elestral in (or mulliganed into) the hand the deck wins on turn 7
    going first and turn 6 going second (see the hand-checked tests)."""
    for on_the_draw, turn in ((False, 7), (True, 6)):
        for seed in range(50):
            outcome, _ = play_game(ENGINE, sample_deck, seed, GreedyPolicy(), GameOptions(on_the_draw=on_the_draw))
            assert outcome.won and outcome.win_turn == turn


# -- data needs ---------------------------------------------------------------------------------


def test_missing_stats() -> None:
    assert ENGINE.missing_stats(EMBERLING) == []
    assert ENGINE.missing_stats(elestral("Blank", [], None)) == ["cost", "attack"]
    assert ENGINE.missing_stats(EngineCard("R", "rune", {"cost": ["fire"]})) == ["subtype"]
    assert ENGINE.missing_stats(EngineCard("S", "spirit", {})) == ["element"]


def test_incomplete_cards_and_playing_with_them() -> None:
    """A card without Attack is reported; played anyway it counts as Attack 0."""
    unknown = elestral("Mystery", ["fire"], None)
    guessed = dataclasses.replace(TIDEPUP, data={**TIDEPUP.data, "provisional": True})
    deck = make_deck([(unknown, 20), (guessed, 20)], [(VIPYRO, 20)])
    found = {c.name: c for c in incomplete_cards(deck, ENGINE)}
    assert found["Mystery"].missing == ("attack",) and not found["Mystery"].provisional
    assert found["Tidepup"].missing == () and found["Tidepup"].provisional
    state = opened(deck, ["Mystery"] * 5, on_the_draw=True)
    state.apply(NormalCast("Mystery", "fire", True))
    state.apply(END_MAIN)
    state.apply(Attack(0))
    assert state.opponent_spirits == 20


def test_engine_counts() -> None:
    assert ENGINE.opening_hand(BASIC) == 5
    assert [ENGINE.draws_on_turn(BASIC, t, False) for t in (1, 2, 3)] == [0, 1, 1]
    assert [ENGINE.draws_on_turn(BASIC, t, True) for t in (1, 2, 3)] == [1, 1, 1]
    assert ENGINE.draw_section == "main"


def test_dealt_order_is_hand_then_library() -> None:
    state = new_game(BASIC, random.Random(5), GameOptions())
    order = state.dealt_order()
    assert sorted(order) == sorted(c.name for c in BASIC.section("main"))
    names = [k.name for k in state.kinds]
    assert order[:5] == [names[k] for k in state.hand]
    state.apply(KEEP)
    state.apply(END_MAIN)
    assert names[state.hand[-1]] == order[5]  # turn 2's draw is the sixth card

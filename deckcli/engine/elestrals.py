"""Elestrals goldfish engine: one player against an empty board (rulebook v3.0, "Daybreak").

The authority is the rulebook (``shared/rulebooks/elestrals.txt``); section names below
are its headings.

Rules implemented
-----------------
* *Beginning a Game*: a Spirit Deck of Spirits (20 in a legal deck) that is **not**
  shuffled: it is kept as a count per element and the player chooses which Spirit to use
  every time. The Main Deck is shuffled (with the game's ``random.Random`` only) and the
  player draws 5. *Mulligan* (step 5, and the glossary): "Expend 2 Spirits, then shuffle
  the hand into the deck and draw a new hand of five cards", any number of times. The
  player chooses which two Spirits to Expend (the :class:`Mulligan` action names them);
  mulliganing with fewer than 2 Spirits left means Expending from an empty Spirit Deck,
  which loses the game ("player out of Spirits"). The first player skips their Draw
  Phase and Battle Phase on turn 1 (step 6; *Phases*).
* *Main Phase*: once per turn, one Spirit action: Normal Cast an Elestral that costs 1
  Spirit, Normal Ascend an Elestral, Enchant a Spirit to an Elestral, or Expend a Spirit
  to draw a card. Any number of Runes can be Cast or Set; each Elestral not Cast this turn
  may change Position once.
* Elements: an Elestral or Rune is *Enchanted* when its Spirits cover its Enchantment
  Cost type for type (``omni`` in a cost is any element; a Spirit whose element is
  ``omni`` or ``rainbow`` counts as any element), otherwise *Misenchanted* (glossary).
  Reading chosen: Normal Cast step 1 only says "Reveal a Spirit from your Spirit Deck" and
  Ascend needs "enough Spirits to meet its cost", so an Elestral may be Cast or Ascended
  with Spirits of the wrong element and is then Misenchanted; *Elestrals* says a
  Misenchanted Elestral "stays on the field and can still use its Attack and Defense in
  battles, but its effect is removed", so it still attacks. Runes, by contrast, are Cast
  with "exactly enough Spirits to meet its cost" (*Main Phase*, Cast a Rune step 1), which
  the glossary's *Enchanted* defines type for type, so a Rune is only offered with Spirits
  that match its cost.
* *Battle Phase* against an empty board: each Attack Position Elestral may attack once;
  with no opposing Elestral it battles the opponent's Spirit Deck, which Expends one
  Spirit per Spirit Enchanting the attacker. "Elestrals with 0 Attack deal no damage".
  Nothing in the rulebook stops an Elestral Cast this turn from attacking.
* Winning and losing (*Beginning a Game*; *Advanced Rules*, "Do I lose the game if there
  are 0 cards in my deck?"): the opponent starts with 20 Spirits and loses only when it
  must Expend from an *empty* Spirit Deck, so 21 damage in total is needed. The player
  loses on drawing from an empty Main Deck (Draw Phase, or Expend-to-draw) or Expending
  from an empty Spirit Deck.
* *Zones*: at most 4 Elestrals (Elestral Row) and 4 Runes (Rune Row) plus one Stadium.

Runes
-----
Card effects are out of scope, so a Rune does nothing but what the rules make it do: it
costs Spirits from the Spirit Deck and, if Continuous, occupies a Rune Row slot (a
Stadium its own slot) with those Spirits; an Artifact must Empower an Elestral and goes
to the Underworld when that Elestral leaves the field (Ascending included); Invoke and
Counter Runes go to the Underworld with their Spirits; Counter Runes must be Set first and
can be Cast from a later turn on. Not modelled: an Invoke Rune replacing a Rune when the
Rune Row is full, and Instant Runes paid with Spirits already on the field (both only
move Spirits around). Since the Spirits that pay for a Rune never deal damage, no
rulebook mechanic makes an effect-less Rune help a goldfish, and the greedy policy never
casts or Sets one.

Keywords
--------
Rulebook keywords are handled through :data:`KEYWORDS` (a
:class:`~deckcli.engine.keywords.KeywordRegistry`) whose handlers subclass
:class:`ElestralKeyword` (hooks ``can_attack`` and ``spirit_damage``). The glossary defines
*Piercing* (Spirits Expended when a Defense Position Elestral is destroyed: irrelevant with
no defender) and *Unaffected* (protection from effects: irrelevant with no opponent); both
are registered and change nothing against an empty board. *Foretell* is a keyword action
performed by card effects, which are out of scope. The API's other tags ("Enchant",
"Expend", "Ascend", "Nexus", "Disenchant") name mechanics a card's effect uses and are not
keywords with rules of their own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any, ClassVar

from deckcli.engine.base import (
    Action,
    EngineCard,
    EngineDeck,
    EngineError,
    GameEngine,
    GameOptions,
    GameOutcome,
    GameState,
    Policy,
    per_deck,
)
from deckcli.engine.keywords import KeywordRegistry

#: bumped whenever the rules or the greedy policy change results
VERSION = "1"
HAND_SIZE = 5
MULLIGAN_EXPEND = 2
OPPONENT_SPIRITS = 20
ELESTRAL_SLOTS = 4
RUNE_SLOTS = 4
#: the elements in a fixed order (spirit elements are indexed in this order per deck)
ELEMENTS = ("fire", "water", "earth", "thunder", "wind", "frost", "lunar", "solar", "omni", "rainbow")
#: a Spirit of one of these elements counts as any element
WILD_ELEMENTS = frozenset({"omni", "rainbow"})
#: a cost symbol that any Spirit meets
ANY_ELEMENT = "omni"
CONTINUOUS_RUNES = frozenset({"artifact", "divine", "stadium"})
#: a "cost" no Spirit count reaches: cards whose cost is unknown can never be Cast
_UNCASTABLE = 1_000

_MULLIGAN, _MAIN, _BATTLE, _OVER = range(4)


# -- keywords ------------------------------------------------------------------------------


class ElestralKeyword:
    """Base of Elestrals keyword handlers: the hooks the engine calls (defaults change nothing)."""

    def can_attack(self, value: int) -> bool:
        """Whether an Elestral with this keyword may declare an attack."""
        return True

    def spirit_damage(self, damage: int, value: int) -> int:
        """The Spirits the opponent Expends when this Elestral battles their Spirit Deck."""
        return damage


#: the Elestrals keyword registry (one registered class per keyword)
KEYWORDS = KeywordRegistry("elestrals")


@KEYWORDS.register("piercing")
class Piercing(ElestralKeyword):
    """Glossary *Piercing*: destroying a Defense Position Elestral makes its controller
    Expend Spirits as if it were in Attack Position. Against an empty board every attack
    battles the Spirit Deck directly, so the damage is unchanged."""


@KEYWORDS.register("unaffected")
class Unaffected(ElestralKeyword):
    """*Advanced Rules*, Unaffected: protection from a group of cards and effects. The
    goldfish opponent has none, so nothing changes."""


# -- actions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Keep(Action):
    """Keep the opening hand and start the game."""


@dataclass(frozen=True)
class Mulligan(Action):
    """Expend the named Spirits (two, fewer only when the Spirit Deck has fewer), shuffle the
    hand into the Main Deck and draw five."""

    expend: tuple[str, ...]


@dataclass(frozen=True)
class NormalCast(Action):
    """Spirit action: Normal Cast a 1-Spirit Elestral from hand with one Spirit of ``spirit``."""

    card: str
    spirit: str
    attack: bool = True


@dataclass(frozen=True)
class Ascend(Action):
    """Spirit action: Normal Ascend the Elestral in ``slot`` into ``card`` from hand, adding one
    Spirit of ``spirit`` from the Spirit Deck to its Spirits."""

    slot: int
    card: str
    spirit: str
    attack: bool = True


@dataclass(frozen=True)
class Enchant(Action):
    """Spirit action: Enchant one Spirit of ``spirit`` to the Elestral in ``slot``."""

    slot: int
    spirit: str


@dataclass(frozen=True)
class ExpendDraw(Action):
    """Spirit action: Expend one Spirit of ``spirit`` and draw a card."""

    spirit: str


@dataclass(frozen=True)
class ChangePosition(Action):
    """Switch the Elestral in ``slot`` between Attack and Defense Position."""

    slot: int


@dataclass(frozen=True)
class CastRune(Action):
    """Cast a Rune from hand with exactly the Spirits ``spirits`` (an Artifact Empowers the
    Elestral in ``empower``)."""

    card: str
    spirits: tuple[str, ...]
    empower: int | None = None


@dataclass(frozen=True)
class SetRune(Action):
    """Set a non-Stadium Rune from hand face-down in the Rune Row."""

    card: str


@dataclass(frozen=True)
class CastSetRune(Action):
    """Cast the Rune Set face-down in Rune Row ``slot`` (Set before this turn)."""

    slot: int
    spirits: tuple[str, ...]
    empower: int | None = None


@dataclass(frozen=True)
class EndMain(Action):
    """End the Main Phase (and the turn, when the Battle Phase is skipped)."""


@dataclass(frozen=True)
class Attack(Action):
    """The Elestral in ``slot`` attacks (the opponent's Spirit Deck, the board being empty)."""

    slot: int


@dataclass(frozen=True)
class EndTurn(Action):
    """End the Battle Phase and the turn; the goldfish opponent's turn passes."""


KEEP = Keep()
END_MAIN = EndMain()
END_TURN = EndTurn()


# -- per-deck facts ------------------------------------------------------------------------


class _Kind:
    """Facts about one distinct Main Deck card, computed once per deck."""

    __slots__ = (
        "attack",
        "can_attack",
        "cost_n",
        "damage_hooks",
        "elestral",
        "index",
        "name",
        "omni",
        "req",
        "req_missing",
        "rune",
        "starter",
        "subtype",
    )

    def __init__(self, index: int, card: EngineCard, el_index: dict[str, int], registry: KeywordRegistry) -> None:
        self.index = index
        self.name = card.name
        self.elestral = card.type == "elestral"
        self.rune = card.type == "rune"
        self.subtype: str | None = card.stat("subtype")
        cost = card.stat("cost") or []
        self.cost_n = len(cost) if cost else _UNCASTABLE
        req: dict[int, int] = {}
        missing = 0
        omni = 0
        for symbol in cost:
            if symbol == ANY_ELEMENT:
                omni += 1
            elif symbol in el_index:
                req[el_index[symbol]] = req.get(el_index[symbol], 0) + 1
            else:
                missing += 1  # an element the Spirit Deck has none of
        self.req = tuple(sorted(req.items()))
        self.req_missing = missing
        self.omni = omni
        self.attack = int(card.stat("attack", 0)) if self.elestral else 0
        uses = registry.of(card) if self.elestral else ()
        self.can_attack = all(use.handler.can_attack(use.value) for use in uses)
        self.damage_hooks = tuple(
            (use.handler, use.value)
            for use in uses
            if type(use.handler).spirit_damage is not ElestralKeyword.spirit_damage
        )
        #: a 1-Spirit Elestral that deals damage: what the greedy policy wants to Normal Cast
        self.starter = self.elestral and self.cost_n == 1 and self.hits
        # (hits is a property below; starter is set after attack/can_attack)

    @property
    def hits(self) -> bool:
        """Battling the Spirit Deck makes the opponent Expend (Attack > 0, allowed to attack)."""
        return self.elestral and self.attack > 0 and self.can_attack


class _Facts:
    """Everything about a deck the engine needs, computed once (cached by deck identity)."""

    def __init__(self, deck: EngineDeck, registry: KeywordRegistry) -> None:
        spirit_elements: list[str] = []
        for card in deck.section("spirit"):
            element = card.stat("element") or "unknown"
            spirit_elements.append(str(element))
        order = {e: i for i, e in enumerate(ELEMENTS)}
        self.elements: tuple[str, ...] = tuple(sorted(set(spirit_elements), key=lambda e: (order.get(e, 99), e)))
        self.el_index = {e: i for i, e in enumerate(self.elements)}
        self.n_elements = len(self.elements)
        counts = [0] * self.n_elements
        for element in spirit_elements:
            counts[self.el_index[element]] += 1
        self.spirit_counts = tuple(counts)
        self.wild = tuple(i for i, e in enumerate(self.elements) if e in WILD_ELEMENTS)
        self.kinds: list[_Kind] = []
        self.by_name: dict[str, int] = {}
        main: list[int] = []
        for card in deck.section("main"):
            index = self.by_name.get(card.name)
            if index is None:
                index = len(self.kinds)
                self.by_name[card.name] = index
                self.kinds.append(_Kind(index, card, self.el_index, registry))
            main.append(index)
        self.main = tuple(main)
        # Element demand of the Elestrals in the Main Deck (for choosing spare Spirits).
        demand = [0] * self.n_elements
        for index in main:
            kind = self.kinds[index]
            if kind.elestral:
                for e, n in kind.req:
                    demand[e] += n
        total = sum(demand)
        self.demand_share = tuple(d / total if total else 0.0 for d in demand)
        # Prebuilt action records (no allocation while playing).
        names = [k.name for k in self.kinds]
        els = self.elements
        self.cast_actions = [
            [(NormalCast(names[k], e, False), NormalCast(names[k], e, True)) for e in els] for k in range(len(names))
        ]
        self.ascend_actions = [
            [[(Ascend(s, names[k], e, False), Ascend(s, names[k], e, True)) for e in els] for k in range(len(names))]
            for s in range(ELESTRAL_SLOTS)
        ]
        self.enchant_actions = [[Enchant(s, e) for e in els] for s in range(ELESTRAL_SLOTS)]
        self.expend_actions = [ExpendDraw(e) for e in els]
        self.position_actions = [ChangePosition(s) for s in range(ELESTRAL_SLOTS)]
        self.attack_actions = [Attack(s) for s in range(ELESTRAL_SLOTS)]
        self.mulligan_actions = {
            (a, b): Mulligan((els[a], els[b])) for a in range(len(els)) for b in range(a, len(els))
        }


def _facts(deck: EngineDeck, registry: KeywordRegistry) -> _Facts:
    return per_deck(_Facts, deck, registry)


def _covers(counts: Sequence[int], kind: _Kind, wild: tuple[int, ...]) -> bool:
    """Do Spirits ``counts`` (per element) meet ``kind``'s Enchantment Cost type for type?"""
    deficit = kind.req_missing
    for e, n in kind.req:
        have = counts[e]
        if have < n:
            deficit += n - have
    if deficit:
        spare = 0
        for w in wild:
            spare += counts[w]
        if deficit > spare:
            return False
    return sum(counts) >= kind.cost_n


class _Elestral:
    """An Elestral on the field with the Spirits Enchanting it."""

    __slots__ = ("attack_pos", "attacked", "cast_turn", "changed_turn", "kind", "n", "spirits")

    def __init__(self, kind: int, spirits: list[int], attack_pos: bool, turn: int) -> None:
        self.kind = kind
        self.spirits = spirits
        self.n = sum(spirits)
        self.attack_pos = attack_pos
        self.cast_turn = turn
        self.changed_turn = 0
        self.attacked = 0  # the turn it last attacked


class _Rune:
    """A Rune in the Rune Row (or the Stadium slot)."""

    __slots__ = ("empower", "face_down", "kind", "set_turn", "spirits")

    def __init__(self, kind: int, spirits: list[int], face_down: bool, turn: int, empower: int | None) -> None:
        self.kind = kind
        self.spirits = spirits
        self.face_down = face_down
        self.set_turn = turn
        self.empower = empower


# -- the state -----------------------------------------------------------------------------


class ElestralsState(GameState):
    """One goldfish game of Elestrals (see the module docstring for the rules)."""

    game_id: ClassVar[str] = "elestrals"

    def __init__(
        self,
        deck: EngineDeck,
        rng: random.Random,
        options: GameOptions = GameOptions(),
        *,
        order: Sequence[str] | None = None,
        registry: KeywordRegistry | None = None,
    ) -> None:
        super().__init__(rng)
        if deck.game != "elestrals":
            raise EngineError(f"the Elestrals engine cannot play a {deck.game} deck")
        facts = _facts(deck, registry or KEYWORDS)
        self.facts = facts
        self.kinds = facts.kinds
        self.options = options
        self.max_turns = options.max_turns
        self.first = not options.on_the_draw
        #: Main Deck, the top card last
        self.library: list[int] = list(facts.main)
        if order is None:
            rng.shuffle(self.library)
        else:
            self.library = _stacked(facts, order)
        self.hand: list[int] = []
        self.spirits = list(facts.spirit_counts)
        self.spirit_total = sum(self.spirits)
        self.field: list[_Elestral | None] = [None] * ELESTRAL_SLOTS
        self.runes: list[_Rune | None] = [None] * RUNE_SLOTS
        self.stadium: _Rune | None = None
        self.underworld: list[int] = []
        self.underworld_spirits = [0] * facts.n_elements
        self.opponent_spirits = OPPONENT_SPIRITS
        self.turn = 0
        self.phase = _MULLIGAN
        self.spirit_used = False
        self.mulligans = 0
        self.useful = False
        self.idle_streak = 0
        self.stalled = False
        self.won = False
        self.win_turn: int | None = None
        self.reason = ""
        self._draw(HAND_SIZE)

    # -- helpers -------------------------------------------------------------------------

    def _draw(self, n: int) -> bool:
        library = self.library
        hand = self.hand
        for _ in range(n):
            if not library:
                self._end(False, "player decked")
                return False
            hand.append(library.pop())
        return True

    def _end(self, won: bool, reason: str) -> None:
        self.phase = _OVER
        self.won = won
        self.reason = reason
        if won:
            self.win_turn = self.turn

    def _take_spirit(self, e: int) -> None:
        self.spirits[e] -= 1
        self.spirit_total -= 1

    def _battle_skipped(self) -> bool:
        return self.first and self.turn == 1

    def _start_turn(self) -> None:
        if self.turn >= self.max_turns:
            self._end(False, "turn cap")
            return
        self.turn += 1
        self.spirit_used = False
        self.useful = False
        self.phase = _MAIN
        if not (self.first and self.turn == 1):
            self._draw(1)

    def _end_turn(self) -> None:
        if self.useful:
            self.idle_streak = 0
        else:
            self.idle_streak += 1
            if self.idle_streak >= 3:
                self.stalled = True
        self._start_turn()

    def enchanted(self, slot: int) -> bool:
        """Is the Elestral in ``slot`` Enchanted (its Spirits match its cost type for type)?"""
        elestral = self.field[slot]
        if elestral is None:
            raise EngineError(f"no Elestral in slot {slot}")
        return _covers(elestral.spirits, self.kinds[elestral.kind], self.facts.wild)

    def _remove_from_field(self, slot: int) -> None:
        """Send the Elestral in ``slot`` and its Spirits to the Underworld, with any Artifact
        Empowering it."""
        elestral = self.field[slot]
        assert elestral is not None
        self.field[slot] = None
        self.underworld.append(elestral.kind)
        self._spirits_to_underworld(elestral.spirits)
        for r, rune in enumerate(self.runes):
            if rune is not None and not rune.face_down and rune.empower == slot:
                self.runes[r] = None
                self.underworld.append(rune.kind)
                self._spirits_to_underworld(rune.spirits)

    def _spirits_to_underworld(self, spirits: Sequence[int]) -> None:
        under = self.underworld_spirits
        for e, n in enumerate(spirits):
            under[e] += n

    # -- the GameState interface ---------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.phase == _OVER

    def outcome(self) -> GameOutcome:
        if self.phase != _OVER:
            raise EngineError("the game is not over yet")
        return GameOutcome(self.won, self.win_turn, self.mulligans, self.stalled, self.turn, self.reason)

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        facts = self.facts
        if phase == _MAIN:
            return self._main_actions()
        if phase == _BATTLE:
            actions: list[Action] = [
                facts.attack_actions[s]
                for s, el in enumerate(self.field)
                if el is not None and el.attack_pos and el.attacked != self.turn and self.kinds[el.kind].can_attack
            ]
            actions.append(END_TURN)
            return actions
        if phase == _MULLIGAN:
            actions = [KEEP]
            if self.spirit_total < MULLIGAN_EXPEND:
                left = tuple(facts.elements[e] for e, n in enumerate(self.spirits) for _ in range(n))
                actions.append(Mulligan(left))
            else:
                for (a, b), action in facts.mulligan_actions.items():
                    if self.spirits[a] and self.spirits[b] and (a != b or self.spirits[a] >= 2):
                        actions.append(action)
            return actions
        return []

    def _main_actions(self) -> list[Action]:
        facts = self.facts
        kinds = self.kinds
        turn = self.turn
        field = self.field
        actions: list[Action] = []
        available = [e for e, n in enumerate(self.spirits) if n]
        hand_kinds = sorted(set(self.hand))
        if not self.spirit_used and available:
            if None in field:
                for k in hand_kinds:
                    kind = kinds[k]
                    if kind.elestral and kind.cost_n == 1:
                        for e in available:
                            actions.extend(facts.cast_actions[k][e])
            for s, el in enumerate(field):
                if el is None:
                    continue
                for k in hand_kinds:
                    kind = kinds[k]
                    if kind.elestral and kind.cost_n <= el.n + 1:
                        for e in available:
                            actions.extend(facts.ascend_actions[s][k][e])
                for e in available:
                    actions.append(facts.enchant_actions[s][e])
            for e in available:
                actions.append(facts.expend_actions[e])
        for s, el in enumerate(field):
            if el is not None and el.cast_turn != turn and el.changed_turn != turn:
                actions.append(facts.position_actions[s])
        free_row = None in self.runes
        elestral_slots = [s for s, el in enumerate(field) if el is not None]
        for k in hand_kinds:
            kind = kinds[k]
            if not kind.rune:
                continue
            sub = kind.subtype
            if sub != "stadium" and free_row:
                actions.append(SetRune(kind.name))
            if sub == "counter" or (sub != "stadium" and not free_row):
                continue
            targets: list[int | None] = list(elestral_slots) if sub == "artifact" else [None]
            for spirits in self._rune_payments(kind):
                for target in targets:
                    actions.append(CastRune(kind.name, spirits, target))
        for r, rune in enumerate(self.runes):
            if rune is not None and rune.face_down and rune.set_turn < turn:
                kind = kinds[rune.kind]
                targets = list(elestral_slots) if kind.subtype == "artifact" else [None]
                for spirits in self._rune_payments(kind):
                    for target in targets:
                        actions.append(CastSetRune(r, spirits, target))
        actions.append(END_MAIN)
        return actions

    def _rune_payments(self, kind: _Kind) -> list[tuple[str, ...]]:
        """Every multiset of Spirits from the Spirit Deck that pays ``kind``'s cost exactly."""
        if kind.cost_n > self.spirit_total:
            return []
        available = [e for e, n in enumerate(self.spirits) if n]
        payments = []
        for combo in combinations_with_replacement(available, kind.cost_n):
            counts = [0] * self.facts.n_elements
            for e in combo:
                counts[e] += 1
            if all(counts[e] <= self.spirits[e] for e in combo) and _covers(counts, kind, self.facts.wild):
                payments.append(tuple(self.facts.elements[e] for e in combo))
        return payments

    def _apply(self, action: Action) -> None:
        _DISPATCH[type(action)](self, action)

    # -- action handlers -----------------------------------------------------------------

    def _do_keep(self, action: Keep) -> None:
        self._start_turn()

    def _do_mulligan(self, action: Mulligan) -> None:
        self.mulligans += 1
        el_index = self.facts.el_index
        for element in action.expend:
            e = el_index[element]
            self._take_spirit(e)
            self.underworld_spirits[e] += 1
        if len(action.expend) < MULLIGAN_EXPEND:
            self._end(False, "player out of Spirits")
            return
        self.library.extend(self.hand)
        self.hand.clear()
        self.rng.shuffle(self.library)
        self._draw(HAND_SIZE)

    def _do_cast(self, action: NormalCast) -> None:
        k = self.facts.by_name[action.card]
        e = self.facts.el_index[action.spirit]
        self.hand.remove(k)
        self._take_spirit(e)
        spirits = [0] * self.facts.n_elements
        spirits[e] = 1
        self.field[self.field.index(None)] = _Elestral(k, spirits, action.attack, self.turn)
        self.spirit_used = True
        self.useful = True

    def _do_ascend(self, action: Ascend) -> None:
        k = self.facts.by_name[action.card]
        e = self.facts.el_index[action.spirit]
        old = self.field[action.slot]
        assert old is not None
        self.hand.remove(k)
        self._take_spirit(e)
        spirits = list(old.spirits)
        spirits[e] += 1
        # The Ascending Elestral goes to the Underworld; its Spirits stay for the Ascension.
        self._remove_from_field(action.slot)
        self._spirits_from_underworld(old.spirits)
        self.field[action.slot] = _Elestral(k, spirits, action.attack, self.turn)
        self.spirit_used = True
        self.useful = True

    def _spirits_from_underworld(self, spirits: Sequence[int]) -> None:
        under = self.underworld_spirits
        for e, n in enumerate(spirits):
            under[e] -= n

    def _do_enchant(self, action: Enchant) -> None:
        e = self.facts.el_index[action.spirit]
        elestral = self.field[action.slot]
        assert elestral is not None
        self._take_spirit(e)
        elestral.spirits[e] += 1
        elestral.n += 1
        self.spirit_used = True
        self.useful = True

    def _do_expend_draw(self, action: ExpendDraw) -> None:
        e = self.facts.el_index[action.spirit]
        self._take_spirit(e)
        self.underworld_spirits[e] += 1
        self.spirit_used = True
        self._draw(1)

    def _do_position(self, action: ChangePosition) -> None:
        elestral = self.field[action.slot]
        assert elestral is not None
        elestral.attack_pos = not elestral.attack_pos
        elestral.changed_turn = self.turn

    def _pay(self, spirits: tuple[str, ...]) -> list[int]:
        counts = [0] * self.facts.n_elements
        for element in spirits:
            e = self.facts.el_index[element]
            self._take_spirit(e)
            counts[e] += 1
        return counts

    def _place_rune(self, k: int, paid: list[int], empower: int | None, slot: int | None) -> None:
        """A Rune resolves: Instants go to the Underworld, Continuous Runes take their slot."""
        kind = self.kinds[k]
        if kind.subtype == "stadium":
            if self.stadium is not None:
                self.underworld.append(self.stadium.kind)
                self._spirits_to_underworld(self.stadium.spirits)
            self.stadium = _Rune(k, paid, False, self.turn, None)
        elif kind.subtype in CONTINUOUS_RUNES or kind.subtype is None:
            if slot is None:
                slot = self.runes.index(None)
            self.runes[slot] = _Rune(k, paid, False, self.turn, empower)
        else:
            if slot is not None:
                self.runes[slot] = None
            self.underworld.append(k)
            self._spirits_to_underworld(paid)

    def _do_cast_rune(self, action: CastRune) -> None:
        k = self.facts.by_name[action.card]
        self.hand.remove(k)
        self._place_rune(k, self._pay(action.spirits), action.empower, None)

    def _do_set_rune(self, action: SetRune) -> None:
        k = self.facts.by_name[action.card]
        self.hand.remove(k)
        self.runes[self.runes.index(None)] = _Rune(k, [0] * self.facts.n_elements, True, self.turn, None)

    def _do_cast_set_rune(self, action: CastSetRune) -> None:
        rune = self.runes[action.slot]
        assert rune is not None
        self._place_rune(rune.kind, self._pay(action.spirits), action.empower, action.slot)

    def _do_end_main(self, action: EndMain) -> None:
        if self._battle_skipped():
            self._end_turn()
        else:
            self.phase = _BATTLE

    def _do_attack(self, action: Attack) -> None:
        elestral = self.field[action.slot]
        assert elestral is not None
        elestral.attacked = self.turn
        kind = self.kinds[elestral.kind]
        damage = elestral.n if kind.attack > 0 else 0
        for handler, value in kind.damage_hooks:
            damage = handler.spirit_damage(damage, value)
        if damage <= 0:
            return
        self.useful = True
        if damage > self.opponent_spirits:
            self.opponent_spirits = 0
            self._end(True, "opponent out of Spirits")
        else:
            self.opponent_spirits -= damage

    def _do_end_turn(self, action: EndTurn) -> None:
        self._end_turn()

    # -- fast loop -----------------------------------------------------------------------

    def play_out(self, policy: Any) -> None:
        """Play to the end with ``policy.decide(state)`` (a policy whose ``choose`` is exactly
        ``decide``), skipping the enumeration of legal actions; the log is the same as the
        generic loop's."""
        decide = policy.decide
        log = self.log
        dispatch = _DISPATCH
        while self.phase != _OVER:
            action = decide(self)
            dispatch[type(action)](self, action)
            log.append(action)

    # -- inspection ----------------------------------------------------------------------

    def snapshot(self) -> tuple[Any, ...]:
        """Every zone and counter, as plain values (equal states give equal snapshots)."""
        names = [k.name for k in self.kinds]
        els = self.facts.elements

        def spirits(counts: Sequence[int]) -> tuple[tuple[str, int], ...]:
            return tuple((els[e], n) for e, n in enumerate(counts) if n)

        field = tuple(
            None if el is None else (names[el.kind], spirits(el.spirits), el.attack_pos, el.cast_turn)
            for el in self.field
        )
        runes = tuple(
            None if r is None else (names[r.kind], spirits(r.spirits), r.face_down, r.empower) for r in self.runes
        )
        stadium = None if self.stadium is None else (names[self.stadium.kind], spirits(self.stadium.spirits))
        return (
            self.turn,
            self.phase,
            tuple(names[k] for k in self.hand),
            tuple(names[k] for k in self.library),
            spirits(self.spirits),
            field,
            runes,
            stadium,
            tuple(names[k] for k in self.underworld),
            spirits(self.underworld_spirits),
            self.opponent_spirits,
            self.mulligans,
            self.won,
            self.win_turn,
            self.stalled,
            self.reason,
        )

    def dealt_order(self) -> list[str]:
        """The Main Deck's cards in the order the player sees them: the hand (in draw order),
        then the library from the top. Used by ``deckcli odds`` to simulate with this
        engine's own dealing."""
        names = [k.name for k in self.kinds]
        return [names[k] for k in self.hand] + [names[k] for k in reversed(self.library)]


_DISPATCH: dict[type[Action], Any] = {
    Keep: ElestralsState._do_keep,
    Mulligan: ElestralsState._do_mulligan,
    NormalCast: ElestralsState._do_cast,
    Ascend: ElestralsState._do_ascend,
    Enchant: ElestralsState._do_enchant,
    ExpendDraw: ElestralsState._do_expend_draw,
    ChangePosition: ElestralsState._do_position,
    CastRune: ElestralsState._do_cast_rune,
    SetRune: ElestralsState._do_set_rune,
    CastSetRune: ElestralsState._do_cast_set_rune,
    EndMain: ElestralsState._do_end_main,
    Attack: ElestralsState._do_attack,
    EndTurn: ElestralsState._do_end_turn,
}


def _stacked(facts: _Facts, order: Sequence[str]) -> list[int]:
    """The library for a stacked test deck: ``order`` lists the Main Deck top card first and
    must be a permutation of it."""
    try:
        indices = [facts.by_name[name] for name in order]
    except KeyError as exc:
        raise EngineError(f"stacked order names a card not in the Main Deck: {exc.args[0]}") from None
    if sorted(indices) != sorted(facts.main):
        raise EngineError("a stacked order must list exactly the Main Deck's cards")
    return indices[::-1]


# -- the greedy policy ---------------------------------------------------------------------


class GreedyPolicy:
    """What a strong player does against an empty board, where only Spirit damage matters.

    Facts that decide it: an attacking Elestral makes the opponent Expend one Spirit per
    Spirit Enchanting it, whatever its Attack (above 0) and whether it is Enchanted or
    Misenchanted; the only way to add Spirits to the field is the once-per-turn Spirit
    action (Normal Cast, Ascend or Enchant: +1 Spirit each); Rune effects are out of
    scope, so a Rune only spends Spirits. Hence the damage dealt each turn is the number
    of Spirits on attacking Elestrals, it grows by one per turn once the first Elestral is
    down, and what matters is landing a 1-Spirit Elestral as early as possible and never
    wasting the Spirit action.

    * **Mulligan** when the hand holds no 1-Spirit Elestral with Attack above 0 (nothing to
      Normal Cast, so the first Spirits would reach the field turns later) and no Ascend
      set-up (Main Phase step 3), as long as the Spirit Deck keeps at least
      :attr:`spirit_reserve` (10) Spirits afterwards — a
      goldfish needs only about one Spirit a turn, so the Spirits a mulligan costs barely
      matter while a dead hand costs whole turns. The two Spirits Expended are the most
      spare ones (see below). Otherwise keep.
    * **Main Phase**, in this order:

      1. Turn every Defense Position Elestral with Attack above 0 that may change Position
         to Attack Position (it then attacks).
      2. The Spirit action that adds the most Spirits to Elestrals that deal damage:
         Normal Cast (in Attack Position) or Enchant add one, Ascend adds one, or more when
         it turns an Elestral that deals no damage into one that does. Ties go to Normal
         Cast (more attackers, the board a real opponent must answer), then Enchant (keeps
         the card), then Ascend. A Cast prefers an Elestral whose cost element is in the
         Spirit Deck (it is then Enchanted and keeps its effect in a real game) and uses
         that element; Enchant goes to an Elestral in Attack Position, first one that the
         Spirit turns from Misenchanted to Enchanted.
      3. Else, with a free slot, Normal Cast (in Defense Position) a 1-Spirit Elestral that
         deals no damage (Attack 0) when the hand also holds a damaging Elestral costing
         at most 2: next turn's Ascend turns both Spirits into damage.
      4. If no Spirit action adds damage (no Elestral on the field and no 1-Spirit Elestral
         in hand): Expend a spare Spirit to draw a card, digging for an Elestral, if at
         least 2 Spirits are left (one stays to Cast what is drawn) and the Main Deck is
         not empty.
      5. Never Cast or Set Runes (they would only spend Spirits); end the Main Phase.
    * **Battle Phase**: every Attack Position Elestral that deals damage attacks, lowest
      slot first; then end the turn.

    A *spare* Spirit is one of the element with the largest surplus over what the Main
    Deck's Elestrals ask for (count minus the element's share of the Elestral cost symbols
    times the Spirits left), so the Spirits kept match the deck's Elestrals.
    """

    #: the generic loop and ``ElestralsState.play_out`` give the same actions
    supports_play_out = True
    #: Spirits the Spirit Deck must keep after a mulligan
    spirit_reserve = 10

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        """The greedy action in ``state`` (it is always one of ``actions``)."""
        if not isinstance(state, ElestralsState):
            raise EngineError("the Elestrals greedy policy plays only Elestrals games")
        return self.decide(state)

    def decide(self, state: ElestralsState) -> Action:
        """The greedy action, read off the state (see the class docstring)."""
        phase = state.phase
        if phase == _BATTLE:
            turn = state.turn
            kinds = state.kinds
            for s, el in enumerate(state.field):
                if el is not None and el.attack_pos and el.attacked != turn and kinds[el.kind].hits:
                    return state.facts.attack_actions[s]
            return END_TURN
        if phase == _MAIN:
            return self._main(state)
        if phase == _MULLIGAN:
            return self._mulligan(state)
        raise EngineError("the game is over")

    def _mulligan(self, state: ElestralsState) -> Action:
        kinds = state.kinds
        for k in state.hand:
            if kinds[k].starter:
                return KEEP
        if _setup_cast(state) >= 0:
            return KEEP
        if state.spirit_total - MULLIGAN_EXPEND < self.spirit_reserve:
            return KEEP
        counts = list(state.spirits)
        a = _spare(state, counts)
        counts[a] -= 1
        b = _spare(state, counts)
        return state.facts.mulligan_actions[(a, b) if a <= b else (b, a)]

    def _main(self, state: ElestralsState) -> Action:
        facts = state.facts
        kinds = state.kinds
        field = state.field
        turn = state.turn
        for s, el in enumerate(field):
            if (
                el is not None
                and not el.attack_pos
                and el.cast_turn != turn
                and el.changed_turn != turn
                and kinds[el.kind].hits
            ):
                return facts.position_actions[s]
        if state.spirit_used or not state.spirit_total:
            return END_MAIN
        spirits = state.spirits
        # 1. Normal Cast (gain 1), if a slot is free and a 1-Spirit attacker is in hand.
        if None in field:
            best_k = -1
            best_key: tuple[int, int] = (-1, 0)
            for k in state.hand:
                kind = kinds[k]
                if kind.starter:
                    key = (1 if _covers_one(spirits, kind) >= 0 else 0, kind.attack)
                    if key > best_key or (key == best_key and k < best_k):
                        best_k, best_key = k, key
            if best_k >= 0:
                kind = kinds[best_k]
                e = _covers_one(spirits, kind)
                if e < 0:
                    e = _spare(state, spirits)
                return facts.cast_actions[best_k][e][1]
        # 2. Enchant an Elestral that deals damage (gain 1); 3. Ascend if it gains more.
        enchant_slot = -1
        enchant_key = (-1, -1)
        idle = False  # an Elestral on the field that deals no damage
        for s, el in enumerate(field):
            if el is None:
                continue
            if not kinds[el.kind].hits:
                idle = True
                continue
            key = (1 if el.attack_pos else 0, 1 if _fixing_element(state, el) >= 0 else 0)
            if key > enchant_key:
                enchant_slot, enchant_key = s, key
        # An Ascend gains more than Enchant's one Spirit only from an idle Elestral; with no
        # damaging Elestral to Enchant any gaining Ascend is the best action.
        if idle or enchant_slot < 0:
            ascend = self._best_ascend(state)
            if ascend is not None and (ascend[0] > 1 or enchant_slot < 0):
                return ascend[1]
        if enchant_slot >= 0:
            el = field[enchant_slot]
            assert el is not None
            e = _fixing_element(state, el)
            if e < 0:
                e = _spare(state, spirits)
            return facts.enchant_actions[enchant_slot][e]
        # 4. Set up an Ascend: an Elestral that deals no damage now holds a Spirit that the
        #    Ascend next turn turns into damage.
        if None in field:
            setup = _setup_cast(state)
            if setup >= 0:
                e = _covers_one(spirits, kinds[setup])
                if e < 0:
                    e = _spare(state, spirits)
                return facts.cast_actions[setup][e][0]
        # 5. Nothing adds damage: dig for an Elestral.
        if state.spirit_total >= 2 and state.library:
            return facts.expend_actions[_spare(state, spirits)]
        return END_MAIN

    def _best_ascend(self, state: ElestralsState) -> tuple[int, Action] | None:
        """The Ascend that adds the most damaging Spirits (gain, action), if any gains."""
        kinds = state.kinds
        spirits = state.spirits
        best: tuple[int, Action] | None = None
        best_key: tuple[int, int, int] | None = None
        for s, el in enumerate(state.field):
            if el is None:
                continue
            before = el.n if kinds[el.kind].hits else 0
            for k in sorted(set(state.hand)):
                kind = kinds[k]
                if not kind.hits or kind.cost_n > el.n + 1:
                    continue
                gain = el.n + 1 - before
                if gain <= 0:
                    continue
                # the Spirit that makes the Ascension Enchanted, if one does
                e = -1
                for cand, n in enumerate(spirits):
                    if n:
                        trial = list(el.spirits)
                        trial[cand] += 1
                        if _covers(trial, kind, state.facts.wild):
                            e = cand
                            break
                key = (gain, 1 if e >= 0 else 0, kind.attack)
                if best_key is None or key > best_key:
                    if e < 0:
                        e = _spare(state, spirits)
                    best_key = key
                    best = (gain, state.facts.ascend_actions[s][k][e][1])
        return best


def _setup_cast(state: ElestralsState) -> int:
    """A 1-Spirit Elestral in hand that deals no damage but can be Ascended next turn into a
    damaging Elestral (cost at most 2) also in hand: its kind index, or -1."""
    kinds = state.kinds
    idle = -1
    target = False
    for k in state.hand:
        kind = kinds[k]
        if kind.elestral:
            if kind.cost_n == 1 and not kind.hits:
                if idle < 0 or k < idle:
                    idle = k
            elif kind.hits and kind.cost_n <= 2:
                target = True
    return idle if target else -1


def _covers_one(spirits: Sequence[int], kind: _Kind) -> int:
    """For a 1-Spirit cost: the element index of a Spirit in the Spirit Deck that meets it, or -1."""
    for e, _n in kind.req:
        if spirits[e]:
            return e
    if kind.omni:
        for e, n in enumerate(spirits):
            if n:
                return e
    return -1


def _fixing_element(state: ElestralsState, el: _Elestral) -> int:
    """An element whose Spirit would turn Misenchanted ``el`` Enchanted (-1 if none or not needed)."""
    kind = state.kinds[el.kind]
    wild = state.facts.wild
    if _covers(el.spirits, kind, wild):
        return -1
    for e, n in enumerate(state.spirits):
        if n:
            trial = list(el.spirits)
            trial[e] += 1
            if _covers(trial, kind, wild):
                return e
    return -1


def _spare(state: ElestralsState, counts: Sequence[int]) -> int:
    """The element of the most spare Spirit in ``counts`` (see :class:`GreedyPolicy`)."""
    share = state.facts.demand_share
    total = sum(counts)
    best = -1
    best_score = 0.0
    for e, n in enumerate(counts):
        if n:
            score = n - share[e] * total
            if best < 0 or score > best_score:
                best, best_score = e, score
    return best


# -- engine registration -------------------------------------------------------------------


def new_game(
    deck: EngineDeck,
    rng: random.Random,
    options: GameOptions = GameOptions(),
    *,
    order: Sequence[str] | None = None,
    registry: KeywordRegistry | None = None,
) -> ElestralsState:
    """A new game at its first decision (keep or mulligan the opening hand).

    ``order`` stacks the Main Deck (top card first) instead of shuffling it, for tests;
    ``registry`` replaces the keyword registry (tests).
    """
    return ElestralsState(deck, rng, options, order=order, registry=registry)


def missing_stats(card: EngineCard) -> list[str]:
    """The stats this engine needs that ``card`` lacks."""
    missing: list[str] = []
    if card.type == "elestral":
        if not card.stat("cost"):
            missing.append("cost")
        if card.stat("attack") is None:
            missing.append("attack")
    elif card.type == "rune":
        if not card.stat("cost"):
            missing.append("cost")
        if card.stat("subtype") is None:
            missing.append("subtype")
    elif card.type == "spirit" and card.stat("element") is None:
        missing.append("element")
    return missing


def opening_hand(deck: EngineDeck) -> int:
    """Cards in the opening hand (*Beginning a Game*, step 4)."""
    return HAND_SIZE


def draws_on_turn(deck: EngineDeck, turn: int, on_the_draw: bool) -> int:
    """Cards drawn in the Draw Phase of own turn ``turn``: the first player skips turn 1's."""
    if turn < 1:
        return 0
    return 0 if turn == 1 and not on_the_draw else 1


def greedy_policy() -> Policy:
    """The documented greedy goldfish policy."""
    return GreedyPolicy()


ENGINE = GameEngine(
    game_id="elestrals",
    version=VERSION,
    new_game=new_game,
    greedy_policy=greedy_policy,
    missing_stats=missing_stats,
    opening_hand=opening_hand,
    draws_on_turn=draws_on_turn,
    draw_section="main",
)

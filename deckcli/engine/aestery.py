"""Aestery TCG goldfish engine: the player against an opponent at 20 LP that does nothing.

Rules implemented (rulebook ``/work/shared/rulebooks/aestery.txt``; section names quoted):

* *Setting up / Starting the game*: 20 LP; the Hero (deck section ``hero``) sits outside the
  deck and its ability is a card effect (out of scope). Hand of 6; one Mulligan (shuffle the
  hand back, draw 6 again) offered as the actions :class:`Keep` / :class:`Mulligan`.
* *Turn structure*: Upkeep (untap all permanents and Mines), Draw (the first player skips it
  on turn 1), Main Phase 1, Combat, Main Phase 2, bought extra combat phases, End of turn
  (sacrifice First Blood Fighters, put pitched cards under the deck, draw one, discard to 6).
* *How to play your cards?*: **Mining** once per turn (:class:`Mine`: exile a card from hand
  -> a tapped Mine that produces 1 Aether by tapping); **Pitching** only while paying a cost
  (:class:`Pitch`, for the card's pitch value). Costs are paid in a payment step entered by
  :class:`Play` / :class:`BeginCombat` (:class:`TapMine`, :class:`Pitch` until paid).
* *Combat*: declared attackers (:class:`Declare`) deal their Power to the opponent (no
  blockers); a Fighter that has not spent one of its owner's upkeeps gains First Blood when it
  attacks and is sacrificed at the end of the turn. Extra combat phases cost 2, 4, 6, ...
  Aether (the first combat phase of the turn is free).
* Win: opponent at 0 LP or less (checked after each combat). Loss: unable to draw (draw step
  or the end-of-turn draw). ``GameOptions.max_turns`` own turns cap a game ("turn cap").

Readings chosen where the rulebook is silent (documented in the engine's reply too):

* Aether from Mines and pitched cards goes into a pool that lasts until the end of the turn;
  surplus from a pitch stays available for later costs in the same turn. A payment uses the
  pool first, then the player taps Mines or pitches cards (pitching is only legal while a cost
  is unpaid, "only as payment for a cost").
* A Mine untapped by Efficiency can be tapped again the same turn (that is what untapping is
  for).
* "Has not spent any upkeep under its Owner's control" counts the owner's own upkeeps: the
  goldfish opponent's upkeep does not remove summoning sickness. Slumber, in contrast, says
  "each player's upkeep", so the opponent's upkeep does remove a Slumber counter.
* Entering the battlefield tapped (Dive) is not "tapped by its Owner", so it gives no First
  Blood; a Dive Fighter untaps normally at its first upkeep and can attack then.
* Support triggers whenever the card is exiled from the hand - by the Support action itself,
  by Mining it, or by a Mine X exile (the glossary's trigger is "When a card with Support X is
  exiled from your hand"). The target is part of the action; with no Fighter it fizzles.
* Mine X happens when its card resolves (the sample card's "Entry - Mine 1"): the player picks
  min(X, hand size) cards (:class:`MineExile`). It is not the once-per-turn Mining action.
* After a bought combat phase play returns to Main Phase 2 (the rulebook lists the purchase
  after Main Phase 2 and says nothing of a main phase after it; allowing one changes nothing
  the greedy policy does).
* Pitched cards go under the deck in the order they were pitched (the last pitched card ends
  at the very bottom).
* Stories and Instants can be played (their text is an effect, out of scope); only their
  keywords act (Efficiency and Mine X on a Story; Mine X on an Instant).
* Not modelled: the Hideaway (its point is Privilege, an effect; it would also keep one card
  out of the hand limit), Instants on the opponent's turn, Flash and blocking (the goldfish
  never blocks).

Keywords (:data:`KEYWORDS`, one registered class each): Madness, Bloodthirst X, Dive,
Efficiency X, Mine X, Repeat X, Support X, Slumber X and Bravery X (Bravery removes Fatigue
counters, which only blockers cause: registered, no effect in a goldfish). Keywords that
only matter against blockers (Flying, Reach, Elusive, Enthrall, Unblockable, Devotion) and
effect keywords (Entry, Scry, Heal, Experience, Privilege) are not registered.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
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
    per_deck,
    shared_action,
)
from deckcli.engine.keywords import KeywordRegistry, parse_keyword

GAME_ID = "aestery"
STARTING_LP = 20
HAND_SIZE = 6
MAX_HAND = 6

KEYWORDS = KeywordRegistry(GAME_ID)


# -- actions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Keep(Action):
    """Keep the opening hand."""


@dataclass(frozen=True)
class Mulligan(Action):
    """Shuffle the hand into the deck and draw 6 again (once per game)."""


@dataclass(frozen=True)
class Mine(Action):
    """Mining (once per turn): exile ``card`` from hand, create a tapped Mine.

    ``target`` is the Fighter (uid) a Support card's trigger targets; 0 = no target.
    """

    card: str
    target: int = 0


@dataclass(frozen=True)
class Play(Action):
    """Play ``card`` from hand; its cost is paid next (pool first, then Mines / pitches)."""

    card: str


@dataclass(frozen=True)
class TapMine(Action):
    """While paying: tap an untapped Mine for 1 Aether."""


@dataclass(frozen=True)
class Pitch(Action):
    """While paying: discard ``card`` from hand for its pitch value."""

    card: str


@dataclass(frozen=True)
class Support(Action):
    """Exile Support ``card`` from hand: Fighter ``target`` gains +X Power this turn."""

    card: str
    target: int


@dataclass(frozen=True)
class MineExile(Action):
    """Resolving Mine X: exile ``card`` from hand for a tapped Mine (``target`` as for Mine)."""

    card: str
    target: int = 0


@dataclass(frozen=True)
class BeginCombat(Action):
    """Start a combat phase (the first of the turn is free; extra ones cost 2, 4, ...)."""


@dataclass(frozen=True)
class Declare(Action):
    """Declare Fighter ``fighter`` (uid) as an attacker."""

    fighter: int


@dataclass(frozen=True)
class Resolve(Action):
    """End the declaration: attackers deal their Power to the opponent."""


@dataclass(frozen=True)
class EndTurn(Action):
    """Go to the end of turn."""


@dataclass(frozen=True)
class Discard(Action):
    """End of turn: discard ``card`` (hand above 6)."""

    card: str


KEEP = Keep()
MULLIGAN = Mulligan()
TAP_MINE = TapMine()
BEGIN_COMBAT = BeginCombat()
RESOLVE = Resolve()
END_TURN = EndTurn()

_action = shared_action


# -- per-deck card facts ---------------------------------------------------------------------


class CardInfo:
    """Facts of one distinct card, computed once per deck."""

    __slots__ = (
        "attack_hooks",
        "bonus_hooks",
        "can_attack_hooks",
        "card",
        "cost",
        "enter_hooks",
        "exile_hooks",
        "fb_hooks",
        "is_fighter",
        "kind",
        "kw",
        "name",
        "pitch",
        "playable",
        "power",
        "resolve_hooks",
        "save_hooks",
        "upkeep_hooks",
    )

    def __init__(self, card: EngineCard) -> None:
        self.card = card
        self.name = card.name
        self.kind = card.type
        self.is_fighter = card.type == "fighter"
        cost = card.stat("cost")
        pitch = card.stat("pitch")
        power = card.stat("power")
        self.cost: int | None = int(cost) if cost is not None else None
        self.pitch: int = int(pitch) if pitch is not None else 0
        self.power: int = int(power) if power is not None else 0
        self.playable = self.cost is not None and (power is not None or not self.is_fighter)
        #: keyword name -> number, for every keyword on the card (registered or not)
        self.kw: dict[str, int] = {}
        for raw in card.data.get("keywords") or ():
            name, value = parse_keyword(str(raw))
            self.kw[name] = value
        uses = [(use.handler, use.value) for use in KEYWORDS.of(card)]

        def hooks(method: str) -> tuple[tuple[AesteryKeyword, int], ...]:
            base = getattr(AesteryKeyword, method)
            return tuple((h, v) for h, v in uses if getattr(type(h), method) is not base)

        self.enter_hooks = hooks("on_enter")
        self.resolve_hooks = hooks("on_resolve")
        self.fb_hooks = hooks("first_blood")
        self.save_hooks = hooks("save_from_first_blood")
        self.can_attack_hooks = hooks("can_attack")
        self.bonus_hooks = hooks("attack_bonus")
        self.attack_hooks = hooks("on_attack")
        self.upkeep_hooks = hooks("on_upkeep")
        self.exile_hooks = hooks("on_exiled_from_hand")

    def __repr__(self) -> str:
        return f"CardInfo({self.name!r})"


class Permanent:
    """A Fighter or Story on the battlefield."""

    __slots__ = (
        "bloodthirst",
        "bonus",
        "bravery",
        "card",
        "first_blood",
        "skip_untap",
        "slumber",
        "spent_upkeep",
        "tapped",
        "uid",
    )

    def __init__(self, uid: int, card: CardInfo) -> None:
        self.uid = uid
        self.card = card
        self.tapped = False
        #: has spent one of its owner's upkeeps on the battlefield
        self.spent_upkeep = False
        self.first_blood = False
        self.bloodthirst = 0
        self.slumber = 0
        self.bravery = 0
        self.skip_untap = False
        #: Power gained until end of turn (Support)
        self.bonus = 0

    def can_attack(self) -> bool:
        """Untapped and no keyword forbids it (Slumber)."""
        if self.tapped:
            return False
        return all(h.can_attack(self, v) for h, v in self.card.can_attack_hooks)

    def gains_first_blood(self) -> bool:
        """Whether attacking now gives First Blood (before keywords: not spent an upkeep)."""
        fb = not self.spent_upkeep
        for h, v in self.card.fb_hooks:
            fb = h.first_blood(self, v, fb)
        return fb

    def __repr__(self) -> str:
        return f"Permanent({self.uid}, {self.card.name!r})"


# -- keywords -------------------------------------------------------------------------------


class AesteryKeyword:
    """A keyword handler; every hook is a no-op here, each keyword overrides what it uses."""

    def on_enter(self, state: AesteryState, perm: Permanent, value: int) -> None:
        """The card entered the battlefield (Fighter or Story)."""

    def on_resolve(self, state: AesteryState, card: CardInfo, value: int) -> None:
        """The card resolved (after ``on_enter`` for permanents)."""

    def first_blood(self, perm: Permanent, value: int, current: bool) -> bool:
        """Whether an attack gives First Blood, given the value so far."""
        return current

    def save_from_first_blood(self, state: AesteryState, perm: Permanent, value: int) -> bool:
        """True to keep ``perm`` instead of sacrificing it to First Blood."""
        return False

    def can_attack(self, perm: Permanent, value: int) -> bool:
        """False while the keyword forbids attacking."""
        return True

    def attack_bonus(self, state: AesteryState, perm: Permanent, value: int) -> int:
        """Extra Power for this attack."""
        return 0

    def on_attack(self, state: AesteryState, perm: Permanent, value: int) -> None:
        """``perm`` was declared as an attacker (after being tapped)."""

    def on_upkeep(self, state: AesteryState, perm: Permanent, value: int, own: bool) -> None:
        """Beginning of an upkeep (``own``: the controller's, else the opponent's)."""

    def on_exiled_from_hand(self, state: AesteryState, card: CardInfo, value: int, target: int) -> None:
        """The card was exiled from the hand (Mining, Mine X, Support)."""


@KEYWORDS.register("madness")
class Madness(AesteryKeyword):
    """Madness: "A card with Madness never gains First Blood"."""

    def first_blood(self, perm: Permanent, value: int, current: bool) -> bool:
        return False


@KEYWORDS.register("bloodthirst")
class Bloodthirst(AesteryKeyword):
    """Bloodthirst X: enters with X counters; gains First Blood on each attack; a First Blood
    sacrifice removes a counter instead while there is one."""

    def on_enter(self, state: AesteryState, perm: Permanent, value: int) -> None:
        perm.bloodthirst = value

    def first_blood(self, perm: Permanent, value: int, current: bool) -> bool:
        # Madness "never gains First Blood", whatever the keyword order on the card.
        return "madness" not in perm.card.kw

    def save_from_first_blood(self, state: AesteryState, perm: Permanent, value: int) -> bool:
        if perm.bloodthirst > 0:
            perm.bloodthirst -= 1
            return True
        return False


@KEYWORDS.register("dive")
class Dive(AesteryKeyword):
    """Dive: enters tapped; each time it is tapped to attack it skips its next untap step
    (blocking restrictions do not matter with no blockers)."""

    def on_enter(self, state: AesteryState, perm: Permanent, value: int) -> None:
        perm.tapped = True

    def on_attack(self, state: AesteryState, perm: Permanent, value: int) -> None:
        perm.skip_untap = True


@KEYWORDS.register("efficiency")
class Efficiency(AesteryKeyword):
    """Efficiency X: on entering, untap up to X Mines (always as many as possible)."""

    def on_enter(self, state: AesteryState, perm: Permanent, value: int) -> None:
        n = min(value, state.mines_tapped)
        state.mines_tapped -= n
        state.mines_untapped += n


@KEYWORDS.register("mine")
class MineKeyword(AesteryKeyword):
    """Mine X: exile X cards from hand (the player chooses) for X tapped Mines."""

    def on_resolve(self, state: AesteryState, card: CardInfo, value: int) -> None:
        state.pending_exiles += value


@KEYWORDS.register("repeat")
class Repeat(AesteryKeyword):
    """Repeat X: +X*N Power when it attacks, N = earlier attack phases this turn with an attacker."""

    def attack_bonus(self, state: AesteryState, perm: Permanent, value: int) -> int:
        return value * state.attack_phases


@KEYWORDS.register("support")
class SupportKeyword(AesteryKeyword):
    """Support X: when exiled from hand, target Fighter gains +X Power until end of turn."""

    def on_exiled_from_hand(self, state: AesteryState, card: CardInfo, value: int, target: int) -> None:
        perm = state.fighter(target)
        if perm is not None:
            perm.bonus += value


@KEYWORDS.register("slumber")
class Slumber(AesteryKeyword):
    """Slumber X: enters with X counters; cannot attack while it has one; each player's
    upkeep removes one."""

    def on_enter(self, state: AesteryState, perm: Permanent, value: int) -> None:
        perm.slumber = value

    def can_attack(self, perm: Permanent, value: int) -> bool:
        return perm.slumber <= 0

    def on_upkeep(self, state: AesteryState, perm: Permanent, value: int, own: bool) -> None:
        if perm.slumber > 0:
            perm.slumber -= 1


@KEYWORDS.register("bravery")
class Bravery(AesteryKeyword):
    """Bravery X: enters with X counters that remove Fatigue counters. Fatigue only comes
    from blockers, so in a goldfish game the counters never matter (kept for completeness)."""

    def on_enter(self, state: AesteryState, perm: Permanent, value: int) -> None:
        perm.bravery = value


# -- the state --------------------------------------------------------------------------------

MULLIGAN_PHASE = "mulligan"
MAIN = "main"
PAY = "pay"
MINE_EXILE = "mine-exile"
DECLARE = "declare"
DISCARD = "discard"
OVER = "over"


def _build_deck_cards(deck: EngineDeck) -> list[CardInfo]:
    by_name: dict[str, CardInfo] = {}
    cards = []
    for card in deck.section("main"):
        info = by_name.get(card.name)
        if info is None:
            info = by_name[card.name] = CardInfo(card)
        cards.append(info)
    return cards


def deck_cards(deck: EngineDeck) -> list[CardInfo]:
    """The main deck as :class:`CardInfo` objects (one shared object per distinct card), cached."""
    return per_deck(_build_deck_cards, deck)


class AesteryState(GameState):
    """One goldfish game of Aestery TCG."""

    game_id: ClassVar[str] = GAME_ID

    def __init__(self, deck: EngineDeck, rng: random.Random, options: GameOptions, *, stacked: bool = False) -> None:
        super().__init__(rng)
        cards = deck_cards(deck)
        if not cards:
            raise EngineError(f"{deck.name}: the Main Deck is empty")
        self.deck = deck
        self.options = options
        #: library, top card LAST (drawing pops from the end)
        self.library: list[CardInfo] = list(reversed(cards))
        if not stacked:
            rng.shuffle(self.library)
        self.hand: list[CardInfo] = []
        self.pitched: list[CardInfo] = []
        self.graveyard: list[CardInfo] = []
        self.exile: list[CardInfo] = []
        self.fighters: list[Permanent] = []
        self.stories: list[Permanent] = []
        self.mines_untapped = 0
        self.mines_tapped = 0
        self.pool = 0
        self.opponent_lp = STARTING_LP
        self.turn = 0
        self.phase = MULLIGAN_PHASE
        self.mulligans = 0
        self.mined = False
        #: combat phases begun this turn (the first is free)
        self.combats = 0
        #: combat phases this turn in which at least one Fighter attacked (Repeat's N)
        self.attack_phases = 0
        self.declared: list[Permanent] = []
        self.pay_due = 0
        self.pay_for: CardInfo | None = None
        self.pending_exiles = 0
        self.next_uid = 1
        self.useful = False
        self.idle_streak = 0
        self.stalled = False
        self.won = False
        self.reason = ""
        self.damage_dealt = 0
        #: scratch space for a policy, cleared at the start of every turn (not game state)
        self.memo: dict[str, Any] = {}
        self._legal: list[Action] | None = None
        self._draw_hand()

    # -- helpers --------------------------------------------------------------------------

    def _draw(self) -> bool:
        """Draw one card; False (and the game is lost) when the library is empty."""
        if not self.library:
            self._lose("player decked")
            return False
        self.hand.append(self.library.pop())
        return True

    def _draw_hand(self) -> None:
        for _ in range(min(HAND_SIZE, len(self.library))):
            self.hand.append(self.library.pop())

    def _lose(self, reason: str) -> None:
        self.phase = OVER
        self.won = False
        self.reason = reason

    def _take(self, name: str) -> CardInfo:
        """Remove one copy of ``name`` from the hand."""
        hand = self.hand
        for i in range(len(hand) - 1, -1, -1):
            if hand[i].name == name:
                return hand.pop(i)
        raise EngineError(f"no {name!r} in hand")  # pragma: no cover - guarded by legality

    def fighter(self, uid: int) -> Permanent | None:
        """The Fighter with ``uid`` on the battlefield, if any."""
        for perm in self.fighters:
            if perm.uid == uid:
                return perm
        return None

    def hand_pitch(self) -> int:
        """Total pitch value of the hand."""
        return sum(c.pitch for c in self.hand)

    def available(self) -> int:
        """Aether the player could raise now: pool + untapped Mines + every pitch in hand."""
        return self.pool + self.mines_untapped + self.hand_pitch()

    def combat_cost(self) -> int:
        """Cost of the next combat phase: 0 for the first, then 2, 4, ..."""
        return 2 * self.combats

    def attackers_possible(self) -> list[Permanent]:
        """Fighters that may be declared now."""
        return [f for f in self.fighters if f.can_attack()]

    def _exiled_from_hand(self, card: CardInfo, target: int) -> None:
        self.exile.append(card)
        for h, v in card.exile_hooks:
            h.on_exiled_from_hand(self, card, v, target)

    def _targets(self, card: CardInfo) -> tuple[int, ...]:
        """Targets a card exiled from hand can choose: every Fighter for Support, else none."""
        if card.exile_hooks and self.fighters:
            return tuple(f.uid for f in self.fighters)
        return (0,)

    # -- legal actions --------------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        """Every action the player may take now."""
        if self._legal is not None:
            return self._legal
        phase = self.phase
        acts: list[Action] = []
        if phase in (MAIN, DECLARE):
            hand = self.hand
            names: dict[str, CardInfo] = {}
            for c in hand:
                names.setdefault(c.name, c)
            if phase == MAIN:
                if not self.mined:
                    for name, c in names.items():
                        for t in self._targets(c):
                            acts.append(_action(Mine, name, t))
                budget = self.pool + self.mines_untapped + self.hand_pitch()
                for name, c in names.items():
                    if c.playable and c.cost is not None and c.cost <= budget - c.pitch:
                        acts.append(_action(Play, name))
            if self.fighters:
                for name, c in names.items():
                    if "support" in c.kw and c.exile_hooks:
                        for f in self.fighters:
                            acts.append(_action(Support, name, f.uid))
            if phase == MAIN:
                if self.combat_cost() <= self.available():
                    acts.append(BEGIN_COMBAT)
                acts.append(END_TURN)
            else:
                declared = self.declared
                for f in self.fighters:
                    if f not in declared and f.can_attack():
                        acts.append(_action(Declare, f.uid))
                acts.append(RESOLVE)
        elif phase == PAY:
            if self.mines_untapped:
                acts.append(TAP_MINE)
            seen: set[str] = set()
            for c in self.hand:
                if c.pitch and c.name not in seen:
                    seen.add(c.name)
                    acts.append(_action(Pitch, c.name))
        elif phase == MINE_EXILE:
            seen = set()
            for c in self.hand:
                if c.name not in seen:
                    seen.add(c.name)
                    for t in self._targets(c):
                        acts.append(_action(MineExile, c.name, t))
        elif phase == DISCARD:
            seen = set()
            for c in self.hand:
                if c.name not in seen:
                    seen.add(c.name)
                    acts.append(_action(Discard, c.name))
        elif phase == MULLIGAN_PHASE:
            acts = [KEEP, MULLIGAN]
        self._legal = acts
        return acts

    # -- applying actions -------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        self._legal = None
        handler = _HANDLERS[type(action)]
        handler(self, action)

    def _do_keep(self, action: Action) -> None:
        self._begin_game()

    def _do_mulligan(self, action: Action) -> None:
        self.mulligans += 1
        self.library.extend(self.hand)
        self.hand.clear()
        self.rng.shuffle(self.library)
        self._draw_hand()
        self._begin_game()

    def _do_mine(self, action: Action) -> None:
        assert isinstance(action, Mine)
        card = self._take(action.card)
        self.mined = True
        self.mines_tapped += 1
        self._exiled_from_hand(card, action.target)

    def _do_play(self, action: Action) -> None:
        assert isinstance(action, Play)
        card = self._take(action.card)
        assert card.cost is not None
        self.pay_for = card
        self._pay(card.cost)

    def _pay(self, due: int) -> None:
        used = min(self.pool, due)
        self.pool -= used
        due -= used
        if due > 0:
            self.pay_due = due
            self.phase = PAY
        else:
            self.pay_due = 0
            self._paid()

    def _do_tap_mine(self, action: Action) -> None:
        self.mines_untapped -= 1
        self.mines_tapped += 1
        self._add_payment(1)

    def _do_pitch(self, action: Action) -> None:
        assert isinstance(action, Pitch)
        card = self._take(action.card)
        self.pitched.append(card)
        self._add_payment(card.pitch)

    def _add_payment(self, aether: int) -> None:
        self.pay_due -= aether
        if self.pay_due <= 0:
            self.pool += -self.pay_due
            self.pay_due = 0
            self._paid()

    def _paid(self) -> None:
        card = self.pay_for
        self.pay_for = None
        if card is None:
            self._start_combat()
            return
        self.useful = True
        if card.is_fighter or card.kind == "story":
            perm = Permanent(self.next_uid, card)
            self.next_uid += 1
            (self.fighters if card.is_fighter else self.stories).append(perm)
            for h, v in card.enter_hooks:
                h.on_enter(self, perm, v)
        else:
            self.graveyard.append(card)
        for h, v in card.resolve_hooks:
            h.on_resolve(self, card, v)
        self.pending_exiles = min(self.pending_exiles, len(self.hand))
        self.phase = MINE_EXILE if self.pending_exiles > 0 else MAIN

    def _do_mine_exile(self, action: Action) -> None:
        assert isinstance(action, MineExile)
        card = self._take(action.card)
        self.mines_tapped += 1
        self._exiled_from_hand(card, action.target)
        self.pending_exiles = min(self.pending_exiles - 1, len(self.hand))
        if self.pending_exiles <= 0:
            self.pending_exiles = 0
            self.phase = MAIN

    def _do_support(self, action: Action) -> None:
        assert isinstance(action, Support)
        card = self._take(action.card)
        self._exiled_from_hand(card, action.target)

    def _do_begin_combat(self, action: Action) -> None:
        cost = self.combat_cost()
        self.combats += 1
        self.pay_for = None
        if cost:
            self._pay(cost)
        else:
            self._start_combat()

    def _start_combat(self) -> None:
        self.phase = DECLARE
        self.declared = []

    def _do_declare(self, action: Action) -> None:
        assert isinstance(action, Declare)
        perm = self.fighter(action.fighter)
        assert perm is not None
        perm.tapped = True
        if perm.gains_first_blood():
            perm.first_blood = True
        for h, v in perm.card.attack_hooks:
            h.on_attack(self, perm, v)
        self.declared.append(perm)

    def attack_power(self, perm: Permanent) -> int:
        """Power of ``perm`` if it attacks in the current combat (Repeat included)."""
        power = perm.card.power + perm.bonus
        for h, v in perm.card.bonus_hooks:
            power += h.attack_bonus(self, perm, v)
        return power

    def _do_resolve(self, action: Action) -> None:
        declared = self.declared
        if declared:
            damage = sum(max(0, self.attack_power(p)) for p in declared)
            self.attack_phases += 1
            if damage > 0:
                self.useful = True
                self.damage_dealt += damage
                self.opponent_lp -= damage
        self.declared = []
        if self.opponent_lp <= 0:
            self.phase = OVER
            self.won = True
            self.reason = "opponent at 0 LP"
            return
        self.phase = MAIN

    def _do_end_turn(self, action: Action) -> None:
        # Sacrifice Fighters with First Blood (Bloodthirst may save them).
        kept: list[Permanent] = []
        for perm in self.fighters:
            if perm.first_blood:
                perm.first_blood = False
                if any(h.save_from_first_blood(self, perm, v) for h, v in perm.card.save_hooks):
                    kept.append(perm)
                else:
                    self.graveyard.append(perm.card)
                continue
            kept.append(perm)
        self.fighters = kept
        # Pitched cards go under the deck (bottom = index 0), in the order pitched.
        if self.pitched:
            self.library[0:0] = reversed(self.pitched)
            self.pitched = []
        if not self._draw():
            return
        if len(self.hand) > MAX_HAND:
            self.phase = DISCARD
        else:
            self._finish_turn()

    def _do_discard(self, action: Action) -> None:
        assert isinstance(action, Discard)
        self.graveyard.append(self._take(action.card))
        if len(self.hand) <= MAX_HAND:
            self._finish_turn()

    # -- turn flow ----------------------------------------------------------------------------

    def _begin_game(self) -> None:
        if self.options.on_the_draw:
            self._opponent_turn()
        self._start_turn()

    def _opponent_turn(self) -> None:
        """The goldfish opponent's turn: only its upkeep matters (Slumber counts it)."""
        for perm in self.fighters + self.stories:
            for h, v in perm.card.upkeep_hooks:
                h.on_upkeep(self, perm, v, False)

    def _start_turn(self) -> None:
        self.turn += 1
        self.memo = {}
        self.useful = False
        self.mined = False
        self.combats = 0
        self.attack_phases = 0
        self.pool = 0
        # Upkeep: Slumber counters first ("at the beginning of each player's upkeep"), then untap.
        for perm in self.fighters + self.stories:
            for h, v in perm.card.upkeep_hooks:
                h.on_upkeep(self, perm, v, True)
            if perm.skip_untap:
                perm.skip_untap = False
            else:
                perm.tapped = False
            perm.spent_upkeep = True
        self.mines_untapped += self.mines_tapped
        self.mines_tapped = 0
        # Draw (the first player skips it on turn 1).
        if (self.turn > 1 or self.options.on_the_draw) and not self._draw():
            return
        self.phase = MAIN

    def _finish_turn(self) -> None:
        for perm in self.fighters:
            perm.bonus = 0
        self.pool = 0
        if self.useful:
            self.idle_streak = 0
        else:
            self.idle_streak += 1
            if self.idle_streak >= 3:
                self.stalled = True
        if self.turn >= self.options.max_turns:
            self.phase = OVER
            self.won = False
            self.reason = "turn cap"
            return
        self._opponent_turn()
        self._start_turn()

    # -- results ------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.phase == OVER

    def outcome(self) -> GameOutcome:
        """The result of the game (so far, if not over)."""
        return GameOutcome(
            won=self.won,
            win_turn=self.turn if self.won else None,
            mulligans=self.mulligans,
            stalled=self.stalled,
            turns=self.turn,
            reason=self.reason or "in progress",
        )

    def play_out(self, policy: Any) -> None:
        """Play to the end with ``policy`` (same actions and log as the generic loop, without
        the second legality check of :meth:`apply`)."""
        log = self.log
        while self.phase != OVER:
            actions = self.legal_actions()
            action = policy.choose(self, actions)
            if action not in actions:
                self.apply(action)  # raises IllegalActionError
            self._apply(action)
            log.append(action)


_HANDLERS = {
    Keep: AesteryState._do_keep,
    Mulligan: AesteryState._do_mulligan,
    Mine: AesteryState._do_mine,
    Play: AesteryState._do_play,
    TapMine: AesteryState._do_tap_mine,
    Pitch: AesteryState._do_pitch,
    Support: AesteryState._do_support,
    MineExile: AesteryState._do_mine_exile,
    BeginCombat: AesteryState._do_begin_combat,
    Declare: AesteryState._do_declare,
    Resolve: AesteryState._do_resolve,
    EndTurn: AesteryState._do_end_turn,
    Discard: AesteryState._do_discard,
}


# -- greedy policy ----------------------------------------------------------------------------


def keep_value(card: CardInfo) -> int:
    """How much the policy wants to keep ``card`` in hand (higher = keep)."""
    if card.is_fighter and card.playable:
        return 10 + card.power + card.kw.get("mine", 0)
    return card.pitch + card.kw.get("support", 0)


def pitch_key(card: CardInfo) -> tuple[int, int, int]:
    """Order in which cards are pitched (smallest first): plain non-Fighters (highest pitch
    first), then Support non-Fighters, then Fighters from the weakest."""
    if card.is_fighter and card.playable:
        return (2, card.power, -card.pitch)
    return (1 if "support" in card.kw else 0, 0, -card.pitch)


def _attacks_now(card: CardInfo) -> bool:
    """A Fighter that can attack the turn it arrives without being lost for it."""
    kw = card.kw
    return ("madness" in kw or "bloodthirst" in kw) and "dive" not in kw and not kw.get("slumber")


def _can_attack_on_arrival(card: CardInfo) -> bool:
    kw = card.kw
    return "dive" not in kw and not kw.get("slumber")


def _cover(cards: Iterable[CardInfo], need: int) -> tuple[bool, list[CardInfo]]:
    """Pitch cards (in :func:`pitch_key` order, already sorted) until ``need`` is covered."""
    used: list[CardInfo] = []
    if need <= 0:
        return True, used
    for c in cards:
        if c.pitch <= 0:
            continue
        used.append(c)
        need -= c.pitch
        if need <= 0:
            return True, used
    return False, used


def _usable_refunds(chosen: list[CardInfo], tapped: int) -> int:
    """Aether Efficiency gives back to the casts after it (Efficiency cards are cast first, so
    the first one's own cost is paid before any refund exists)."""
    refunds = sum(min(c.kw.get("efficiency", 0), tapped) for c in chosen)
    if not refunds:
        return 0
    first = next(c for c in chosen if c.kw.get("efficiency", 0))
    return min(refunds, sum(c.cost or 0 for c in chosen) - (first.cost or 0))


def _schedule(attackers: list[Permanent], phases: int, repeat: dict[int, int]) -> list[list[Permanent]] | None:
    """Split ``attackers`` over ``phases`` attack phases to maximise Repeat bonuses: the
    first phase takes every non-Repeat attacker (or the smallest Repeat one), each middle
    phase the smallest remaining Repeat attacker, the last phase all the rest."""
    if phases <= 1:
        return [list(attackers)] if attackers else None
    if len(attackers) < phases:
        return None
    plain = [a for a in attackers if not repeat.get(a.uid)]
    rep = sorted((a for a in attackers if repeat.get(a.uid)), key=lambda a: (repeat[a.uid], a.uid))
    if not rep:
        return None
    out: list[list[Permanent]] = []
    if plain:
        out.append(plain)
    else:
        out.append([rep.pop(0)])
    while len(out) < phases - 1:
        if len(rep) <= 1:
            return None
        out.append([rep.pop(0)])
    if not rep:
        return None
    out.append(rep)
    return out


def _repeat_bonus(values: list[int], n_plain: int, phases: int) -> int | None:
    """The Repeat bonus of :func:`_schedule` from the attackers' Repeat values alone (None when
    ``phases`` phases cannot each get an attacker)."""
    if phases <= 1:
        return 0 if values or n_plain else None
    rep = sorted(values)
    if not rep or len(rep) + n_plain < phases:
        return None
    if not n_plain:
        rep.pop(0)
    bonus = 0
    for i in range(1, phases - 1):
        if len(rep) <= 1:
            return None
        bonus += rep.pop(0) * i
    return bonus + sum(rep) * (phases - 1)


def _schedule_bonus(schedule: list[list[Permanent]], repeat: dict[int, int]) -> int:
    return sum(repeat.get(a.uid, 0) * i for i, group in enumerate(schedule) for a in group)


def _combat_costs(phases: int) -> int:
    """Aether for ``phases`` attack phases in a turn (2 + 4 + ... for the extra ones)."""
    return sum(2 * k for k in range(1, phases))


class AesteryGreedyPolicy:
    """The documented greedy goldfish policy for Aestery TCG.

    Against an empty board every point of Power that attacks is a point of damage, so the
    policy builds the largest board it can each turn, keeps it alive (no First Blood) and
    turns spare cards into damage or Aether:

    * **Mulligan** when the opening 6 hold fewer playable Fighters than an average hand of the
      deck (6 x its share of playable Fighters, rounded down; at least 1). The Mulligan costs
      no card (a new 6), so any below-average hand is worth replacing; measured on the sample
      deck this wins sooner than mulliganing only hands with fewer than 2 or 3 Fighters.
      Only one Mulligan is allowed.
    * **Lethal check** at the start of each turn: if Fighters that can attack now + Fighters
      it can play now (attacking at once, First Blood no longer matters) + Support cards + at
      most two bought combat phases (for Repeat) can deal the opponent's remaining LP, it goes
      all in: plays the smallest such set of Fighters, pitches the rest as needed, exiles
      every Support card onto an attacker (a Support card is Mined first, which triggers it
      for free) and attacks with everything, split over combat phases only when Repeat needs
      it.
    * Otherwise it **develops**:
      - **Play Fighters**: among every multiset of the Fighters in hand, the one with the most
        value (Power; Madness / Bloodthirst Fighters, which can attack at once without being
        lost, count their Power twice; Mine X adds X) that the pool, untapped Mines and
        pitching the other cards can pay, ties broken by fewer pitched cards, then lower cost.
        Efficiency Fighters are played first (they untap the Mines just tapped, or the new
        Mine), Mine X Fighters last (their exile then eats leftovers, not fuel).
      - **Mine** (once a turn, while it has fewer than ``mine_cap`` = 5 Mines) only a card the
        plays above leave over, and only when the game looks long enough for the Mine to beat
        the card's pitch: a Mine pays 1 Aether each later turn, so it mines when the estimated
        turns left (LP left after this turn's attacks / the board's Power, rounded up) exceed
        the card's pitch value + 1. Mining happens before the plays (so Efficiency can untap
        the new Mine). It mines a Support card when a Fighter attacks this turn (Mining exiles
        it, so Support triggers for free), otherwise the card it values least (non-Fighters by
        lowest pitch, then the weakest Fighter). With the fast sample deck (wins on turns 3-4)
        mining whenever possible made the deck slower; this rule is never slower than not
        mining at all.
      - **Pitch** plain non-Fighters first (highest pitch first), then Support cards, then
        the weakest Fighters; Mines are always tapped before pitching.
      - **Attack** with every Fighter that will not be lost for it (it spent an upkeep, or
        has Madness, or has Bloodthirst - a Bloodthirst Fighter's attacks are limited by its
        counters, not by time, so attacking as early as possible is best). Fighters that
        arrived this turn wait a turn: a Fighter that waits deals its Power every later turn
        instead of once.
      - **Spare cards**: the hand is cut to 6 after the end-of-turn draw, so cards beyond 5
        at the end of the main phase are lost anyway; spare Support cards are exiled onto an
        attacker, other spare cards fund extra combat phases.
      - **Extra combat phases** are bought only when Repeat attackers gain more Power than
        nothing, paid from the pool, untapped Mines and spare cards (resources that would be
        wasted at the end of the turn); Repeat attackers wait for the last phase.
    * **Discard** (hand above 6): the card it values least.
    """

    supports_play_out = True

    def __init__(self, mine_cap: int = 5, mulligan_below: int | None = None) -> None:
        #: never make more Mines than this
        self.mine_cap = mine_cap
        #: mulligan a hand with fewer playable Fighters than this (None: the deck's average)
        self.mulligan_below = mulligan_below

    # -- entry point ---------------------------------------------------------------------------

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        """The greedy action among ``actions``."""
        assert isinstance(state, AesteryState)
        phase = state.phase
        if phase == MULLIGAN_PHASE:
            fighters = sum(1 for c in state.hand if c.is_fighter and c.playable)
            below = self.mulligan_below
            if below is None:
                deck = deck_cards(state.deck)
                below = max(1, HAND_SIZE * sum(1 for c in deck if c.is_fighter and c.playable) // len(deck))
            return MULLIGAN if fighters < below and MULLIGAN in actions else KEEP
        if phase == PAY:
            return self._pay(state, actions)
        if phase == MINE_EXILE:
            return self._mine_exile(state, actions)
        if phase == DISCARD:
            card = min(state.hand, key=lambda c: (keep_value(c), c.name))
            return _action(Discard, card.name)
        if phase == DECLARE:
            return self._declare(state, actions)
        return self._main(state, actions)

    # -- main phase -----------------------------------------------------------------------------

    def _plan(self, state: AesteryState) -> dict[str, Any]:
        memo = state.memo
        if "mode" not in memo:
            lethal = self._lethal_plan(state) if state.combats == 0 else None
            if lethal is not None:
                memo.update(lethal)
            else:
                memo.update(self._develop_plan(state))
        return memo

    def _main(self, state: AesteryState, actions: Sequence[Action]) -> Action:
        plan = self._plan(state)
        lethal = plan["mode"] == "lethal"
        # 1. Mining (a Support card waits until there is an attacker to target).
        mine = plan.get("mine")
        if mine is not None and not state.mined:
            act = self._mine_action(state, mine, lethal, wait_for_target=True)
            if act is not None and act in actions:
                return act
        # 2. Plays, in plan order.
        casts: list[str] = plan["casts"]
        while casts:
            act = _action(Play, casts[0])
            casts.pop(0)
            if act in actions:
                return act
        if mine is not None and not state.mined:
            # a planned Support mine still without an attacker to target: mine it anyway
            act = self._mine_action(state, mine, lethal, wait_for_target=False)
            if act is not None and act in actions:
                return act
        # 3. Support: lethal -> every Support card not needed; develop -> spare ones.
        if state.combats == 0:
            target = self._support_target(state, lethal)
            if target:
                for name in self._supports_now(state, plan):
                    act = _action(Support, name, target)
                    if act in actions:
                        return act
        # 4. Combat phases.
        if state.combats == 0:
            return BEGIN_COMBAT
        if state.combats < plan.get("phases", 1) and BEGIN_COMBAT in actions:
            return BEGIN_COMBAT
        return END_TURN

    def _mine_action(self, state: AesteryState, name: str, lethal: bool, *, wait_for_target: bool) -> Action | None:
        """Mine ``name``; a Support card targets an attacker (or waits for one if asked)."""
        card = next((c for c in state.hand if c.name == name), None)
        if card is None:
            return None
        if not card.exile_hooks or not state.fighters:
            return None if card.exile_hooks and wait_for_target else _action(Mine, name, 0)
        target = self._support_target(state, lethal)
        if not target:
            if wait_for_target:
                return None
            target = state.fighters[0].uid
        return _action(Mine, name, target)

    def _supports_now(self, state: AesteryState, plan: dict[str, Any]) -> list[str]:
        supports = [c for c in state.hand if "support" in c.kw and c.exile_hooks]
        if not supports:
            return []
        if plan["mode"] == "lethal":
            keep: list[str] = plan.get("keep_for_pitch", [])
            names = [c.name for c in supports]
            for name in keep:
                if name in names:
                    names.remove(name)
            return names
        spare = len(state.hand) - (MAX_HAND - 1)
        if spare <= 0:
            return []
        cheapest = sorted(state.hand, key=lambda c: (keep_value(c), c.name))[:spare]
        return [c.name for c in cheapest if "support" in c.kw and c.exile_hooks]

    def _support_target(self, state: AesteryState, lethal: bool) -> int:
        """A Fighter that will attack this turn (0 if none)."""
        for f in state.fighters:
            if f.can_attack() and (lethal or not f.gains_first_blood() or _attacks_now(f.card)):
                return f.uid
        return 0

    # -- planning -----------------------------------------------------------------------------

    def _resources(self, state: AesteryState) -> int:
        return state.pool + state.mines_untapped

    def _lethal_plan(self, state: AesteryState) -> dict[str, Any] | None:
        """A set of plays that kills this turn, or None."""
        lp = state.opponent_lp
        attackers = [f for f in state.fighters if f.can_attack()]
        base_power = sum(state.attack_power(f) for f in attackers)
        hand = state.hand
        playable = [c for c in hand if c.is_fighter and c.playable and _can_attack_on_arrival(c)]
        support_total = sum(c.kw.get("support", 0) for c in hand if c.exile_hooks)
        rep_total = sum(f.card.kw.get("repeat", 0) for f in attackers) + sum(c.kw.get("repeat", 0) for c in playable)
        upper = base_power + sum(c.power for c in playable) + support_total + 2 * rep_total
        if upper < lp:
            return None
        resources = self._resources(state)
        tapped_after_mine = state.mines_tapped + state.mines_untapped + (0 if state.mined else 1)
        counts: dict[str, int] = {}
        distinct: dict[str, CardInfo] = {}
        for c in playable:
            counts[c.name] = counts.get(c.name, 0) + 1
            distinct.setdefault(c.name, c)
        kinds = sorted(distinct.values(), key=lambda c: c.name)
        rep_existing = [f.card.kw.get("repeat", 0) for f in attackers if f.card.kw.get("repeat")]
        hand_sorted = sorted(hand, key=lambda c: (pitch_key(c), c.name))
        combos = sorted(product(*(range(counts[c.name] + 1) for c in kinds)), key=sum)
        for combo in combos:
            chosen = [c for c, n in zip(kinds, combo, strict=True) for _ in range(n)]
            power = sum(c.power for c in chosen)
            if base_power + power + support_total + 2 * rep_total < lp:
                continue
            n_attackers = len(attackers) + len(chosen)
            if n_attackers == 0:
                continue
            cost = sum(c.cost or 0 for c in chosen)
            refunds = _usable_refunds(chosen, tapped_after_mine)
            rest = list(hand_sorted)
            for c in chosen:
                rest.remove(c)
            rep_values = rep_existing + [c.kw.get("repeat", 0) for c in chosen if c.kw.get("repeat")]
            n_plain = n_attackers - len(rep_values)
            for phases in (1, 2, 3):
                bonus = _repeat_bonus(rep_values, n_plain, phases)
                if bonus is None:
                    continue
                ok, used = _cover(rest, cost - refunds + _combat_costs(phases) - resources)
                if not ok:
                    continue
                left = list(rest)
                for c in used:
                    left.remove(c)
                support = sum(c.kw.get("support", 0) for c in left if c.exile_hooks)
                if base_power + power + bonus + support < lp:
                    continue
                mine_card = None
                if not state.mined:
                    sup = [c for c in left if c.exile_hooks]
                    if sup:
                        mine_card = max(sup, key=lambda c: (c.kw.get("support", 0), c.name)).name
                return {
                    "mode": "lethal",
                    "mine": mine_card,
                    "casts": self._cast_order(chosen),
                    "keep_for_pitch": [c.name for c in used if c.exile_hooks],
                    "phases": phases,
                }
        return None

    def _develop_plan(self, state: AesteryState) -> dict[str, Any]:
        mines = state.mines_tapped + state.mines_untapped
        can_mine = not state.mined and mines < self.mine_cap
        # Plan the plays as if a fresh (tapped) Mine will exist, for Efficiency to untap.
        best, used = self._best_casts(state, list(state.hand), mines + (1 if can_mine else 0))
        mine_card: CardInfo | None = None
        if can_mine:
            left = list(state.hand)
            for c in best + used:
                left.remove(c)
            if left and self._turns_left(state, best) > min(c.pitch for c in left) + 1:
                will_attack = any(
                    f.can_attack() and (not f.gains_first_blood() or _attacks_now(f.card)) for f in state.fighters
                ) or any(_attacks_now(c) for c in best)
                supports = [c for c in left if c.exile_hooks]
                if supports and will_attack:
                    mine_card = max(supports, key=lambda c: (c.kw.get("support", 0), c.name))
                else:
                    mine_card = min(left, key=lambda c: (keep_value(c), c.pitch, c.name))
            else:
                best, used = self._best_casts(state, list(state.hand), mines)
        return {
            "mode": "develop",
            "mine": mine_card.name if mine_card is not None else None,
            "casts": self._cast_order(best),
        }

    def _turns_left(self, state: AesteryState, casts: list[CardInfo]) -> int:
        """Estimated own turns after this one until the opponent is dead: LP left after this
        turn's attacks over the Power the board (with ``casts``) attacks for each turn."""
        now = 0
        board = 0
        for f in state.fighters:
            if f.card.kw.get("slumber", 0) and f.slumber > 2:
                continue
            board += f.card.power
            if f.can_attack() and (not f.gains_first_blood() or _attacks_now(f.card)):
                now += state.attack_power(f)
        for c in casts:
            board += c.power
            if _attacks_now(c):
                now += c.power
        left = state.opponent_lp - now
        if left <= 0:
            return 0
        return -(-left // max(1, board))

    def _best_casts(
        self, state: AesteryState, hand: list[CardInfo], tapped: int
    ) -> tuple[list[CardInfo], list[CardInfo]]:
        """The Fighters to play this turn and the cards pitched for them: the most value the
        pool, untapped Mines and pitching the rest can pay (ties: fewer pitched, cheaper)."""
        resources = self._resources(state)
        counts: dict[str, int] = {}
        distinct: dict[str, CardInfo] = {}
        for c in hand:
            counts[c.name] = counts.get(c.name, 0) + 1
            distinct.setdefault(c.name, c)
        order = sorted(distinct.values(), key=lambda c: (pitch_key(c), c.name))
        fighters = [c for c in order if c.is_fighter and c.playable]
        total_pitch = sum(c.pitch for c in hand)
        f_cost = [c.cost or 0 for c in fighters]
        f_value = [c.power + (c.power if _attacks_now(c) else 0) + c.kw.get("mine", 0) for c in fighters]
        f_pitch = [c.pitch for c in fighters]
        f_eff = [min(c.kw.get("efficiency", 0), tapped) for c in fighters]
        best_key: tuple[int, int, int] = (-1, 0, 0)
        best_combo: tuple[int, ...] = ()
        best_used: list[CardInfo] = []
        for combo in product(*(range(counts[c.name] + 1) for c in fighters)):
            value = 0
            cost = 0
            pitch = 0
            refunds = 0
            first_eff_cost = 0
            for i, n in enumerate(combo):
                if n:
                    value += n * f_value[i]
                    cost += n * f_cost[i]
                    pitch += n * f_pitch[i]
                    if f_eff[i]:
                        refunds += n * f_eff[i]
                        if not first_eff_cost or f_cost[i] > first_eff_cost:
                            first_eff_cost = f_cost[i]
            if value < best_key[0]:
                continue
            if refunds:
                refunds = min(refunds, cost - first_eff_cost)
            need = cost - refunds - resources
            if need > total_pitch - pitch:
                continue
            used: list[CardInfo] = []
            if need > 0:
                chosen = dict(zip((c.name for c in fighters), combo, strict=True))
                for c in order:
                    if not c.pitch:
                        continue
                    for _ in range(counts[c.name] - chosen.get(c.name, 0)):
                        used.append(c)
                        need -= c.pitch
                        if need <= 0:
                            break
                    if need <= 0:
                        break
            key = (value, -len(used), -cost)
            if key > best_key:
                best_key = key
                best_combo = combo
                best_used = used
        best = [c for c, n in zip(fighters, best_combo, strict=False) for _ in range(n)]
        return best, best_used

    @staticmethod
    def _cast_order(cards: list[CardInfo]) -> list[str]:
        """Efficiency first, Mine X last, otherwise most expensive first."""

        def key(c: CardInfo) -> tuple[int, int, str]:
            group = 0 if "efficiency" in c.kw else (2 if "mine" in c.kw else 1)
            return (group, -(c.cost or 0), c.name)

        return [c.name for c in sorted(cards, key=key)]

    # -- sub-decisions ---------------------------------------------------------------------------

    def _pay(self, state: AesteryState, actions: Sequence[Action]) -> Action:
        if TAP_MINE in actions:
            return TAP_MINE
        plan = state.memo
        reserved = list(plan.get("casts", [])) + list(plan.get("keep_for_pitch", []))
        candidates = [c for c in state.hand if c.pitch]
        free = list(candidates)
        for name in reserved:
            for c in free:
                if c.name == name:
                    free.remove(c)
                    break
        pool = free or candidates
        card = min(pool, key=lambda c: (pitch_key(c), c.name))
        return _action(Pitch, card.name)

    def _mine_exile(self, state: AesteryState, actions: Sequence[Action]) -> Action:
        reserved = list(state.memo.get("casts", []))
        hand = list(state.hand)
        free = list(hand)
        for name in reserved:
            for c in free:
                if c.name == name:
                    free.remove(c)
                    break
        pool = free or hand
        target = self._support_target(state, state.memo.get("mode") == "lethal")
        supports = [c for c in pool if c.exile_hooks]
        if supports and target:
            card = max(supports, key=lambda c: (c.kw.get("support", 0), c.name))
            return _action(MineExile, card.name, target)
        card = min(pool, key=lambda c: (keep_value(c), c.pitch, c.name))
        act = _action(MineExile, card.name, target if card.exile_hooks and target else 0)
        if act in actions:
            return act
        return next(a for a in actions if isinstance(a, MineExile) and a.card == card.name)

    def _declare(self, state: AesteryState, actions: Sequence[Action]) -> Action:
        memo = state.memo
        lethal = memo.get("mode") == "lethal"
        schedule: list[list[int]] | None = memo.get("schedule")
        if schedule is None:
            schedule = self._make_schedule(state, lethal)
            memo["schedule"] = schedule
            memo["phases"] = len(schedule) if schedule else 1
        index = state.attack_phases
        if schedule and index < len(schedule):
            for uid in schedule[index]:
                act = _action(Declare, uid)
                if act in actions:
                    return act
        return RESOLVE

    def _make_schedule(self, state: AesteryState, lethal: bool) -> list[list[int]]:
        if lethal:
            attackers = [f for f in state.fighters if f.can_attack()]
        else:
            attackers = [
                f for f in state.fighters if f.can_attack() and (not f.gains_first_blood() or _attacks_now(f.card))
            ]
        if not attackers:
            return []
        repeat = {f.uid: f.card.kw.get("repeat", 0) for f in attackers}
        base = [[f.uid for f in attackers]]
        if not any(repeat.values()):
            return base
        if lethal:
            budget = state.available()
        else:
            spare_n = len(state.hand) - (MAX_HAND - 1)
            spare = sorted(state.hand, key=lambda c: (keep_value(c), c.name))[: max(0, spare_n)]
            budget = state.pool + state.mines_untapped + sum(c.pitch for c in spare)
        base_damage = sum(state.attack_power(f) for f in attackers)
        best = base
        best_bonus = 0
        for phases in (2, 3):
            if lethal and base_damage + best_bonus >= state.opponent_lp:
                break
            if _combat_costs(phases) > budget:
                break
            sched = _schedule(attackers, phases, repeat)
            if sched is None:
                continue
            bonus = _schedule_bonus(sched, repeat)
            if bonus > best_bonus:
                best_bonus = bonus
                best = [[f.uid for f in group] for group in sched]
        return best


# -- registration -------------------------------------------------------------------------------


def new_game(
    deck: EngineDeck, rng: random.Random, options: GameOptions = GameOptions(), *, stacked: bool = False
) -> AesteryState:
    """A new game at its first decision (keep or mulligan).

    ``stacked`` skips the opening shuffle: the Main Deck is drawn in file order (tests).
    """
    return AesteryState(deck, rng, options, stacked=stacked)


def missing_stats(card: EngineCard) -> list[str]:
    """Stats the engine needs but ``card`` lacks: cost, pitch (+ power for Fighters)."""
    if card.type == "hero":
        return []
    needed = ["cost", "pitch"]
    if card.type == "fighter":
        needed.append("power")
    return [key for key in needed if card.data.get(key) is None]


def opening_hand(deck: EngineDeck) -> int:
    """Six cards ("draw a starting hand of 6 cards")."""
    return HAND_SIZE


def draws_on_turn(deck: EngineDeck, turn: int, on_the_draw: bool) -> int:
    """One card in the Draw phase, none on the first player's first turn (the end-of-turn draw
    is not part of the Draw phase)."""
    return 0 if turn == 1 and not on_the_draw else 1


ENGINE = GameEngine(
    game_id=GAME_ID,
    version="1",
    new_game=new_game,
    greedy_policy=AesteryGreedyPolicy,
    missing_stats=missing_stats,
    opening_hand=opening_hand,
    draws_on_turn=draws_on_turn,
)

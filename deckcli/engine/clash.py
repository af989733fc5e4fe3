"""Elemental Clash goldfish engine: the player mills an opponent that does nothing.

Rules implemented (rulebook ``/work/shared/rulebooks/elemental-clash.txt``; sections quoted):

* *Getting the Game Started*: both players draw their opening hand (7, or the Spellcaster's
  Hand Size). The player may reshuffle (:class:`Reshuffle`): the first reshuffle draws a full
  hand again, every further one draws one card fewer; :class:`KeepHand` keeps it. "The
  beginning Player cannot draw a card in the first Draw-Phase."
* *Turn-Structure*: Standby-Phase (a: creatures played on an earlier turn leave their stack for
  the ATK- or DEF-Zone - :class:`Place` - and spells on stacks go to the Archive, Permanent
  spells stay; b: each creature may change zone once - :class:`Move` / :class:`EndStandby`),
  Draw-Phase (draw the Spellcaster's Draw, default 1; then :class:`KeepDraw` or
  :class:`CycleHand` - put the hand under the Spellbook, draw as many, skip the Main-Phase),
  Main-Phase (one :class:`PlayStone`, any number of :class:`Cast`, each creature attacks once:
  :class:`Attack` or :class:`Ranged`; :class:`EndMain`), End-Phase (discard down to the hand
  size: :class:`Discard`).
* *Element-Stones*: one stone per turn, on an existing stack or a new one, at most 5 stacks;
  a stack's energy is that of its lowest coloured stone (basic stones: Venus earth, Jupiter
  air, Mars fire, Mercury water; special stones producing "neutral" are uncoloured).
* A card of level L is played on a stack of at least L stones whose energy is the card's
  element; the card occupies the stack until it leaves (creatures at the next Standby-Phase,
  spells at the next Standby-Phase, Permanent spells never).
* *Creatures*: at most 5 in the ATK-Zone and 5 in the DEF-Zone (a creature that finds both
  full stays on its stack); creatures in the ATK-Zone attack the player directly; an
  unblocked attack deals its ATK; each point of damage puts the top card of the Spellbook
  into the Archive (excess ignored).
* *The Goal of the Game*: "If a player is unable to draw a card from his or her Spellbook
  when required, he or she loses immediately." The goldfish opponent (Spellbook of 40,
  opening hand of 7, one card per Draw-Phase, skipping its first if it begins) loses at its
  next Draw-Phase once its Spellbook is empty. ``win_turn`` is the player's own turn right
  after which that Draw-Phase comes (the turn in which the last card was milled, or - if
  the opponent's own draw emptied it - the player's last turn before the failed draw). A
  game that empties the Spellbook on the capped turn is still a win: the opponent's Draw-Phase
  is played before the cap applies. The player loses when they cannot draw.

Readings chosen where the rulebook is silent (see also the engine's report):

* A card whose element is ``neutral`` needs no particular energy: it goes on any stack of
  enough stones (a stack of only uncoloured stones produces Neutral energy, which only such
  cards use).
* A stone may be added to a stack that holds a card (the card stays, the rules only limit
  stacks to 5 and stones to one per turn); a stone added to an all-uncoloured stack gives it
  its colour (it becomes the lowest coloured stone).
* A Quickattacker on its stack is treated as in the ATK-Zone (it attacks the turn it is
  played) and still moves to a zone at the next Standby-Phase. Ranged Attack may be used from
  the ATK-Zone, the DEF-Zone, or a Quickattacker's stack, instead of attacking.
* Further reshuffles "reduce the Player's hand size by one": the new hand has one card fewer
  per extra reshuffle; the End-Phase hand limit stays the Spellcaster's Hand Size.
* The hand goes under the Spellbook in hand order (the rule allows any order).
* Card effects (Spellcaster abilities, spell texts, Play/Destroy/Leave/Elemental effects)
  are out of scope. Spells can be cast (they occupy a stack until the next Standby-Phase)
  but do nothing.
* The Spellcaster's Deck Size is a deck-building limit (checked by ``deckcli validate``), not
  used here.

Keywords (:data:`KEYWORDS`, one registered class each): Quickattacker and Ranged Attack X act;
Salvage acts on the End-Phase discard (a discarded Salvage card may be played for free:
:class:`SalvageZone`, :class:`SalvageStone`, :class:`SalvageSpell` or :class:`SalvageDecline`);
Purge only changes where milled cards go (purged instead of archived: same count); Boon
("placed in the Archive directly from your Spellbook") never triggers, since the goldfish
opponent never mills the player.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
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
from deckcli.engine.keywords import KeywordRegistry

GAME_ID = "elemental-clash"
DEFAULT_HAND_SIZE = 7
DEFAULT_DRAW = 1
OPPONENT_SPELLBOOK = 40
OPPONENT_HAND = 7
MAX_STACKS = 5
ZONE_LIMIT = 5
COLOURS = frozenset({"earth", "air", "fire", "water"})
ATK = "atk"
DEF = "def"
STACK = "stack"

KEYWORDS = KeywordRegistry(GAME_ID)


# -- actions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class KeepHand(Action):
    """Keep the opening hand."""


@dataclass(frozen=True)
class Reshuffle(Action):
    """Shuffle the hand back and draw a new one (one card fewer from the second reshuffle)."""


@dataclass(frozen=True)
class Place(Action):
    """Standby-Phase: move creature ``creature`` (uid) from its stack to ``zone`` (atk/def)."""

    creature: int
    zone: str


@dataclass(frozen=True)
class Move(Action):
    """Standby-Phase: move creature ``creature`` to the other zone (once per turn)."""

    creature: int


@dataclass(frozen=True)
class EndStandby(Action):
    """Finish the Standby-Phase (go to the Draw-Phase)."""


@dataclass(frozen=True)
class KeepDraw(Action):
    """Draw-Phase: keep the hand and go to the Main-Phase."""


@dataclass(frozen=True)
class CycleHand(Action):
    """Draw-Phase: put the hand under the Spellbook, draw as many, skip the Main-Phase."""


@dataclass(frozen=True)
class PlayStone(Action):
    """Play element-stone ``card`` on stack ``stack`` (== number of stacks: a new stack)."""

    card: str
    stack: int


@dataclass(frozen=True)
class Cast(Action):
    """Play creature or spell ``card`` on stack ``stack``."""

    card: str
    stack: int


@dataclass(frozen=True)
class Attack(Action):
    """Creature ``creature`` attacks the opponent directly."""

    creature: int


@dataclass(frozen=True)
class Ranged(Action):
    """Creature ``creature`` deals its Ranged Attack damage to the opponent instead of attacking."""

    creature: int


@dataclass(frozen=True)
class EndMain(Action):
    """Finish the Main-Phase (go to the End-Phase)."""


@dataclass(frozen=True)
class Discard(Action):
    """End-Phase: discard ``card`` (hand above the hand size)."""

    card: str


@dataclass(frozen=True)
class SalvageZone(Action):
    """Salvage: put the discarded creature into ``zone`` (atk/def) for free."""

    zone: str


@dataclass(frozen=True)
class SalvageStone(Action):
    """Salvage: put the discarded element-stone on stack ``stack`` (== stacks: a new one)."""

    stack: int


@dataclass(frozen=True)
class SalvageSpell(Action):
    """Salvage: the discarded spell resolves (no modelled effect) and goes to the Archive."""


@dataclass(frozen=True)
class SalvageDecline(Action):
    """Salvage: leave the discarded card in the Archive."""


KEEP_HAND = KeepHand()
RESHUFFLE = Reshuffle()
END_STANDBY = EndStandby()
KEEP_DRAW = KeepDraw()
CYCLE_HAND = CycleHand()
END_MAIN = EndMain()
SALVAGE_SPELL = SalvageSpell()
SALVAGE_DECLINE = SalvageDecline()

_action = shared_action


# -- cards, stacks, creatures ------------------------------------------------------------------


class CardInfo:
    """Facts of one distinct card, computed once per deck."""

    __slots__ = (
        "attack",
        "card",
        "colour",
        "element",
        "is_creature",
        "is_spell",
        "is_stone",
        "kind",
        "kw",
        "level",
        "name",
        "permanent",
        "playable",
        "quick",
        "ranged",
        "salvage",
        "uses",
        "value",
    )

    def __init__(self, card: EngineCard) -> None:
        self.card = card
        self.name = card.name
        self.kind = card.type
        self.is_creature = card.type == "creature"
        self.is_spell = card.type == "spell"
        self.is_stone = card.type == "element-stone"
        element = card.stat("element")
        self.element: str | None = str(element) if element is not None else None
        produces = card.stat("produces")
        #: the energy a stone gives a stack (None: uncoloured)
        self.colour: str | None = produces if self.is_stone and produces in COLOURS else None
        level = card.stat("level")
        self.level: int = int(level) if level is not None else 0
        attack = card.stat("attack")
        self.attack: int = int(attack) if attack is not None else 0
        self.permanent = self.is_spell and card.stat("spell_kind") == "permanent"
        if self.is_creature:
            self.playable = element is not None and level is not None and attack is not None
        elif self.is_spell:
            self.playable = element is not None and level is not None
        else:
            self.playable = self.is_stone
        # "Ranged Attack: 2" -> "Ranged Attack 2" for the keyword parser
        keywords = [str(k).replace(":", " ") for k in card.data.get("keywords") or ()]
        uses = KEYWORDS.of(EngineCard(card.name, card.type, {"keywords": keywords}))
        self.uses = uses
        self.kw: dict[str, int] = {u.name: u.value for u in uses}
        #: keyword facts, asked of the handlers once
        self.ranged: int = max((u.handler.ranged(self, u.value) for u in uses), default=0)
        self.quick: bool = any(u.handler.attacks_from_stack(self, u.value) for u in uses)
        self.salvage: bool = any(u.handler.salvage(self, u.value) for u in uses)
        #: damage per turn from the ATK-Zone: its ATK or its Ranged Attack
        self.value: int = max(self.attack, self.ranged)

    def __repr__(self) -> str:
        return f"CardInfo({self.name!r})"


class Stack:
    """An element-stone stack: its stones (bottom first) and the card occupying it."""

    __slots__ = ("energy", "occupant", "permanent", "stones")

    def __init__(self) -> None:
        self.stones: list[CardInfo] = []
        #: the card on the stack (creature waiting, spell, Permanent spell), if any
        self.occupant: CardInfo | None = None
        self.permanent = False
        #: the energy of the lowest coloured stone, or "neutral"
        self.energy = "neutral"

    def add(self, stone: CardInfo) -> None:
        """Put ``stone`` on top; the energy only changes if there was no coloured stone."""
        self.stones.append(stone)
        if self.energy == "neutral" and stone.colour is not None:
            self.energy = stone.colour

    def fits(self, card: CardInfo) -> bool:
        """``card`` may be played here now (free, tall enough, right energy)."""
        return (
            self.occupant is None
            and len(self.stones) >= card.level
            and (card.element == "neutral" or card.element == self.energy)
        )

    def __repr__(self) -> str:
        return f"Stack({[s.name for s in self.stones]}, {self.occupant})"


class Creature:
    """A creature on the playing field."""

    __slots__ = ("attacked", "card", "moved", "placed", "stack", "uid", "zone")

    def __init__(self, uid: int, card: CardInfo, zone: str, stack: int) -> None:
        self.uid = uid
        self.card = card
        self.zone = zone
        #: index of its stack while ``zone`` is "stack"
        self.stack = stack
        self.attacked = False
        self.moved = False
        #: placed from its stack in this Standby-Phase (may not move again this turn)
        self.placed = False

    def __repr__(self) -> str:
        return f"Creature({self.uid}, {self.card.name!r}, {self.zone})"


# -- keywords -------------------------------------------------------------------------------


class ClashKeyword:
    """A keyword handler; each hook is a no-op here and the keyword overrides what it uses."""

    def attacks_from_stack(self, card: CardInfo, value: int) -> bool:
        """The creature counts as in the ATK-Zone while on its stack."""
        return False

    def ranged(self, card: CardInfo, value: int) -> int:
        """Ranged Attack damage the creature can deal instead of attacking (0: none)."""
        return 0

    def on_damage_player(self, state: ClashState, source: CardInfo, value: int, milled: int) -> None:
        """``source`` made the opponent put ``milled`` cards from the Spellbook away."""

    def salvage(self, card: CardInfo, value: int) -> bool:
        """True when discarding the card from hand lets it be played for free."""
        return False


@KEYWORDS.register("quickattacker")
class Quickattacker(ClashKeyword):
    """Quickattacker: while on its stack it is treated as in the ATK-Zone (attacks at once)
    and does not count against the ATK-Zone's five."""

    def attacks_from_stack(self, card: CardInfo, value: int) -> bool:
        return True


@KEYWORDS.register("ranged attack")
class RangedAttack(ClashKeyword):
    """Ranged Attack X: instead of attacking, deal X damage to the player (also from DEF)."""

    def ranged(self, card: CardInfo, value: int) -> int:
        return value


@KEYWORDS.register("purge")
class Purge(ClashKeyword):
    """Purge: damage removes the opponent's cards from the game instead of archiving them -
    the same number of cards leaves the Spellbook, so only the destination changes."""

    def on_damage_player(self, state: ClashState, source: CardInfo, value: int, milled: int) -> None:
        state.opponent_archive -= milled
        state.opponent_purged += milled


@KEYWORDS.register("salvage")
class Salvage(ClashKeyword):
    """Salvage: a card put from the hand into the Archive (the End-Phase discard) may be
    played for free at once."""

    def salvage(self, card: CardInfo, value: int) -> bool:
        return True


@KEYWORDS.register("boon")
class Boon(ClashKeyword):
    """Boon: a card placed in the Archive directly from its owner's Spellbook may be played
    for free. Only the opponent's attacks mill the player, so against a goldfish it never
    triggers (registered so the keyword is known)."""


def _ranged(card: CardInfo) -> int:
    return card.ranged


def _quick(card: CardInfo) -> bool:
    return card.quick


def _salvage(card: CardInfo) -> bool:
    return card.salvage


# -- the state --------------------------------------------------------------------------------

MULLIGAN = "mulligan"
PLACE = "place"
STANDBY = "standby"
DRAW = "draw"
MAIN = "main"
DISCARD = "discard"
SALVAGE = "salvage"
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
    """The Spellbook as :class:`CardInfo` objects (one per distinct card), cached per deck."""
    return per_deck(_build_deck_cards, deck)


def spellcaster_values(deck: EngineDeck) -> tuple[int, int]:
    """(hand size, draw per Draw-Phase) from the deck's Spellcaster, or the base game's (7, 1)."""
    casters = deck.section("spellcaster")
    if casters:
        caster = casters[0]
        return int(caster.stat("hand_size", DEFAULT_HAND_SIZE)), int(caster.stat("draw", DEFAULT_DRAW))
    return DEFAULT_HAND_SIZE, DEFAULT_DRAW


class ClashState(GameState):
    """One goldfish game of Elemental Clash."""

    game_id: ClassVar[str] = GAME_ID

    def __init__(
        self,
        deck: EngineDeck,
        rng: random.Random,
        options: GameOptions,
        *,
        stacked: bool = False,
        opponent_spellbook: int = OPPONENT_SPELLBOOK,
    ) -> None:
        super().__init__(rng)
        cards = deck_cards(deck)
        if not cards:
            raise EngineError(f"{deck.name}: the Spellbook is empty")
        self.deck = deck
        self.options = options
        self.hand_size, self.draw_count = spellcaster_values(deck)
        #: Spellbook, top card LAST
        self.library: list[CardInfo] = list(reversed(cards))
        if not stacked:
            rng.shuffle(self.library)
        self.hand: list[CardInfo] = []
        self.archive: list[CardInfo] = []
        self.stacks: list[Stack] = []
        self.creatures: list[Creature] = []
        self.opponent_library = max(0, opponent_spellbook - OPPONENT_HAND)
        self.opponent_archive = 0
        self.opponent_purged = 0
        self.opponent_turns = 0
        self.turn = 0
        self.phase = MULLIGAN
        self.reshuffles = 0
        self.stone_played = False
        self.pending_place: list[Creature] = []
        self.salvage_card: CardInfo | None = None
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
        self._draw_n(self.hand_size)

    # -- helpers --------------------------------------------------------------------------

    def _draw_n(self, n: int) -> bool:
        """Draw ``n`` cards; False (game lost) if the Spellbook runs out."""
        for _ in range(n):
            if not self.library:
                self._end(False, "player decked")
                return False
            self.hand.append(self.library.pop())
        return True

    def _end(self, won: bool, reason: str) -> None:
        self.phase = OVER
        self.won = won
        self.reason = reason

    def _take(self, name: str) -> CardInfo:
        hand = self.hand
        for i in range(len(hand) - 1, -1, -1):
            if hand[i].name == name:
                return hand.pop(i)
        raise EngineError(f"no {name!r} in hand")  # pragma: no cover - guarded by legality

    def creature(self, uid: int) -> Creature:
        """The creature ``uid``."""
        for c in self.creatures:
            if c.uid == uid:
                return c
        raise EngineError(f"no creature {uid}")  # pragma: no cover - guarded by legality

    def zone_count(self, zone: str) -> int:
        """Creatures in ``zone``."""
        return sum(1 for c in self.creatures if c.zone == zone)

    def can_attack(self, c: Creature) -> bool:
        """May attack now (in the ATK-Zone, or a Quickattacker on its stack; not yet this turn)."""
        return not c.attacked and (c.zone == ATK or (c.zone == STACK and _quick(c.card)))

    def can_ranged(self, c: Creature) -> int:
        """Ranged Attack damage ``c`` may deal now (0: none)."""
        if c.attacked:
            return 0
        if c.zone == STACK and not _quick(c.card):
            return 0
        return _ranged(c.card)

    def _deal(self, source: CardInfo, damage: int) -> None:
        milled = min(damage, self.opponent_library)
        self.opponent_library -= milled
        self.opponent_archive += milled
        self.damage_dealt += damage
        if damage > 0:
            self.useful = True
        for use in source.uses:
            use.handler.on_damage_player(self, source, use.value, milled)

    # -- legal actions ------------------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        """Every action the player may take now."""
        if self._legal is not None:
            return self._legal
        phase = self.phase
        acts: list[Action] = []
        if phase == MAIN:
            seen: dict[str, CardInfo] = {}
            for c in self.hand:
                seen.setdefault(c.name, c)
            stacks = self.stacks
            for name, card in seen.items():
                if card.is_stone:
                    if not self.stone_played:
                        for i in range(len(stacks) + (1 if len(stacks) < MAX_STACKS else 0)):
                            acts.append(_action(PlayStone, name, i))
                elif card.playable:
                    for i, s in enumerate(stacks):
                        if s.fits(card):
                            acts.append(_action(Cast, name, i))
            for cr in self.creatures:
                if self.can_attack(cr):
                    acts.append(_action(Attack, cr.uid))
                if self.can_ranged(cr):
                    acts.append(_action(Ranged, cr.uid))
            acts.append(END_MAIN)
        elif phase == PLACE:
            cr = self.pending_place[0]
            for zone in (ATK, DEF):
                if self.zone_count(zone) < ZONE_LIMIT:
                    acts.append(_action(Place, cr.uid, zone))
        elif phase == STANDBY:
            for cr in self.creatures:
                if cr.zone in (ATK, DEF) and not cr.moved and not cr.placed:
                    other = DEF if cr.zone == ATK else ATK
                    if self.zone_count(other) < ZONE_LIMIT:
                        acts.append(_action(Move, cr.uid))
            acts.append(END_STANDBY)
        elif phase == DRAW:
            acts = [KEEP_DRAW, CYCLE_HAND] if self.hand else [KEEP_DRAW]
        elif phase == DISCARD:
            names: set[str] = set()
            for c in self.hand:
                if c.name not in names:
                    names.add(c.name)
                    acts.append(_action(Discard, c.name))
        elif phase == SALVAGE:
            salvaged = self.salvage_card
            assert salvaged is not None
            if salvaged.is_creature:
                for zone in (ATK, DEF):
                    if self.zone_count(zone) < ZONE_LIMIT:
                        acts.append(_action(SalvageZone, zone))
            elif salvaged.is_stone:
                for i in range(len(self.stacks) + (1 if len(self.stacks) < MAX_STACKS else 0)):
                    acts.append(_action(SalvageStone, i))
            else:
                acts.append(SALVAGE_SPELL)
            acts.append(SALVAGE_DECLINE)
        elif phase == MULLIGAN:
            acts = [KEEP_HAND, RESHUFFLE] if self._reshuffle_size() > 0 else [KEEP_HAND]
        self._legal = acts
        return acts

    def _reshuffle_size(self) -> int:
        """Cards the next reshuffle would draw."""
        return self.hand_size - self.reshuffles  # 1st: full hand; each later one: one fewer

    # -- applying actions -------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        self._legal = None
        _HANDLERS[type(action)](self, action)

    def _do_keep_hand(self, action: Action) -> None:
        if self.options.on_the_draw:
            self._opponent_turn()
            if self.phase == OVER:
                return
        self._start_turn()

    def _do_reshuffle(self, action: Action) -> None:
        size = self._reshuffle_size()
        self.reshuffles += 1
        self.library.extend(self.hand)
        self.hand.clear()
        self.rng.shuffle(self.library)
        self._draw_n(size)

    def _do_place(self, action: Action) -> None:
        assert isinstance(action, Place)
        cr = self.pending_place.pop(0)
        self.stacks[cr.stack].occupant = None
        cr.zone = action.zone
        cr.stack = -1
        cr.placed = True
        self._next_placement()

    def _do_move(self, action: Action) -> None:
        assert isinstance(action, Move)
        cr = self.creature(action.creature)
        cr.zone = DEF if cr.zone == ATK else ATK
        cr.moved = True

    def _do_end_standby(self, action: Action) -> None:
        self._draw_phase()

    def _do_keep_draw(self, action: Action) -> None:
        self.phase = MAIN

    def _do_cycle_hand(self, action: Action) -> None:
        n = len(self.hand)
        self.library[0:0] = reversed(self.hand)  # under the Spellbook; the first hand card drawn first
        self.hand.clear()
        if self._draw_n(n):
            self._end_phase()

    def _do_play_stone(self, action: Action) -> None:
        assert isinstance(action, PlayStone)
        stone = self._take(action.card)
        self._put_stone(stone, action.stack)
        self.stone_played = True

    def _put_stone(self, stone: CardInfo, index: int) -> None:
        if index == len(self.stacks):
            self.stacks.append(Stack())
        self.stacks[index].add(stone)

    def _do_cast(self, action: Action) -> None:
        assert isinstance(action, Cast)
        card = self._take(action.card)
        stack = self.stacks[action.stack]
        stack.occupant = card
        stack.permanent = card.permanent
        self.useful = True
        if card.is_creature:
            self.creatures.append(Creature(self.next_uid, card, STACK, action.stack))
            self.next_uid += 1

    def _do_attack(self, action: Action) -> None:
        assert isinstance(action, Attack)
        cr = self.creature(action.creature)
        cr.attacked = True
        self._deal(cr.card, cr.card.attack)

    def _do_ranged(self, action: Action) -> None:
        assert isinstance(action, Ranged)
        cr = self.creature(action.creature)
        damage = self.can_ranged(cr)
        cr.attacked = True
        self._deal(cr.card, damage)

    def _do_end_main(self, action: Action) -> None:
        self._end_phase()

    def _do_discard(self, action: Action) -> None:
        assert isinstance(action, Discard)
        card = self._take(action.card)
        self.archive.append(card)
        if _salvage(card):
            self.salvage_card = card
            self.phase = SALVAGE
            return
        self._after_discard()

    def _salvaged(self) -> CardInfo:
        card = self.salvage_card
        assert card is not None
        self.salvage_card = None
        self.archive.remove(card)
        self.useful = True
        return card

    def _do_salvage_zone(self, action: Action) -> None:
        assert isinstance(action, SalvageZone)
        card = self._salvaged()
        cr = Creature(self.next_uid, card, action.zone, -1)
        cr.placed = True
        self.next_uid += 1
        self.creatures.append(cr)
        self._after_discard()

    def _do_salvage_stone(self, action: Action) -> None:
        assert isinstance(action, SalvageStone)
        self._put_stone(self._salvaged(), action.stack)
        self._after_discard()

    def _do_salvage_spell(self, action: Action) -> None:
        self.archive.append(self._salvaged())
        self._after_discard()

    def _do_salvage_decline(self, action: Action) -> None:
        self.salvage_card = None
        self._after_discard()

    # -- turn flow ----------------------------------------------------------------------------

    def _start_turn(self) -> None:
        self.turn += 1
        self.memo = {}
        self.useful = False
        self.stone_played = False
        for cr in self.creatures:
            cr.attacked = False
            cr.moved = False
            cr.placed = False
        # Standby a): spells on stacks go to the Archive (Permanent spells stay); creatures
        # played earlier leave their stacks for a zone.
        pending = []
        for stack in self.stacks:
            card = stack.occupant
            if card is not None and not card.is_creature and not stack.permanent:
                self.archive.append(card)
                stack.occupant = None
        for cr in self.creatures:
            if cr.zone == STACK:
                pending.append(cr)
        pending.sort(key=lambda c: c.stack)
        self.pending_place = pending
        self._next_placement()

    def _next_placement(self) -> None:
        """Ask for the next creature's zone; one with both zones full stays on its stack."""
        while self.pending_place:
            if self.zone_count(ATK) < ZONE_LIMIT or self.zone_count(DEF) < ZONE_LIMIT:
                self.phase = PLACE
                return
            self.pending_place.pop(0)
        self._standby_moves()

    def _standby_moves(self) -> None:
        self.phase = STANDBY
        if self.legal_actions() == [END_STANDBY]:
            self._legal = None
            self._draw_phase()
        else:
            self._legal = None

    def _draw_phase(self) -> None:
        first = self.turn == 1 and not self.options.on_the_draw
        if not first and not self._draw_n(self.draw_count):
            return
        self.phase = DRAW

    def _end_phase(self) -> None:
        self._after_discard()

    def _after_discard(self) -> None:
        if len(self.hand) > self.hand_size:
            self.phase = DISCARD
            return
        self._finish_turn()

    def _finish_turn(self) -> None:
        if self.useful:
            self.idle_streak = 0
        else:
            self.idle_streak += 1
            if self.idle_streak >= 3:
                self.stalled = True
        self._opponent_turn()
        if self.phase == OVER:
            return
        if self.turn >= self.options.max_turns:
            self._end(False, "turn cap")
            return
        self._start_turn()

    def _opponent_turn(self) -> None:
        """The goldfish opponent: it draws (skipping its first Draw-Phase if it began) and
        loses when its Spellbook is empty; it plays nothing."""
        self.opponent_turns += 1
        if self.opponent_turns == 1 and self.options.on_the_draw:
            return
        if self.opponent_library <= 0:
            self._end(True, "opponent decked")
            return
        self.opponent_library -= 1

    # -- results ------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.phase == OVER

    def outcome(self) -> GameOutcome:
        """The result of the game (so far, if not over)."""
        return GameOutcome(
            won=self.won,
            win_turn=self.turn if self.won else None,
            mulligans=self.reshuffles,
            stalled=self.stalled,
            turns=self.turn,
            reason=self.reason or "in progress",
        )

    def play_out(self, policy: Any) -> None:
        """Play to the end with ``policy`` (same actions and log as the generic loop)."""
        log = self.log
        while self.phase != OVER:
            actions = self.legal_actions()
            action = policy.choose(self, actions)
            if action not in actions:
                self.apply(action)  # raises IllegalActionError
            self._apply(action)
            log.append(action)


_HANDLERS = {
    KeepHand: ClashState._do_keep_hand,
    Reshuffle: ClashState._do_reshuffle,
    Place: ClashState._do_place,
    Move: ClashState._do_move,
    EndStandby: ClashState._do_end_standby,
    KeepDraw: ClashState._do_keep_draw,
    CycleHand: ClashState._do_cycle_hand,
    PlayStone: ClashState._do_play_stone,
    Cast: ClashState._do_cast,
    Attack: ClashState._do_attack,
    Ranged: ClashState._do_ranged,
    EndMain: ClashState._do_end_main,
    Discard: ClashState._do_discard,
    SalvageZone: ClashState._do_salvage_zone,
    SalvageStone: ClashState._do_salvage_stone,
    SalvageSpell: ClashState._do_salvage_spell,
    SalvageDecline: ClashState._do_salvage_decline,
}


# -- greedy policy ----------------------------------------------------------------------------


def attack_value(card: CardInfo) -> int:
    """Damage a creature deals per turn from the ATK-Zone (its ATK or Ranged Attack)."""
    return card.value


def _match(cards: list[CardInfo], stacks: list[Stack], free: list[bool]) -> list[tuple[CardInfo, int]]:
    """Greedy casting: strongest creature first, each on the shortest free stack it fits."""
    free = list(free)
    out: list[tuple[CardInfo, int]] = []
    for card in sorted(cards, key=lambda c: (-attack_value(c), -c.level, c.name)):
        best = -1
        for i, s in enumerate(stacks):
            if (
                free[i]
                and len(s.stones) >= card.level
                and (card.element == "neutral" or card.element == s.energy)
                and (best < 0 or len(s.stones) < len(stacks[best].stones))
            ):
                best = i
        if best >= 0:
            free[best] = False
            out.append((card, best))
    return out


def _sim_stacks(stacks: list[Stack], stone: CardInfo | None, index: int) -> list[Stack]:
    """Copies of ``stacks`` with ``stone`` added on ``index`` (== len: a new stack)."""
    out = []
    for s in stacks:
        c = Stack()
        c.stones = list(s.stones)
        c.energy = s.energy
        c.occupant = s.occupant
        c.permanent = s.permanent
        out.append(c)
    if stone is not None:
        if index == len(out):
            out.append(Stack())
        out[index].add(stone)
    return out


_REACH_WEIGHT = (1.0, 0.45, 0.2, 0.08)


def _reach(card: CardInfo, stacks: list[Stack], colours: set[str] | frozenset[str], stones: int) -> float:
    """Weight of ``card`` by how many more stones (of the ``stones`` at hand, with the coloured
    ones in ``colours``) it needs before a stack fits it: 1 for none, then 0.45, 0.2, 0.08.
    An uncoloured stack takes its colour from the next coloured stone put on it."""
    best = 99
    element = card.element
    level = card.level
    for s in stacks:
        if s.permanent:
            continue
        height = len(s.stones)
        if element == "neutral" or s.energy == element:
            d = max(0, level - height)
        elif s.energy == "neutral" and element in colours:
            d = max(1, level - height)
        else:
            continue
        best = min(best, d)
    if len(stacks) < MAX_STACKS and (element == "neutral" or element in colours):
        best = min(best, max(1, level))
    if best > stones or best >= len(_REACH_WEIGHT):
        return 0.0
    return _REACH_WEIGHT[best]


class ClashGreedyPolicy:
    """The documented greedy goldfish policy for Elemental Clash.

    The opponent's Spellbook is emptied by damage, so the policy maximises the ATK that
    attacks each turn, which means as many creatures in play, as early, as the stacks allow:

    * **Reshuffle** the first hand when it holds fewer element-stones than the Spellbook's
      average hand (rounded up), fewer playable creatures than average (rounded down), or only
      stones: the first reshuffle costs nothing, so any below-average hand is worth replacing
      (measured on the sample deck: thresholds of 3 stones / 2 creatures win ~0.2 turns
      sooner than reshuffling only stoneless hands). A later reshuffle (one card fewer) only
      when the hand holds no stone - without stones nothing can be played.
    * **Standby**: every creature goes to the ATK-Zone while it has room (only there does a
      creature attack; Ranged Attack works from both), else the DEF-Zone; a creature in the
      DEF-Zone moves to the ATK-Zone when there is room, and swaps with the weakest ATK-Zone
      creature when that adds damage.
    * **Draw-Phase**: put the hand under the Spellbook only when the Main-Phase would be
      useless anyway - no stone to play, no creature it can cast and no creature that can
      attack - since it costs the whole Main-Phase.
    * **Element-stone**: it always plays one (height and stacks never hurt), choosing among
      every (stone, stack) pair the layout with the best score: ATK castable this turn + 0.6
      x ATK castable next turn (the rest of the hand, every stack free again) + 0.3 x each
      hand creature's ATK weighted by how many more stones it needs (0: 1, 1: 0.45, 2: 0.2,
      3: 0.08; an uncoloured stack counts as any colour a stone in hand can give it) + 0.5 x
      the same for the Spellbook's creatures by their share of it; ties go to the first
      stone name and the lowest stack (an existing stack before a new one). So colours follow
      the hand, heights follow levels, neutral stones raise stacks, and new stacks open when
      more creatures can be cast than there are free stacks. (Weights measured on the sample
      deck; a bonus per stack as tie-break made it slower.)
    * **Casting**: creatures only (spell effects are out of scope, so a spell would only block
      a stack), strongest first, each on the shortest free stack it fits.
    * **Attacks**: every creature that can attacks the player directly, with its Ranged
      Attack instead when that is larger (or from the DEF-Zone).
    * **End-Phase discard**: a Salvage card first (it is then played for free: creatures to
      the ATK-Zone, stones as in the stone choice), then spells, then stones it no longer
      needs (5 stacks of 3), then the weakest creature.
    """

    supports_play_out = True

    def __init__(
        self,
        weights: tuple[float, float, float] = (0.6, 0.3, 0.5),
        reshuffle_below: int | None = None,
        min_creatures: int | None = None,
    ) -> None:
        #: weights of next-turn ATK, hand reach and Spellbook reach in the stone score
        self.weights = weights
        #: reshuffle a full-size hand with fewer stones than this (None: the deck's average,
        #: rounded up); a smaller later hand only with no stone
        self.reshuffle_below = reshuffle_below
        #: ... or with fewer playable creatures than this (None: the deck's average, rounded down)
        self.min_creatures = min_creatures

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        """The greedy action among ``actions``."""
        assert isinstance(state, ClashState)
        phase = state.phase
        if phase == MAIN:
            return self._main(state, actions)
        if phase == PLACE:
            cr = state.pending_place[0]
            for zone in (ATK, DEF):
                act = _action(Place, cr.uid, zone)
                if act in actions:
                    return act
        if phase == STANDBY:
            return self._standby(state, actions)
        if phase == DRAW:
            return CYCLE_HAND if CYCLE_HAND in actions and self._useless_main(state) else KEEP_DRAW
        if phase == DISCARD:
            card = min(state.hand, key=lambda c: (self._keep_value(state, c), c.name))
            return _action(Discard, card.name)
        if phase == SALVAGE:
            return self._salvage(state, actions)
        if phase == MULLIGAN:
            stones = sum(1 for c in state.hand if c.is_stone)
            if state.reshuffles == 0:
                creatures = sum(1 for c in state.hand if c.is_creature and c.playable)
                stones_below, creatures_below = self._hand_targets(state)
                bad = stones < stones_below or stones == len(state.hand) or creatures < creatures_below
            else:
                bad = stones == 0
            return RESHUFFLE if bad and RESHUFFLE in actions else KEEP_HAND
        return actions[-1]  # pragma: no cover - every phase is handled above

    def _hand_targets(self, state: ClashState) -> tuple[int, int]:
        """(stones, creatures) an opening hand needs before it is kept."""
        deck = deck_cards(state.deck)
        size = state.hand_size
        stones = self.reshuffle_below
        if stones is None:
            stones = -(-size * sum(1 for c in deck if c.is_stone) // len(deck))
        creatures = self.min_creatures
        if creatures is None:
            creatures = size * sum(1 for c in deck if c.is_creature and c.playable) // len(deck)
        return stones, creatures

    # -- phases ------------------------------------------------------------------------------

    def _standby(self, state: ClashState, actions: Sequence[Action]) -> Action:
        movable = [c for c in state.creatures if c.zone in (ATK, DEF) and not c.moved and not c.placed]
        atk = [c for c in state.creatures if c.zone == ATK]
        for c in movable:
            if c.zone == DEF and len(atk) < ZONE_LIMIT:
                return _action(Move, c.uid)
        if len(atk) >= ZONE_LIMIT:
            strong = max(
                (c for c in movable if c.zone == DEF), key=lambda c: (attack_value(c.card), -c.uid), default=None
            )
            weak = min((c for c in movable if c.zone == ATK), key=lambda c: (attack_value(c.card), c.uid), default=None)
            if strong is not None and weak is not None:
                gain = attack_value(strong.card) + _ranged(weak.card) - attack_value(weak.card) - _ranged(strong.card)
                act = _action(Move, weak.uid)
                if gain > 0 and act in actions:
                    return act
        return END_STANDBY

    def _useless_main(self, state: ClashState) -> bool:
        if any(c.is_stone for c in state.hand):
            return False
        if any(state.can_attack(c) or state.can_ranged(c) for c in state.creatures):
            return False
        free = [s.occupant is None for s in state.stacks]
        creatures = [c for c in state.hand if c.is_creature and c.playable]
        return not _match(creatures, state.stacks, free)

    def _main(self, state: ClashState, actions: Sequence[Action]) -> Action:
        if not state.stone_played:
            stone = self._best_stone(state)
            if stone is not None:
                return stone
        free = [s.occupant is None for s in state.stacks]
        creatures = [c for c in state.hand if c.is_creature and c.playable]
        for card, index in _match(creatures, state.stacks, free):
            act = _action(Cast, card.name, index)
            if act in actions:
                return act
        for act in actions:
            if isinstance(act, Attack):
                cr = state.creature(act.creature)
                if cr.card.attack >= state.can_ranged(cr):
                    return act
            elif isinstance(act, Ranged):
                return act
        return END_MAIN

    def _best_stone(self, state: ClashState) -> Action | None:
        stones: dict[str, CardInfo] = {}
        for c in state.hand:
            if c.is_stone:
                stones.setdefault(c.name, c)
        if not stones:
            return None
        best_key: tuple[float, str, int] | None = None
        best: Action | None = None
        deck = self._deck_needs(state)
        for name, stone in sorted(stones.items()):
            rest = list(state.hand)
            rest.remove(stone)
            for index in range(len(state.stacks) + (1 if len(state.stacks) < MAX_STACKS else 0)):
                score = self._score(_sim_stacks(state.stacks, stone, index), rest, deck)
                key = (score, name, -index)
                if best_key is None or key[0] > best_key[0]:
                    best_key = key
                    best = _action(PlayStone, name, index)
        return best

    @staticmethod
    def _deck_needs(state: ClashState) -> list[tuple[CardInfo, float]]:
        """Creatures still in the Spellbook, each with its share of the Spellbook."""
        counts: dict[str, int] = {}
        cards: dict[str, CardInfo] = {}
        for c in state.library:
            if c.is_creature and c.playable:
                counts[c.name] = counts.get(c.name, 0) + 1
                cards.setdefault(c.name, c)
        n = max(1, len(state.library))
        return [(cards[k], counts[k] / n) for k in sorted(cards)]

    def _score(self, stacks: list[Stack], hand: list[CardInfo], deck: list[tuple[CardInfo, float]]) -> float:
        """How good a stack layout is for the hand: ATK castable now, ATK castable next turn,
        and for every creature (hand, and the Spellbook's at a lower weight) how many more
        stones it is from a stack it fits."""
        creatures = [c for c in hand if c.is_creature and c.playable]
        now = _match(creatures, stacks, [s.occupant is None for s in stacks])
        now_value = sum(attack_value(c) for c, _ in now)
        rest = list(creatures)
        for c, _ in now:
            rest.remove(c)
        nxt = _match(rest, stacks, [not s.permanent for s in stacks])
        next_value = sum(attack_value(c) for c, _ in nxt)
        colours = {c.colour for c in hand if c.is_stone and c.colour}
        heights = sum(1 for c in hand if c.is_stone)
        potential = 0.0
        for c in creatures:
            potential += attack_value(c) * _reach(c, stacks, colours, heights)
        deck_potential = 0.0
        for c, share in deck:
            deck_potential += share * attack_value(c) * _reach(c, stacks, COLOURS, 99)
        w_next, w_hand, w_deck = self.weights
        return now_value + w_next * next_value + w_hand * potential + w_deck * deck_potential

    def _keep_value(self, state: ClashState, card: CardInfo) -> int:
        if _salvage(card):
            return -1
        if card.is_creature and card.playable:
            return 10 + attack_value(card)
        if card.is_stone:
            done = len(state.stacks) >= MAX_STACKS and all(len(s.stones) >= 3 for s in state.stacks)
            return 1 if done else 8
        return 0

    def _salvage(self, state: ClashState, actions: Sequence[Action]) -> Action:
        card = state.salvage_card
        assert card is not None
        if card.is_creature:
            for zone in (ATK, DEF):
                act = _action(SalvageZone, zone)
                if act in actions:
                    return act
            return SALVAGE_DECLINE
        if card.is_stone:
            rest = list(state.hand)
            deck = self._deck_needs(state)
            best = max(
                (a for a in actions if isinstance(a, SalvageStone)),
                key=lambda a: self._score(_sim_stacks(state.stacks, card, a.stack), rest, deck),
                default=None,
            )
            return best if best is not None else SALVAGE_DECLINE
        return SALVAGE_SPELL if SALVAGE_SPELL in actions else SALVAGE_DECLINE


# -- registration -------------------------------------------------------------------------------


def new_game(
    deck: EngineDeck,
    rng: random.Random,
    options: GameOptions = GameOptions(),
    *,
    stacked: bool = False,
    opponent_spellbook: int = OPPONENT_SPELLBOOK,
) -> ClashState:
    """A new game at its first decision (keep or reshuffle).

    ``stacked`` skips the opening shuffle (the Spellbook is drawn in file order, for tests);
    ``opponent_spellbook`` is the goldfish opponent's Spellbook size (default 40, the
    constructed deck size; it draws 7 of them as its opening hand).
    """
    return ClashState(deck, rng, options, stacked=stacked, opponent_spellbook=opponent_spellbook)


def missing_stats(card: EngineCard) -> list[str]:
    """Stats the engine needs but ``card`` lacks."""
    needed = {
        "creature": ("element", "level", "attack"),
        "spell": ("element", "level"),
        "element-stone": ("produces",),
        "spellcaster": ("hand_size", "draw"),
    }.get(card.type, ())
    return [key for key in needed if card.data.get(key) is None]


def opening_hand(deck: EngineDeck) -> int:
    """The Spellcaster's Hand Size, else 7."""
    return spellcaster_values(deck)[0]


def draws_on_turn(deck: EngineDeck, turn: int, on_the_draw: bool) -> int:
    """The Spellcaster's Draw (else 1); none in the beginning player's first Draw-Phase."""
    return 0 if turn == 1 and not on_the_draw else spellcaster_values(deck)[1]


ENGINE = GameEngine(
    game_id=GAME_ID,
    version="1",
    new_game=new_game,
    greedy_policy=ClashGreedyPolicy,
    missing_stats=missing_stats,
    opening_hand=opening_hand,
    draws_on_turn=draws_on_turn,
)

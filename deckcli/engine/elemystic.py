"""Elemystic as a full two-player game (rulebook: shared/rulebooks/elemystic.txt).

Elemystic has no deck building: a game uses the nine Element Cards (the EngineDeck's
``elements`` section; an optional ``tokens`` section supplies the Air Token's numbers).
Every stat comes from the card data (``card_db/elemystic.json``), never from this file,
so new data changes results. The numbers an ability prints in its text (Water's "set
Water's Invocation Strength to 5") are read from that text too.

Seats are 0 (P1) and 1 (P2). Chance events (the round shuffle, Chaos's shuffle, the
random starting player) use only the ``random.Random`` the game is given, so a game is
replayed by applying ``state.log`` to a fresh state with the same elements and seed.
Every decision is an action: draft picks (:class:`Draft`), plays with the front/back
choice (:class:`Play`), the Air Token's stat (:class:`PlaceAirToken`) and Shadow's
timing and target (:class:`ShadowSwap`). Policies see only :meth:`ElemysticState.observation`.

Rules as implemented, with the readings chosen where the rulebook is silent or ambiguous:

* GAME SETUP: both players start at 10 Energy; a random player (the game's rng) gets both
  the Draft First and Play First arrows (``first_player=`` fixes it for tests).
  ``GameOptions.on_the_draw`` is ignored (seats do not go first or second in this game);
  ``GameOptions.max_turns`` is the round cap: a game still running after that many rounds
  ends as a draw, reason "round cap" (the rulebook has no cap; a cap keeps simulations finite).
* ROUND SETUP: shuffle the nine elements; deal order is card 0 = the Unknown Element,
  card 1 = P1's secret, card 2 = P2's secret, cards 3-8 = the face-up drafting pool
  (``deal_orders=`` stacks these for tests).
* PHASE 1 DRAFT: Draft First takes 2, the other 2, Draft First 1, the other the last one
  (the last pick is an action with one legal choice).
* PHASE 2 PLAY: Play First plays first, then alternate until each has played three. The
  first card of a column is its front; the 2nd and 3rd go to the front or the back. The
  unplayed fourth card stays in hand (a secret one stays hidden).
* STORM (REFERENCE GUIDE): triggers whenever a play makes Storm the front of its column
  (including as the first card, which *is* the front). The opponent's next element play
  this round must go to the front; if the opponent has no element left to play this round
  (or it is their first card, which is the front anyway), it has no effect. Storm does
  nothing when it attacks, and nothing when Chaos reveals it (no element is left to play).
* PHASE 3, speed: the order is fixed when the phase starts from the two front elements'
  Speed; a Thunder Token or Chaos later in the phase does not change it ("you continue
  resolving your attack at Chaos's speed"). The rulebook gives no tie rule: on equal
  Speed the player with the Play First arrow attacks first (the bundled speeds are all
  distinct, so this only matters for other data).
* Visible values (RESOLVE ATTACKS steps 2-3 and TOKENS): total Strength = the front
  element's Strength and Invocation Strength + the Strength of every other element in
  the column (+2, the Air Token's data, if the Air Token was placed as Strength); total
  Defense likewise (+3 for an Air Token placed as Defense). The Air Token counts only
  the stat chosen when it was placed. A Thunder Token covers the front element's bottom
  half: its Invocation Strength, Invocation Defense and ability no longer count, but its
  top half (Strength, Defense) still does. Light, Shadow and Thunder Tokens add no numbers.
* ABILITY TIMING: the front element's ability resolves as step 1 of its owner's attack
  (Storm excepted), so an ability whose owner is defeated before attacking never resolves.
* FIRE: sets the Invocation Strength of the element then at the front of the opponent's
  column to 0 (a per-card effect, as in the ATTACKS EXAMPLE "setting Light's Invocation
  Strength to 0"); if Fire attacks second it still applies, which only changes the
  end-of-round Strength that decides Play First.
* WATER: checks Energy when its ability resolves (after a faster attack has landed);
  fewer Energy than the opponent sets Water's Invocation Strength to the number printed
  in its text; equal or more Energy does nothing. "Set" effects apply in the order they
  resolve, so a Water resolving after a Fire that zeroed it is set to 5 again.
* SHADOW: one decision at step 1 of Shadow's attack: timing ("before" or "after" the
  attack) and target column (either player). The swap exchanges that column's total
  Strength and total Defense for the rest of the round (the Shadow Token stays next to
  it): "before" affects this attack and any later one; "after" affects only an attack
  still to come and the end-of-round Strength. The swap is mandatory ("swap one
  player's"). A second swap of the same column swaps back.
* CHAOS: the player's three played elements (not tokens) and the Unknown Element are
  shuffled with the game's rng; the first becomes the front of the new four-element
  column, the other three its top halves. The new front's ability resolves (unless it is
  Chaos) as part of this step. Tokens stay: an Air Token stays at the back and a Shadow
  swap already on the column stays; per-card effects (Fire's 0) stay with their card.
  The Unknown Element becomes public.
* LIGHTNING: the ability is mandatory: if its owner's Thunder Token is unused it is
  played to the front of the opponent's column and becomes used; if it was used in an
  earlier round the ability does nothing (its stats still count).
* THUNDER TOKEN ("flip this Token over and return it to your opponent", read from the
  token's side of the table): at the end of the round the token leaves the column and goes
  back, flipped, to the player who played it, as the reminder that their Thunder Token is
  spent. So it affects only the round it was played in, and each player can shut off an
  invocation at most once per game.
* LIGHT: its owner takes the Light Token and sees the opponent's secret element from now
  until the end of the next round's Play Elements Phase (the Air Token's fourth turn is
  part of that phase). For policies this is information only: the observation of the
  Light player includes the opponent's secret (and, by elimination, the Unknown Element).
* AIR: resolving Air's ability gives its owner the Air Token next round: after both
  players have played three elements (the Play First player first, should both have one),
  they place it at the back as +Strength or +Defense (a :class:`PlaceAirToken` choice).
* END OF ROUND: Draft First rotates. Play First goes to the player with the higher total
  Strength at the end of the round (after every swap, Fire and Thunder effect); on a tie
  no player has the highest, so the arrow stays where it is. Thunder, Shadow and Fire/
  Water effects end; the Light Token stays until its phase ends; elements are reshuffled.
* WINNING: a player whose Energy drops to 0 or less loses at once; the other attack does
  not happen.

:class:`GreedyPolicy` documents its heuristic. :data:`ENGINE` registers the game.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
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
    RandomPolicy,
)
from deckcli.engine.keywords import KeywordRegistry

GAME_ID = "elemystic"
VERSION = "1"
STARTING_ENERGY = 10
ELEMENT_STATS = ("strength", "defense", "invocation_strength", "invocation_defense", "speed")
ELEMENT_COUNT = 9

# Phases (small strings keep logs and observations readable).
DRAFT = "draft"
PLAY = "play"
AIR = "air"
SHADOW = "shadow"
OVER = "over"

# Air Token placements.
AIR_NONE = 0
AIR_STRENGTH = 1
AIR_DEFENSE = 2


def seat_name(seat: int) -> str:
    """``P1`` for seat 0, ``P2`` for seat 1."""
    return f"P{seat + 1}"


# -- actions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Draft(Action):
    """Take ``element`` from the drafting pool (Phase 1)."""

    player: int
    element: str

    def describe(self) -> str:
        return f"{seat_name(self.player)} drafts {self.element}"


@dataclass(frozen=True)
class Play(Action):
    """Play ``element`` from hand to the front (or back) of the column (Phase 2)."""

    player: int
    element: str
    front: bool

    def describe(self) -> str:
        return f"{seat_name(self.player)} plays {self.element} to the {'front' if self.front else 'back'}"


@dataclass(frozen=True)
class PlaceAirToken(Action):
    """The Air Token's fourth turn: place it at the back as +Strength or +Defense."""

    player: int
    stat: str  # "strength" | "defense"

    def describe(self) -> str:
        return f"{seat_name(self.player)} places the Air Token as {self.stat}"


@dataclass(frozen=True)
class ShadowSwap(Action):
    """Shadow's ability: swap ``target``'s total Strength and Defense before or after attacking."""

    player: int
    after: bool
    target: int

    def describe(self) -> str:
        when = "after" if self.after else "before"
        return f"{seat_name(self.player)} swaps {seat_name(self.target)}'s column {when} attacking"


# -- abilities ------------------------------------------------------------------------------


class Ability:
    """What an element does from the front of a column. Subclasses register by element name.

    ``on_attack`` runs as step 1 of its owner's attack (it may set ``combat.pending`` to
    ask for a decision or a chance event); ``on_play_front`` runs when the element is played
    to the front; ``front_bonus`` is the greedy policy's rough worth of the ability (in
    Energy) when drafting; ``configure`` reads per-card numbers from the card data.
    """

    name: ClassVar[str] = "none"

    def configure(self, card: EngineCard) -> Any:
        """Numbers this ability reads from the card's data (None if none)."""
        return None

    def on_play_front(self, state: ElemysticState, player: int) -> None:
        """An immediate effect when played to the front (Storm)."""

    def on_attack(self, combat: Combat, player: int, card: int) -> None:
        """The ability, resolved at the start of ``player``'s attack."""

    def front_bonus(self, obs: Observation, card: int) -> float:
        """Heuristic Energy worth of this ability in front, for drafting."""
        return 0.0


class AbilityRegistry(KeywordRegistry):
    """Element name (lower case) -> :class:`Ability` (a keyword registry keyed by element)."""

    def handler(self, name: str) -> Ability:
        """The ability of the element ``name`` (no ability if none is registered)."""
        found = self._handlers.get(name.lower())
        return found if isinstance(found, Ability) else NO_ABILITY


NO_ABILITY = Ability()
ABILITIES = AbilityRegistry(GAME_ID)

#: heuristic Energy values the greedy policy gives to lasting effects
AIR_TOKEN_VALUE = 2.5
LIGHT_VALUE = 0.4
THUNDER_COST = 1.0
SHADOW_VALUE = 2.0
STORM_VALUE = 0.5
WIN_VALUE = 100.0


@ABILITIES.register("earth")
class EarthAbility(Ability):
    """EARTH: a strong invocation with no ability."""

    name = "earth"


@ABILITIES.register("light")
class LightAbility(Ability):
    """LIGHT: take the Light Token; the opponent's secret is revealed until the end of the next Play phase."""

    name = "light"

    def on_attack(self, combat: Combat, player: int, card: int) -> None:
        combat.light[player] = True

    def front_bonus(self, obs: Observation, card: int) -> float:
        return LIGHT_VALUE


@ABILITIES.register("air")
class AirAbility(Ability):
    """AIR: next round its owner places the Air Token at the back (+Strength or +Defense)."""

    name = "air"

    def on_attack(self, combat: Combat, player: int, card: int) -> None:
        combat.air_next[player] = True

    def front_bonus(self, obs: Observation, card: int) -> float:
        return AIR_TOKEN_VALUE


@ABILITIES.register("storm")
class StormAbility(Ability):
    """STORM (immediate): played to the front, the opponent's next element must go to the front."""

    name = "storm"

    def on_play_front(self, state: ElemysticState, player: int) -> None:
        opponent = 1 - player
        if 0 < state.plays[opponent] < 3:
            state.forced[opponent] = True

    def front_bonus(self, obs: Observation, card: int) -> float:
        return STORM_VALUE


@ABILITIES.register("water")
class WaterAbility(Ability):
    """WATER: with less Energy than the opponent, its Invocation Strength becomes the printed number."""

    name = "water"
    _NUMBER = re.compile(r"invocation strength to (\d+)", re.IGNORECASE)

    def configure(self, card: EngineCard) -> Any:
        match = self._NUMBER.search(str(card.data.get("text") or ""))
        return int(match.group(1)) if match else 5

    def on_attack(self, combat: Combat, player: int, card: int) -> None:
        if combat.energy[player] < combat.energy[1 - player]:
            combat.inv_str[card] = combat.el.params[card]

    def front_bonus(self, obs: Observation, card: int) -> float:
        me = obs.player
        if obs.energy[me] < obs.energy[1 - me]:
            return max(0.0, float(obs.elements.params[card] - obs.elements.inv_strength[card]))
        return 0.0


@ABILITIES.register("fire")
class FireAbility(Ability):
    """FIRE: the opponent's front element's Invocation Strength becomes 0."""

    name = "fire"

    def on_attack(self, combat: Combat, player: int, card: int) -> None:
        combat.inv_str[combat.front[1 - player]] = 0

    def front_bonus(self, obs: Observation, card: int) -> float:
        el = obs.elements
        others = [c for c in range(el.count) if c != card]
        return el.faster_share(card) * sum(el.inv_strength[c] for c in others) / len(others)


@ABILITIES.register("shadow")
class ShadowAbility(Ability):
    """SHADOW: before or after attacking, swap one column's total Strength and total Defense."""

    name = "shadow"

    def on_attack(self, combat: Combat, player: int, card: int) -> None:
        combat.pending = (SHADOW, player)

    def front_bonus(self, obs: Observation, card: int) -> float:
        return SHADOW_VALUE


@ABILITIES.register("chaos")
class ChaosAbility(Ability):
    """CHAOS: shuffle the played elements with the Unknown Element; a random one becomes the new front."""

    name = "chaos"

    def on_attack(self, combat: Combat, player: int, card: int) -> None:
        combat.pending = ("chaos", player)

    def front_bonus(self, obs: Observation, card: int) -> float:
        # The new column gains a fourth top half and a random invocation instead of Chaos's.
        el = obs.elements
        others = [c for c in range(el.count) if c != card]
        top = sum(el.strength[c] + el.defense[c] for c in others) / len(others)
        bottom = sum(el.inv_strength[c] + el.inv_defense[c] for c in others) / len(others)
        return top + bottom - el.inv_strength[card] - el.inv_defense[card]


@ABILITIES.register("lightning")
class LightningAbility(Ability):
    """LIGHTNING: play your unused Thunder Token on the opponent's front, shutting off its invocation."""

    name = "lightning"

    def on_attack(self, combat: Combat, player: int, card: int) -> None:
        if not combat.thunder_used[player]:
            combat.thunder_used[player] = True
            combat.thunder_fired[player] = True
            combat.thunder_on[1 - player] = True

    def front_bonus(self, obs: Observation, card: int) -> float:
        if obs.thunder_used[obs.player]:
            return 0.0
        el = obs.elements
        others = [c for c in range(el.count) if c != card]
        return sum(el.inv_strength[c] + el.inv_defense[c] for c in others) / len(others) - THUNDER_COST


# -- the element table ----------------------------------------------------------------------


def missing_stats(card: EngineCard) -> list[str]:
    """The stats an element needs but ``card`` lacks (tokens need none)."""
    if card.type != "element":
        return []
    return [key for key in ELEMENT_STATS if card.data.get(key) is None]


@dataclass(frozen=True, eq=False)
class Elements:
    """The nine elements' stats and abilities, indexed 0-8 in deck order (precomputed once)."""

    names: tuple[str, ...]
    strength: tuple[int, ...]
    defense: tuple[int, ...]
    inv_strength: tuple[int, ...]
    inv_defense: tuple[int, ...]
    speed: tuple[int, ...]
    abilities: tuple[Ability, ...]
    params: tuple[Any, ...]
    index: dict[str, int]
    air_strength: int = 2
    air_defense: int = 3
    #: elements whose data is marked provisional
    provisional: tuple[str, ...] = ()

    @property
    def count(self) -> int:
        return len(self.names)

    @classmethod
    def from_deck(cls, deck: EngineDeck) -> Elements:
        """The table of ``deck``'s ``elements`` section (and Air Token from ``tokens``, if any)."""
        cards = deck.section("elements")
        names = [c.name for c in cards]
        if len(cards) != ELEMENT_COUNT or len(set(names)) != ELEMENT_COUNT:
            raise EngineError(
                f"{deck.name}: Elemystic needs the nine distinct Element Cards, got {len(cards)} ({', '.join(names)})",
                hint="use card_db/decks/elemystic-sample.txt or every element of the card store",
            )
        missing = [f"{c.name} ({', '.join(m)})" for c in cards if (m := missing_stats(c))]
        if missing:
            raise EngineError(f"{deck.name}: elements lack stats: {'; '.join(missing)}")
        abilities = tuple(ABILITIES.handler(c.name) for c in cards)
        air_strength, air_defense = 2, 3  # the rulebook's "+2 Strength or +3 Defense"
        for token in deck.section("tokens"):
            if token.name.lower() == "air token":
                air_strength = int(token.stat("strength", air_strength))
                air_defense = int(token.stat("defense", air_defense))
        return cls(
            names=tuple(names),
            strength=tuple(int(c.data["strength"]) for c in cards),
            defense=tuple(int(c.data["defense"]) for c in cards),
            inv_strength=tuple(int(c.data["invocation_strength"]) for c in cards),
            inv_defense=tuple(int(c.data["invocation_defense"]) for c in cards),
            speed=tuple(int(c.data["speed"]) for c in cards),
            abilities=abilities,
            params=tuple(a.configure(c) for a, c in zip(abilities, cards, strict=True)),
            index={n: i for i, n in enumerate(names)},
            air_strength=air_strength,
            air_defense=air_defense,
            provisional=tuple(c.name for c in cards if c.data.get("provisional")),
        )

    def faster_share(self, card: int) -> float:
        """The share of the other elements ``card`` is faster than (ties count half)."""
        mine = self.speed[card]
        others = [self.speed[c] for c in range(self.count) if c != card]
        return sum(1.0 if s < mine else 0.5 if s == mine else 0.0 for s in others) / len(others)

    def ability_name(self, card: int) -> str:
        return self.abilities[card].name


# -- combat (Phase 3) -----------------------------------------------------------------------


class Combat:
    """The Resolve Attacks phase of one round, as a small copyable step machine.

    The game state runs it and answers its ``pending`` requests (a Shadow decision from
    a policy, a Chaos shuffle from the rng); the greedy policy runs copies of it to look
    ahead, answering Chaos with every possible outcome. ``run`` resolves until the phase is
    over (``done``) or a request is pending.
    """

    __slots__ = (
        "air",
        "air_next",
        "damage",
        "el",
        "energy",
        "front",
        "idx",
        "inv_str",
        "light",
        "order",
        "pending",
        "rest",
        "shadow_after",
        "shadow_target",
        "stage",
        "swapped",
        "thunder_fired",
        "thunder_on",
        "thunder_used",
        "unknown_revealed",
        "winner",
    )

    def __init__(
        self,
        el: Elements,
        front: Sequence[int],
        rest: Sequence[tuple[int, ...]],
        air: Sequence[int],
        energy: Sequence[int],
        thunder_used: Sequence[bool],
        play_first: int,
    ) -> None:
        self.el = el
        self.front = list(front)
        self.rest = list(rest)
        self.air = list(air)
        self.energy = list(energy)
        self.thunder_used = list(thunder_used)
        self.thunder_on = [False, False]
        self.thunder_fired = [False, False]
        self.swapped = [False, False]
        self.inv_str = [-1] * el.count  # per-card Invocation Strength overrides (-1 = printed)
        self.light = [False, False]
        self.air_next = [False, False]
        self.damage = [0, 0]
        self.shadow_after = -1
        self.shadow_target = -1
        self.unknown_revealed = False
        self.winner = -1
        self.pending: tuple[str, int] | None = None
        s0, s1 = el.speed[front[0]], el.speed[front[1]]
        first = 0 if s0 > s1 else 1 if s1 > s0 else play_first
        self.order = (first, 1 - first)
        self.idx = 0
        self.stage = 0

    def copy(self) -> Combat:
        """An independent copy (for look-ahead)."""
        new = Combat.__new__(Combat)
        new.el = self.el
        new.front = self.front[:]
        new.rest = self.rest[:]
        new.air = self.air[:]
        new.energy = self.energy[:]
        new.thunder_used = self.thunder_used[:]
        new.thunder_on = self.thunder_on[:]
        new.thunder_fired = self.thunder_fired[:]
        new.swapped = self.swapped[:]
        new.inv_str = self.inv_str[:]
        new.light = self.light[:]
        new.air_next = self.air_next[:]
        new.damage = self.damage[:]
        new.shadow_after = self.shadow_after
        new.shadow_target = self.shadow_target
        new.unknown_revealed = self.unknown_revealed
        new.winner = self.winner
        new.pending = self.pending
        new.order = self.order
        new.idx = self.idx
        new.stage = self.stage
        return new

    @property
    def done(self) -> bool:
        return self.pending is None and self.idx >= 2

    # visible values
    def invocation_strength(self, player: int) -> int:
        """The front element's Invocation Strength as it counts now (0 under a Thunder Token)."""
        if self.thunder_on[player]:
            return 0
        card = self.front[player]
        value = self.inv_str[card]
        return self.el.inv_strength[card] if value < 0 else value

    def invocation_defense(self, player: int) -> int:
        """The front element's Invocation Defense as it counts now (0 under a Thunder Token)."""
        return 0 if self.thunder_on[player] else self.el.inv_defense[self.front[player]]

    def raw_strength(self, player: int) -> int:
        """The column's visible Strength values added up, before any Shadow swap."""
        el = self.el
        front = self.front[player]
        total = el.strength[front] + self.invocation_strength(player)
        for card in self.rest[player]:
            total += el.strength[card]
        if self.air[player] == AIR_STRENGTH:
            total += el.air_strength
        return total

    def raw_defense(self, player: int) -> int:
        """The column's visible Defense values added up, before any Shadow swap."""
        el = self.el
        front = self.front[player]
        total = el.defense[front] + self.invocation_defense(player)
        for card in self.rest[player]:
            total += el.defense[card]
        if self.air[player] == AIR_DEFENSE:
            total += el.air_defense
        return total

    def total_strength(self, player: int) -> int:
        """Total Strength (a Shadow swap makes it the raw Defense)."""
        return self.raw_defense(player) if self.swapped[player] else self.raw_strength(player)

    def total_defense(self, player: int) -> int:
        """Total Defense (a Shadow swap makes it the raw Strength)."""
        return self.raw_strength(player) if self.swapped[player] else self.raw_defense(player)

    # resolution
    def resolve_ability(self, player: int, card: int) -> None:
        """Resolve ``card``'s ability for ``player`` unless a Thunder Token covers their front."""
        if not self.thunder_on[player]:
            self.el.abilities[card].on_attack(self, player, card)

    def run(self) -> None:
        """Resolve attacks until the phase ends or a decision/chance event is pending."""
        while self.pending is None and self.idx < 2:
            attacker = self.order[self.idx]
            if self.stage == 0:
                self.stage = 1
                self.resolve_ability(attacker, self.front[attacker])
                continue
            defender = 1 - attacker
            damage = self.total_strength(attacker) - self.total_defense(defender)
            if damage > 0:
                self.damage[attacker] += damage
                self.energy[defender] -= damage
            if self.energy[defender] <= 0:
                self.winner = attacker
                self.idx = 2
                return
            if self.shadow_after >= 0:
                self.swapped[self.shadow_after] = not self.swapped[self.shadow_after]
                self.shadow_after = -1
            self.idx += 1
            self.stage = 0

    def choose_shadow(self, after: bool, target: int) -> None:
        """Answer a pending Shadow decision."""
        self.pending = None
        self.shadow_target = target
        if after:
            self.shadow_after = target
        else:
            self.swapped[target] = not self.swapped[target]

    def chaos_cards(self, player: int) -> list[int]:
        """The elements (not tokens) of ``player``'s column, front first."""
        return [self.front[player], *self.rest[player]]

    def reveal_chaos(self, player: int, front: int, others: Iterable[int]) -> None:
        """Answer a pending Chaos shuffle: ``front`` leads the new four-element column."""
        self.pending = None
        self.front[player] = front
        self.rest[player] = tuple(others)
        self.unknown_revealed = True
        if self.el.abilities[front].name != "chaos":
            self.resolve_ability(player, front)


# -- observations ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Observation:
    """What one player may see: their own cards, everything face up, and what Light reveals."""

    player: int
    phase: str
    round: int
    elements: Elements
    energy: tuple[int, int]
    draft_first: int
    play_first: int
    thunder_used: tuple[bool, bool]
    air_pending: tuple[bool, bool]
    air_placed: tuple[int, int]
    pool: tuple[int, ...]
    #: own unplayed cards (the secret included)
    hand: tuple[int, ...]
    secret: int
    #: the opponent's unplayed cards this player can see
    opp_open: tuple[int, ...]
    #: how many of the opponent's unplayed cards this player cannot see (0 or 1)
    opp_hidden: int
    #: the opponent's secret element, when Light reveals it (else -1)
    opp_secret: int
    front: tuple[int, int]
    columns: tuple[tuple[int, ...], tuple[int, ...]]
    plays: tuple[int, int]
    forced: tuple[bool, bool]
    #: cards whose place this player cannot see: the opponent's secret (if hidden) and the Unknown Element
    unseen: tuple[int, ...]
    light_active: bool
    #: the Resolve Attacks phase in progress (public), or None
    combat: Combat | None


# -- the game state -------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundRecord:
    """How one round's attacks went (for statistics and display)."""

    round: int
    #: the elements each seat played to the front (what a Chaos column became is in ``final_fronts``)
    fronts: tuple[str, str]
    final_fronts: tuple[str, str]
    first_attacker: int
    #: Energy each seat's attack took from the opponent
    damage: tuple[int, int]
    energy: tuple[int, int]
    #: total Strength and total Defense of each column at the end of the round
    strength: tuple[int, int]
    defense: tuple[int, int]
    #: the seat that won the game this round, or -1
    winner: int


class ElemysticState(GameState):
    """A whole two-player game of Elemystic. ``to_act`` is the seat that decides next."""

    game_id = GAME_ID

    def __init__(
        self,
        elements: Elements,
        rng: random.Random,
        *,
        first_player: int | None = None,
        max_rounds: int = 20,
        deal_orders: Sequence[Sequence[str]] = (),
        chaos_orders: Sequence[Sequence[str]] = (),
    ) -> None:
        super().__init__(rng)
        self.el = elements
        self.max_rounds = max(1, max_rounds)
        self._deal_orders = [[elements.index[n] for n in order] for order in deal_orders]
        self._chaos_orders = [[elements.index[n] for n in order] for order in chaos_orders]
        start = rng.randrange(2) if first_player is None else first_player
        if start not in (0, 1):
            raise EngineError(f"first_player must be 0 or 1, not {start}")
        self.starting_player = start
        self.energy = [STARTING_ENERGY, STARTING_ENERGY]
        self.draft_first = start
        self.play_first = start
        self.round = 0
        self.thunder_used = [False, False]
        self.air_pending = [False, False]
        self.air_next = [False, False]
        self.air_placed = [AIR_NONE, AIR_NONE]
        self.light_until = [0, 0]
        self.rounds: list[RoundRecord] = []
        self.winner = -1
        self.reason = ""
        self.combat: Combat | None = None
        n = elements.count
        self._draft_actions = [[Draft(p, elements.names[c]) for c in range(n)] for p in (0, 1)]
        self._play_actions = [
            [(Play(p, elements.names[c], False), Play(p, elements.names[c], True)) for c in range(n)] for p in (0, 1)
        ]
        self._air_actions = [(PlaceAirToken(p, "strength"), PlaceAirToken(p, "defense")) for p in (0, 1)]
        self._shadow_actions = [
            tuple(ShadowSwap(p, after, target) for after in (False, True) for target in (p, 1 - p)) for p in (0, 1)
        ]
        self._start_round()

    # -- round flow -----------------------------------------------------------------------
    def _start_round(self) -> None:
        self.round += 1
        if self._deal_orders:
            order = self._deal_orders.pop(0)
        else:
            order = list(range(self.el.count))
            self.rng.shuffle(order)
        self.unknown = order[0]
        self.secret = [order[1], order[2]]
        self.pool = order[3:]
        self.hand: list[list[int]] = [[order[1]], [order[2]]]
        self.drafted: list[list[int]] = [[], []]
        self.front = [-1, -1]
        self.columns: list[list[int]] = [[], []]  # front first
        self.plays = [0, 0]
        self.forced = [False, False]
        self.air_placed = [AIR_NONE, AIR_NONE]
        self.combat = None
        self.phase = DRAFT
        self.step = 0
        d = self.draft_first
        self._draft_order = (d, d, 1 - d, 1 - d, d, 1 - d)
        p = self.play_first
        self._play_order = (p, 1 - p, p, 1 - p, p, 1 - p)
        self.to_act = d

    def _end_play_phase(self) -> None:
        pending = [p for p in (self.play_first, 1 - self.play_first) if self.air_pending[p]]
        if pending:
            self.phase = AIR
            self.to_act = pending[0]
            return
        self._start_attacks()

    def _start_attacks(self) -> None:
        rest = [tuple(col[1:]) for col in self.columns]
        self.combat = Combat(
            self.el, self.front, rest, self.air_placed, self.energy, self.thunder_used, self.play_first
        )
        self._played_fronts = (self.front[0], self.front[1])
        self._continue_attacks()

    def _continue_attacks(self) -> None:
        combat = self.combat
        assert combat is not None
        while True:
            combat.run()
            pending = combat.pending
            if pending is None:
                break
            kind, player = pending
            if kind == SHADOW:
                self.phase = SHADOW
                self.to_act = player
                return
            cards = [*combat.chaos_cards(player), self.unknown]
            if self._chaos_orders:
                stacked = self._chaos_orders.pop(0)
                if sorted(stacked) != sorted(cards):
                    raise EngineError("stacked Chaos order does not match the cards being shuffled")
                cards = stacked
            else:
                self.rng.shuffle(cards)
            combat.reveal_chaos(player, cards[0], cards[1:])
        self._end_round()

    def _end_round(self) -> None:
        combat = self.combat
        assert combat is not None
        self.energy = combat.energy[:]
        self.thunder_used = combat.thunder_used[:]
        for p in (0, 1):
            if combat.light[p]:
                self.light_until[p] = self.round + 1
        strength = (combat.total_strength(0), combat.total_strength(1))
        names = self.el.names
        self.rounds.append(
            RoundRecord(
                round=self.round,
                fronts=(names[self._played_fronts[0]], names[self._played_fronts[1]]),
                final_fronts=(names[combat.front[0]], names[combat.front[1]]),
                first_attacker=combat.order[0],
                damage=(combat.damage[0], combat.damage[1]),
                energy=(combat.energy[0], combat.energy[1]),
                strength=strength,
                defense=(combat.total_defense(0), combat.total_defense(1)),
                winner=combat.winner,
            )
        )
        if combat.winner >= 0:
            self.winner = combat.winner
            self.reason = f"{seat_name(1 - combat.winner)} at 0 Energy"
            self.phase = OVER
            return
        # END OF ROUND: Draft First rotates; Play First to the strictly higher total Strength.
        self.draft_first = 1 - self.draft_first
        if strength[0] != strength[1]:
            self.play_first = 0 if strength[0] > strength[1] else 1
        self.air_pending = combat.air_next[:]
        if self.round >= self.max_rounds:
            self.phase = OVER
            self.reason = "round cap"
            return
        self._start_round()

    # -- GameState interface ----------------------------------------------------------------
    def legal_actions(self) -> Sequence[Action]:
        phase = self.phase
        p = self.to_act
        if phase == DRAFT:
            row = self._draft_actions[p]
            return [row[c] for c in self.pool]
        if phase == PLAY:
            plays = self._play_actions[p]
            if not self.columns[p] or self.forced[p]:
                return [plays[c][1] for c in self.hand[p]]
            return [a for c in self.hand[p] for a in plays[c]]
        if phase == AIR:
            return list(self._air_actions[p])
        if phase == SHADOW:
            return list(self._shadow_actions[p])
        return []

    def _apply(self, action: Action) -> None:
        if isinstance(action, Draft):
            card = self.el.index[action.element]
            self.pool.remove(card)
            self.hand[action.player].append(card)
            self.drafted[action.player].append(card)
            self.step += 1
            if self.step < 6:
                self.to_act = self._draft_order[self.step]
            else:
                self.phase = PLAY
                self.step = 0
                self.to_act = self._play_order[0]
        elif isinstance(action, Play):
            self._play(action.player, self.el.index[action.element], action.front)
        elif isinstance(action, PlaceAirToken):
            p = action.player
            self.air_placed[p] = AIR_STRENGTH if action.stat == "strength" else AIR_DEFENSE
            self.air_pending[p] = False
            self._end_play_phase()
        elif isinstance(action, ShadowSwap):
            assert self.combat is not None
            self.combat.choose_shadow(action.after, action.target)
            self._continue_attacks()
        else:  # pragma: no cover - verify_apply rejects foreign actions first
            raise EngineError(f"not an Elemystic action: {action!r}")

    def _play(self, player: int, card: int, to_front: bool) -> None:
        self.hand[player].remove(card)
        column = self.columns[player]
        if not column or to_front:
            column.insert(0, card)
            self.front[player] = card
        else:
            column.append(card)
        self.plays[player] += 1
        self.forced[player] = False
        if column[0] == card:
            self.el.abilities[card].on_play_front(self, player)
        self.step += 1
        if self.step < 6:
            self.to_act = self._play_order[self.step]
        else:
            self._end_play_phase()

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> GameOutcome:
        """The result from P1's (seat 0's) point of view; ``win_turn`` counts rounds."""
        if not self.is_terminal():
            raise EngineError("the game is not over")
        won = self.winner == 0
        return GameOutcome(
            won=won,
            win_turn=self.round if won else None,
            mulligans=0,
            stalled=False,
            turns=self.round,
            reason=self.reason,
        )

    # -- what a player may see --------------------------------------------------------------
    def light_active(self, player: int) -> bool:
        """True while ``player``'s Light reveals the opponent's secret element."""
        if self.combat is not None and self.combat.light[player]:
            return True
        until = self.light_until[player]
        return until > self.round or (until == self.round and self.phase in (DRAFT, PLAY, AIR))

    def observation(self, player: int) -> Observation:
        """What ``player`` may see now (never the opponent's hidden secret nor the Unknown Element)."""
        opp = 1 - player
        light = self.light_active(player)
        opp_secret = self.secret[opp]
        secret_seen = light or opp_secret in self.columns[opp]
        combat = self.combat
        visible = set(self.pool)
        visible.update(self.hand[player], self.columns[player], self.drafted[opp], self.columns[opp])
        if secret_seen:
            visible.add(opp_secret)
        if combat is not None and combat.unknown_revealed:
            visible.add(self.unknown)
        unseen = tuple(c for c in range(self.el.count) if c not in visible)
        opp_open = tuple(c for c in self.hand[opp] if c != opp_secret or secret_seen)
        return Observation(
            player=player,
            phase=self.phase,
            round=self.round,
            elements=self.el,
            energy=(self.energy[0], self.energy[1]),
            draft_first=self.draft_first,
            play_first=self.play_first,
            thunder_used=(self.thunder_used[0], self.thunder_used[1]),
            air_pending=(self.air_pending[0], self.air_pending[1]),
            air_placed=(self.air_placed[0], self.air_placed[1]),
            pool=tuple(self.pool),
            hand=tuple(self.hand[player]),
            secret=self.secret[player],
            opp_open=opp_open,
            opp_hidden=len(self.hand[opp]) - len(opp_open),
            opp_secret=opp_secret if light else -1,
            front=(self.front[0], self.front[1]),
            columns=(tuple(self.columns[0]), tuple(self.columns[1])),
            plays=(self.plays[0], self.plays[1]),
            forced=(self.forced[0], self.forced[1]),
            unseen=unseen,
            light_active=light,
            combat=combat if self.phase == SHADOW else None,
        )

    def snapshot(self) -> tuple[Any, ...]:
        """The facts of the game so far, for comparing replays."""
        return (
            self.phase,
            self.round,
            tuple(self.energy),
            self.winner,
            self.reason,
            tuple(self.rounds),
            self.draft_first,
            self.play_first,
            tuple(self.thunder_used),
            tuple(map(tuple, self.columns)),
        )


# -- the greedy policy ----------------------------------------------------------------------


def _completions(
    front: int, column: Sequence[int], hand: Sequence[int], plays_left: int, forced: bool
) -> list[tuple[int, tuple[int, ...]]]:
    """Every final column (front, the other elements) reachable from a partial column."""
    if plays_left <= 0:
        return [(front, tuple(c for c in column if c != front))]
    found: dict[tuple[int, tuple[int, ...]], None] = {}
    for chosen in combinations(sorted(hand), min(plays_left, len(hand))):
        cards = [*column, *chosen]
        fronts = list(chosen) if front < 0 or forced else [*chosen, front]
        for f in fronts:
            found[(f, tuple(sorted(c for c in cards if c != f)))] = None
    return list(found)


class GreedyPolicy:
    """A one-round look-ahead player that sees only its own :class:`Observation`.

    * Draft: picks the element that most raises its *hand value* (the best column its
      known cards could make: front element's four numbers plus the ability's rough worth
      from :meth:`Ability.front_bonus`, plus the Strength and Defense of the two best other
      cards), plus half of what the card would add to the opponent's known hand (denial).
      Total Strength plus total Defense is what a column trades: damage dealt minus damage
      taken is (own Strength - their Defense) - (their Strength - own Defense).
    * Play: for each legal play it lists the final columns it could still reach, and for
      each the opponent's reachable final columns under every guess of their hidden card
      (the cards it cannot see, equally likely). A pair of columns is valued by resolving
      the round with the real :class:`Combat` rules: damage dealt minus damage taken,
      +/-100 for winning or losing the game, small values for lasting effects (Air Token
      next round +2.5, Light +0.4, spending the Thunder Token -1), Chaos averaged over
      its possible reveals, Shadow and the Air Token chosen best for their owner. The
      opponent's answer is taken as half worst case, half average (they may play well
      or not). The play with the best reachable value wins; ties go to the play whose
      columns are better on average (keeping options open), then to the first.
    * Air Token and Shadow: the choice with the best value of the resolved round.
    It never reads the opponent's hidden secret or the Unknown Element: only the
    observation (Light reveals the secret legitimately).
    """

    name = "greedy"
    #: weight of the opponent's best answer (the rest is their average answer)
    caution = 0.5

    def __init__(self) -> None:
        self._cache: dict[tuple[Any, ...], float] = {}
        self._context: tuple[Any, ...] = ()

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        """The chosen action among ``actions`` for the seat to act in ``state``."""
        if len(actions) == 1:
            return actions[0]
        assert isinstance(state, ElemysticState)
        obs = state.observation(state.to_act)
        first = actions[0]
        if isinstance(first, Draft):
            return self._draft(obs, actions)
        if isinstance(first, Play):
            return self._play(obs, actions)
        if isinstance(first, PlaceAirToken):
            return self._air(obs, actions)
        if isinstance(first, ShadowSwap):
            return self._shadow(obs, actions)
        return first

    # -- drafting ---------------------------------------------------------------------------
    @staticmethod
    def hand_value(obs: Observation, cards: Sequence[int]) -> float:
        """The best column ``cards`` could make, by Strength + Defense + ability worth."""
        if not cards:
            return 0.0
        el = obs.elements
        support = {c: el.strength[c] + el.defense[c] for c in cards}
        best = -1e9
        for f in cards:
            value = support[f] + el.inv_strength[f] + el.inv_defense[f] + el.abilities[f].front_bonus(obs, f)
            value += sum(sorted((support[c] for c in cards if c != f), reverse=True)[:2])
            best = max(best, value)
        return best

    def _draft(self, obs: Observation, actions: Sequence[Action]) -> Action:
        el = obs.elements
        mine = list(obs.hand)
        theirs = list(obs.opp_open)
        base_theirs = self.hand_value(obs, theirs)
        best_action, best = actions[0], -1e9
        for action in actions:
            assert isinstance(action, Draft)
            card = el.index[action.element]
            value = self.hand_value(obs, [*mine, card])
            value += 0.5 * (self.hand_value(obs, [*theirs, card]) - base_theirs)
            if value > best + 1e-9:
                best_action, best = action, value
        return best_action

    # -- evaluation -------------------------------------------------------------------------
    @staticmethod
    def _outcome_value(combat: Combat, me: int) -> float:
        opp = 1 - me
        if combat.winner == me:
            return WIN_VALUE + combat.energy[me]
        if combat.winner == opp:
            return -WIN_VALUE - combat.energy[opp]
        value = float(combat.damage[me] - combat.damage[opp])
        value += AIR_TOKEN_VALUE * (combat.air_next[me] - combat.air_next[opp])
        value += LIGHT_VALUE * (combat.light[me] - combat.light[opp])
        value -= THUNDER_COST * (combat.thunder_fired[me] - combat.thunder_fired[opp])
        return value

    def resolve_value(self, combat: Combat, me: int, unknown: Sequence[int]) -> float:
        """The value for ``me`` of resolving ``combat`` (a copy is changed), Chaos averaged."""
        combat.run()
        pending = combat.pending
        if pending is None:
            return self._outcome_value(combat, me)
        kind, player = pending
        if kind == SHADOW:
            values = []
            for after in (False, True):
                for target in (0, 1):
                    branch = combat.copy()
                    branch.choose_shadow(after, target)
                    values.append(self.resolve_value(branch, me, unknown))
            return max(values) if player == me else min(values)
        base = combat.chaos_cards(player)
        candidates = list(unknown) or [-1]
        total = 0.0
        count = 0
        for u in candidates:
            cards = base if u < 0 else [*base, u]
            for i, f in enumerate(cards):
                branch = combat.copy()
                branch.reveal_chaos(player, f, cards[:i] + cards[i + 1 :])
                total += self.resolve_value(branch, me, ())
                count += 1
        return total / count

    def _pair_value(
        self,
        obs: Observation,
        mine: tuple[int, tuple[int, ...]],
        theirs: tuple[int, tuple[int, ...]],
        unknown: tuple[int, ...],
    ) -> float:
        me = obs.player
        abilities = obs.elements.abilities
        if abilities[mine[0]].name != "chaos" and abilities[theirs[0]].name != "chaos":
            unknown = ()  # only a Chaos front ever looks at the Unknown Element
        key = (mine, theirs, unknown)
        found = self._cache.get(key)
        if found is not None:
            return found
        front = [0, 0]
        rest: list[tuple[int, ...]] = [(), ()]
        front[me], rest[me] = mine
        front[1 - me], rest[1 - me] = theirs
        airs = [
            [obs.air_placed[p]] if obs.air_placed[p] or not obs.air_pending[p] else [AIR_STRENGTH, AIR_DEFENSE]
            for p in (0, 1)
        ]
        best_by_owner: list[float] = []
        for a0 in airs[0]:
            row = []
            for a1 in airs[1]:
                combat = Combat(obs.elements, front, rest, (a0, a1), obs.energy, obs.thunder_used, obs.play_first)
                row.append(self.resolve_value(combat, me, unknown))
            best_by_owner.append(max(row) if me == 1 else min(row))
        value = max(best_by_owner) if me == 0 else min(best_by_owner)
        self._cache[key] = value
        return value

    def _set_context(self, obs: Observation) -> None:
        context = (
            id(obs.elements),
            obs.round,
            obs.energy,
            obs.thunder_used,
            obs.air_pending,
            obs.air_placed,
            obs.play_first,
            obs.player,
        )
        if context != self._context:
            self._context = context
            self._cache.clear()

    def _hypotheses(self, obs: Observation) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """(opponent's unplayed cards, Unknown Element candidates) for each guess of the hidden card."""
        if obs.opp_hidden == 0:
            return [(obs.opp_open, obs.unseen)]
        return [((*obs.opp_open, h), tuple(u for u in obs.unseen if u != h)) for h in obs.unseen]

    def _play(self, obs: Observation, actions: Sequence[Action]) -> Action:
        self._set_context(obs)
        el = obs.elements
        me, opp = obs.player, 1 - obs.player
        hypotheses = self._hypotheses(obs)
        opp_front, opp_column = obs.front[opp], obs.columns[opp]
        opp_left = 3 - obs.plays[opp]
        best_action, best_key = actions[0], (-1e18, -1e18)
        memo: dict[tuple[Any, ...], float] = {}
        answer_sets: dict[bool, list[tuple[list[tuple[int, tuple[int, ...]]], tuple[int, ...]]] | None] = {
            False: None,
            True: None,
        }
        for action in actions:
            assert isinstance(action, Play)
            card = el.index[action.element]
            column = list(obs.columns[me])
            hand = [c for c in obs.hand if c != card]
            new_front = card if action.front or not column else obs.front[me]
            column.append(card)
            forced_opp = obs.forced[opp] or (
                new_front == card and el.abilities[card].name == "storm" and 0 < obs.plays[opp] < 3
            )
            mine = _completions(new_front, column, hand, 2 - obs.plays[me], False)
            answers_of = answer_sets[forced_opp]
            if answers_of is None:
                answers_of = answer_sets[forced_opp] = [
                    (_completions(opp_front, opp_column, opp_hand, opp_left, forced_opp), unknown)
                    for opp_hand, unknown in hypotheses
                ]
            values = []
            for c in mine:
                memo_key = (c, forced_opp)
                value = memo.get(memo_key)
                if value is None:
                    total = 0.0
                    for answers, unknown in answers_of:
                        found = [self._pair_value(obs, c, o, unknown) for o in answers]
                        total += self.caution * min(found) + (1 - self.caution) * sum(found) / len(found)
                    value = memo[memo_key] = total / len(answers_of)
                values.append(value)
            key = (max(values), sum(values) / len(values))
            if key[0] > best_key[0] + 1e-9 or (abs(key[0] - best_key[0]) <= 1e-9 and key[1] > best_key[1] + 1e-9):
                best_action, best_key = action, key
        return best_action

    def _air(self, obs: Observation, actions: Sequence[Action]) -> Action:
        self._set_context(obs)
        me = obs.player
        rest = (tuple(obs.columns[0][1:]), tuple(obs.columns[1][1:]))
        best_action, best = actions[0], -1e18
        for action in actions:
            assert isinstance(action, PlaceAirToken)
            air = list(obs.air_placed)
            air[me] = AIR_STRENGTH if action.stat == "strength" else AIR_DEFENSE
            combat = Combat(obs.elements, obs.front, rest, air, obs.energy, obs.thunder_used, obs.play_first)
            value = self.resolve_value(combat, me, obs.unseen)
            if value > best + 1e-9:
                best_action, best = action, value
        return best_action

    def _shadow(self, obs: Observation, actions: Sequence[Action]) -> Action:
        assert obs.combat is not None
        me = obs.player
        best_action, best = actions[0], -1e18
        for action in actions:
            assert isinstance(action, ShadowSwap)
            combat = obs.combat.copy()
            combat.choose_shadow(action.after, action.target)
            value = self.resolve_value(combat, me, obs.unseen)
            if value > best + 1e-9:
                best_action, best = action, value
        return best_action


def random_policy(rng: random.Random) -> RandomPolicy:
    """The uniform random policy with its own injected rng."""
    return RandomPolicy(rng)


# -- registration ---------------------------------------------------------------------------


def new_game(
    deck: EngineDeck,
    rng: random.Random,
    options: GameOptions = GameOptions(),
    **kwargs: Any,
) -> ElemysticState:
    """A new game from ``deck``'s nine elements; ``options.max_turns`` is the round cap."""
    return ElemysticState(Elements.from_deck(deck), rng, max_rounds=options.max_turns, **kwargs)


ENGINE = GameEngine(
    game_id=GAME_ID,
    version=VERSION,
    new_game=new_game,
    greedy_policy=GreedyPolicy,
    missing_stats=missing_stats,
    # No library and no draws: each round's hand is one dealt secret plus three drafted cards.
    opening_hand=lambda deck: 0,
    draws_on_turn=lambda deck, turn, on_the_draw: 0,
    draw_section="elements",
)

"""Engine core: the game-state interface, action records, policies and outcomes.

Every game module implements :class:`GameState` (``legal_actions`` / ``apply`` /
``is_terminal``) and registers a :class:`GameEngine`. Actions are frozen dataclasses
(after pokerkit's operation records); the state keeps them in ``log`` in the order they
were applied, so a game is replayed by applying the log to a fresh state built from the
same deck and seed. Randomness comes only from the ``random.Random`` the state is given
(after OpenSpiel's bots): nothing here touches the global RNG.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

from deckcli.errors import DeckcliError


class EngineError(DeckcliError):
    """A deck or option the engine cannot run."""


class IllegalActionError(EngineError):
    """An action that is not legal in the current state."""


@dataclass(frozen=True)
class Action:
    """Base of every action record; each game subclasses it with frozen dataclasses."""

    def describe(self) -> str:
        """A short human description for logs."""
        fields = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__}({fields})"


_SHARED_ACTIONS: dict[tuple[Any, ...], Action] = {}


def shared_action(cls: type[Action], *args: Any) -> Action:
    """One shared instance per distinct action value (actions are immutable), so hot loops
    reuse action records instead of allocating new ones."""
    key = (cls, *args)
    found = _SHARED_ACTIONS.get(key)
    if found is None:
        found = _SHARED_ACTIONS[key] = cls(*args)
    return found


T = TypeVar("T")
_DECK_MEMO: dict[tuple[int, ...], tuple[tuple[object, ...], Any]] = {}


def per_deck(build: Callable[..., T], deck: EngineDeck, *extra: object) -> T:
    """``build(deck, *extra)``, computed once per deck (and extra objects) by identity.

    Engines precompute per-card facts this way so that thousands of games of one deck
    pay for them once. The memo keeps the deck alive, so an id is never reused while cached.
    """
    key = (id(build), id(deck), *map(id, extra))
    found = _DECK_MEMO.get(key)
    if found is not None and found[0][0] is deck and all(a is b for a, b in zip(found[0][1:], extra, strict=True)):
        return found[1]  # type: ignore[no-any-return]
    if len(_DECK_MEMO) > 256:
        _DECK_MEMO.clear()
    value = build(deck, *extra)
    _DECK_MEMO[key] = ((deck, *extra), value)
    return value


@dataclass(frozen=True)
class EngineCard:
    """A card as the engine sees it: name, type and the canonical fields."""

    name: str
    type: str
    data: Mapping[str, Any] = field(repr=False, compare=False, hash=False)

    def stat(self, key: str, default: Any = None) -> Any:
        """A field of the card, or ``default`` when absent or null."""
        value = self.data.get(key)
        return default if value is None else value


@dataclass(frozen=True)
class EngineDeck:
    """A deck ready to play: every section expanded to one entry per copy, in file order."""

    game: str
    name: str
    sections: Mapping[str, tuple[EngineCard, ...]]

    def section(self, section: str) -> tuple[EngineCard, ...]:
        """The cards of ``section`` (empty if absent)."""
        return self.sections.get(section, ())


@dataclass(frozen=True)
class GameOptions:
    """Options of one game."""

    #: play as the second player (the first player skips their first draw in most games)
    on_the_draw: bool = False
    #: stop a game after this many of the player's own turns
    max_turns: int = 20


@dataclass(frozen=True)
class GameOutcome:
    """How a finished game went, from the player's point of view."""

    won: bool
    #: the player's own turn (from 1) on which the game was won, or None
    win_turn: int | None
    #: number of mulligans taken
    mulligans: int
    #: the deck stalled: it went turns in a row without a useful action
    stalled: bool
    #: own turns played
    turns: int
    #: why the game ended ("opponent decked", "turn cap", "decked out", ...)
    reason: str


class GameState(ABC):
    """One game in progress. Subclasses implement the rules of one game."""

    game_id: ClassVar[str] = ""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        #: every action applied, in order (replayable from the same deck and seed)
        self.log: list[Action] = []

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """Every action the player to act may take now (never empty unless terminal)."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out a legal action (no legality check)."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abstractmethod
    def outcome(self) -> GameOutcome:
        """The result of a finished game."""

    def can_apply(self, action: Action) -> bool:
        """True when ``action`` is legal now."""
        return not self.is_terminal() and action in self.legal_actions()

    def verify_apply(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal now."""
        if self.is_terminal():
            raise IllegalActionError(f"the game is over; cannot {action.describe()}")
        if action not in self.legal_actions():
            raise IllegalActionError(f"illegal action {action.describe()}")

    def apply(self, action: Action) -> None:
        """Check and carry out ``action``, and record it in the log."""
        self.verify_apply(action)
        self._apply(action)
        self.log.append(action)


@runtime_checkable
class Policy(Protocol):
    """Chooses one of the legal actions."""

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        """The action to take in ``state`` among ``actions``."""
        ...


class RandomPolicy:
    """Picks uniformly among the legal actions with its own injected RNG."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        return actions[self.rng.randrange(len(actions))]


@dataclass(frozen=True)
class GameEngine:
    """A registered game module: how to start a game, its policy and its data needs."""

    game_id: str
    #: bumped whenever the module's rules or policy change results
    version: str
    #: (deck, rng, options) -> a new game in its first decision point
    new_game: Callable[[EngineDeck, random.Random, GameOptions], GameState]
    #: () -> the documented greedy goldfish policy
    greedy_policy: Callable[[], Policy]
    #: card -> the names of stats the engine needs but the card lacks
    missing_stats: Callable[[EngineCard], list[str]]
    #: deck -> cards in the opening hand (a Spellcaster may change it)
    opening_hand: Callable[[EngineDeck], int]
    #: (deck, own turn from 1, on the draw) -> cards drawn in that turn's draw step
    draws_on_turn: Callable[[EngineDeck, int, bool], int]
    #: the deck section the player draws from
    draw_section: str = "main"

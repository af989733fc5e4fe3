"""A small registry of keyword handlers, one registry per game.

Card effects are out of scope, but keywords the rulebooks define change how a goldfish
game goes (Pierce, Double Strike, Bloodthirst X, Quickattacker, ...). A game module
makes a :class:`KeywordRegistry`, registers one handler object per keyword, and asks
``registry.of(card)`` for the handlers of a card's keywords. What a handler offers
(hook methods such as ``on_attack``) is the game module's protocol; adding a keyword is
adding one registered class.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from deckcli.engine.base import EngineCard

_KEYWORD = re.compile(r"^\s*([A-Za-z][A-Za-z' -]*?)\s*(?:(\d+)|X)?\s*$")
T = TypeVar("T")


@dataclass(frozen=True)
class KeywordUse:
    """A keyword on a card: its handler and its number (``Bloodthirst 2`` -> 2; none -> 0)."""

    name: str
    value: int
    handler: Any


def parse_keyword(text: str) -> tuple[str, int]:
    """``("bloodthirst", 2)`` for ``"Bloodthirst 2"``; the number is 0 when absent."""
    match = _KEYWORD.match(text)
    if not match:
        return text.strip().lower(), 0
    return " ".join(match.group(1).lower().split()), int(match.group(2) or 0)


class KeywordRegistry:
    """Keyword name (lower case) -> handler object."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self._handlers: dict[str, Any] = {}
        self._cache: dict[str, tuple[KeywordUse, ...]] = {}

    def register(self, name: str) -> Callable[[type[T]], type[T]]:
        """Class decorator: register an instance of the class for keyword ``name``."""

        def decorate(cls: type[T]) -> type[T]:
            self._handlers[name.lower()] = cls()
            self._cache.clear()
            return cls

        return decorate

    def names(self) -> list[str]:
        """The registered keywords."""
        return sorted(self._handlers)

    def of(self, card: EngineCard) -> tuple[KeywordUse, ...]:
        """The registered keywords of ``card`` (memoised by card name)."""
        found = self._cache.get(card.name)
        if found is None:
            uses = []
            for raw in card.data.get("keywords") or ():
                name, value = parse_keyword(str(raw))
                handler = self._handlers.get(name)
                if handler is not None:
                    uses.append(KeywordUse(name, value, handler))
            found = tuple(uses)
            self._cache[card.name] = found
        return found

    def has(self, card: EngineCard, name: str) -> KeywordUse | None:
        """The use of keyword ``name`` on ``card``, if any."""
        return next((use for use in self.of(card) if use.name == name), None)

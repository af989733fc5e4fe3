"""A game's cards held in memory for validation and deck work.

Lookups by any spelling are cached, so validating thousands of decks resolves each
distinct spelling once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deckcli.cards.lookup import NameIndex
from deckcli.cards.names import normalize_name
from deckcli.cards.store import CardStore, StoredCard


@dataclass(slots=True, eq=False)
class PoolCard:
    """A card with the facts validation reads most, precomputed."""

    name: str
    type: str
    #: normal form of the name
    key: str
    #: normal form of the name this card counts as for copy limits (itself if none)
    counts_as_key: str
    counts_as: str
    data: dict[str, Any] = field(repr=False)
    flags: tuple[str, ...] = ()
    #: memo of derived values (see :meth:`values`)
    derived: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    def values(self, field_name: str) -> frozenset[str]:
        """The values of a list or scalar field as a set (memoised; for element checks)."""
        found = self.derived.get(field_name)
        if found is None:
            raw = self.data.get(field_name)
            found = frozenset(str(v) for v in raw) if isinstance(raw, list) else frozenset([str(raw)] if raw else ())
            self.derived[field_name] = found
        return found

    @classmethod
    def from_stored(cls, card: StoredCard) -> PoolCard:
        counts_as = card.counts_as or card.name
        flags = tuple(
            f
            for f, on in (("demo", card.demo), ("provisional", card.provisional), ("incomplete", card.incomplete))
            if on
        )
        return cls(
            card.name, card.type, normalize_name(card.name), normalize_name(counts_as), counts_as, card.data, flags
        )


class CardPool:
    """Every card of one game, by normalised name, with "did you mean"."""

    def __init__(self, game_id: str, cards: list[StoredCard]) -> None:
        self.game_id = game_id
        self._by_key: dict[str, PoolCard] = {}
        for stored in cards:
            card = PoolCard.from_stored(stored)
            self._by_key[card.key] = card
        self._cache: dict[str, PoolCard | None] = {}
        self._index: NameIndex | None = None
        self._suggestions: dict[str, list[str]] = {}

    @classmethod
    def load(cls, store: CardStore, game_id: str) -> CardPool:
        """The pool of ``game_id`` from ``store``."""
        return cls(game_id, store.cards(game_id))

    def __len__(self) -> int:
        return len(self._by_key)

    def cards(self) -> list[PoolCard]:
        """Every card, in name order."""
        return sorted(self._by_key.values(), key=lambda c: c.key)

    def find(self, name: str) -> PoolCard | None:
        """The card any spelling of ``name`` names, or None."""
        try:
            return self._cache[name]
        except KeyError:
            card = self._by_key.get(normalize_name(name))
            self._cache[name] = card
            return card

    @property
    def index(self) -> NameIndex:
        """The name index (built on first use)."""
        if self._index is None:
            self._index = NameIndex(self.game_id, ((c.key, c.name) for c in self._by_key.values()))
        return self._index

    def suggest(self, name: str) -> list[str]:
        """Up to three names the user may have meant (cached)."""
        if name not in self._suggestions:
            self._suggestions[name] = self.index.suggest(name)
        return self._suggestions[name]

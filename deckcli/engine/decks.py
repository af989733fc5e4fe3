"""Turning a validated decklist into an :class:`EngineDeck`, and finding cards the engine cannot play."""

from __future__ import annotations

from dataclasses import dataclass

from deckcli.cards.pool import CardPool
from deckcli.decks.model import Deck
from deckcli.engine.base import EngineCard, EngineDeck, EngineError, GameEngine
from deckcli.rules.formats import Format
from deckcli.rules.validate import map_sections


@dataclass(frozen=True)
class IncompleteCard:
    """A card the engine lacks stats for."""

    name: str
    missing: tuple[str, ...]
    provisional: bool


def engine_deck(deck: Deck, fmt: Format, pool: CardPool) -> EngineDeck:
    """The deck's sections (mapped to the format's ids) expanded to one card per copy.

    Raises EngineError naming every card the card store does not know.
    """
    mapping = map_sections(fmt, deck)
    sections: dict[str, list[EngineCard]] = {}
    unknown: list[str] = []
    for deck_section, entries in deck.sections.items():
        target = mapping.get(deck_section) or deck_section
        for entry in entries:
            card = pool.find(entry.name)
            if card is None:
                unknown.append(entry.name)
                continue
            engine_card = EngineCard(card.name, card.type, card.data)
            sections.setdefault(target, []).extend([engine_card] * entry.count)
    if unknown:
        raise EngineError(
            f"{deck.label}: unknown cards: {', '.join(unknown)}", hint="run `deckcli validate` for suggestions"
        )
    return EngineDeck(fmt.game, deck.label, {k: tuple(v) for k, v in sections.items()})


def incomplete_cards(deck: EngineDeck, engine: GameEngine) -> list[IncompleteCard]:
    """Cards the engine needs stats for that the data lacks, or whose data is provisional."""
    seen: dict[str, IncompleteCard] = {}
    for cards in deck.sections.values():
        for card in cards:
            if card.name in seen:
                continue
            missing = tuple(engine.missing_stats(card))
            provisional = bool(card.data.get("provisional"))
            if missing or provisional or card.data.get("incomplete"):
                seen[card.name] = IncompleteCard(card.name, missing, provisional)
    return list(seen.values())

"""Short, game-aware descriptions of a card for tables (search, deck views, sheets)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deckcli.cards.store import StoredCard


@dataclass(frozen=True)
class CardSummary:
    """One table row describing a card."""

    name: str
    type: str
    cost: str
    elements: str
    stats: str
    flags: str


def _join(values: Any) -> str:
    return ", ".join(str(v) for v in values) if isinstance(values, list) else str(values or "")


def _num(value: Any) -> str:
    return "?" if value is None else str(value)


def card_flags(card: StoredCard) -> str:
    """``DEMO`` / ``PROVISIONAL`` / ``INCOMPLETE`` markers, space-separated."""
    flags = [
        label
        for label, on in (("DEMO", card.demo), ("PROVISIONAL", card.provisional), ("INCOMPLETE", card.incomplete))
        if on
    ]
    return " ".join(flags)


def summarize(card: StoredCard) -> CardSummary:
    """A card's type, cost, elements and stats in the terms its game uses."""
    d = card.data
    game = card.game
    type_ = card.type
    cost = elements = stats = ""
    if game == "elestrals":
        if d.get("subtype"):
            type_ = f"{type_} ({d['subtype']})"
        spirits = d.get("cost") or []
        cost = f"{len(spirits)} ({_join(spirits)})" if spirits else ("0" if card.type != "spirit" else "")
        elements = _join(d.get("elements") or [])
        if card.type == "elestral":
            stats = f"ATK {_num(d.get('attack'))} / DEF {_num(d.get('defense'))}"
    elif game == "elekin":
        if d.get("rune_kind"):
            type_ = f"{type_} ({d['rune_kind']})"
        if d.get("tier"):
            type_ = f"{type_} tier {d['tier']}"
        cost = _num(d.get("cost")) if card.type == "creature" or d.get("cost") is not None else ""
        elements = _join(d.get("elements") or [])
        if card.type == "creature":
            stats = f"STR {_num(d.get('strength'))} / AGI {_num(d.get('agility'))}, gen {_num(d.get('generation'))}"
    elif game == "aestery":
        cost = _num(d.get("cost")) if card.type != "hero" else ""
        elements = _join(d.get("colors") or []) or "colourless"
        parts = []
        if card.type == "fighter":
            parts.append(f"{_num(d.get('power'))}/{_num(d.get('defense'))}")
        if d.get("pitch") is not None:
            parts.append(f"pitch {d['pitch']}")
        if card.type == "hero":
            parts.append(f"XP {_num(d.get('experience'))}")
        stats = ", ".join(parts)
    elif game == "elemental-clash":
        if d.get("spell_kind"):
            type_ = f"{type_} ({d['spell_kind']})"
        if d.get("basic"):
            type_ = f"basic {type_}"
        cost = f"L{d['level']}" if d.get("level") is not None else ""
        elements = str(d.get("produces") or d.get("element") or "")
        if card.type == "creature":
            stats = f"ATK {_num(d.get('attack'))} / DEF {_num(d.get('defense'))}"
        elif card.type == "spellcaster":
            stats = f"hand {_num(d.get('hand_size'))}, draw {_num(d.get('draw'))}, deck {_num(d.get('deck_size'))}"
    elif game == "elemystic":
        stats = (
            f"STR {_num(d.get('strength'))} / DEF {_num(d.get('defense'))}, "
            f"inv {_num(d.get('invocation_strength'))}/{_num(d.get('invocation_defense'))}, "
            f"SPD {_num(d.get('speed'))}"
            if card.type == "element"
            else ""
        )
    return CardSummary(card.name, type_, cost, elements, stats, card_flags(card))

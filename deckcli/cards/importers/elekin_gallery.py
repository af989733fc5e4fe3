"""The Elekin card gallery JSON (Elemental-Games/elemental-card-gallery).

``stats`` and ``essence`` objects are flattened. A Dragon's element (Lightning,
Frost, Crystal, Lava, Poison, Sand) becomes its two elements as rulebook 4.1.2 pairs
them. Records whose ``type`` is an element name have no stats in the source: they are
kept as creatures and marked incomplete.
"""

from __future__ import annotations

import re
from typing import Any

from deckcli.cards.importers.base import ImportResult, first_record, records_of, require_dict, validate_record
from deckcli.cards.importers.sources import Source
from deckcli.cards.models import CardBase
from deckcli.cards.names import clean_display_name, normalize_name
from deckcli.errors import ImportRecordError

BASIC_ELEMENTS = ("air", "water", "earth", "fire")
#: rulebook 4.1.2 "Dragon Types"
DRAGON_ELEMENTS: dict[str, tuple[str, str]] = {
    "crystal": ("water", "earth"),
    "lava": ("earth", "fire"),
    "frost": ("water", "air"),
    "poison": ("water", "fire"),
    "sand": ("earth", "air"),
    "lightning": ("air", "fire"),
}
#: rulebook 5.4 keywords (Frozen is a state, but cards that inflict it name it)
KEYWORDS = ("Pierce", "Double Strike", "Freeze")
_TYPES = {"creature", "rune", "counter", "shield"}


def _ability_text(value: Any) -> str:
    if isinstance(value, dict):
        name = str(value.get("name") or "").strip()
        description = str(value.get("description") or "").strip()
        cost = value.get("cost")
        if isinstance(cost, dict) and cost.get("amount") is not None:
            element = str(cost.get("element") or "").strip()
            name = f"{name} [{cost['amount']} {element}]".strip() if name else f"[{cost['amount']} {element}]"
        return f"{name}: {description}" if name and description else name or description
    return str(value or "").strip()


def _text(record: dict[str, Any]) -> str:
    parts = []
    if record.get("trigger"):
        parts.append(f"Trigger: {str(record['trigger']).strip()}")
    for key, prefix in (
        ("ability", ""),
        ("effect", ""),
        ("specialAbility", "Special: "),
        ("primaryEffect", "Primary: "),
        ("secondaryEffect", "Secondary: "),
    ):
        text = _ability_text(record.get(key))
        if text:
            parts.append(prefix + text)
    return "\n".join(p.replace("\r\n", "\n") for p in parts)


def _object(value: Any) -> dict[str, Any]:
    """A nested JSON object of the record, or an empty one when it is absent."""
    return value if isinstance(value, dict) else {}


def _int_or_none(value: Any, source: str, label: str, field: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ImportRecordError(source, label, field, "a whole number", value)
    try:
        return int(value)
    except ValueError as exc:
        raise ImportRecordError(source, label, field, "a whole number", value) from exc


def _canonical(record: dict[str, Any], source: str, label: str) -> dict[str, Any]:
    for key in ("name", "type"):
        if not str(record.get(key) or "").strip():
            raise ImportRecordError(source, label, key, "a value (required in the gallery data)", record.get(key))
    raw_type = str(record["type"]).strip().lower()
    incomplete = False
    element_name = str(record.get("element") or "").strip().lower()
    if raw_type in BASIC_ELEMENTS:
        # The gallery lists some creatures under their element, without stats.
        element_name, raw_type, incomplete = raw_type, "creature", True
    if raw_type not in _TYPES:
        raise ImportRecordError(
            source, label, "type", "Creature, Rune, Counter, Shield or an element name", record.get("type")
        )
    dragon = element_name in DRAGON_ELEMENTS
    if dragon:
        elements = list(DRAGON_ELEMENTS[element_name])
    elif element_name in BASIC_ELEMENTS:
        elements = [element_name]
    elif element_name:
        raise ImportRecordError(
            source, label, "element", "Air, Water, Earth, Fire or a Dragon element", record.get("element")
        )
    else:
        elements = []
    stats = _object(record.get("stats"))
    essence = _object(record.get("essence"))
    cost = _object(essence.get("cost"))
    generation = _object(essence.get("generation"))
    strength = _int_or_none(stats.get("strength"), source, label, "stats.strength")
    agility = _int_or_none(stats.get("agility"), source, label, "stats.agility")
    cost_amount = _int_or_none(cost.get("amount"), source, label, "essence.cost.amount")
    if raw_type == "creature" and (strength is None or agility is None or cost_amount is None):
        incomplete = True
    text = _text(record)
    rune = str(record.get("rune") or "").strip().lower() or None
    missing = [
        name
        for name, value in (("strength", strength), ("agility", agility), ("cost", cost_amount))
        if raw_type == "creature" and value is None
    ]
    return {
        "name": clean_display_name(str(record["name"])),
        "type": raw_type,
        "text": text,
        "keywords": [k for k in KEYWORDS if re.search(rf"\b{k}", text)],
        "elements": elements,
        "cost": cost_amount,
        "strength": strength,
        "agility": agility,
        "generation": _int_or_none(generation.get("amount"), source, label, "essence.generation.amount"),
        "tier": record.get("tier"),
        "rune_kind": rune if raw_type == "rune" else None,
        "dragon": dragon,
        "number": str(record["cardNumber"]) if record.get("cardNumber") is not None else None,
        "rarity": record.get("rarity"),
        "incomplete": incomplete,
        "notes": f"source lacks {', '.join(missing)}" if missing else "",
    }


class ElekinGalleryImporter:
    """``{"cards": [...]}`` or an array of gallery records (``cardNumber``, ``essence``, ``stats``)."""

    name = "elekin-gallery"
    description = "Elekin card gallery JSON (Elemental-Games/elemental-card-gallery)"

    def detect(self, source: Source) -> bool:
        sample = first_record(source)
        return sample is not None and "cardNumber" in sample

    def convert(self, source: Source, game_id: str) -> ImportResult:
        cards: list[CardBase] = []
        seen: dict[str, str] = {}
        for label, raw in records_of(source.document, source):
            record = require_dict(raw, source.label, label)
            card = validate_record(game_id, _canonical(record, source.label, label), source.label, label)
            key = normalize_name(card.name)
            if key in seen:
                raise ImportRecordError(
                    source.label, label, "name", f"a name not already used (record {seen[key]} has it)", card.name
                )
            seen[key] = label
            cards.append(card)
        incomplete = sum(card.incomplete for card in cards)
        notes = (
            [f"{incomplete} creatures lack strength, agility or cost in the source and are marked incomplete"]
            if incomplete
            else []
        )
        return ImportResult(game_id, self.name, source.label, cards, notes)

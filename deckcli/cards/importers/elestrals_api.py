"""The Elestrals API dump (Elestrals/elestras-api): one JSON object per printing.

Printings whose names normalise alike (curly or straight apostrophes, doubled
spaces) become one card that keeps every printing. Where
printings disagree on stats or text, the newest printing (latest set release date,
then highest numeric id) is kept and the number of differing printings is reported.
``alias`` becomes ``counts_as``; ``title`` is part of ``name``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from deckcli.cards.importers.base import ImportResult, first_record, records_of, require_dict, validate_record
from deckcli.cards.importers.sources import Source
from deckcli.cards.models import CardBase
from deckcli.cards.names import clean_display_name, normalize_name
from deckcli.errors import ImportRecordError

_REQUIRED = ("id", "name", "card_type")
# The facts that make two printings the "same card"; anything else is cosmetic.
_GAME_FIELDS = ("type", "subtype", "cost", "element", "elements", "attack", "defense", "subclasses", "text")
_KEYWORDS = ("Piercing", "Nexus", "Ascend", "Enchant", "Expend", "Disenchant", "Siphon", "Spirit Cast")


def _id_number(record_id: str) -> int:
    match = re.search(r"(\d+)$", record_id)
    return int(match.group(1)) if match else 0


def _keywords(text: str) -> list[str]:
    return [k for k in _KEYWORDS if re.search(rf"\b{k}", text)]


def _canonical(record: dict[str, Any], source: str, label: str) -> dict[str, Any]:
    for key in _REQUIRED:
        if record.get(key) in (None, ""):
            raise ImportRecordError(source, label, key, "a value (required in the API dump)", record.get(key))
    card_type = str(record["card_type"]).strip().lower()
    subtype = None
    if card_type.startswith("rune_"):
        card_type, subtype = "rune", card_type[len("rune_") :]
    elements = [str(e).strip().lower() for e in record.get("elements") or []]
    text = (record.get("effect") or record.get("printed_effect") or "").strip()
    title = (record.get("title") or "").strip() or None
    return {
        "name": clean_display_name(str(record["name"])),
        "type": card_type,
        "subtype": subtype,
        "text": text,
        "keywords": _keywords(text),
        "cost": [str(e).strip().lower() for e in record.get("cost") or []],
        "element": elements[0] if card_type == "spirit" and elements else None,
        "elements": elements,
        "attack": record.get("attack"),
        "defense": record.get("defense"),
        "subclasses": [str(s).strip().lower() for s in record.get("subclasses") or []],
        "counts_as": clean_display_name(record["alias"]) if record.get("alias") else None,
        "base_name": clean_display_name(str(record.get("base_name") or record["name"])),
        "title": title,
        "set": record.get("set"),
        "number": record.get("set_number"),
        "rarity": record.get("rarity"),
    }


class ElestralsApiImporter:
    """Elestrals API dump: a folder of ``cd-*.json`` files or one array of them."""

    name = "elestrals-api"
    description = "Elestrals API dump (Elestrals/elestras-api)"

    def detect(self, source: Source) -> bool:
        sample = first_record(source)
        return sample is not None and "card_type" in sample and "set_number" in sample

    def convert(self, source: Source, game_id: str) -> ImportResult:
        release = {
            s.get("id"): str(s.get("release_date") or "")
            for s in source.side_data.get("sets", [])
            if isinstance(s, dict)
        }
        groups: dict[str, list[tuple[tuple[str, int], str, dict[str, Any], dict[str, Any]]]] = defaultdict(list)
        for label, raw in records_of(source.document, source):
            record = require_dict(raw, source.label, label)
            canonical = _canonical(record, source.label, label)
            # Validate each printing on its own so an error names the printing.
            validate_record(game_id, canonical, source.label, label)
            released = release.get(record.get("set_id"), "")
            newness = (released, _id_number(str(record["id"])))
            groups[normalize_name(canonical["name"])].append((newness, label, canonical, record))

        cards: list[CardBase] = []
        differing_cards = 0
        differing_printings = 0
        for printings in groups.values():
            printings.sort(key=lambda p: p[0])
            _, label, kept, kept_raw = printings[-1]
            if not kept["counts_as"]:
                # The dump fills ``alias`` on some printings only (Charcoon's newest has
                # none though its text still says it counts as Cirrucoon): any printing's
                # alias is the card's.
                alias = next((p[2]["counts_as"] for p in reversed(printings) if p[2]["counts_as"]), None)
                kept = {**kept, "counts_as": alias}
            kept_facts = [kept[f] for f in _GAME_FIELDS]
            printing_list = []
            differs_here = 0
            for (released, _), _, canonical, raw in printings:
                differs = [canonical[f] for f in _GAME_FIELDS] != kept_facts or (
                    canonical["counts_as"] is not None and canonical["counts_as"] != kept["counts_as"]
                )
                differs_here += differs
                printing_list.append(
                    {
                        "set": raw.get("set"),
                        "number": raw.get("set_number"),
                        "rarity": raw.get("rarity"),
                        "source_id": raw.get("id"),
                        "released": released[:10] or None,
                        "differs": differs,
                    }
                )
            if differs_here:
                differing_cards += 1
                differing_printings += differs_here
            data = {**kept, "printings": printing_list}
            if differs_here:
                data["notes"] = f"{differs_here} older printing(s) differ; the newest ({kept_raw.get('id')}) is kept"
            cards.append(validate_record(game_id, data, source.label, label))
        notes = [f"{sum(len(p) for p in groups.values())} printings merged into {len(cards)} cards"]
        if differing_cards:
            notes.append(
                f"{differing_cards} cards have printings that differ in stats or text "
                f"({differing_printings} printings); the newest printing of each was kept"
            )
        return ImportResult(game_id, self.name, source.label, cards, notes)

"""JSON deck files: the same content as the text form.

Written form::

    {"game": "elekin", "name": "...", "player": "...", "event": "...",
     "sections": {"main": [{"count": 3, "name": "Glint"}], "shields": [...]}}

Read leniently, so that the real decklists in ``shared/realdata`` load as they are:
a document may be one deck, a list of decks or ``{"decks": [...]}``; sections may sit
under ``sections`` or at the top level under any section alias (``main``, ``spirit``,
``shields``, ``side``, ``spellbook``, ...); entries give ``count``/``qty``/``quantity``
and ``name``; ``hero``/``spellcaster`` may be a plain name.
"""

from __future__ import annotations

import json
from typing import Any

from deckcli.decks.model import METADATA_KEYS, SECTION_ORDER, Deck, DeckEntry, ParseProblem, section_for_header

_NAME_KEYS = ("name", "title", "title_in_db", "official_product", "deck_name")
_COUNT_KEYS = ("count", "qty", "quantity", "copies", "amount")


def _entry(raw: Any, where: str, deck: Deck) -> DeckEntry | None:
    if isinstance(raw, str):
        return DeckEntry(1, raw.strip())
    if isinstance(raw, dict):
        name = raw.get("name") or raw.get("card")
        count = next((raw[k] for k in _COUNT_KEYS if k in raw), 1)
        if isinstance(name, str) and name.strip() and isinstance(count, int) and not isinstance(count, bool):
            if count < 1:
                deck.problems.append(ParseProblem(0, where, f"count must be at least 1, found {count}"))
                return None
            return DeckEntry(count, name.strip())
    deck.problems.append(ParseProblem(0, where, 'expected {"count": N, "name": "Card"} or a card name'))
    return None


def deck_from_json(document: Any, source: str | None = None) -> Deck:
    """One deck from a parsed JSON deck object."""
    deck = Deck(source=source)
    if not isinstance(document, dict):
        deck.problems.append(ParseProblem(0, type(document).__name__, "expected a JSON object describing a deck"))
        return deck
    for key in METADATA_KEYS:
        if key != "name" and isinstance(document.get(key), str):
            setattr(deck, key, document[key])
    deck.name = next((document[k] for k in _NAME_KEYS if isinstance(document.get(k), str)), None)
    containers = [document.get("sections")] if isinstance(document.get("sections"), dict) else []
    containers.append(document)
    for container in containers:
        assert isinstance(container, dict)
        for key, value in container.items():
            section = section_for_header(str(key))
            if section is None or key in ("name",):
                continue
            items = value if isinstance(value, list) else [value] if isinstance(value, str | dict) else []
            for index, raw in enumerate(items, 1):
                entry = _entry(raw, f"{key}[{index}]", deck)
                if entry is not None:
                    deck.add(section, entry)
    if not deck.sections and not deck.problems:
        deck.problems.append(
            ParseProblem(
                0, ", ".join(sorted(map(str, document))), "no deck sections (expected keys like main, spirit, side)"
            )
        )
    return deck


def read_json_decks(text: str, source: str | None = None) -> list[Deck]:
    """Every deck in a JSON document (a deck, a list of decks or ``{"decks": [...]}``)."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        deck = Deck(source=source)
        deck.problems.append(ParseProblem(exc.lineno, "", f"not valid JSON: {exc.msg} (column {exc.colno})"))
        return [deck]
    if isinstance(document, dict) and isinstance(document.get("decks"), list):
        items: list[Any] = document["decks"]
    elif isinstance(document, list):
        items = document
    else:
        items = [document]
    decks = [deck_from_json(item, source) for item in items]
    if len(decks) > 1:
        shared_game = document.get("game") if isinstance(document, dict) else None
        for index, deck in enumerate(decks, 1):
            deck.source = f"{source}#{index}" if source else f"#{index}"
            deck.game = deck.game or shared_game
    return decks


def deck_to_json(deck: Deck) -> dict[str, Any]:
    """The deck as the JSON object form."""
    result: dict[str, Any] = {key: getattr(deck, key) for key in METADATA_KEYS if getattr(deck, key)}
    ordered = [s for s in SECTION_ORDER if s in deck.sections] + [s for s in deck.sections if s not in SECTION_ORDER]
    result["sections"] = {
        section: [{"count": e.count, "name": e.name} for e in deck.sections[section]]
        for section in ordered
        if deck.sections[section]
    }
    return result


def write_json_deck(deck: Deck) -> str:
    """The deck as indented JSON text."""
    return json.dumps(deck_to_json(deck), indent=2, ensure_ascii=False) + "\n"

"""MTGO-style plaintext decklists (``.dek``): ``N Name`` lines, then ``Sideboard``.

Written form::

    // Game: elestrals
    // Name: Majesea Starter Deck
    3 Sluggle
    2 Glauby

    // Spirit Deck
    12 Leviaphin

    Sideboard
    2 Tsunami

MTGO and the tools that read its lists know only a main deck and a sideboard. The other
sections (Spirit Deck, Shields, Hero, Spellcaster, Elements) are written as blocks after
the main deck, each opened by a ``// Title`` comment line, and metadata as ``// Key:
value`` comment lines at the top. Tools that skip ``//`` comments still read the main
deck and the sideboard; this reader maps the comment lines back, so a round trip loses
nothing.

Reading rules: ``N Name`` / ``Nx Name`` card lines; a ``Sideboard`` line (or ``SB:``
before a card line) starts the side deck; a ``//`` or ``#`` comment that is a metadata
line or a section name is read as such, other comments are skipped; with no section
line at all, the block after the last blank line is the sideboard (MTGO's own export);
metadata lines without the comment mark (``Game: elekin``) are read too.
An XML ``.dek`` file as MTGO saves it (``<Cards Quantity=".." Sideboard="true"
Name=".."/>``) is read too. A line that fits none of these is a parse problem.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from deckcli.decks.model import METADATA_KEYS, SECTION_ORDER, Deck, DeckEntry, ParseProblem, section_for_header
from deckcli.decks.text import DEFAULT_TITLES

_COMMENT = re.compile(r"^\s*(?://+|#+)\s*(.*?)\s*$")
_METADATA = re.compile(r"^(" + "|".join(METADATA_KEYS) + r")\s*:\s*(.*?)$", re.IGNORECASE)
_HEADER = re.compile(r"^\s*([A-Za-z][A-Za-z _]*?)\s*(?:\(\s*\d+\s*\))?\s*:?\s*$")
_CARD = re.compile(r"^\s*(\d+)\s*[xX]?\s+(\S.*?)\s*$")
_SIDEBOARD_PREFIX = re.compile(r"^\s*SB:\s*(.*)$", re.IGNORECASE)

EXPECTED_LINE = "expected an MTGO card line like '4 Name', a 'Sideboard' line or a // comment"


def _section(word: str) -> str | None:
    match = _HEADER.match(word)
    return section_for_header(match.group(1)) if match else None


def read_mtgo_deck(text: str, source: str | None = None) -> Deck:
    """The deck in an MTGO-style plaintext list (or an MTGO XML ``.dek`` file)."""
    if text.lstrip().startswith("<"):
        return _read_xml(text, source)
    deck = Deck(source=source)
    section = "main"
    explicit = False
    blocks: list[list[DeckEntry]] = [[]]
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            if blocks[-1]:
                blocks.append([])
            continue
        comment = _COMMENT.match(line)
        if comment:
            body = comment.group(1)
            metadata = _METADATA.match(body)
            if metadata:
                setattr(deck, metadata.group(1).lower(), metadata.group(2).strip() or None)
                continue
            found = _section(body)
            if found is not None:
                section, explicit = found, True
            continue
        metadata = _METADATA.match(line)
        if metadata:  # "Game: elekin" without the comment mark, as the text form writes it
            setattr(deck, metadata.group(1).lower(), metadata.group(2).strip() or None)
            continue
        prefixed = _SIDEBOARD_PREFIX.match(line)
        target = section
        if prefixed:
            line, target = prefixed.group(1), "side"
        card = _CARD.match(line)
        if card is None:
            found = None if prefixed else _section(line)
            if found is not None:
                section, explicit = found, True
            else:
                deck.problems.append(ParseProblem(number, raw.strip(), EXPECTED_LINE))
            continue
        count = int(card.group(1))
        if count < 1:
            deck.problems.append(ParseProblem(number, raw.strip(), f"count must be at least 1, found {count}"))
            continue
        entry = DeckEntry(count, card.group(2), number)
        deck.add(target, entry)
        if target == "main" and not prefixed:
            blocks[-1].append(entry)
    filled = [block for block in blocks if block]
    if not explicit and len(filled) > 1:
        last = filled[-1]
        deck.sections["main"] = [e for e in deck.sections["main"] if all(e is not s for s in last)]
        if not deck.sections["main"]:
            del deck.sections["main"]
        side = deck.sections.pop("side", [])
        deck.sections["side"] = last + side
    return deck


def _read_xml(text: str, source: str | None) -> Deck:
    deck = Deck(source=source)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line = exc.position[0] if exc.position else 0
        deck.problems.append(ParseProblem(line, "", f"not a readable MTGO .dek XML file: {exc}"))
        return deck
    for element in root.iter("Cards"):
        name = (element.get("Name") or "").strip()
        quantity = (element.get("Quantity") or "").strip()
        if not name or not quantity.isdigit() or int(quantity) < 1:
            deck.problems.append(
                ParseProblem(
                    0,
                    ET.tostring(element, encoding="unicode").strip(),
                    "expected Quantity (at least 1) and Name attributes",
                )
            )
            continue
        side = (element.get("Sideboard") or "").strip().lower() == "true"
        deck.add("side" if side else "main", DeckEntry(int(quantity), name))
    return deck


def write_mtgo_deck(deck: Deck, titles: dict[str, str] | None = None) -> str:
    """The deck as MTGO-style plaintext; ``titles`` overrides the ``// Title`` words."""
    names = {**DEFAULT_TITLES, **(titles or {})}
    lines = [f"// {key.capitalize()}: {getattr(deck, key)}" for key in METADATA_KEYS if getattr(deck, key)]
    blocks: list[list[str]] = []
    if deck.sections.get("main"):
        blocks.append([f"{e.count} {e.name}" for e in deck.sections["main"]])
    others = [s for s in SECTION_ORDER if s in deck.sections] + [s for s in deck.sections if s not in SECTION_ORDER]
    for section in others:
        entries = deck.sections[section]
        if section in ("main", "side") or not entries:
            continue
        blocks.append([f"// {names.get(section, section)}", *(f"{e.count} {e.name}" for e in entries)])
    if deck.sections.get("side"):
        blocks.append(["Sideboard", *(f"{e.count} {e.name}" for e in deck.sections["side"])])
    for index, block in enumerate(blocks):
        if index:
            lines.append("")
        lines.extend(block)
    return "\n".join(lines) + "\n"

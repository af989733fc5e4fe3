"""The native text decklist form: reader and writer.

Reading rules (documented in README.md, "Decklists"):

- metadata lines ``Game:``, ``Name:``, ``Player:``, ``Event:``, ``Date:``;
- section headers, case-insensitive, with an optional count and colon
  (``Main Deck (40):``, ``Sideboard``); a comment that is only a section name
  (``# Spirit Deck``) is a header too, as exported lists write them;
- inline sections ``Hero: Name`` and ``Spellcaster: Name``;
- card lines ``3 Name``, ``3x Name``, ``Name x3``, ``Name x 3`` and MTGO ``SB: 2 Name``;
- ``#`` and ``//`` comments, whole-line or after a space;
- lines before any header go to the main deck; with no headers at all, a blank line
  before the last block starts the side deck (the MTGO/Arena habit);
- ``## Deck ...`` starts another deck in the same file (multi-deck files);
- a line that fits none of these is a parse problem with its line number, and reading
  goes on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from deckcli.decks.model import (
    INLINE_SECTIONS,
    METADATA_KEYS,
    SECTION_ORDER,
    Deck,
    DeckEntry,
    ParseProblem,
    section_for_header,
)

_COMMENT = re.compile(r"^\s*(?:#+|//)\s*(.*?)\s*$")
_TRAILING_COMMENT = re.compile(r"\s+(?:#|//).*$")
_METADATA = re.compile(r"^\s*(" + "|".join(METADATA_KEYS) + r")\s*:\s*(.*?)\s*$", re.IGNORECASE)
_INLINE = re.compile(r"^\s*(hero|spell\s*caster)\s*:\s*(?:(\d+)\s*[xX]?\s+)?(.+?)\s*$", re.IGNORECASE)
_HEADER = re.compile(r"^\s*([A-Za-z][A-Za-z _]*?)\s*(?:\(\s*\d+\s*\))?\s*:?\s*$")
_SIDEBOARD_LINE = re.compile(r"^\s*SB:\s*(.*)$", re.IGNORECASE)
_COUNT_FIRST = re.compile(r"^\s*(\d+)\s*[xX]?\s+(\S.*?)\s*$")
_COUNT_FIRST_TIGHT = re.compile(r"^\s*(\d+)[xX](\S.*?)\s*$")
_COUNT_LAST = re.compile(r"^\s*(\S.*?)\s+[xX]\s*(\d+)\s*$")
_DECK_HEADING = re.compile(r"^\s*##\s*(deck\b.*?)\s*$", re.IGNORECASE)
_HEADING_INLINE = re.compile(r"\b(hero|spell\s*caster)\s*:\s*(.+?)\s*(?:\(.*\))?\s*$", re.IGNORECASE)

EXPECTED_CARD_LINE = "expected a card line like '3 Name', '3x Name', 'Name x3' or 'SB: 2 Name'"


def parse_card_line(text: str) -> tuple[int, str] | None:
    """``(count, name)`` of a card line, or None if it is not one."""
    for pattern, count_group, name_group in (
        (_COUNT_FIRST, 1, 2),
        (_COUNT_FIRST_TIGHT, 1, 2),
        (_COUNT_LAST, 2, 1),
    ):
        match = pattern.match(text)
        if match:
            return int(match.group(count_group)), match.group(name_group).strip()
    return None


class _DeckReader:
    """Reads the lines of one deck."""

    def __init__(self, source: str | None) -> None:
        self.deck = Deck(source=source)
        self.section: str | None = None
        self.saw_header = False
        #: card blocks (separated by blank lines) read before any header
        self.blocks: list[list[DeckEntry]] = [[]]

    def feed(self, number: int, raw: str) -> None:
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        if not stripped:
            if self.blocks[-1]:
                self.blocks.append([])
            return
        if stripped[0].isdigit():
            # Fast path for the common line: one starting with a digit is no comment,
            # metadata, inline section, SB: line or header, so only a card line is left.
            text = _TRAILING_COMMENT.sub("", stripped) if "#" in stripped or "//" in stripped else stripped
            parsed = parse_card_line(text)
            if parsed is None:
                self.problem(number, line, EXPECTED_CARD_LINE)
            else:
                self._card(number, line, parsed, self.section)
            return
        comment = _COMMENT.match(line)
        if comment:
            section = section_for_header(_strip_count(comment.group(1)))
            if section is not None and section not in INLINE_SECTIONS:
                self._start(section)
            return
        text = _TRAILING_COMMENT.sub("", line).strip()
        metadata = _METADATA.match(text)
        if metadata:
            setattr(self.deck, metadata.group(1).lower(), metadata.group(2) or None)
            return
        inline = _INLINE.match(text)
        if inline:
            section = "hero" if inline.group(1).lower() == "hero" else "spellcaster"
            count = int(inline.group(2)) if inline.group(2) else 1
            self.deck.add(section, DeckEntry(count, inline.group(3), number))
            return
        sideboard = _SIDEBOARD_LINE.match(text)
        if sideboard:
            parsed = parse_card_line(sideboard.group(1))
            if parsed is None:
                self.problem(number, line, EXPECTED_CARD_LINE)
            else:
                self._card(number, line, parsed, "side")
            return
        header = _HEADER.match(text)
        if header:
            section = section_for_header(header.group(1))
            if section is not None:
                self._start(section)
                return
        parsed = parse_card_line(text)
        if parsed is None:
            self.problem(number, line, EXPECTED_CARD_LINE)
            return
        self._card(number, line, parsed, self.section)

    def _start(self, section: str) -> None:
        self.section = section
        self.saw_header = True

    def _card(self, number: int, line: str, parsed: tuple[int, str], section: str | None) -> None:
        count, name = parsed
        if count < 1:
            self.problem(number, line, f"count must be at least 1, found {count}")
            return
        entry = DeckEntry(count, name, number, implicit=section is None)
        self.deck.add(section or "main", entry)
        if section is None:
            self.blocks[-1].append(entry)

    def problem(self, number: int, line: str, message: str) -> None:
        self.deck.problems.append(ParseProblem(number, line.strip(), message))

    def finish(self) -> Deck:
        blocks = [b for b in self.blocks if b]
        if not self.saw_header and len(blocks) > 1:
            # MTGO/Arena: the last block after a blank line is the sideboard.
            last = blocks[-1]
            main = self.deck.sections.get("main", [])
            self.deck.sections["main"] = [e for e in main if all(e is not s for s in last)]
            for entry in last:
                entry.implicit = False
                self.deck.add("side", entry)
        return self.deck


def _strip_count(text: str) -> str:
    return re.sub(r"\s*\(\s*\d+\s*\)\s*:?\s*$|\s*:\s*$", "", text)


def read_text_decks(lines: Iterable[str], source: str | None = None) -> list[Deck]:
    """Every deck in a native text decklist (usually one; ``## Deck`` starts another)."""
    decks: list[_DeckReader] = []
    reader = _DeckReader(source)
    preamble = True  # the first "## Deck" heading does not close a deck without cards
    for number, line in enumerate(lines, 1):
        heading = _DECK_HEADING.match(line) if "##" in line else None
        if heading:
            if not preamble:
                decks.append(reader)
                reader = _DeckReader(source)
            preamble = False
            reader.deck.name = heading.group(1)
            inline = _HEADING_INLINE.search(heading.group(1))
            if inline:
                section = "hero" if inline.group(1).lower() == "hero" else "spellcaster"
                reader.deck.add(section, DeckEntry(1, inline.group(2), number))
            continue
        if preamble and line.strip() and not _COMMENT.match(line) and not _METADATA.match(line):
            preamble = False  # file-level comments and metadata (Game:) precede the first deck
        reader.feed(number, line)
    decks.append(reader)
    result = [r.finish() for r in decks]
    if len(result) > 1:
        shared_game = next((d.game for d in result if d.game), None)
        for index, deck in enumerate(result, 1):
            deck.source = f"{source}#{index}" if source else f"#{index}"
            deck.game = deck.game or shared_game
    return result


def read_text_deck(text: str, source: str | None = None) -> Deck:
    """The (first) deck of a native text decklist."""
    return read_text_decks(text.splitlines(), source)[0]


DEFAULT_TITLES: dict[str, str] = {
    "main": "Main Deck",
    "spirit": "Spirit Deck",
    "shields": "Shields",
    "side": "Side Deck",
    "hero": "Hero",
    "spellcaster": "Spellcaster",
    "elements": "Elements",
}


def write_text_deck(deck: Deck, titles: dict[str, str] | None = None) -> str:
    """The deck in native text form; ``titles`` overrides section header words."""
    names = {**DEFAULT_TITLES, **(titles or {})}
    lines: list[str] = []
    for key in METADATA_KEYS:
        value = getattr(deck, key)
        if value:
            lines.append(f"{key.capitalize()}: {value}")
    ordered = [s for s in SECTION_ORDER if s in deck.sections] + [s for s in deck.sections if s not in SECTION_ORDER]
    for section in ordered:
        entries = deck.sections[section]
        if not entries:
            continue
        if section in INLINE_SECTIONS:
            for entry in entries:
                count = f"{entry.count} " if entry.count != 1 else ""
                lines.append(f"{names.get(section, section)}: {count}{entry.name}")
            continue
        lines.append(f"{names.get(section, section.capitalize())}:")
        lines.extend(f"{entry.count} {entry.name}" for entry in entries)
    return "\n".join(lines) + "\n"

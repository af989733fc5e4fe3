"""A line-preserving editor for native text decklists (``deckcli deck new/add/remove``).

An edit changes as little of the file as it can: adding copies of a card already in
the section rewrites only the count on its line (``3x Glint`` becomes ``4x Glint``, a
trailing comment stays); removing every copy deletes the line; a new card is a new line
after the last card of its section (or right after the section's header, or under a new
header at the end of the file). Comments, blank lines, metadata, line endings, the
encoding and the order of every other line are kept byte for byte.

Every edit is checked before it is returned: the new text is read back with the
decklist reader and must hold exactly the old deck plus the change. An edit that would
make some other line read differently is refused instead of written.

The pure functions (:func:`parse_card_spec`, :func:`add_to_text`,
:func:`remove_from_text`, :func:`new_deck_text`) work on strings; :func:`add_card_to_file`
and :func:`remove_card_from_file` read a file, edit it and write it back atomically.

Sections are the format's: a :class:`SectionLayout` says which header words name which
section, what each section is titled, and which card types go where. It is built from
any objects with ``id``, ``title``, ``aliases`` and ``types`` (the format's
``SectionSpec``), so this module needs nothing from the rules layer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from deckcli.cards.names import normalize_name
from deckcli.decks import text as text_form
from deckcli.decks.files import read_text_file, write_text_atomic
from deckcli.decks.model import (
    INLINE_SECTIONS,
    METADATA_KEYS,
    SECTION_ALIASES,
    SECTION_ORDER,
    Deck,
    DeckEntry,
    section_for_header,
)
from deckcli.decks.text import DEFAULT_TITLES, parse_card_line, read_text_decks
from deckcli.errors import CardNotFoundError, DeckcliError

if TYPE_CHECKING:
    from deckcli.cards.pool import CardPool, PoolCard

# The editor must see lines exactly as the reader does, so it uses the reader's patterns.
_COMMENT = text_form._COMMENT
_TRAILING_COMMENT = text_form._TRAILING_COMMENT
_METADATA = text_form._METADATA
_INLINE = text_form._INLINE
_HEADER = text_form._HEADER
_SIDEBOARD_LINE = text_form._SIDEBOARD_LINE
_DECK_HEADING = text_form._DECK_HEADING

_INLINE_COUNT = re.compile(r"^(\s*(?:hero|spell\s*caster)\s*:\s*)(?:(\d+)(\s*[xX]?\s+))?(\S.*)$", re.IGNORECASE)
_SB_PREFIX = re.compile(r"^(\s*SB:\s*)(.*)$", re.IGNORECASE)
_COUNT_FIRST = re.compile(r"^(\s*)(\d+)(\s*[xX]?\s+\S.*)$")
_COUNT_FIRST_TIGHT = re.compile(r"^(\s*)(\d+)([xX]\S.*)$")
_COUNT_LAST = re.compile(r"^(\s*\S.*?\s+[xX]\s*)(\d+)(\s*)$")
_LINE_END = re.compile(r"(\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029])$")
#: native text files only; other forms are converted, not edited
_OTHER_FORMS = (".json", ".csv", ".dek")


class DeckEditError(DeckcliError):
    """An edit that cannot be made (unknown section, too few copies, unsafe file)."""


# -- sections -----------------------------------------------------------------------------


class SectionLike(Protocol):
    """What the editor needs to know about one section of a format."""

    @property
    def id(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def aliases(self) -> list[str]: ...

    @property
    def types(self) -> list[str] | None: ...


@dataclass(frozen=True)
class LayoutSection:
    """One section: id, printed title, header words, card types it takes (None = any)."""

    id: str
    title: str
    aliases: tuple[str, ...] = ()
    types: frozenset[str] | None = None


@dataclass(frozen=True)
class SectionLayout:
    """The sections of a format, in its order, and how deck sections map onto them."""

    sections: tuple[LayoutSection, ...]

    @classmethod
    def from_sections(cls, specs: Iterable[SectionLike]) -> SectionLayout:
        """The layout of a format's section specs (``Format.sections``)."""
        return cls(
            tuple(
                LayoutSection(
                    s.id,
                    s.title,
                    tuple(" ".join(a.lower().split()) for a in s.aliases),
                    frozenset(s.types) if s.types is not None else None,
                )
                for s in specs
            )
        )

    @classmethod
    def default(cls) -> SectionLayout:
        """Every known section with its default title; any card type anywhere."""
        return cls(tuple(LayoutSection(s, DEFAULT_TITLES[s], SECTION_ALIASES[s]) for s in SECTION_ORDER))

    @property
    def ids(self) -> list[str]:
        """The section ids, in format order."""
        return [s.id for s in self.sections]

    def get(self, section_id: str) -> LayoutSection | None:
        """The section with ``section_id``."""
        return next((s for s in self.sections if s.id == section_id), None)

    def title(self, section_id: str) -> str:
        """The printed title of ``section_id`` (its default title if the format lacks it)."""
        found = self.get(section_id)
        return found.title if found else DEFAULT_TITLES.get(section_id, section_id.capitalize())

    def titles(self) -> dict[str, str]:
        """Section id -> printed title."""
        return {s.id: s.title for s in self.sections}

    def target(self, deck_section: str) -> str | None:
        """The format section a deck section (as the reader names it) is, or None."""
        if self.get(deck_section) is not None:
            return deck_section
        return next((s.id for s in self.sections if deck_section in s.aliases), None)

    def implicit_homes(self) -> dict[str, str]:
        """Card type -> the one section other than main and side that takes it, for types
        the main section refuses (where a card read before any header really belongs)."""
        homes: dict[str, str] = {}
        for spec in self.sections:
            if spec.id in ("main", "side") or spec.types is None:
                continue
            for card_type in spec.types:
                homes[card_type] = spec.id if card_type not in homes else ""
        main = self.get("main")
        if main is None or main.types is None:
            return {}
        return {t: h for t, h in homes.items() if h and t not in main.types}

    def home(self, card_type: str | None) -> str:
        """The section a card of ``card_type`` goes in when none is named.

        The main section if it takes the type, else the first other section (not the
        side deck) that does, else the main section (or the first section).
        """
        candidates = [s for s in self.sections if s.id != "side" and (s.types is None or card_type in s.types)]
        main = next((s for s in candidates if s.id == "main"), None)
        if main is not None:
            return main.id
        if candidates:
            return candidates[0].id
        return "main" if self.get("main") else self.sections[0].id

    def resolve(self, word: str) -> str:
        """The section a user's word names: an id, a title or any header word."""
        key = " ".join(word.strip().lower().replace("_", " ").replace("-", " ").split())
        for spec in self.sections:
            if key in (spec.id, spec.title.lower()) or key in spec.aliases:
                return spec.id
        for section_id, aliases in SECTION_ALIASES.items():
            if key in aliases:
                found = self.target(section_id)
                if found is not None:
                    return found
        valid = ", ".join(f"{s.id} ({s.title})" for s in self.sections)
        raise DeckEditError(f"unknown section '{word}'", hint=f"this format's sections: {valid}")


# -- parsing what the user typed ------------------------------------------------------------


def parse_card_spec(spec: str) -> tuple[int, str]:
    """``(count, name)`` of ``"3 Name"``, ``"3x Name"``, ``"Name x3"`` or ``"Name"`` (1)."""
    text = " ".join(spec.split())
    if not text:
        raise DeckEditError("no card given", hint="write it like '3 Name', '3x Name', 'Name x3' or 'Name'")
    parsed = parse_card_line(text)
    if parsed is None:
        return 1, text
    count, name = parsed
    if count < 1:
        raise DeckEditError(f"'{spec}': the count must be at least 1")
    return count, name


def resolve_card(pool: CardPool, name: str) -> PoolCard:
    """The card any spelling of ``name`` names; raises CardNotFoundError with suggestions."""
    card = pool.find(name)
    if card is None:
        raise CardNotFoundError(pool.game_id, name, pool.suggest(name))
    return card


def _resolve_spec(pool: CardPool, spec: str) -> tuple[int, PoolCard]:
    count, name = parse_card_spec(spec)
    card = pool.find(name)
    if card is None:
        whole = pool.find(spec)  # a name that starts with a number ("2 Headed Giant")
        if whole is not None:
            return 1, whole
        raise CardNotFoundError(pool.game_id, name, pool.suggest(name))
    return count, card


# -- reading a file the way the editor needs it ------------------------------------------------


@dataclass(frozen=True)
class PlacedEntry:
    """A deck entry, the section it really belongs in, and which card it is."""

    entry: DeckEntry
    deck_section: str
    section: str
    key: str


def _card_key(name: str, pool: CardPool | None) -> str:
    card = pool.find(name) if pool is not None else None
    return card.key if card is not None else normalize_name(name)


def _only_deck(text: str) -> Deck:
    decks = read_text_decks(text.splitlines(), None)
    if len(decks) != 1:
        raise DeckEditError(
            f"the file holds {len(decks)} decks ('## Deck' headings); deck editing works on files with one deck"
        )
    return decks[0]


def place_entries(deck: Deck, layout: SectionLayout, pool: CardPool | None) -> list[PlacedEntry]:
    """Every entry of ``deck`` in file order, with the format section it belongs in.

    Deck sections map onto the layout's (``Elements:`` or ``Main:`` both name an
    Elemystic deck's elements); an entry read before any header goes where its card type
    belongs (a Spirit to the Spirit Deck), as validation places it. ``key`` is the card's
    normalised name (the database's, when the pool knows the card).
    """
    homes = layout.implicit_homes()
    placed: list[PlacedEntry] = []
    for deck_section, entries in deck.sections.items():
        target = layout.target(deck_section) or deck_section
        for entry in entries:
            card = pool.find(entry.name) if pool is not None else None
            section = target
            if entry.implicit and card is not None and card.type in homes:
                section = homes[card.type]
            key = card.key if card is not None else normalize_name(entry.name)
            placed.append(PlacedEntry(entry, deck_section, section, key))
    placed.sort(key=lambda p: p.entry.line or 0)
    return placed


def settle_implicit(deck: Deck, layout: SectionLayout, pool: CardPool) -> Deck:
    """A copy of ``deck`` whose header-less entries sit in the section their type needs.

    A list without headers puts every card in the main deck; validation moves a Spirit
    (a Shield, ...) to its own section. Writing such a deck in another form must do the
    same, or the card would land in the main deck for good.
    """
    homes = layout.implicit_homes()
    settled = replace(deck, sections={}, problems=list(deck.problems))
    for section, entries in deck.sections.items():
        for entry in entries:
            card = pool.find(entry.name) if entry.implicit else None
            home = homes.get(card.type) if card is not None else None
            settled.add(home or section, replace(entry, implicit=False) if home else entry)
    return settled


def _contents(placed: Sequence[PlacedEntry], counts: dict[int, int] | None = None) -> dict[str, list[tuple[str, int]]]:
    """Section -> ``(card key, count)`` in file order; ``counts`` overrides counts by
    ``id(entry)`` (0 drops the entry)."""
    result: dict[str, list[tuple[str, int]]] = {}
    for item in placed:
        count = (counts or {}).get(id(item.entry), item.entry.count)
        if count:
            result.setdefault(item.section, []).append((item.key, count))
    return result


def _header_lines(lines: Sequence[str]) -> list[tuple[int, str]]:
    """``(0-based index, deck section)`` of every section header line, as the reader sees it."""
    found: list[tuple[int, str]] = []
    for index, line in enumerate(lines):
        if not line.strip() or _DECK_HEADING.match(line):
            continue
        comment = _COMMENT.match(line)
        if comment:
            section = section_for_header(text_form._strip_count(comment.group(1)))
            if section is not None and section not in INLINE_SECTIONS:
                found.append((index, section))
            continue
        body = _TRAILING_COMMENT.sub("", line).strip()
        if _METADATA.match(body) or _INLINE.match(body) or _SIDEBOARD_LINE.match(body):
            continue
        header = _HEADER.match(body)
        if header:
            section = section_for_header(header.group(1))
            if section is not None:
                found.append((index, section))
    return found


def _metadata_lines(lines: Sequence[str]) -> list[int]:
    return [
        index
        for index, line in enumerate(lines)
        if line.strip() and not _COMMENT.match(line) and _METADATA.match(_TRAILING_COMMENT.sub("", line).strip())
    ]


def _newline(raw_lines: Sequence[str]) -> str:
    for line in raw_lines:
        match = _LINE_END.search(line)
        if match and match.group(1) in ("\r\n", "\n", "\r"):
            return match.group(1)
    return "\n"


def _split_end(raw: str) -> tuple[str, str]:
    match = _LINE_END.search(raw)
    return (raw[: match.start()], match.group(1)) if match else (raw, "")


def with_count(line: str, count: int) -> str:
    """A card line (no line ending) with its count replaced, everything else kept.

    Handles ``3 Name``, ``3x Name``, ``Name x3``, ``SB: 3 Name``, ``Hero: Name`` and a
    trailing ``#``/``//`` comment. Raises :class:`DeckEditError` for any other line.
    """
    comment = _TRAILING_COMMENT.search(line)
    core, tail = (line[: comment.start()], line[comment.start() :]) if comment else (line, "")
    inline = _INLINE_COUNT.match(core)
    if inline:
        prefix, digits, gap, rest = inline.groups()
        if digits is None:
            return f"{prefix}{count} {rest}{tail}"
        return f"{prefix}{count}{gap}{rest}{tail}"
    prefix = ""
    sideboard = _SB_PREFIX.match(core)
    if sideboard:
        prefix, core = sideboard.groups()
    for pattern in (_COUNT_FIRST, _COUNT_FIRST_TIGHT):
        match = pattern.match(core)
        if match:
            return f"{prefix}{match.group(1)}{count}{match.group(3)}{tail}"
    match = _COUNT_LAST.match(core)
    if match:
        return f"{prefix}{match.group(1)}{count}{match.group(3)}{tail}"
    raise DeckEditError(f"cannot find the count on the line {line.strip()!r}")


# -- the edits --------------------------------------------------------------------------------


Action = Literal["added", "removed"]


@dataclass(frozen=True)
class EditResult:
    """What an edit did, and the new text of the file."""

    text: str
    action: Action
    #: the card's name as the card database spells it
    name: str
    #: copies added or removed
    count: int
    section: str
    section_title: str
    #: copies of the card in the section before and after
    before: int
    after: int
    #: 1-based line changed, inserted or deleted (in the new text, or the old one for a deletion)
    line: int
    change: Literal["new-line", "count", "deleted-line"]


def _card_line(section: str, layout: SectionLayout, count: int, name: str) -> str:
    if section in INLINE_SECTIONS:
        return f"{layout.title(section)}: {name}" if count == 1 else f"{layout.title(section)}: {count} {name}"
    return f"{count} {name}"


def _differs(
    old: Deck,
    new_text: str,
    layout: SectionLayout,
    pool: CardPool | None,
    expected: dict[str, list[tuple[str, int]]],
) -> bool:
    """Does ``new_text`` read as something other than ``expected`` (with the old metadata)?"""
    new = _only_deck(new_text)
    got = _contents(place_entries(new, layout, pool))
    same_metadata = all(getattr(old, k) == getattr(new, k) for k in METADATA_KEYS)
    same_problems = [p.text for p in old.problems] == [p.text for p in new.problems]
    return got != {k: v for k, v in expected.items() if v} or not same_metadata or not same_problems


def _side_block_start(placed: Sequence[PlacedEntry], lines: Sequence[str], skip: Iterable[int] = ()) -> int | None:
    """0-based line of the first card of a header-less file's blank-line side block.

    With no header at all, the block after the last blank line is the side deck; a new
    header, or a main deck emptied by a removal, would end that. Pinning the block with
    a header of its own keeps it the side deck.
    """
    skipped = set(skip)
    for item in placed:
        index = (item.entry.line or 1) - 1
        if item.deck_section == "side" and index not in skipped and not _SIDEBOARD_LINE.match(lines[index].strip()):
            return index
    return None


def _check(
    old: Deck,
    new_text: str,
    layout: SectionLayout,
    pool: CardPool | None,
    expected: dict[str, list[tuple[str, int]]],
) -> None:
    """Refuse an edit whose result does not read back as the old deck plus the change."""
    if _differs(old, new_text, layout, pool, expected):
        raise DeckEditError(
            "the change cannot be made without changing how other lines of the file read",
            hint="give the file section headers (e.g. 'Main Deck:') and try again",
        )


def add_to_text(
    text: str,
    name: str,
    count: int,
    section: str | None,
    layout: SectionLayout,
    pool: CardPool | None = None,
) -> EditResult:
    """Add ``count`` copies of the card ``name`` to ``section`` of a native text decklist.

    ``name`` is written as given (pass the card database's spelling); ``section`` is a
    layout section id, or None for the section the card's type belongs in. Existing
    copies in the section get the count raised on their line; otherwise a new line goes
    after the section's last card, under its header, or under a new header at the end.
    """
    if count < 1:
        raise DeckEditError(f"the count must be at least 1, found {count}")
    card = pool.find(name) if pool is not None else None
    if section is None:
        section = layout.home(card.type if card is not None else None)
    key = card.key if card is not None else normalize_name(name)
    deck = _only_deck(text)
    placed = place_entries(deck, layout, pool)
    raw_lines = text.splitlines(keepends=True)
    lines = [_split_end(raw)[0] for raw in raw_lines]
    newline = _newline(raw_lines)
    in_section = [p for p in placed if p.section == section]
    before = sum(p.entry.count for p in in_section if p.key == key)
    same = [p for p in in_section if p.key == key]
    title = layout.title(section)
    if same:
        target = same[0]
        index = (target.entry.line or 0) - 1
        body, ending = _split_end(raw_lines[index])
        raw_lines[index] = with_count(body, target.entry.count + count) + ending
        expected = _contents(placed, {id(target.entry): target.entry.count + count})
        new_text = "".join(raw_lines)
        _check(deck, new_text, layout, pool, expected)
        return EditResult(new_text, "added", name, count, section, title, before, before + count, index + 1, "count")

    new_lines = [_card_line(section, layout, count, name)]
    headers = _header_lines(lines)
    homes = layout.implicit_homes()
    card_type = card.type if card is not None else None

    def follows(item: PlacedEntry) -> bool:
        """Would a card line right after ``item`` be read into ``section``?"""
        if section in INLINE_SECTIONS:
            return True  # written inline, "Hero: Name", which no header changes
        if item.entry.implicit and card_type in homes:
            return homes[card_type] == section
        return (layout.target(item.deck_section) or item.deck_section) == section

    after = [p for p in in_section if follows(p)]
    if after:
        last = max(after, key=lambda p: p.entry.line or 0)
        insert_at = last.entry.line or 0
        if section not in INLINE_SECTIONS and _SIDEBOARD_LINE.match(lines[insert_at - 1].strip()):
            new_lines = [f"SB: {new_lines[0]}"]  # an "SB:" line among others: so is the new one
    elif section in INLINE_SECTIONS:
        metadata = _metadata_lines(lines)
        content = [i for i, _ in headers] + [(p.entry.line or 1) - 1 for p in placed]
        insert_at = metadata[-1] + 1 if metadata else min(content) if content else len(lines)
    else:
        own = [i for i, deck_section in headers if layout.target(deck_section) == section]
        if own:
            insert_at = own[-1] + 1
        else:
            insert_at = len(lines)
            new_lines.insert(0, f"{title}:")
            first = _side_block_start(placed, lines) if not headers else None
            if first is not None:
                raw_lines.insert(first, f"{layout.title('side')}:{newline}")
                insert_at += 1
    if insert_at == len(raw_lines) and raw_lines and not _split_end(raw_lines[-1])[1]:
        raw_lines[-1] += newline
    raw_lines[insert_at:insert_at] = [line + newline for line in new_lines]
    expected = _contents(placed)
    expected.setdefault(section, []).append((key, count))
    new_text = "".join(raw_lines)
    _check(deck, new_text, layout, pool, expected)
    line_number = insert_at + len(new_lines)
    return EditResult(new_text, "added", name, count, section, title, before, before + count, line_number, "new-line")


def remove_from_text(
    text: str,
    name: str,
    count: int,
    section: str | None,
    layout: SectionLayout,
    pool: CardPool | None = None,
) -> EditResult:
    """Remove ``count`` copies of ``name`` from ``section`` (None: wherever the card is).

    Lowers the count on the card's line, or deletes the line when no copy is left (the
    last lines first when the card is on several). Removing more copies than the section
    holds, or a card the deck does not have, raises :class:`DeckEditError`.
    """
    if count < 1:
        raise DeckEditError(f"the count must be at least 1, found {count}")
    key = _card_key(name, pool)
    card = pool.find(name) if pool is not None else None
    shown = card.name if card is not None else name
    deck = _only_deck(text)
    placed = place_entries(deck, layout, pool)
    holding = [p for p in placed if p.key == key]
    if not holding:
        raise DeckEditError(f"{shown} is not in the deck")
    if section is None:
        sections = list(dict.fromkeys(p.section for p in holding))
        home = layout.home(card.type if card is not None else None)
        if len(sections) == 1:
            section = sections[0]
        elif home in sections:
            section = home
        else:
            where = " and ".join(layout.title(s) for s in sections)
            raise DeckEditError(f"{shown} is in {where}", hint="say which one with --from SECTION")
    title = layout.title(section)
    same = [p for p in holding if p.section == section]
    before = sum(p.entry.count for p in same)
    if before == 0:
        raise DeckEditError(f"{shown} is not in the {title}")
    if count > before:
        raise DeckEditError(
            f"cannot remove {count} {shown}: the {title} holds only {before}", hint="nothing was changed"
        )
    raw_lines = text.splitlines(keepends=True)
    counts: dict[int, int] = {}
    left = count
    deleted: list[int] = []
    changed_line = 0
    for item in reversed(same):
        if left == 0:
            break
        index = (item.entry.line or 0) - 1
        take = min(left, item.entry.count)
        left -= take
        counts[id(item.entry)] = remaining = item.entry.count - take
        if remaining == 0:
            deleted.append(index)
        else:
            body, ending = _split_end(raw_lines[index])
            raw_lines[index] = with_count(body, remaining) + ending
            changed_line = index + 1
    expected = _contents(placed, counts)
    lines = [_split_end(raw)[0] for raw in raw_lines]
    first_side = _side_block_start(placed, lines, deleted) if deleted and not _header_lines(lines) else None
    for index in sorted(deleted, reverse=True):
        del raw_lines[index]
    new_text = "".join(raw_lines)
    pinned_at: int | None = None
    if first_side is not None and _differs(deck, new_text, layout, pool, expected):
        pinned_at = first_side - sum(1 for index in deleted if index < first_side)
        raw_lines.insert(pinned_at, f"{layout.title('side')}:{_newline(raw_lines)}")
        new_text = "".join(raw_lines)
    _check(deck, new_text, layout, pool, expected)
    after = before - count
    if changed_line:
        changed_line -= sum(1 for index in deleted if index < changed_line - 1)
        if pinned_at is not None and pinned_at < changed_line:
            changed_line += 1
        return EditResult(new_text, "removed", shown, count, section, title, before, after, changed_line, "count")
    first_deleted = min(deleted) + 1
    return EditResult(new_text, "removed", shown, count, section, title, before, after, first_deleted, "deleted-line")


def new_deck_text(
    game_id: str,
    layout: SectionLayout,
    *,
    name: str | None = None,
    player: str | None = None,
    event: str | None = None,
) -> str:
    """A new, empty native text decklist: metadata lines and the format's section headers.

    Inline sections (Hero, Spellcaster) get no header: ``deck add`` writes them as
    ``Hero: Name`` lines.
    """
    lines = [f"Game: {game_id}"]
    for key, value in (("Name", name), ("Player", player), ("Event", event)):
        if value is None:
            continue
        clean = value.strip()
        if not clean or "\n" in clean or "\r" in clean:
            raise DeckEditError(f"--{key.lower()} must be one non-empty line")
        lines.append(f"{key}: {clean}")
    lines.extend(f"{s.title}:" for s in layout.sections if s.id not in INLINE_SECTIONS)
    result = "\n".join(lines) + "\n"
    deck = _only_deck(result)
    for key, value in (("name", name), ("player", player), ("event", event)):
        if value is not None and getattr(deck, key) != value.strip():
            raise DeckEditError(
                f"--{key} {value!r} would not read back as written ('#' and '//' after a space start a comment)"
            )
    return result


# -- on files ---------------------------------------------------------------------------------


def _editable(path: Path) -> None:
    if path.suffix.lower() in _OTHER_FORMS:
        raise DeckEditError(
            f"{path}: deck editing works on native text decklists, not {path.suffix} files",
            hint=f"convert it first: deckcli deck convert {path} {path.with_suffix('.txt')}",
        )


def _where(path: Path, exc: DeckEditError) -> DeckEditError:
    return DeckEditError(f"{path}: {exc.message}", hint=exc.hint)


def add_card_to_file(
    path: Path | str,
    spec: str,
    layout: SectionLayout,
    pool: CardPool,
    section: str | None = None,
) -> EditResult:
    """Add the card ``spec`` names (``"3 Name"``) to the decklist file, atomically.

    ``section`` is any word naming a section (None: the card type's section). Unknown
    or ambiguous names raise CardNotFoundError with suggestions; the file is unchanged.
    """
    file = Path(path)
    _editable(file)
    count, card = _resolve_spec(pool, spec)
    target = layout.resolve(section) if section is not None else None
    original = read_text_file(file)
    try:
        result = add_to_text(original.text, card.name, count, target, layout, pool)
    except DeckEditError as exc:
        raise _where(file, exc) from None
    write_text_atomic(file, result.text, force=True, like=original)
    return result


def remove_card_from_file(
    path: Path | str,
    spec: str,
    layout: SectionLayout,
    pool: CardPool,
    section: str | None = None,
) -> EditResult:
    """Remove the copies ``spec`` names (``"1 Name"``) from the decklist file, atomically.

    A name the card database lacks can still be removed when the file has it. Removing
    more copies than present raises :class:`DeckEditError`; the file is unchanged.
    """
    file = Path(path)
    _editable(file)
    count, name = parse_card_spec(spec)
    target = layout.resolve(section) if section is not None else None
    original = read_text_file(file)
    if pool.find(name) is None:
        whole = pool.find(spec)
        if whole is not None:
            count, name = 1, whole.name
        else:
            present = {normalize_name(e.name) for e in _all_entries(original.text)}
            if normalize_name(name) not in present:
                raise CardNotFoundError(pool.game_id, name, pool.suggest(name))
    try:
        result = remove_from_text(original.text, name, count, target, layout, pool)
    except DeckEditError as exc:
        raise _where(file, exc) from None
    write_text_atomic(file, result.text, force=True, like=original)
    return result


def _all_entries(text: str) -> list[DeckEntry]:
    return [e for deck in read_text_decks(text.splitlines(), None) for es in deck.sections.values() for e in es]

"""The deck model: sections of card entries plus metadata, independent of any file form."""

from __future__ import annotations

from dataclasses import dataclass, field

#: Section ids and the header words that name them (case-insensitive). Every game uses
#: a subset; ``formats/*.toml`` says which and may add aliases.
SECTION_ALIASES: dict[str, tuple[str, ...]] = {
    "main": ("main", "main deck", "maindeck", "deck", "spellbook", "spell book"),
    "spirit": ("spirit", "spirits", "spirit deck"),
    "shields": ("shield", "shields", "shield deck"),
    "side": ("side", "side deck", "sideboard", "side board", "sb"),
    "hero": ("hero", "heroes"),
    "spellcaster": ("spellcaster", "spell caster"),
    "elements": ("elements", "element cards", "components"),
}
#: Sections written as one inline line, ``Hero: Name``.
INLINE_SECTIONS = ("hero", "spellcaster")
#: The order sections are written in.
SECTION_ORDER = ("hero", "spellcaster", "main", "spirit", "shields", "elements", "side")

METADATA_KEYS = ("game", "name", "player", "event", "date")


@dataclass
class DeckEntry:
    """``count`` copies of the card ``name`` in one section."""

    count: int
    name: str
    #: 1-based line in the source file, if read from one
    line: int | None = None
    #: True when the reader put the entry in a section only because no header said otherwise
    implicit: bool = False


@dataclass
class ParseProblem:
    """A line the reader could not understand; reading went on."""

    line: int
    text: str
    message: str


@dataclass
class Deck:
    """A decklist: metadata and the entries of each section, in file order."""

    game: str | None = None
    name: str | None = None
    player: str | None = None
    event: str | None = None
    date: str | None = None
    sections: dict[str, list[DeckEntry]] = field(default_factory=dict)
    problems: list[ParseProblem] = field(default_factory=list)
    #: where the deck was read from (path, and "#n" for the n-th deck of a file)
    source: str | None = None

    def entries(self, section: str) -> list[DeckEntry]:
        """The entries of ``section`` (empty if absent)."""
        return self.sections.get(section, [])

    def add(self, section: str, entry: DeckEntry) -> None:
        """Append ``entry`` to ``section``."""
        self.sections.setdefault(section, []).append(entry)

    def count(self, section: str) -> int:
        """Total copies in ``section``."""
        return sum(e.count for e in self.sections.get(section, ()))

    def total(self) -> int:
        """Total copies in every section."""
        return sum(e.count for entries in self.sections.values() for e in entries)

    @property
    def label(self) -> str:
        """How reports name the deck: its name, else its source."""
        return self.name or self.source or "deck"


def section_for_header(word: str) -> str | None:
    """The section id a header word names, or None."""
    key = " ".join(word.strip().lower().replace("_", " ").split())
    for section, aliases in SECTION_ALIASES.items():
        if key in aliases:
            return section
    return None

"""Shared fixtures and helpers for the format, validation, decklist and CLI-validate tests.

Import what a module needs::

    from rules_fixtures import card_store, pools, rules_db  # noqa: F401  (pytest fixtures)

One seeded store is made per test session (a copy of conftest's session template, so
the template itself is never opened for writing) and one :class:`CardPool` per game.
Decks are built as native text and read with the real reader, so the line numbers the
tests assert are the lines of that text.
"""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from deckcli.cards.pool import CardPool
from deckcli.cards.store import CardStore
from deckcli.cli import app
from deckcli.decks.model import Deck
from deckcli.decks.text import read_text_deck
from deckcli.games import game_ids
from deckcli.rules import Report, Violation, find_format, validate

REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLES = REPO_ROOT / "card_db" / "decks"
FORMATS_DIR = REPO_ROOT / "formats"
RULEBOOKS = Path("/work/shared/rulebooks")
REALDATA = Path("/work/shared/realdata")
ELESTRALS_STARTERS = REALDATA / "elestrals" / "ElestralsTCG" / "starter_decks.derived"
ELEKIN_DECKS = REALDATA / "elekin"
CLASH_DECKLISTS = REALDATA / "elemental_clash" / "decklists_andisgamesrealm_2016-01.txt"

requires_realdata = pytest.mark.skipif(
    not (ELESTRALS_STARTERS.is_dir() and ELEKIN_DECKS.is_dir() and CLASH_DECKLISTS.is_file()),
    reason="shared real data not available",
)
requires_rulebooks = pytest.mark.skipif(not RULEBOOKS.is_dir(), reason="shared rulebooks not available")

#: A fixed "today" so that tests never depend on the calendar.
ON = dt.date(2025, 6, 1)

#: The nine Elemystic elements (rulebook COMPONENTS).
ELEMYSTIC_ELEMENTS = ("Earth", "Light", "Air", "Storm", "Water", "Fire", "Shadow", "Chaos", "Lightning")

Entries = list[tuple[int, str]]


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def rules_db(seeded_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A seeded store file for the whole session (tests only read it)."""
    path = tmp_path_factory.mktemp("rules-store") / "cards.sqlite"
    shutil.copyfile(seeded_template, path)
    return path


@pytest.fixture(scope="session")
def card_store(rules_db: Path) -> Iterator[CardStore]:
    """The session store, opened once."""
    with CardStore.open(rules_db) as store:
        yield store


@pytest.fixture(scope="session")
def pools(card_store: CardStore) -> dict[str, CardPool]:
    """One card pool per game."""
    return {game: CardPool.load(card_store, game) for game in game_ids()}


# --------------------------------------------------------------------------- decks


def deck_text(game: str | None, sections: Sequence[tuple[str, Entries]], *, name: str | None = None) -> str:
    """A native text decklist: ``Game:``/``Name:`` lines, then ``Header:`` and card lines."""
    lines = [f"Game: {game}"] if game else []
    if name:
        lines.append(f"Name: {name}")
    for header, entries in sections:
        if header.lower() in ("hero", "spellcaster"):
            lines += [f"{header}: {card}" for _, card in entries]
            continue
        lines.append(f"{header}:")
        lines += [f"{count} {card}" for count, card in entries]
    return "\n".join(lines) + "\n"


def line_of(text: str, needle: str) -> int:
    """The 1-based number of the first line of ``text`` that is exactly ``needle``."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() == needle:
            return number
    raise AssertionError(f"{needle!r} is not a line of the deck")


def sample_entries(game: str) -> dict[str, Entries]:
    """The bundled sample deck of ``game`` as section id -> [(count, name)]."""
    deck = read_text_deck((SAMPLES / f"{game}-sample.txt").read_text(encoding="utf-8"))
    return {section: [(e.count, e.name) for e in entries] for section, entries in deck.sections.items()}


def check(
    pools: dict[str, CardPool],
    game: str,
    text: str,
    *,
    on: dt.date = ON,
    pool: CardPool | None = None,
    fmt: str | None = None,
) -> Report:
    """Read ``text`` and validate it under ``game``'s format (or ``fmt``)."""
    deck = read_text_deck(text, source="test.txt")
    return validate(deck, find_format(fmt or game), pool or pools[game], on)


def check_deck(pools: dict[str, CardPool], game: str, deck: Deck, *, on: dt.date = ON) -> Report:
    return validate(deck, find_format(game), pools[game], on)


def errors(report: Report, code: str | None = None) -> list[Violation]:
    """The report's errors, optionally of one code."""
    return [v for v in report.errors if code is None or v.code == code]


def warnings(report: Report, code: str | None = None) -> list[Violation]:
    return [v for v in report.warnings if code is None or v.code == code]


def only_error(report: Report) -> Violation:
    """The report's single error (fails with the whole list otherwise)."""
    found = report.errors
    assert len(found) == 1, [f"{v.code}: {v.message}" for v in found]
    return found[0]


def codes(report: Report) -> list[str]:
    return sorted(v.code for v in report.errors)


def assert_legal(report: Report) -> None:
    assert report.valid, [f"{v.code}: {v.message}" for v in report.errors]
    assert report.errors == []


# --------------------------------------------------------------------------- CLI


class Invoker:
    """``deckcli --db <session store> ARGS`` in-process; no traceback may leak out."""

    def __init__(self, db: Path) -> None:
        self.runner = CliRunner()
        self.db = db

    def __call__(self, *args: str | Path, expect: int | None = 0) -> Result:
        argv = ["--db", str(self.db), *map(str, args)]
        result = self.runner.invoke(app, argv)
        output = result.output
        assert "Traceback" not in output, output
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"deckcli {' '.join(argv)} raised {result.exception!r}\n{output}")
        if expect is not None:
            assert result.exit_code == expect, f"exit {result.exit_code} != {expect} for {argv}:\n{output}"
        return result


@pytest.fixture
def deckcli(rules_db: Path) -> Invoker:
    """Run the CLI against the session store."""
    return Invoker(rules_db)


# --------------------------------------------------------------------------- house formats

HOUSE_SECTIONS = """
[[sections]]
id = "main"
title = "Main Deck"
aliases = ["Main", "Main Deck", "Deck"]
types = ["elestral", "rune"]
min = 40
max = 40
cite = "Beginning a Game: 'A Main Deck with exactly 40 cards in it'"

[[sections]]
id = "spirit"
title = "Spirit Deck"
aliases = ["Spirit", "Spirits", "Spirit Deck"]
types = ["spirit"]
min = 20
max = 20
cite = "Beginning a Game: 'A Spirit Deck with exactly 20 Spirits in it'"

[[sections]]
id = "side"
title = "Side Deck"
aliases = ["Side", "Side Deck", "Sideboard"]
max = 12
optional = true
size_code = "side-size"
cite = "Tournament Rules: 'up to 12 total cards'"
"""

HOUSE_COPY_LIMIT = """
[[rules]]
kind = "copy-limit"
limit = 2
sections = ["main", "side"]
combined = true
key = "counts_as"
exempt_types = ["spirit"]
cite = "House rule 1: at most 2 copies of a card, Main and Side combined"
"""


def house_format(folder: Path, rules: str, *, stem: str = "house", name: str = "Friday Night Elestrals") -> Path:
    """Write an Elestrals house-format file with ``rules`` (TOML ``[[rules]]`` tables)."""
    path = folder / f"{stem}.toml"
    text = f'game = "elestrals"\nname = "{name}"\nrulebook = "elestrals.txt"\n' + HOUSE_SECTIONS + rules
    path.write_text(text, encoding="utf-8")
    return path

# ruff: noqa: F811  (pytest fixtures are imported, then named as parameters)
"""The real decklists in shared/realdata, read as they are and judged against the
bundled card data: the five Elestrals starter decks (text and JSON), the two Elekin
structure decks (text and JSON) and the two Elemental Clash decklists of 2016."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rules_fixtures import (
    CLASH_DECKLISTS,
    ELEKIN_DECKS,
    ELESTRALS_STARTERS,
    card_store,  # noqa: F401  (a fixture)
    deckcli,  # noqa: F401  (a fixture)
    pools,  # noqa: F401  (a fixture)
    requires_realdata,
    rules_db,  # noqa: F401  (a fixture)
)

from deckcli.cards.pool import CardPool
from deckcli.cards.store import CardStore
from deckcli.decks.io import read_deck_file
from deckcli.decks.model import Deck
from deckcli.rules import Report
from deckcli.rules.intake import check_files

pytestmark = requires_realdata

STARTER_TEXTS = [
    "SD01_Centaurbor_Starter_Deck.txt",
    "SD02_Trifernal_Starter_Deck.txt",
    "SD03_Majesea_Starter_Deck.txt",
    "SD04_Ohmperial_Starter_Deck.txt",
    "SD05_Penterror_Starter_Deck.txt",
]
STARTER_JSON = ELESTRALS_STARTERS / "starter_decks.json"
ELEKIN_TEXTS = ["Crystal_Structure_Deck.txt", "Lightning_Structure_Deck.txt"]
ELEKIN_JSON = ELEKIN_DECKS / "structure_decks.derived.json"


def _reports(store: CardStore, path: Path) -> list[Report]:
    """What ``deckcli validate PATH`` decides: the format inferred, then every rule."""
    return check_files(store, [path])


def _assert_judged_legal(report: Report, *, allowed_warnings: set[str]) -> None:
    assert report.valid, [f"{v.code}: {v.message}" for v in report.errors]
    assert report.errors == []
    assert {v.code for v in report.warnings} <= allowed_warnings


def _content(deck: Deck, pool: CardPool) -> dict[str, dict[str, int]]:
    """Section -> card (by its printed name in the data) -> copies."""
    result: dict[str, dict[str, int]] = {}
    for section, entries in deck.sections.items():
        for entry in entries:
            card = pool.find(entry.name)
            assert card is not None, entry.name
            bucket = result.setdefault(section, {})
            bucket[card.name] = bucket.get(card.name, 0) + entry.count
    return result


# ----------------------------------------------------------------------------- Elestrals


@pytest.mark.parametrize("name", STARTER_TEXTS)
def test_elestrals_starter_deck_text_is_legal(card_store: CardStore, name: str) -> None:
    path = ELESTRALS_STARTERS / name
    [deck] = read_deck_file(path)
    assert deck.problems == []
    assert (deck.count("main"), deck.count("spirit"), deck.count("side")) == (40, 20, 0)
    [report] = _reports(card_store, path)
    assert report.format == "elestrals" and report.format_source == "inferred"
    # Ohmperial plays Warmite (a Fire cost) with no Fire Spirit: a judge allows it; deckcli warns.
    _assert_judged_legal(report, allowed_warnings={"uncastable"} if name.startswith("SD04") else set())


def test_ohmperial_mount_olympus_is_mt_olympus(pools) -> None:
    [deck] = read_deck_file(ELESTRALS_STARTERS / "SD04_Ohmperial_Starter_Deck.txt")
    entry = next(e for e in deck.entries("main") if e.name == "Mount Olympus")
    card = pools["elestrals"].find(entry.name)
    assert card is not None and card.name == "Mt. Olympus" and entry.count == 2


def test_elestrals_starter_decks_json_are_legal(card_store: CardStore) -> None:
    reports = _reports(card_store, STARTER_JSON)
    assert len(reports) == 5
    assert sorted(r.deck for r in reports) == sorted(
        f"{hero} Starter Deck" for hero in ("Penterror", "Centarbour", "Majesea", "Ohmperial", "Trifernal")
    )
    for report in reports:
        assert report.format == "elestrals"
        _assert_judged_legal(report, allowed_warnings={"uncastable"} if "Ohmperial" in report.deck else set())


def test_elestrals_json_and_text_starter_decks_agree(pools) -> None:
    """The JSON export and the text export list the same cards for each product."""
    products = {item["official_set_code"]: item for item in json.loads(STARTER_JSON.read_text(encoding="utf-8"))}
    decks = {d.name: d for d in read_deck_file(STARTER_JSON)}
    for name in STARTER_TEXTS:
        code = name[:4]
        [text_deck] = read_deck_file(ELESTRALS_STARTERS / name)
        json_deck = decks[products[code]["title_in_db"]]
        assert _content(text_deck, pools["elestrals"]) == _content(json_deck, pools["elestrals"]), code


# ----------------------------------------------------------------------------- Elekin


@pytest.mark.parametrize("name", ELEKIN_TEXTS)
def test_elekin_structure_deck_text_is_legal(card_store: CardStore, pools, name: str) -> None:
    path = ELEKIN_DECKS / name
    [deck] = read_deck_file(path)
    assert deck.problems == []
    assert (deck.count("main"), deck.count("shields")) == (40, 3)
    tiers = sorted(pools["elekin"].find(e.name).data["tier"] for e in deck.entries("shields"))
    assert tiers == [1, 2, 3]
    [report] = _reports(card_store, path)
    assert report.format == "elekin"
    # The only remarks are about the card data (titans and slyphs without stats).
    _assert_judged_legal(report, allowed_warnings={"incomplete-card"})


def test_elekin_structure_decks_json_are_legal(card_store: CardStore, pools) -> None:
    reports = _reports(card_store, ELEKIN_JSON)
    assert [r.deck for r in reports] == ["Crystal Structure Deck", "Lightning Structure Deck"]
    for report in reports:
        assert report.format == "elekin"
        _assert_judged_legal(report, allowed_warnings={"incomplete-card"})
    by_name = {d.name: d for d in read_deck_file(ELEKIN_JSON)}
    for name in ELEKIN_TEXTS:
        [text_deck] = read_deck_file(ELEKIN_DECKS / name)
        json_deck = by_name[name.removesuffix(".txt").replace("_", " ")]
        assert _content(text_deck, pools["elekin"]) == _content(json_deck, pools["elekin"])


# ----------------------------------------------------------------------------- Elemental Clash


def test_elemental_clash_decklists(card_store: CardStore) -> None:
    first, second = _reports(card_store, CLASH_DECKLISTS)
    assert (first.format, second.format) == ("elemental-clash", "elemental-clash")
    assert first.deck.startswith("Deck 1 - Spellcaster: Prisma of the Many Colors")
    _assert_judged_legal(first, allowed_warnings={"provisional-card"})
    # Deck 2 is a 23-card excerpt of a truncated page: not a legal Spellbook.
    assert not second.valid
    [size] = second.errors
    assert (size.code, size.section, size.found, size.allowed) == ("deck-size", "main", 23, 40)


def test_elemental_clash_decklists_read_as_they_are() -> None:
    first, second = read_deck_file(CLASH_DECKLISTS)
    assert first.problems == [] and second.problems == []
    assert [e.name for e in first.entries("spellcaster")] == ["Prisma of the Many Colors"]
    assert [e.name for e in second.entries("spellcaster")] == ["Scalden Deathbringer"]
    assert (first.count("main"), second.count("main")) == (40, 23)


# ----------------------------------------------------------------------------- through the CLI


def test_all_real_decks_through_the_cli(deckcli) -> None:
    paths = [ELESTRALS_STARTERS, *(ELEKIN_DECKS / n for n in ELEKIN_TEXTS), ELEKIN_JSON, CLASH_DECKLISTS]
    data = json.loads(deckcli("validate", *paths, "--json", expect=1).stdout)
    verdicts = {d["source"]: d["valid"] for d in data}
    assert len(verdicts) == 5 + 5 + 2 + 2 + 2
    assert [source for source, valid in verdicts.items() if not valid] == [f"{CLASH_DECKLISTS}#2"]
    out = deckcli("validate", *paths, expect=1).stdout
    assert out.rstrip().endswith("15 of 16 decks legal.")
    deckcli("validate", ELESTRALS_STARTERS, expect=0)

"""Decklist forms: CSV and MTGO readers/writers, io dispatch, lossless round trips."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from deckcli.cards.pool import CardPool
from deckcli.cards.store import CardStore
from deckcli.decks.csvform import read_csv_deck, write_csv_deck
from deckcli.decks.io import (
    DECK_FORMS,
    DeckFileError,
    deck_difference,
    deck_files,
    form_for_path,
    read_deck_file,
    read_deck_text,
    render_deck,
    write_deck,
)
from deckcli.decks.jsonform import read_json_decks, write_json_deck
from deckcli.decks.model import METADATA_KEYS, SECTION_ORDER, Deck, DeckEntry
from deckcli.decks.mtgo import read_mtgo_deck, write_mtgo_deck
from deckcli.decks.text import read_text_deck, write_text_deck
from deckcli.rules.formats import find_format
from deckcli.rules.validate import validate

SAMPLES = Path(__file__).resolve().parents[1] / "card_db" / "decks"
GAMES = ("elestrals", "elekin", "aestery", "elemental-clash", "elemystic")


def sections_of(deck: Deck) -> dict[str, list[tuple[int, str]]]:
    return {s: [(e.count, e.name) for e in entries] for s, entries in deck.sections.items() if entries}


def metadata_of(deck: Deck) -> dict[str, str | None]:
    return {key: getattr(deck, key) for key in METADATA_KEYS}


# -- CSV ---------------------------------------------------------------------------------------


def test_csv_writer_form() -> None:
    deck = Deck(game="elemental-clash", name="Prisma, the deck", player='Ada "A" L')
    deck.add("spellcaster", DeckEntry(1, "Prisma of the Many Colors"))
    deck.add("main", DeckEntry(3, "Algorn, Wizard Adept"))
    deck.add("side", DeckEntry(2, "Mars' Rage"))
    assert write_csv_deck(deck) == (
        "count,name,section\n"
        ",elemental-clash,game\n"
        ',"Prisma, the deck",name\n'
        ',"Ada ""A"" L",player\n'
        "1,Prisma of the Many Colors,spellcaster\n"
        '3,"Algorn, Wizard Adept",main\n'
        "2,Mars' Rage,side\n"
    )
    back = read_csv_deck(write_csv_deck(deck))
    assert sections_of(back) == sections_of(deck)
    assert metadata_of(back) == metadata_of(deck)


def test_csv_reader_is_lenient() -> None:
    text = "Card;Qty;Board\nGlint;3;Main Deck\nMystic Ward;1;Shields\nBinding Coils;;SB\n\nSwoop;2;\n"
    deck = read_csv_deck(text, "x.csv")
    assert not deck.problems
    assert sections_of(deck) == {
        "main": [(3, "Glint"), (2, "Swoop")],
        "shields": [(1, "Mystic Ward")],
        "side": [(1, "Binding Coils")],
    }
    assert [e.line for e in deck.entries("main")] == [2, 6]


def test_csv_without_a_header_row() -> None:
    deck = read_csv_deck("3,Glint,main\n1,Mystic Ward,shields\n2,Swoop\n")
    assert sections_of(deck) == {"main": [(3, "Glint"), (2, "Swoop")], "shields": [(1, "Mystic Ward")]}


def test_csv_problems_name_their_line() -> None:
    text = (
        "count,name,section\n3,Glint,main\nthree,Swoop,main\n0,Stawid,main\n2,Lavrok,graveyard\n2,,main\n"
        '"1","Multi\nline",main\n4,Dumoles,main\n'
    )
    deck = read_csv_deck(text, "bad.csv")
    assert [(p.line, p.message) for p in deck.problems] == [
        (3, "count must be a whole number, found 'three'"),
        (4, "count must be at least 1, found 0"),
        (5, "unknown section 'graveyard' (expected main, spirit, shields, side, ...)"),
        (6, "the name column is empty"),
    ]
    assert sections_of(deck) == {"main": [(3, "Glint"), (1, "Multi\nline"), (4, "Dumoles")]}
    assert deck.entries("main")[2].line == 9  # the quoted newline makes record 7 two lines long


def test_csv_without_count_and_name_columns() -> None:
    deck = read_csv_deck("card_id,set\nA1,B2\n")
    assert [(p.line, p.message) for p in deck.problems] == [
        (1, "expected a header row naming the count and name columns (count,name,section)")
    ]


# -- MTGO ----------------------------------------------------------------------------------------


def test_mtgo_writer_form() -> None:
    deck = Deck(game="elestrals", name="Water")
    deck.add("main", DeckEntry(3, "Sluggle"))
    deck.add("main", DeckEntry(2, "Glauby"))
    deck.add("spirit", DeckEntry(12, "Leviaphin"))
    deck.add("side", DeckEntry(2, "Tsunami"))
    assert write_mtgo_deck(deck) == (
        "// Game: elestrals\n// Name: Water\n3 Sluggle\n2 Glauby\n\n"
        "// Spirit Deck\n12 Leviaphin\n\n"
        "Sideboard\n2 Tsunami\n"
    )
    assert write_mtgo_deck(deck, {"spirit": "Spirits"}).count("// Spirits\n") == 1


def test_mtgo_reader_reads_plain_mtgo_exports() -> None:
    # MTGO's own .txt export: no headers, the sideboard after the blank line.
    deck = read_mtgo_deck("4 Glint\n3 Swoop\n\n2 Binding Coils\n")
    assert sections_of(deck) == {"main": [(4, "Glint"), (3, "Swoop")], "side": [(2, "Binding Coils")]}
    deck = read_mtgo_deck("Deck\n4 Glint\n\n1 Swoop\n\nSideboard\n2 Binding Coils\nSB: 1 Stawid\n")
    assert sections_of(deck) == {
        "main": [(4, "Glint"), (1, "Swoop")],
        "side": [(2, "Binding Coils"), (1, "Stawid")],
    }


def test_mtgo_reader_maps_comment_headers_back() -> None:
    text = "// Game: elekin\n// exported by some tool\n3 Glint\n\n// Shields\n1 Mystic Ward\n\nSideboard:\n4x Swoop\n"
    deck = read_mtgo_deck(text)
    assert deck.game == "elekin"
    assert sections_of(deck) == {"main": [(3, "Glint")], "shields": [(1, "Mystic Ward")], "side": [(4, "Swoop")]}


def test_mtgo_reader_problems() -> None:
    deck = read_mtgo_deck("4 Glint\nnot a card line\n0 Swoop\n")
    assert [(p.line, p.text) for p in deck.problems] == [(2, "not a card line"), (3, "0 Swoop")]


def test_dek_files_in_the_native_text_form_still_read(tmp_path: Path) -> None:
    target = tmp_path / "old.dek"
    target.write_text("Game: elekin\nMain Deck:\nGlint x3\nShields:\n1 Mystic Ward\n", encoding="utf-8")
    (deck,) = read_deck_file(target)
    assert not deck.problems
    assert deck.game == "elekin"
    assert sections_of(deck) == {"main": [(3, "Glint")], "shields": [(1, "Mystic Ward")]}
    assert read_mtgo_deck("Game: elekin\n3 Glint\n").game == "elekin"


def test_mtgo_xml_dek_files() -> None:
    text = """<?xml version="1.0" encoding="utf-8"?>
<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <NetDeckID>0</NetDeckID>
  <Cards CatID="1" Quantity="4" Sideboard="false" Name="Glint" Annotation="0" />
  <Cards CatID="2" Quantity="2" Sideboard="true" Name="Binding Coils" Annotation="0" />
  <Cards CatID="3" Quantity="0" Sideboard="false" Name="Swoop" Annotation="0" />
</Deck>"""
    deck = read_mtgo_deck(text)
    assert sections_of(deck) == {"main": [(4, "Glint")], "side": [(2, "Binding Coils")]}
    assert len(deck.problems) == 1
    broken = read_mtgo_deck("<Deck><Cards")
    assert broken.problems and "not a readable MTGO .dek XML file" in broken.problems[0].message


# -- dispatch ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "explicit", "form"),
    [
        ("a.txt", None, "text"),
        ("a.TXT", None, "text"),
        ("a.json", None, "json"),
        ("a.csv", None, "csv"),
        ("a.dek", None, "mtgo"),
        ("a.foo", "mtgo", "mtgo"),
        ("a.txt", "JSON", "json"),
        ("a.out", ".dek", "mtgo"),
        ("a", "native", "text"),
    ],
)
def test_form_for_path(name: str, explicit: str | None, form: str) -> None:
    assert form_for_path(name, explicit) == form


def test_form_for_path_errors() -> None:
    with pytest.raises(DeckFileError, match="cannot tell which form"):
        form_for_path("deck.xlsx")
    with pytest.raises(DeckFileError, match="unknown deck form 'yaml'") as caught:
        form_for_path("deck.txt", "yaml")
    assert caught.value.hint == "valid forms: text, json, csv, mtgo"


def test_read_deck_file_dispatches_by_suffix(tmp_path: Path) -> None:
    csv_file = tmp_path / "d.csv"
    csv_file.write_text("count,name,section\n,elekin,game\n3,Glint,main\n", encoding="utf-8")
    dek_file = tmp_path / "d.dek"
    dek_file.write_text("// Game: elekin\n3 Glint\n\nSideboard\n1 Swoop\n", encoding="utf-8")
    (csv_deck,) = read_deck_file(csv_file)
    (dek_deck,) = read_deck_file(dek_file)
    assert (csv_deck.game, sections_of(csv_deck)) == ("elekin", {"main": [(3, "Glint")]})
    assert (dek_deck.game, sections_of(dek_deck)) == ("elekin", {"main": [(3, "Glint")], "side": [(1, "Swoop")]})
    assert deck_files([tmp_path]) == [csv_file, dek_file]
    # no suffix: JSON by content, else the native text form
    (by_content,) = read_deck_text('{"sections": {"main": [{"count": 3, "name": "Glint"}]}}', "x")
    assert sections_of(by_content) == {"main": [(3, "Glint")]}
    assert sections_of(read_deck_text("Main:\n3 Glint\n", "x")[0]) == {"main": [(3, "Glint")]}


def test_render_deck_refuses_to_lose_anything() -> None:
    deck = Deck(name="X")
    deck.add("main", DeckEntry(3, "Odd # Name"))
    with pytest.raises(DeckFileError, match="cannot write the deck as text without losing something"):
        render_deck(deck, "text")
    assert "Odd # Name" in render_deck(deck, "json")


def test_deck_difference() -> None:
    a = Deck(name="A")
    a.add("main", DeckEntry(3, "Glint"))
    b = Deck(name="A")
    b.add("main", DeckEntry(2, "Glint"))
    assert deck_difference(a, a) is None
    assert deck_difference(a, b) == "section main would read back differently (lost 3 Glint; gained 2 Glint)"
    assert deck_difference(a, Deck(name="B")) == "name 'A' would read back as 'B'"


# -- round trips ---------------------------------------------------------------------------------

_SAFE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 '-.,&!?()|éüßØΩ漢"
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéüßØΩ漢"


@st.composite
def safe_names(draw: st.DrawFn) -> str:
    """Names that no form can take for a header, metadata or a comment (see the brief)."""
    first = draw(st.sampled_from(_LETTERS))
    rest = draw(st.text(alphabet=_SAFE, max_size=24))
    name = (first + rest).rstrip()
    # "Name x3" and "3 x Name" are count forms, so a name may not end in "x3" or start with "x ".
    assume(not re.search(r"[xX]\s*\d+$", name) and not re.match(r"[xX]\s", name))
    return name


metadata_values = st.one_of(st.none(), safe_names())


@st.composite
def decks(draw: st.DrawFn) -> Deck:
    deck = Deck(**{key: draw(metadata_values) for key in METADATA_KEYS})
    chosen = draw(st.lists(st.sampled_from(SECTION_ORDER), min_size=1, unique=True))
    for section in SECTION_ORDER:
        if section in chosen:
            for name, count in draw(st.lists(st.tuples(safe_names(), st.integers(1, 99)), min_size=1, max_size=6)):
                deck.add(section, DeckEntry(count, name))
    return deck


def _text(deck: Deck) -> Deck:
    return read_text_deck(write_text_deck(deck))


def _json(deck: Deck) -> Deck:
    (back,) = read_json_decks(write_json_deck(deck))
    return back


def _csv(deck: Deck) -> Deck:
    return read_csv_deck(write_csv_deck(deck))


def _mtgo(deck: Deck) -> Deck:
    return read_mtgo_deck(write_mtgo_deck(deck))


ROUND_TRIPS: dict[str, Callable[[Deck], Deck]] = {"text": _text, "json": _json, "csv": _csv, "mtgo": _mtgo}


def _regression_deck() -> Deck:
    deck = Deck(name="Ada's deck (v2) | test")
    deck.add("hero", DeckEntry(2, "Xavier 0 Card"))
    deck.add("main", DeckEntry(99, "Algorn, Wizard Adept"))
    deck.add("side", DeckEntry(1, "x3y"))
    return deck


@pytest.mark.parametrize("form", list(ROUND_TRIPS))
@settings(max_examples=150, deadline=None)
@given(deck=decks())
@example(deck=_regression_deck())
def test_round_trip_is_lossless(form: str, deck: Deck) -> None:
    back = ROUND_TRIPS[form](deck)
    assert not back.problems
    assert metadata_of(back) == metadata_of(deck)
    assert sections_of(back) == sections_of(deck)


@settings(max_examples=60, deadline=None)
@given(deck=decks(), path=st.permutations(list(DECK_FORMS)))
def test_chained_conversions_are_lossless(deck: Deck, path: list[str]) -> None:
    current = deck
    for form in path:
        text = render_deck(current, form)
        (current,) = read_deck_text(text, "x", DECK_FORMS[form])
    assert metadata_of(current) == metadata_of(deck)
    assert sections_of(current) == sections_of(deck)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CardStore]:
    with CardStore.open(tmp_path_factory.mktemp("convert-store") / "cards.sqlite") as opened:
        yield opened


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("form", list(DECK_FORMS))
def test_sample_decks_survive_every_form(tmp_path: Path, store: CardStore, game: str, form: str) -> None:
    (deck,) = read_deck_file(SAMPLES / f"{game}-sample.txt")
    fmt = find_format(game)
    target = tmp_path / f"deck{DECK_FORMS[form]}"
    target.write_text(write_deck(deck, form, fmt.titles()), encoding="utf-8")
    (back,) = read_deck_file(target)
    assert metadata_of(back) == metadata_of(deck)
    assert sections_of(back) == sections_of(deck)
    pool = CardPool.load(store, game)
    before, after = validate(deck, fmt, pool), validate(back, fmt, pool)
    assert after.valid and [v.code for v in after.violations] == [v.code for v in before.violations]

"""Round trips: writing a deck and reading it back gives the same deck (text and JSON)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_fixtures import SAMPLES

from deckcli.decks.jsonform import deck_to_json, read_json_decks, write_json_deck
from deckcli.decks.model import INLINE_SECTIONS, SECTION_ORDER, Deck, DeckEntry
from deckcli.decks.text import read_text_deck, read_text_decks, write_text_deck
from deckcli.games import game_ids
from deckcli.rules import find_format

# Card names and metadata values: no leading/trailing space, no newline, not starting
# with "#" or "//" (comments) and not readable as metadata or a header. The alphabet has
# no "#" or "/" at all (" #" and " //" start a trailing comment); a name starts with a
# letter (a leading number would be a count) and not with "x " ("3 x Name" is 3 Name).
_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 '-,.&|()!?:éüßÆΩ’"
_FIRST = "abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWYZéüßÆΩ"  # a letter, not x


def _name(first: str, rest: str) -> str:
    return (first + rest).rstrip()


names = st.builds(_name, st.sampled_from(_FIRST), st.text(alphabet=_ALPHABET, max_size=24))
values = st.none() | names
entries = st.lists(st.tuples(st.integers(1, 99), names), min_size=1, max_size=5)
sections = st.dictionaries(st.sampled_from(SECTION_ORDER), entries, min_size=1, max_size=len(SECTION_ORDER))


@st.composite
def decks(draw: st.DrawFn) -> Deck:
    deck = Deck(game=draw(values), name=draw(values), player=draw(values), event=draw(values), date=draw(values))
    for section, items in draw(sections).items():
        for count, name in items:
            deck.add(section, DeckEntry(count, name))
    return deck


def _content(deck: Deck) -> tuple[object, ...]:
    """What a round trip must keep: metadata and each section's (count, name) in order."""
    return (
        deck.game,
        deck.name,
        deck.player,
        deck.event,
        deck.date,
        {s: [(e.count, e.name) for e in entries] for s, entries in deck.sections.items() if entries},
    )


@settings(max_examples=150, deadline=None)
@given(decks())
def test_text_round_trip(deck: Deck) -> None:
    text = write_text_deck(deck)
    back = read_text_deck(text)
    assert back.problems == [], (text, back.problems)
    assert _content(back) == _content(deck), text
    assert write_text_deck(back) == text


@settings(max_examples=150, deadline=None)
@given(decks())
def test_json_round_trip(deck: Deck) -> None:
    text = write_json_deck(deck)
    [back] = read_json_decks(text)
    assert back.problems == []
    assert _content(back) == _content(deck)
    assert write_json_deck(back) == text


# JSON keeps any name a text file cannot: spaces inside, "#", "//", leading digits.
wild_names = (
    st.builds(_name, st.characters(blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc")), st.text(max_size=20))
    .map(str.strip)
    .filter(bool)
)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(SECTION_ORDER), st.integers(1, 9), wild_names), min_size=1, max_size=10))
def test_json_round_trip_any_name(items: list[tuple[str, int, str]]) -> None:
    deck = Deck(game="elekin")
    for section, count, name in items:
        deck.add(section, DeckEntry(count, name))
    [back] = read_json_decks(write_json_deck(deck))
    assert _content(back) == _content(deck)


@settings(max_examples=40, deadline=None)
@given(st.lists(decks(), min_size=2, max_size=3))
def test_json_round_trip_several_decks(many: list[Deck]) -> None:
    text = json.dumps([deck_to_json(d) for d in many], ensure_ascii=False)
    back = read_json_decks(text, "many.json")
    assert len(back) == len(many)
    for index, (original, read) in enumerate(zip(many, back, strict=True), 1):
        assert _content(read) == _content(original)  # a plain list shares no game: each keeps its own
        assert read.source == f"many.json#{index}"


@settings(max_examples=60, deadline=None)
@given(decks())
def test_text_round_trip_with_line_numbers(deck: Deck) -> None:
    """Each entry read back carries the line it was written on."""
    text = write_text_deck(deck)
    lines = text.splitlines()
    back = read_text_deck(text)
    for section, entries in back.sections.items():
        for entry in entries:
            assert entry.line is not None
            line = lines[entry.line - 1]
            assert line.endswith(entry.name)
            if section not in INLINE_SECTIONS:
                assert line == f"{entry.count} {entry.name}"


@pytest.mark.parametrize("game", game_ids())
def test_format_titles_read_back_as_the_same_sections(game: str) -> None:
    """Writing a deck with a format's own section titles (Spellbook, Sideboard, Shields,
    Elements, ...) reads back into the same sections."""
    fmt = find_format(game)
    deck = Deck(game=game, name=f"{game} titles")
    for index, spec in enumerate(fmt.sections, 1):
        deck.add(spec.id, DeckEntry(index, f"Card {spec.id}"))
    text = write_text_deck(deck, fmt.titles())
    for spec in fmt.sections:
        assert spec.title in text
    assert _content(read_text_deck(text)) == _content(deck)


@pytest.mark.parametrize("game", game_ids())
def test_bundled_samples_round_trip(game: str) -> None:
    original = read_text_deck((SAMPLES / f"{game}-sample.txt").read_text(encoding="utf-8"))
    assert _content(read_text_deck(write_text_deck(original))) == _content(original)
    assert _content(read_json_decks(write_json_deck(original))[0]) == _content(original)
    assert len(read_text_decks(write_text_deck(original).splitlines())) == 1

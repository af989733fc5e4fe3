"""The line-preserving deck editor (deckcli/decks/edit.py) and atomic writes (files.py)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcli.cards.pool import CardPool
from deckcli.cards.store import CardStore, StoredCard
from deckcli.decks import files
from deckcli.decks.edit import (
    DeckEditError,
    SectionLayout,
    add_card_to_file,
    add_to_text,
    new_deck_text,
    parse_card_spec,
    place_entries,
    remove_card_from_file,
    remove_from_text,
    settle_implicit,
    with_count,
)
from deckcli.decks.files import DeckFileError, DeckFileExistsError, read_text_file, write_text_atomic
from deckcli.decks.text import read_text_deck
from deckcli.errors import CardNotFoundError, DeckcliError
from deckcli.rules.formats import find_format

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "card_db" / "decks"
GAMES = ("elestrals", "elekin", "aestery", "elemental-clash", "elemystic")


def layout(game: str) -> SectionLayout:
    return SectionLayout.from_sections(find_format(game).sections)


def tiny_pool() -> CardPool:
    """A hand-made Elestrals pool: enough to test the editor without a store."""
    cards = [
        StoredCard("elestrals", "Sluggle", "elestral", {"cost": ["water"]}),
        StoredCard("elestrals", "Glauby", "elestral", {"cost": ["water", "water"]}),
        StoredCard("elestrals", "Tsunami", "rune", {"cost": ["water"]}),
        StoredCard("elestrals", "Leviaphin", "spirit", {"element": "water"}),
        StoredCard("elestrals", "Vipyro", "spirit", {"element": "fire"}),
    ]
    return CardPool("elestrals", cards)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CardStore]:
    """A real store filled from the bundled data (read only in these tests)."""
    with CardStore.open(tmp_path_factory.mktemp("edit-store") / "cards.sqlite") as opened:
        yield opened


def pool_of(store: CardStore, game: str) -> CardPool:
    return CardPool.load(store, game)


def changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    """Lines that differ, pairwise (for same-length texts)."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    assert len(old) == len(new)
    return [(a, b) for a, b in zip(old, new, strict=True) if a != b]


# -- what the user types ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("3 Glint", (3, "Glint")),
        ("3x Glint", (3, "Glint")),
        ("3X Glint", (3, "Glint")),
        ("Glint x3", (3, "Glint")),
        ("Glint x 3", (3, "Glint")),
        ("Glint", (1, "Glint")),
        ("  Veton | The Lightning Dragon ", (1, "Veton | The Lightning Dragon")),
        ("2 veton, the lightning dragon", (2, "veton, the lightning dragon")),
        ("12 Leviaphin", (12, "Leviaphin")),
    ],
)
def test_parse_card_spec(spec: str, expected: tuple[int, str]) -> None:
    assert parse_card_spec(spec) == expected


@pytest.mark.parametrize("spec", ["", "   ", "0 Glint", "Glint x0"])
def test_parse_card_spec_rejects(spec: str) -> None:
    with pytest.raises(DeckEditError):
        parse_card_spec(spec)


@pytest.mark.parametrize(
    ("line", "count", "expected"),
    [
        ("3 Glint", 5, "5 Glint"),
        ("3x Glint", 5, "5x Glint"),
        ("3X  Glint", 12, "12X  Glint"),
        ("3xGlint", 1, "1xGlint"),
        ("Glint x3", 2, "Glint x2"),
        ("Glint x 3", 2, "Glint x 2"),
        ("  3 Glint   # the best one", 4, "  4 Glint   # the best one"),
        ("3 Glint // note", 4, "4 Glint // note"),
        ("SB: 2 Glint", 3, "SB: 3 Glint"),
        ("sb:2x Glint", 3, "sb:3x Glint"),
        ("Hero: Demo Wildfire Twins", 2, "Hero: 2 Demo Wildfire Twins"),
        ("Hero: 2 Demo Wildfire Twins", 1, "Hero: 1 Demo Wildfire Twins"),
        ("Spellcaster: Prisma of the Many Colors", 2, "Spellcaster: 2 Prisma of the Many Colors"),
    ],
)
def test_with_count_changes_only_the_count(line: str, count: int, expected: str) -> None:
    assert with_count(line, count) == expected


def test_with_count_refuses_a_line_without_a_count() -> None:
    with pytest.raises(DeckEditError):
        with_count("Main Deck:", 3)


# -- sections ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "word", "section"),
    [
        ("elestrals", "spirit", "spirit"),
        ("elestrals", "Spirit Deck", "spirit"),
        ("elestrals", "SPIRITS", "spirit"),
        ("elestrals", "sb", "side"),
        ("elestrals", "Sideboard", "side"),
        ("elestrals", "main", "main"),
        ("elestrals", "main-deck", "main"),
        ("elekin", "shield", "shields"),
        ("elemental-clash", "Spellbook", "main"),
        ("elemental-clash", "spellcaster", "spellcaster"),
        ("elemystic", "main", "elements"),
        ("elemystic", "Elements", "elements"),
        ("aestery", "hero", "hero"),
    ],
)
def test_layout_resolves_section_words(game: str, word: str, section: str) -> None:
    assert layout(game).resolve(word) == section


def test_layout_rejects_unknown_section_with_the_valid_ones() -> None:
    with pytest.raises(DeckEditError) as caught:
        layout("elekin").resolve("spirit")
    assert "unknown section 'spirit'" in caught.value.message
    assert caught.value.hint is not None and "shields (Shields)" in caught.value.hint


@pytest.mark.parametrize(
    ("game", "card_type", "section"),
    [
        ("elestrals", "elestral", "main"),
        ("elestrals", "rune", "main"),
        ("elestrals", "spirit", "spirit"),
        ("elekin", "creature", "main"),
        ("elekin", "shield", "shields"),
        ("aestery", "hero", "hero"),
        ("aestery", "fighter", "main"),
        ("elemental-clash", "spellcaster", "spellcaster"),
        ("elemental-clash", "element-stone", "main"),
        ("elemystic", "element", "elements"),
        ("elemystic", "token", "elements"),
    ],
)
def test_layout_home_by_card_type(game: str, card_type: str, section: str) -> None:
    assert layout(game).home(card_type) == section


# -- adding --------------------------------------------------------------------------------------

DECK = """\
# My water deck -- keep this comment
Game: elestrals
Name: Water
Player: Ada

Main Deck:
3 Sluggle   # opener
2x Glauby
// runes
Tsunami x2

Spirit Deck:
12 Leviaphin
"""


def test_add_existing_card_changes_only_its_count() -> None:
    result = add_to_text(DECK, "Sluggle", 1, None, layout("elestrals"), tiny_pool())
    assert changed_lines(DECK, result.text) == [("3 Sluggle   # opener\n", "4 Sluggle   # opener\n")]
    assert (result.section, result.before, result.after, result.line, result.change) == ("main", 3, 4, 7, "count")


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [("Glauby", "2x Glauby\n", "5x Glauby\n"), ("Tsunami", "Tsunami x2\n", "Tsunami x5\n")],
)
def test_add_keeps_the_count_style(name: str, old: str, new: str) -> None:
    result = add_to_text(DECK, name, 3, None, layout("elestrals"), tiny_pool())
    assert changed_lines(DECK, result.text) == [(old, new)]


def test_add_matches_any_spelling_of_the_name() -> None:
    result = add_to_text(DECK, "SLUGGLE", 1, "main", layout("elestrals"), tiny_pool())
    assert result.change == "count"


def test_new_card_goes_after_the_last_card_of_its_section() -> None:
    text = DECK.replace("12 Leviaphin\n", "12 Leviaphin\n# end\n")
    result = add_to_text(text, "Vipyro", 5, None, layout("elestrals"), tiny_pool())
    assert result.text == text.replace("12 Leviaphin\n", "12 Leviaphin\n5 Vipyro\n")
    assert (result.section, result.line, result.change) == ("spirit", 14, "new-line")
    # a main-deck card goes after "Tsunami x2", before the blank line and the next header
    result = add_to_text(DECK, "Tsunami", 1, "side", layout("elestrals"), tiny_pool())
    assert result.text == DECK + "Side Deck:\n1 Tsunami\n"


def test_new_card_in_a_section_with_only_a_header() -> None:
    text = "Game: elestrals\nMain Deck:\nSpirit Deck:\nSide Deck:\n"
    result = add_to_text(text, "Leviaphin", 12, None, layout("elestrals"), tiny_pool())
    assert result.text == "Game: elestrals\nMain Deck:\nSpirit Deck:\n12 Leviaphin\nSide Deck:\n"
    result = add_to_text(result.text, "Sluggle", 3, None, layout("elestrals"), tiny_pool())
    assert result.text == "Game: elestrals\nMain Deck:\n3 Sluggle\nSpirit Deck:\n12 Leviaphin\nSide Deck:\n"


def test_missing_section_gets_a_header_with_the_format_title() -> None:
    text = "Game: elemental-clash\nSpellbook:\n3 Ball Lightning\n"
    result = add_to_text(text, "Ball Lightning", 2, "side", layout("elemental-clash"))
    assert result.text == text + "Sideboard:\n2 Ball Lightning\n"
    text = "Game: elestrals\nMain:\n3 Sluggle"  # no final newline
    result = add_to_text(text, "Leviaphin", 1, None, layout("elestrals"), tiny_pool())
    assert result.text == "Game: elestrals\nMain:\n3 Sluggle\nSpirit Deck:\n1 Leviaphin\n"


def test_inline_sections_are_written_inline_after_the_metadata(store: CardStore) -> None:
    text = "# a comment\nGame: aestery\nName: Demo\nMain Deck:\n4 Demo Ember Raider\n"
    pool = pool_of(store, "aestery")
    result = add_to_text(text, "Demo Wildfire Twins", 1, None, layout("aestery"), pool)
    assert result.text == text.replace("Name: Demo\n", "Name: Demo\nHero: Demo Wildfire Twins\n")
    assert (result.section, result.line) == ("hero", 4)
    again = add_to_text(result.text, "demo wildfire twins", 1, None, layout("aestery"), pool)
    assert "Hero: 2 Demo Wildfire Twins\n" in again.text
    back = remove_from_text(again.text, "Demo Wildfire Twins", 2, None, layout("aestery"), pool)
    assert back.text == text


def test_add_keeps_crlf_line_endings_and_everything_else() -> None:
    text = DECK.replace("\n", "\r\n")
    result = add_to_text(text, "Vipyro", 2, None, layout("elestrals"), tiny_pool())
    assert result.text == text + "2 Vipyro\r\n"
    result = add_to_text(text, "Sluggle", 1, None, layout("elestrals"), tiny_pool())
    assert changed_lines(text, result.text) == [("3 Sluggle   # opener\r\n", "4 Sluggle   # opener\r\n")]


def test_header_less_list_keeps_its_blank_line_sideboard() -> None:
    # MTGO habit: no headers, the block after the blank line is the side deck.
    text = "3 Sluggle\n2 Glauby\n\n2 Tsunami\n"
    result = add_to_text(text, "Leviaphin", 12, None, layout("elestrals"), tiny_pool())
    assert result.text == "3 Sluggle\n2 Glauby\n\nSide Deck:\n2 Tsunami\nSpirit Deck:\n12 Leviaphin\n"
    deck = read_text_deck(result.text)
    assert [(e.count, e.name) for e in deck.entries("side")] == [(2, "Tsunami")]
    # adding to the side block itself needs no header
    result = add_to_text(text, "Tsunami", 1, "side", layout("elestrals"), tiny_pool())
    assert result.text == "3 Sluggle\n2 Glauby\n\n3 Tsunami\n"


def test_emptying_the_main_block_of_a_header_less_list_keeps_the_side_deck() -> None:
    text = "3 Sluggle\n# a comment\n\n2 Tsunami\n"
    result = remove_from_text(text, "Sluggle", 3, None, layout("elestrals"), tiny_pool())
    assert result.text == "# a comment\n\nSide Deck:\n2 Tsunami\n"
    assert [(e.count, e.name) for e in read_text_deck(result.text).entries("side")] == [(2, "Tsunami")]
    # while the main block keeps a card, nothing needs pinning
    text = "3 Sluggle\n2 Glauby\n\n2 Tsunami\n"
    result = remove_from_text(text, "Sluggle", 3, None, layout("elestrals"), tiny_pool())
    assert result.text == "2 Glauby\n\n2 Tsunami\n"


def test_header_less_spirits_count_where_validation_puts_them() -> None:
    text = "3 Sluggle\n12 Leviaphin\n"
    result = add_to_text(text, "Leviaphin", 1, None, layout("elestrals"), tiny_pool())
    assert result.text == "3 Sluggle\n13 Leviaphin\n"


def test_header_less_list_gets_a_header_when_the_type_would_move_the_card() -> None:
    # A Spirit written among header-less cards would count in the Spirit Deck; asked for
    # the Main Deck (a wrong-section deck, but what the user asked), it gets a header.
    text = "3 Sluggle\n"
    result = add_to_text(text, "Vipyro", 1, "main", layout("elestrals"), tiny_pool())
    assert result.text == "3 Sluggle\nMain Deck:\n1 Vipyro\n"


def test_sideboard_lines_get_a_new_sideboard_line() -> None:
    text = "Main Deck:\n3 Sluggle\nSB: 2 Tsunami\n2 Glauby\n"
    result = add_to_text(text, "Vipyro", 1, "side", layout("elestrals"), tiny_pool())
    assert result.text == "Main Deck:\n3 Sluggle\nSB: 2 Tsunami\nSB: 1 Vipyro\n2 Glauby\n"
    result = remove_from_text(result.text, "Tsunami", 2, None, layout("elestrals"), tiny_pool())
    assert result.text == "Main Deck:\n3 Sluggle\nSB: 1 Vipyro\n2 Glauby\n"


def test_an_edit_that_would_read_back_differently_is_refused() -> None:
    with pytest.raises(DeckEditError, match="without changing how other lines"):
        add_to_text(DECK, "Odd # Name", 1, "main", layout("elestrals"))


def test_multi_deck_files_are_refused() -> None:
    text = "## Deck A\n3 Sluggle\n## Deck B\n3 Glauby\n"
    with pytest.raises(DeckEditError, match="holds 2 decks"):
        add_to_text(text, "Sluggle", 1, None, layout("elestrals"), tiny_pool())


def test_count_must_be_positive() -> None:
    with pytest.raises(DeckEditError):
        add_to_text(DECK, "Sluggle", 0, None, layout("elestrals"), tiny_pool())


# -- removing ------------------------------------------------------------------------------------


def test_remove_lowers_the_count_in_place() -> None:
    result = remove_from_text(DECK, "Sluggle", 2, None, layout("elestrals"), tiny_pool())
    assert changed_lines(DECK, result.text) == [("3 Sluggle   # opener\n", "1 Sluggle   # opener\n")]
    assert (result.before, result.after, result.change, result.line) == (3, 1, "count", 7)


def test_remove_every_copy_deletes_the_line() -> None:
    result = remove_from_text(DECK, "glauby", 2, None, layout("elestrals"), tiny_pool())
    assert result.text == DECK.replace("2x Glauby\n", "")
    assert (result.name, result.after, result.change, result.line) == ("Glauby", 0, "deleted-line", 8)


def test_remove_more_than_present_is_an_error() -> None:
    with pytest.raises(DeckEditError, match="holds only 2"):
        remove_from_text(DECK, "Glauby", 3, None, layout("elestrals"), tiny_pool())


def test_remove_a_card_the_deck_lacks_is_an_error() -> None:
    with pytest.raises(DeckEditError, match="Vipyro is not in the deck"):
        remove_from_text(DECK, "Vipyro", 1, None, layout("elestrals"), tiny_pool())
    with pytest.raises(DeckEditError, match="not in the Side Deck"):
        remove_from_text(DECK, "Sluggle", 1, "side", layout("elestrals"), tiny_pool())


def test_remove_across_several_lines_takes_the_last_first() -> None:
    text = "Main Deck:\n2 Sluggle\n1 Glauby\n2 Sluggle\n"
    result = remove_from_text(text, "Sluggle", 3, None, layout("elestrals"), tiny_pool())
    assert result.text == "Main Deck:\n1 Sluggle\n1 Glauby\n"


def test_remove_chooses_the_section() -> None:
    text = "Main Deck:\n3 Tsunami\nSpirit Deck:\n12 Leviaphin\nSide Deck:\n2 Tsunami\n3 Leviaphin\n"
    pool, sections = tiny_pool(), layout("elestrals")
    # in two sections: the one its type belongs in
    assert remove_from_text(text, "Tsunami", 1, None, sections, pool).section == "main"
    assert remove_from_text(text, "Leviaphin", 1, None, sections, pool).section == "spirit"
    assert remove_from_text(text, "Tsunami", 1, "side", sections, pool).section == "side"
    # in two sections, neither its own: say which
    odd = "Spirit Deck:\n1 Tsunami\nSide Deck:\n2 Tsunami\n"
    with pytest.raises(DeckEditError, match="in Spirit Deck and Side Deck") as caught:
        remove_from_text(odd, "Tsunami", 1, None, sections, pool)
    assert caught.value.hint == "say which one with --from SECTION"


def test_remove_then_add_gives_back_the_sample_decks(store: CardStore) -> None:
    """For every card held 2+ times, removing one copy and adding it back is a no-op."""
    for game in GAMES:
        text = (SAMPLES / f"{game}-sample.txt").read_text(encoding="utf-8")
        pool, sections = pool_of(store, game), layout(game)
        deck = read_text_deck(text)
        for section, entries in deck.sections.items():
            for entry in entries:
                if entry.count < 2:
                    continue
                target = sections.target(section)
                removed = remove_from_text(text, entry.name, 1, target, sections, pool)
                assert len(changed_lines(text, removed.text)) == 1
                added = add_to_text(removed.text, entry.name, 1, target, sections, pool)
                assert added.text == text, (game, entry.name)


# -- property: any sequence of edits reads back as the model says -----------------------------

NAMES = ("Sluggle", "Glauby", "Tsunami", "Leviaphin", "Vipyro")
STARTS = (
    "# header comment\nGame: elestrals\nMain Deck:\n\n# trailing\n",
    "",
    "3 Sluggle\n# a comment\n\n2 Tsunami\n",  # no headers: the last block is the side deck
    "Main Deck:\r\n2x Glauby  // note\r\nSB: 1 Tsunami\r\nSpirit Deck:\r\n# the spirits\r\nLeviaphin x 9",
    "12 Leviaphin\n3 Sluggle\n",  # a header-less Spirit counts in the Spirit Deck
)


def _counts(text: str) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for item in place_entries(read_text_deck(text), layout("elestrals"), tiny_pool()):
        key = (item.section, item.key)
        counts[key] = counts.get(key, 0) + item.entry.count
    return counts


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(STARTS),
    st.lists(
        st.tuples(
            st.booleans(),
            st.sampled_from(NAMES),
            st.integers(1, 4),
            st.sampled_from([None, "main", "spirit", "side"]),
        ),
        max_size=12,
    ),
)
def test_random_edits_match_a_simple_model(start: str, edits: list[tuple[bool, str, int, str | None]]) -> None:
    pool, sections = tiny_pool(), layout("elestrals")
    text = start
    model = _counts(start)
    comments = [line for line in start.splitlines() if line.lstrip().startswith(("#", "//"))]
    for adding, name, count, section in edits:
        if adding:
            result = add_to_text(text, name, count, section, sections, pool)
            change = count
        else:
            try:
                result = remove_from_text(text, name, count, section, sections, pool)
            except DeckEditError as exc:
                assert "cannot be made" not in exc.message
                continue
            change = -count
        key = (result.section, name.lower())
        model[key] = model.get(key, 0) + change
        text = result.text
        # every comment survives, in order
        assert [line for line in text.splitlines() if line.lstrip().startswith(("#", "//"))] == comments
    assert _counts(text) == {key: n for key, n in model.items() if n}


# -- new decks -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_new_deck_text_has_game_metadata_and_headers(game: str) -> None:
    text = new_deck_text(game, layout(game), name="My Deck", player="Ada", event="Locals")
    deck = read_text_deck(text)
    assert (deck.game, deck.name, deck.player, deck.event) == (game, "My Deck", "Ada", "Locals")
    assert not deck.problems
    for spec in find_format(game).sections:
        if spec.id not in ("hero", "spellcaster"):
            assert f"\n{spec.title}:\n" in text


def test_new_deck_text_refuses_values_that_would_not_read_back() -> None:
    with pytest.raises(DeckEditError, match="--name"):
        new_deck_text("elekin", layout("elekin"), name="Ada's # deck")
    with pytest.raises(DeckEditError, match="one non-empty line"):
        new_deck_text("elekin", layout("elekin"), player="Ada\nGame: elestrals")


def test_settle_implicit_moves_header_less_cards_to_their_section() -> None:
    deck = read_text_deck("3 Sluggle\n12 Leviaphin\n")
    settled = settle_implicit(deck, layout("elestrals"), tiny_pool())
    assert [(s, [e.name for e in es]) for s, es in settled.sections.items()] == [
        ("main", ["Sluggle"]),
        ("spirit", ["Leviaphin"]),
    ]
    assert [e.name for e in deck.entries("main")] == ["Sluggle", "Leviaphin"]  # the original is untouched


# -- files: atomic writes ---------------------------------------------------------------------------


def test_write_text_atomic_creates_and_refuses_to_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "deck.txt"
    write_text_atomic(target, "one\n")
    assert target.read_text() == "one\n"
    with pytest.raises(DeckFileExistsError) as caught:
        write_text_atomic(target, "two\n")
    assert caught.value.hint == "pass --force to overwrite it"
    assert target.read_text() == "one\n"
    write_text_atomic(target, "two\n", force=True)
    assert target.read_text() == "two\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.txt"]


def test_write_text_atomic_keeps_permissions(tmp_path: Path) -> None:
    target = tmp_path / "deck.txt"
    target.write_text("old\n")
    target.chmod(0o640)
    write_text_atomic(target, "new\n", force=True)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_failed_replace_leaves_the_original_and_no_temp_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "deck.txt"
    target.write_bytes(b"original\n")

    def broken_replace(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", broken_replace)
    with pytest.raises(DeckFileError, match="No space left on device"):
        write_text_atomic(target, "new\n", force=True)
    assert target.read_bytes() == b"original\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.txt"]


def test_failed_write_leaves_no_temp_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "deck.txt"

    def broken_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(files.os, "fsync", broken_fsync)
    with pytest.raises(DeckFileError, match="Input/output error"):
        write_text_atomic(target, "new\n")
    assert list(tmp_path.iterdir()) == []


def test_no_hard_links_falls_back_to_checked_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(src: object, dst: object) -> None:
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(files.os, "link", no_links)
    target = tmp_path / "deck.txt"
    write_text_atomic(target, "one\n")
    assert target.read_text() == "one\n"
    with pytest.raises(DeckFileExistsError):
        write_text_atomic(target, "two\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.txt"]


def test_write_into_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DeckFileError, match="does not exist"):
        write_text_atomic(tmp_path / "nope" / "deck.txt", "x\n")


# -- files: editing on disk -------------------------------------------------------------------------


def test_file_edit_preserves_every_other_byte(tmp_path: Path, store: CardStore) -> None:
    sample = (SAMPLES / "elekin-sample.txt").read_bytes()
    target = tmp_path / "deck.txt"
    target.write_bytes(sample)
    result = add_card_to_file(target, "skitters", layout("elekin"), pool_of(store, "elekin"))
    assert (result.name, result.section, result.change) == ("Skitters", "main", "new-line")
    after = target.read_bytes()
    lines = sample.decode().splitlines(keepends=True)
    # after "2 Passive Aggressive", the Main Deck's last card; nothing else changes
    lines.insert(lines.index("2 Passive Aggressive\n") + 1, "1 Skitters\n")
    assert after.decode() == "".join(lines)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.txt"]


def test_file_edit_with_a_typo_changes_nothing(tmp_path: Path, store: CardStore) -> None:
    target = tmp_path / "deck.txt"
    target.write_bytes((SAMPLES / "elekin-sample.txt").read_bytes())
    before = target.read_bytes()
    with pytest.raises(CardNotFoundError) as caught:
        add_card_to_file(target, "2 Skiters", layout("elekin"), pool_of(store, "elekin"))
    assert "Skitters" in caught.value.suggestions
    with pytest.raises(CardNotFoundError):
        remove_card_from_file(target, "Skiters", layout("elekin"), pool_of(store, "elekin"))
    assert target.read_bytes() == before


def test_file_remove_of_an_unknown_card_the_file_has(tmp_path: Path, store: CardStore) -> None:
    target = tmp_path / "deck.txt"
    target.write_text("Game: elekin\nMain Deck:\n3 Glint\n2 Skiters\n", encoding="utf-8")
    result = remove_card_from_file(target, "2 skiters", layout("elekin"), pool_of(store, "elekin"))
    assert result.change == "deleted-line"
    assert target.read_text(encoding="utf-8") == "Game: elekin\nMain Deck:\n3 Glint\n"


def test_file_remove_too_many_changes_nothing(tmp_path: Path, store: CardStore) -> None:
    target = tmp_path / "deck.txt"
    target.write_bytes((SAMPLES / "elekin-sample.txt").read_bytes())
    before = target.read_bytes()
    with pytest.raises(DeckEditError) as caught:
        remove_card_from_file(target, "4 Glint", layout("elekin"), pool_of(store, "elekin"))
    assert caught.value.message.startswith(f"{target}: cannot remove 4 Glint: the Main Deck holds only 3")
    assert target.read_bytes() == before


def test_file_edit_keeps_encoding_and_bom(tmp_path: Path, store: CardStore) -> None:
    pool = pool_of(store, "elekin")
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbfGame: elekin\r\nMain Deck:\r\n3 Glint\r\n")
    add_card_to_file(bom, "Glint", layout("elekin"), pool)
    assert bom.read_bytes() == b"\xef\xbb\xbfGame: elekin\r\nMain Deck:\r\n4 Glint\r\n"
    legacy = tmp_path / "cp1252.txt"
    legacy.write_bytes("Game: elekin\n# caf\u00e9 list\nMain Deck:\n3 Glint\n".encode("cp1252"))
    add_card_to_file(legacy, "Swoop", layout("elekin"), pool)
    assert legacy.read_bytes() == "Game: elekin\n# caf\u00e9 list\nMain Deck:\n3 Glint\n1 Swoop\n".encode("cp1252")
    assert read_text_file(legacy).encoding == "cp1252"
    # Windows Notepad's "Unicode": UTF-16 with a byte-order mark, written back the same way.
    wide = tmp_path / "utf16.txt"
    wide.write_bytes("Game: elekin\r\nMain Deck:\r\n3 Glint\r\n".encode("utf-16"))
    add_card_to_file(wide, "Glint", layout("elekin"), pool)
    assert wide.read_bytes() == "Game: elekin\r\nMain Deck:\r\n4 Glint\r\n".encode("utf-16")


def test_binary_files_are_refused_not_misread(tmp_path: Path) -> None:
    binary = tmp_path / "deck.txt"
    binary.write_bytes(b"3 Glint\n\x00\x01\x02PK\x03\x04")
    with pytest.raises(DeckcliError, match="not a text decklist"):
        read_text_file(binary)


def test_failed_write_during_an_edit_keeps_the_file(
    tmp_path: Path, store: CardStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "deck.txt"
    target.write_bytes((SAMPLES / "elekin-sample.txt").read_bytes())
    before = target.read_bytes()

    def broken_replace(src: object, dst: object) -> None:
        raise OSError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(DeckFileError, match="Permission denied"):
        add_card_to_file(target, "Glint", layout("elekin"), pool_of(store, "elekin"))
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.txt"]


@pytest.mark.parametrize("suffix", [".json", ".csv", ".dek"])
def test_file_edit_refuses_other_forms(tmp_path: Path, store: CardStore, suffix: str) -> None:
    target = tmp_path / f"deck{suffix}"
    target.write_text("{}", encoding="utf-8")
    with pytest.raises(DeckEditError, match="native text") as caught:
        add_card_to_file(target, "Glint", layout("elekin"), pool_of(store, "elekin"))
    assert caught.value.hint is not None and "deckcli deck convert" in caught.value.hint

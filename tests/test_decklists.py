# ruff: noqa: F811  (pytest fixtures are imported, then named as parameters)
"""Reading decklists: the native text form (metadata, headers, card lines, comments,
header-less lists, parse errors), JSON deck files and multi-deck files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rules_fixtures import (
    SAMPLES,
    card_store,  # noqa: F401  (a fixture)
    check,
    errors,
    pools,  # noqa: F401  (a fixture)
    rules_db,  # noqa: F401  (a fixture)
)

from deckcli.decks.io import DeckFileError, deck_files, read_deck_file, read_deck_text
from deckcli.decks.jsonform import read_json_decks
from deckcli.decks.model import Deck, section_for_header
from deckcli.decks.text import parse_card_line, read_text_deck, read_text_decks


def _sections(deck: Deck) -> dict[str, list[tuple[int, str]]]:
    return {section: [(e.count, e.name) for e in entries] for section, entries in deck.sections.items()}


def _lines(deck: Deck, section: str) -> list[int | None]:
    return [e.line for e in deck.entries(section)]


# ----------------------------------------------------------------------------- metadata and headers


def test_metadata_lines() -> None:
    deck = read_text_deck(
        "Game: elekin\nName: Lightning Rush\nPlayer: Ada Lovelace\nEvent: Store Championship\nDate: 2025-05-31\n"
        "Main:\n3 Glint\n"
    )
    assert (deck.game, deck.name, deck.player, deck.event, deck.date) == (
        "elekin",
        "Lightning Rush",
        "Ada Lovelace",
        "Store Championship",
        "2025-05-31",
    )
    assert deck.label == "Lightning Rush"
    assert _sections(deck) == {"main": [(3, "Glint")]}


def test_metadata_keys_are_case_insensitive() -> None:
    deck = read_text_deck("GAME: elestrals\nname:  Spaced   Out \nPLAYER:Bo\n")
    assert (deck.game, deck.name, deck.player) == ("elestrals", "Spaced   Out", "Bo")


@pytest.mark.parametrize(
    ("header", "section"),
    [
        ("Main", "main"),
        ("Main Deck", "main"),
        ("MAIN DECK", "main"),
        ("main deck:", "main"),
        ("Deck", "main"),
        ("Deck:", "main"),
        ("Spellbook", "main"),
        ("Main Deck (40):", "main"),
        ("main deck ( 40 )", "main"),
        ("Spellbook (40)", "main"),
        ("Spirit", "spirit"),
        ("Spirits", "spirit"),
        ("Spirit Deck", "spirit"),
        ("SPIRIT DECK (20):", "spirit"),
        ("Shield", "shields"),
        ("Shields", "shields"),
        ("shields (3):", "shields"),
        ("Side", "side"),
        ("Side Deck", "side"),
        ("Sideboard", "side"),
        ("sideboard (10):", "side"),
        ("Elements", "elements"),
        ("Elements (9):", "elements"),
        ("# Spirit Deck", "spirit"),
        ("// Side Deck", "side"),
        ("## Main Deck", "main"),
    ],
)
def test_section_headers(header: str, section: str) -> None:
    deck = read_text_deck(f"1 Before\n{header}\n2 After\n")
    if section == "main":
        assert _sections(deck) == {"main": [(1, "Before"), (2, "After")]}
    else:
        assert _sections(deck) == {"main": [(1, "Before")], section: [(2, "After")]}
    assert deck.problems == []


@pytest.mark.parametrize(
    ("line", "section", "name"),
    [
        ("Hero: Demo Wildfire Twins", "hero", "Demo Wildfire Twins"),
        ("hero:Demo Ember Warlord", "hero", "Demo Ember Warlord"),
        ("Spellcaster: Prisma of the Many Colors", "spellcaster", "Prisma of the Many Colors"),
        ("SPELLCASTER : Orthar of the Flaming Eye", "spellcaster", "Orthar of the Flaming Eye"),
        ("Spell Caster: Scalden Deathbringer", "spellcaster", "Scalden Deathbringer"),
    ],
)
def test_inline_sections(line: str, section: str, name: str) -> None:
    deck = read_text_deck(f"Main Deck:\n3 Glint\n{line}\n2 Swoop\n")
    assert deck.entries(section)[0].name == name and deck.entries(section)[0].count == 1
    assert deck.entries(section)[0].line == 3
    # An inline section does not change the current section.
    assert _sections(deck)["main"] == [(3, "Glint"), (2, "Swoop")]


# ----------------------------------------------------------------------------- card lines


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("3 Glint", (3, "Glint")),
        ("3x Glint", (3, "Glint")),
        ("3X Glint", (3, "Glint")),
        ("3 x Glint", (3, "Glint")),
        ("Glint x3", (3, "Glint")),
        ("Glint x 3", (3, "Glint")),
        ("Glint X3", (3, "Glint")),
        ("  12   Leviaphin  ", (12, "Leviaphin")),
        ("2 Veton | The Lightning Dragon", (2, "Veton | The Lightning Dragon")),
        ("1 Algorn, Wizard Adept", (1, "Algorn, Wizard Adept")),
        ("Algorn, Wizard Adept x 1", (1, "Algorn, Wizard Adept")),
        ("3 Mars' Rage", (3, "Mars' Rage")),
        ("2 Jupiter-Stormmaster", (2, "Jupiter-Stormmaster")),
        ("1 Xenodrake", (1, "Xenodrake")),
    ],
)
def test_card_line_forms(line: str, expected: tuple[int, str]) -> None:
    assert parse_card_line(line.strip()) == expected
    deck = read_text_deck(f"Main Deck:\n{line}\n")
    assert _sections(deck) == {"main": [expected]} and deck.problems == []
    assert deck.entries("main")[0].line == 2


@pytest.mark.parametrize("line", ["Glint", "three Glint", "x3", "Glint x", "- Glint", "3", "Glint 3"])
def test_not_card_lines(line: str) -> None:
    assert parse_card_line(line) is None


def test_mtgo_sideboard_lines() -> None:
    deck = read_text_deck("4 Glint\nSB: 2 Swoop\nsb: 1x Lavrok\nSB: Stawid x2\n3 Archen\n")
    assert _sections(deck) == {
        "main": [(4, "Glint"), (3, "Archen")],
        "side": [(2, "Swoop"), (1, "Lavrok"), (2, "Stawid")],
    }
    assert _lines(deck, "side") == [2, 3, 4]


def test_comments() -> None:
    text = (
        "# a comment\n"
        "// another\n"
        "Main Deck:\n"
        "3 Glint # three is the most\n"
        "2 Swoop // trailing\n"
        "   # indented comment\n"
        "#Creatures\n"
        "2 Mars' Rage\n"
    )
    deck = read_text_deck(text)
    assert _sections(deck) == {"main": [(3, "Glint"), (2, "Swoop"), (2, "Mars' Rage")]}
    assert deck.problems == []
    assert _lines(deck, "main") == [4, 5, 8]


def test_lines_before_any_header_are_main() -> None:
    deck = read_text_deck("Game: elekin\n3 Glint\n2 Swoop\nShields:\n1 Mystic Ward\n")
    assert _sections(deck) == {"main": [(3, "Glint"), (2, "Swoop")], "shields": [(1, "Mystic Ward")]}
    assert [e.implicit for e in deck.entries("main")] == [True, True]
    assert [e.implicit for e in deck.entries("shields")] == [False]


def test_no_headers_blank_line_before_last_block_is_the_side_deck() -> None:
    deck = read_text_deck("3 Glint\n2 Swoop\n\n1 Night Vox\n\n2 Lavrok\n1 Blazorn\n")
    assert _sections(deck) == {
        "main": [(3, "Glint"), (2, "Swoop"), (1, "Night Vox")],
        "side": [(2, "Lavrok"), (1, "Blazorn")],
    }
    assert _lines(deck, "side") == [6, 7]


def test_no_headers_one_block_is_all_main() -> None:
    deck = read_text_deck("\n3 Glint\n2 Swoop\n\n")
    assert _sections(deck) == {"main": [(3, "Glint"), (2, "Swoop")]}


def test_with_headers_blank_lines_do_not_start_a_side_deck() -> None:
    deck = read_text_deck("Main Deck:\n3 Glint\n\n2 Swoop\n")
    assert _sections(deck) == {"main": [(3, "Glint"), (2, "Swoop")]}


def test_comment_headers_count_as_headers_for_the_blank_line_rule() -> None:
    """Exported lists write '# Main Deck' / '# Spirit Deck': these are headers, so a
    blank line there does not make a side deck."""
    deck = read_text_deck("# Main Deck\n3 Sluggle\n\n# Spirit Deck\n12 Leviaphin\n")
    assert _sections(deck) == {"main": [(3, "Sluggle")], "spirit": [(12, "Leviaphin")]}


def test_unparseable_lines_are_problems_and_reading_goes_on() -> None:
    text = "Main Deck:\n3 Glint\nwhat is this?\n2 Swoop\n0 Lavrok\n-1 Archen\nSB: lots of Glint\n1 Blazorn\n"
    deck = read_text_deck(text)
    assert _sections(deck) == {"main": [(3, "Glint"), (2, "Swoop"), (1, "Blazorn")]}
    assert [(p.line, p.text) for p in deck.problems] == [
        (3, "what is this?"),
        (5, "0 Lavrok"),
        (6, "-1 Archen"),
        (7, "SB: lots of Glint"),
    ]
    assert "count must be at least 1" in deck.problems[1].message
    assert "expected a card line" in deck.problems[0].message


def test_parse_errors_are_violations_with_line_numbers(pools) -> None:
    sample = (SAMPLES / "elekin-sample.txt").read_text(encoding="utf-8")
    text = sample.replace("3 Glint\n", "3 Glint\nthis line is nonsense\n")
    report = check(pools, "elekin", text)
    parse = errors(report, "parse-error")
    assert len(parse) == 1 and parse[0].line == text.splitlines().index("this line is nonsense") + 1
    assert "this line is nonsense" in parse[0].message and parse[0].rule == "decklist syntax"
    # Reading went on: the rest of the deck is there and otherwise legal.
    assert errors(report) == parse


def test_windows_line_endings_and_bom(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    path.write_bytes("\ufeffGame: elekin\r\nMain Deck:\r\n3 Glint\r\n".encode())
    [deck] = read_deck_file(path)
    assert deck.game == "elekin" and _sections(deck) == {"main": [(3, "Glint")]}
    assert deck.source == str(path)


def test_cp1252_file(tmp_path: Path) -> None:
    path = tmp_path / "old.txt"
    path.write_bytes("Main Deck:\n3 Gorgon\x92s Gaze\n".encode("latin-1"))
    [deck] = read_deck_file(path)
    assert _sections(deck) == {"main": [(3, "Gorgon’s Gaze")]}


def test_section_for_header() -> None:
    assert section_for_header("Main_Deck") == "main"
    assert section_for_header("  SPIRIT   deck ") == "spirit"
    assert section_for_header("Graveyard") is None


# ----------------------------------------------------------------------------- several decks in a file


def test_deck_headings_start_new_decks() -> None:
    text = (
        "# a file of two decks\n"
        "## Deck 1 - Spellcaster: Prisma of the Many Colors\n"
        "Ball Lightning x 3\n"
        "## Deck 2 - Spellcaster: Scalden Deathbringer (23 cards)\n"
        "Cumulus x 3\n"
    )
    first, second = read_text_decks(text.splitlines(), "list.txt")
    assert (first.source, second.source) == ("list.txt#1", "list.txt#2")
    assert first.name == "Deck 1 - Spellcaster: Prisma of the Many Colors"
    assert _sections(first) == {"spellcaster": [(1, "Prisma of the Many Colors")], "main": [(3, "Ball Lightning")]}
    assert _sections(second) == {"spellcaster": [(1, "Scalden Deathbringer")], "main": [(3, "Cumulus")]}
    assert second.entries("main")[0].line == 5


def test_game_line_is_shared_by_the_decks_of_a_file() -> None:
    decks = read_text_decks("Game: elemental-clash\n## Deck A\n1 Negate\n## Deck B\n1 Repulse\n".splitlines())
    assert [d.game for d in decks] == ["elemental-clash", "elemental-clash"]


# ----------------------------------------------------------------------------- JSON deck files


def test_json_deck_written_form() -> None:
    document = {
        "game": "elekin",
        "name": "Lightning",
        "player": "Ada",
        "event": "Store",
        "date": "2025-05-31",
        "sections": {
            "main": [{"count": 3, "name": "Glint"}, {"count": 2, "name": "Swoop"}],
            "shields": [{"count": 1, "name": "Mystic Ward"}],
        },
    }
    [deck] = read_json_decks(json.dumps(document), "deck.json")
    assert (deck.game, deck.name, deck.player, deck.event, deck.date) == (
        "elekin",
        "Lightning",
        "Ada",
        "Store",
        "2025-05-31",
    )
    assert _sections(deck) == {"main": [(3, "Glint"), (2, "Swoop")], "shields": [(1, "Mystic Ward")]}
    assert deck.problems == [] and deck.source == "deck.json"


def test_json_lenient_keys() -> None:
    document = {
        "title_in_db": "Some Deck",
        "spellbook": [{"qty": 3, "name": "Negate"}, {"quantity": 2, "card": "Repulse"}, "Cumulus"],
        "Side Deck": [{"copies": 1, "name": "Salamander"}],
        "spellcaster": "Orthar of the Flaming Eye",
    }
    [deck] = read_json_decks(json.dumps(document))
    assert deck.name == "Some Deck"
    assert _sections(deck) == {
        "main": [(3, "Negate"), (2, "Repulse"), (1, "Cumulus")],
        "side": [(1, "Salamander")],
        "spellcaster": [(1, "Orthar of the Flaming Eye")],
    }


@pytest.mark.parametrize("wrap", ["list", "decks"])
def test_json_several_decks(wrap: str) -> None:
    decks = [{"name": "A", "main": [{"count": 1, "name": "Glint"}]}, {"name": "B", "main": ["Swoop"]}]
    document = decks if wrap == "list" else {"game": "elekin", "decks": decks}
    first, second = read_json_decks(json.dumps(document), "two.json")
    assert (first.name, second.name) == ("A", "B")
    assert (first.source, second.source) == ("two.json#1", "two.json#2")
    if wrap == "decks":
        assert first.game == second.game == "elekin"


def test_json_bad_entries_are_problems_and_reading_goes_on() -> None:
    document = {
        "main": [{"qty": 3, "name": "Glint"}, {"count": 0, "name": "Swoop"}, {"count": True, "name": "X"}, 7, "Lavrok"]
    }
    [deck] = read_json_decks(json.dumps(document))
    assert _sections(deck) == {"main": [(3, "Glint"), (1, "Lavrok")]}
    assert [(p.text, p.message.split(",")[0]) for p in deck.problems] == [
        ("main[2]", "count must be at least 1"),
        ("main[3]", 'expected {"count": N'),
        ("main[4]", 'expected {"count": N'),
    ]


def test_json_syntax_error_is_a_problem_with_its_line() -> None:
    [deck] = read_json_decks('{\n  "main": [\n    {"count": 3, "name": "Glint"}\n  \n}\n', "bad.json")
    assert len(deck.problems) == 1
    assert deck.problems[0].line == 5 and "not valid JSON" in deck.problems[0].message


@pytest.mark.parametrize("document", ['{"colour": "red"}', "[1, 2]", '"a deck"'])
def test_json_without_deck_sections(document: str) -> None:
    decks = read_json_decks(document)
    assert all(d.problems for d in decks)


def test_json_parse_problem_is_a_violation(pools) -> None:
    [deck] = read_json_decks('{"game": "elemystic", "elements": [{"count": 0, "name": "Fire"}]}')
    from deckcli.rules import find_format, validate

    report = validate(deck, find_format("elemystic"), pools["elemystic"])
    assert "parse-error" in {v.code for v in report.errors}


def test_file_form_by_suffix_and_content(tmp_path: Path) -> None:
    text = json.dumps({"game": "elekin", "main": [{"count": 2, "name": "Glint"}]})
    [by_content] = read_deck_text(text, "pasted", "")
    assert _sections(by_content) == {"main": [(2, "Glint")]}
    path = tmp_path / "deck.json"
    path.write_text(text, encoding="utf-8")
    [by_suffix] = read_deck_file(path)
    assert by_suffix.game == "elekin" and _sections(by_suffix) == {"main": [(2, "Glint")]}


def test_deck_files_in_folders(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b").mkdir()
    for name in ("a/one.txt", "a/b/two.json", "a/b/three.TXT", "a/notes.pdf", "top.txt"):
        (tmp_path / name).write_text("3 Glint\n", encoding="utf-8")
    found = deck_files([tmp_path / "a", tmp_path / "top.txt"])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        "a/b/three.TXT",
        "a/b/two.json",
        "a/one.txt",
        "top.txt",
    ]


def test_missing_deck_file(tmp_path: Path) -> None:
    with pytest.raises(DeckFileError, match="no such decklist file"):
        read_deck_file(tmp_path / "missing.txt")
    with pytest.raises(DeckFileError, match="is a folder"):
        read_deck_file(tmp_path)

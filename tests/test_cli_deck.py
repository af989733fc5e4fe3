"""``deckcli deck new/add/remove/show/convert`` end to end: real files, a real store."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from deckcli.cards.store import CardStore
from deckcli.cli import app
from deckcli.decks.io import read_deck_file

SAMPLES = Path(__file__).resolve().parents[1] / "card_db" / "decks"
GAMES = ("elestrals", "elekin", "aestery", "elemental-clash", "elemystic")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store filled from the bundled data once for this module (the commands only read it)."""
    path = tmp_path_factory.mktemp("deck-cli-store") / "cards.sqlite"
    CardStore.open(path).close()
    return path


@pytest.fixture
def run(db: Path) -> Runner:
    return Runner(db)


class Runner:
    """``deckcli --db DB ARGS`` in-process; checks the exit code and that no traceback leaks."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.runner = CliRunner()

    def __call__(self, *args: str | Path, expect: int = 0) -> Result:
        argv: Sequence[str] = ["--db", str(self.db), *map(str, args)]
        result = self.runner.invoke(app, list(argv))
        assert "Traceback" not in result.output, result.output
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"deckcli {' '.join(argv)} raised {result.exception!r}\n{result.output}")
        assert result.exit_code == expect, f"exit {result.exit_code} != {expect} for {list(argv)}:\n{result.output}"
        return result


def sample(tmp_path: Path, game: str, name: str = "deck.txt") -> Path:
    target = tmp_path / name
    shutil.copyfile(SAMPLES / f"{game}-sample.txt", target)
    return target


# -- help ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["new", "add", "remove", "show", "convert"])
def test_every_command_has_help(run: Runner, command: str) -> None:
    result = run("deck", command, "--help")
    assert "Usage:" in result.output
    assert len(result.output.strip().splitlines()) > 5


def test_deck_group_help_lists_the_commands(run: Runner) -> None:
    output = run("deck", "--help").output
    for command in ("new", "add", "remove", "show", "convert"):
        assert command in output


# -- new -------------------------------------------------------------------------------------------


def test_new_creates_a_deck_with_the_formats_headers(run: Runner, tmp_path: Path) -> None:
    target = tmp_path / "water.txt"
    result = run("deck", "new", "elestral", target, "--name", "Water", "--player", "Ada", "--event", "Locals")
    assert "Created" in result.output
    assert target.read_text(encoding="utf-8") == (
        "Game: elestrals\nName: Water\nPlayer: Ada\nEvent: Locals\nMain Deck:\nSpirit Deck:\nSide Deck:\n"
    )


def test_new_refuses_to_overwrite_without_force(run: Runner, tmp_path: Path) -> None:
    target = tmp_path / "deck.txt"
    target.write_text("my precious deck\n", encoding="utf-8")
    result = run("deck", "new", "elekin", target, expect=2)
    assert f"{target} already exists" in result.output
    assert "--force" in result.output
    assert target.read_text(encoding="utf-8") == "my precious deck\n"
    run("deck", "new", "elekin", target, "--force")
    assert target.read_text(encoding="utf-8").startswith("Game: elekin\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.txt"]


def test_new_errors(run: Runner, tmp_path: Path) -> None:
    assert "unknown game 'pokemon'" in run("deck", "new", "pokemon", tmp_path / "a.txt", expect=2).output
    assert "native text form" in run("deck", "new", "elekin", tmp_path / "a.json", expect=2).output
    assert "does not exist" in run("deck", "new", "elekin", tmp_path / "no" / "a.txt", expect=2).output
    assert list(tmp_path.iterdir()) == []


# -- add -------------------------------------------------------------------------------------------


def test_build_a_legal_elestrals_deck_from_scratch(run: Runner, tmp_path: Path) -> None:
    target = tmp_path / "deck.txt"
    run("deck", "new", "elestrals", target)
    sample_deck = read_deck_file(SAMPLES / "elestrals-sample.txt")[0]
    for entries in sample_deck.sections.values():
        for entry in entries:
            # no --to: Spirits go to the Spirit Deck by their type
            result = run("deck", "add", target, f"{entry.count}x {entry.name.lower()}")
    assert "Deck: legal" in result.output
    built = read_deck_file(target)[0]
    assert {s: [(e.count, e.name) for e in es] for s, es in built.sections.items()} == {
        s: [(e.count, e.name) for e in es] for s, es in sample_deck.sections.items()
    }
    # one card too many: one line, the count and the first violation
    result = run("deck", "add", target, "Sluggle")
    assert "Added 1 Sluggle to the Main Deck (now 4;" in result.output
    verdict = [line for line in result.output.splitlines() if line.startswith("Deck:")]
    assert len(verdict) == 1
    assert "not legal: 2 violations — deck-size: Main Deck: 41 cards, exactly 40 required" in verdict[0]
    assert "copy-limit" in verdict[0]


def test_add_writes_the_canonical_spelling(run: Runner, tmp_path: Path) -> None:
    target = sample(tmp_path, "elekin")
    result = run("deck", "add", target, "Veton, The Lightning Dragon x1", "--to", "side")
    assert "Added 1 Veton | The Lightning Dragon to the Side Deck (now 1;" in result.output
    assert target.read_text(encoding="utf-8").endswith("Side Deck:\n1 Veton | The Lightning Dragon\n")


def test_add_changes_only_one_line(run: Runner, tmp_path: Path) -> None:
    target = sample(tmp_path, "elekin")
    before = target.read_text(encoding="utf-8").splitlines(keepends=True)
    result = run("deck", "add", target, "1 swoop")
    assert "Added 1 Swoop to the Main Deck (now 3;" in result.output
    after = target.read_text(encoding="utf-8").splitlines(keepends=True)
    assert [(a, b) for a, b in zip(before, after, strict=True) if a != b] == [("2 Swoop\n", "3 Swoop\n")]


def test_add_with_a_typo_suggests_and_changes_nothing(run: Runner, tmp_path: Path) -> None:
    target = sample(tmp_path, "elekin")
    before = target.read_bytes()
    result = run("deck", "add", target, "2 Skiters", expect=2)
    assert "no elekin card named 'Skiters'" in result.output
    assert "did you mean: Skitters" in result.output
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.txt"]


def test_add_a_base_name_lists_the_full_names(run: Runner, tmp_path: Path) -> None:
    target = sample(tmp_path, "elekin")
    before = target.read_bytes()
    result = run("deck", "add", target, "Veton", expect=2)
    assert "did you mean: Veton | The Lightning Dragon" in result.output
    assert target.read_bytes() == before


def test_add_to_an_unknown_section(run: Runner, tmp_path: Path) -> None:
    target = sample(tmp_path, "elekin")
    result = run("deck", "add", target, "Glint", "--to", "spirit", expect=2)
    assert "unknown section 'spirit'" in result.output
    assert "main (Main Deck), shields (Shields), side (Side Deck)" in result.output


def test_add_inline_sections(run: Runner, tmp_path: Path) -> None:
    target = tmp_path / "clash.txt"
    run("deck", "new", "clash", target, "--name", "Prisma")
    run("deck", "add", target, "prisma of the many colors")
    assert target.read_text(encoding="utf-8") == (
        "Game: elemental-clash\nName: Prisma\nSpellcaster: Prisma of the Many Colors\nSpellbook:\nSideboard:\n"
    )


def test_add_needs_a_game(run: Runner, tmp_path: Path) -> None:
    target = tmp_path / "deck.txt"
    target.write_text("# nothing yet\n", encoding="utf-8")
    result = run("deck", "add", target, "Glint", expect=2)
    assert "cannot tell which game" in result.output
    run("deck", "add", target, "Glint", "--format", "elekin")
    assert target.read_text(encoding="utf-8") == "# nothing yet\nMain Deck:\n1 Glint\n"


def test_add_to_a_missing_file(run: Runner, tmp_path: Path) -> None:
    result = run("deck", "add", tmp_path / "nope.txt", "Glint", expect=2)
    assert f"no such decklist file: {tmp_path / 'nope.txt'}" in result.output


def test_add_to_a_json_deck_is_refused(run: Runner, tmp_path: Path) -> None:
    target = tmp_path / "deck.json"
    target.write_text('{"game": "elekin", "sections": {"main": [{"count": 3, "name": "Glint"}]}}', encoding="utf-8")
    result = run("deck", "add", target, "Glint", expect=2)
    assert "native text" in result.output and "deckcli deck convert" in result.output


def test_a_failed_write_keeps_the_file(run: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    target = sample(tmp_path, "elekin")
    before = target.read_bytes()

    def broken_replace(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    result = run("deck", "add", target, "Glint", expect=2)
    assert f"cannot write {target}: No space left on device" in result.output
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.txt"]


# -- remove ----------------------------------------------------------------------------------------


def test_remove_in_place_then_delete(run: Runner, tmp_path: Path) -> None:
    target = sample(tmp_path, "elekin")
    original = target.read_text(encoding="utf-8")
    result = run("deck", "remove", target, "Glint x2")
    assert "Removed 2 Glint from the Main Deck (now 1;" in result.output
    assert "not legal: 1 violation — deck-size: Main Deck: 38 cards, at least 40 required" in result.output
    assert target.read_text(encoding="utf-8") == original.replace("3 Glint\n", "1 Glint\n")
    result = run("deck", "remove", target, "glint")
    assert "line 6 deleted" in result.output
    assert target.read_text(encoding="utf-8") == original.replace("3 Glint\n", "")


def test_remove_more_than_present_changes_nothing(run: Runner, tmp_path: Path) -> None:
    target = sample(tmp_path, "elekin")
    before = target.read_bytes()
    result = run("deck", "remove", target, "4 Glint", expect=2)
    assert f"{target}: cannot remove 4 Glint: the Main Deck holds only 3" in result.output
    result = run("deck", "remove", target, "Glint", "--from", "side", expect=2)
    assert "Glint is not in the Side Deck" in result.output
    result = run("deck", "remove", target, "Skiters", expect=2)
    assert "did you mean: Skitters" in result.output
    assert target.read_bytes() == before


def test_remove_from_a_named_section(run: Runner, tmp_path: Path) -> None:
    target = sample(tmp_path, "elestrals")
    run("deck", "add", target, "2 Leviaphin", "--to", "side")
    result = run("deck", "remove", target, "1 Leviaphin", "--from", "sideboard")
    assert "Removed 1 Leviaphin from the Side Deck (now 1;" in result.output
    result = run("deck", "remove", target, "1 Leviaphin")
    assert "from the Spirit Deck (now 11;" in result.output


# -- show ------------------------------------------------------------------------------------------


def test_show_prints_the_breakdown(run: Runner) -> None:
    output = run("deck", "show", SAMPLES / "elestrals-sample.txt").output
    assert "Majesea Starter Deck SD03 (sample)" in output
    assert "Main Deck (40)" in output and "Spirit Deck (20)" in output
    assert "elestral (23)" in output and "rune (17)" in output
    assert "Curve (Main Deck, by Spirits)" in output
    assert "█" in output
    assert "average Spirits: 1.30" in output
    assert "Spirits against costs" in output
    assert "Deck: legal" in output


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ("elekin", ["Essence against costs", "average cost: 1.67; 10 without a cost", "8+"]),
        ("aestery", ["Colours (Main Deck)", "Pitch: total 120, average 2.00", "DEMO"]),
        ("elemental-clash", ["Spellbook (40)", "Element-stones against levels", "plus 6 special element-stones"]),
        ("elemystic", ["Elements (9)", "Invocation STR", "PROVISIONAL"]),
    ],
)
def test_show_per_game_resources(run: Runner, game: str, expected: list[str]) -> None:
    output = run("deck", "show", SAMPLES / f"{game}-sample.txt").output
    for text in expected:
        assert text in output


def test_show_json(run: Runner) -> None:
    data = json.loads(run("deck", "show", SAMPLES / "elekin-sample.txt", "--json").output)
    assert data["format"] == "elekin" and data["legal"] is True
    assert data["curve"] == {"0": 16, "1": 4, "2": 2, "3": 3, "4": 2, "5": 1, "10": 2}
    assert data["resources"]["balance"] == [
        {"element": "air", "supply": 17, "demand": 37, "cards": 16},
        {"element": "fire", "supply": 13, "demand": 33, "cards": 16},
    ]


def test_show_lists_unknown_cards(run: Runner, tmp_path: Path) -> None:
    target = tmp_path / "deck.txt"
    target.write_text("Game: elekin\nMain Deck:\n3 Glint\n2 Skiters\n", encoding="utf-8")
    output = run("deck", "show", target).output
    assert "Unknown cards (1)" in output
    assert "2 Skiters (line 4, main) — did you mean Skitters" in output
    assert "not legal" in output
    data = json.loads(run("deck", "show", target, "--json").output)
    assert data["unknown"][0]["name"] == "Skiters"


def test_show_reads_other_forms(run: Runner, tmp_path: Path) -> None:
    target = tmp_path / "deck.csv"
    run("deck", "convert", SAMPLES / "aestery-sample.txt", target)
    assert "Pitch: total 120" in run("deck", "show", target).output


# -- convert ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_convert_round_trips_through_every_form(run: Runner, tmp_path: Path, game: str) -> None:
    source = SAMPLES / f"{game}-sample.txt"
    current = source
    for name in ("deck.json", "deck.csv", "deck.dek", "back.txt"):
        target = tmp_path / name
        result = run("deck", "convert", current, target)
        assert f"Wrote {target}" in result.output
        current = target
    original, back = read_deck_file(source)[0], read_deck_file(current)[0]
    assert {s: [(e.count, e.name) for e in es] for s, es in back.sections.items()} == {
        s: [(e.count, e.name) for e in es] for s, es in original.sections.items()
    }
    assert (back.game, back.name, back.player) == (original.game, original.name, original.player)
    assert "✔ LEGAL" in run("validate", current).output


def test_convert_to_mtgo_keeps_other_sections_as_comments(run: Runner, tmp_path: Path) -> None:
    target = tmp_path / "deck.out"
    run("deck", "convert", SAMPLES / "elestrals-sample.txt", target, "--to", "mtgo")
    text = target.read_text(encoding="utf-8")
    assert text.startswith("// Game: elestrals\n// Name: Majesea Starter Deck SD03 (sample)\n3 Sluggle\n")
    assert "\n\n// Spirit Deck\n12 Leviaphin\n5 Vipyro\n3 Lycarus\n" in text


def test_convert_uses_the_format_titles(run: Runner, tmp_path: Path) -> None:
    target = tmp_path / "deck.json"
    run("deck", "convert", SAMPLES / "elemental-clash-sample.txt", target)
    back = tmp_path / "back.txt"
    run("deck", "convert", target, back)
    expected = "\nSpellcaster: Prisma of the Many Colors\nSpellbook:\n3 Ball Lightning\n"
    assert expected in back.read_text(encoding="utf-8")


def test_convert_never_overwrites_without_force(run: Runner, tmp_path: Path) -> None:
    target = tmp_path / "deck.json"
    target.write_text("keep me", encoding="utf-8")
    result = run("deck", "convert", SAMPLES / "elekin-sample.txt", target, expect=2)
    assert f"{target} already exists" in result.output and "--force" in result.output
    assert target.read_text(encoding="utf-8") == "keep me"
    run("deck", "convert", SAMPLES / "elekin-sample.txt", target, "--force")
    assert json.loads(target.read_text(encoding="utf-8"))["game"] == "elekin"


def test_convert_errors(run: Runner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("Game: elekin\nMain Deck:\n3 Glint\nthis is not a card line\n", encoding="utf-8")
    result = run("deck", "convert", bad, tmp_path / "out.json", expect=2)
    assert f"{bad}, line 4: expected a card line" in result.output
    result = run("deck", "convert", SAMPLES / "elekin-sample.txt", tmp_path / "out.xlsx", expect=2)
    assert "cannot tell which form" in result.output
    result = run("deck", "convert", SAMPLES / "elekin-sample.txt", tmp_path / "o.txt", "--to", "yaml", expect=2)
    assert "unknown deck form 'yaml'" in result.output
    result = run("deck", "convert", tmp_path / "missing.txt", tmp_path / "o.json", expect=2)
    assert "no such decklist file" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt"]


def test_convert_puts_header_less_spirits_in_the_spirit_deck(run: Runner, tmp_path: Path) -> None:
    source = tmp_path / "list.txt"
    source.write_text("3 Sluggle\n12 Leviaphin\n", encoding="utf-8")
    target = tmp_path / "list.dek"
    run("deck", "convert", source, target)
    assert target.read_text(encoding="utf-8") == "3 Sluggle\n\n// Spirit Deck\n12 Leviaphin\n"

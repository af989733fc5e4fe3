# ruff: noqa: F811  (pytest fixtures are imported, then named as parameters)
"""``deckcli validate``: human and JSON reports, exit codes, choosing the format, several
files and folders, and ``--against`` (sideboarding)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from rules_fixtures import (
    SAMPLES,
    Entries,
    deck_text,
    deckcli,  # noqa: F401  (a fixture)
    line_of,
    rules_db,  # noqa: F401  (a fixture)
    sample_entries,
)

from deckcli.cli import common
from deckcli.rules import CODES

ELESTRALS = sample_entries("elestrals")
ELEKIN = sample_entries("elekin")
CLASH = sample_entries("elemental-clash")


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _with(entries: Entries, name: str, count: int) -> Entries:
    result = [(c, n) for c, n in entries if n != name]
    index = next((i for i, (_, n) in enumerate(entries) if n == name), len(result))
    if count:
        result.insert(index, (count, name))
    return result


def elekin_text(
    main: Entries | None = None,
    shields: Entries | None = None,
    side: Entries | None = None,
    game: str | None = "elekin",
) -> str:
    sections = [("Main Deck", main or ELEKIN["main"]), ("Shields", shields or ELEKIN["shields"])]
    if side is not None:
        sections.append(("Side Deck", side))
    return deck_text(game, sections, name="Lightning")


def elestrals_text(
    main: Entries | None = None,
    spirit: Entries | None = None,
    side: Entries | None = None,
    game: str | None = "elestrals",
) -> str:
    sections = [("Main Deck", main or ELESTRALS["main"]), ("Spirit Deck", spirit or ELESTRALS["spirit"])]
    if side is not None:
        sections.append(("Side Deck", side))
    return deck_text(game, sections, name="Majesea")


def clash_text(main: Entries | None = None, side: Entries | None = None, game: str | None = "elemental-clash") -> str:
    sections = [("Spellcaster", CLASH["spellcaster"]), ("Spellbook", main or CLASH["main"])]
    if side is not None:
        sections.append(("Sideboard", side))
    return deck_text(game, sections, name="Prisma")


# ----------------------------------------------------------------------------- one deck, human output


def test_legal_deck_green_verdict(deckcli, monkeypatch: pytest.MonkeyPatch) -> None:
    result = deckcli("validate", SAMPLES / "elestrals-sample.txt")
    assert "Majesea Starter Deck SD03 (sample)" in result.stdout
    assert "Elestrals Constructed (Daybreak v3.0), Game: line" in result.stdout
    assert result.stdout.rstrip().endswith("✔ LEGAL")
    # On a terminal the verdict is green.
    monkeypatch.setitem(common._consoles, False, Console(force_terminal=True, color_system="standard", width=200))
    colored = deckcli("validate", SAMPLES / "elestrals-sample.txt").stdout
    assert "\x1b[1;32m✔ LEGAL\x1b[0m" in colored


def test_legal_with_warnings_says_so(deckcli) -> None:
    out = deckcli("validate", SAMPLES / "elekin-sample.txt").stdout
    assert "! incomplete-card" in out and "✔ LEGAL (1 warning)" in out


def test_illegal_deck_grouped_by_section(deckcli, tmp_path: Path) -> None:
    text = elekin_text(main=[*_with(ELEKIN["main"], "Swoop", 4), (1, "Glnt")], shields=[(1, "Mystic Ward")])
    path = _write(tmp_path, "deck.txt", text)
    out = deckcli("validate", path, expect=1).stdout
    lines = out.splitlines()
    assert lines[0] == f"Lightning ({path}) — Elekin Set 1 Constructed, Game: line"
    deck_at, main_at, shields_at = lines.index("  Deck"), lines.index("  Main Deck"), lines.index("  Shields")
    assert deck_at < main_at < shields_at  # the whole deck first, then the format's sections in order
    assert lines[deck_at + 1].startswith("    ! incomplete-card")
    main_block = lines[main_at + 1 : shields_at]
    assert any(
        line.startswith("    ✘ copy-limit [4/3] Swoop: 4 copies in Main Deck, at most 3 allowed")
        and f"(line {line_of(text, '4 Swoop')}; 7.1.2 Card Limitations" in line
        for line in main_block
    )
    assert any("✘ unknown-card" in line and "did you mean Glint" in line for line in main_block)
    shields_block = lines[shields_at + 1 :]
    assert any(
        "✘ deck-size [1/3] Shields: 1 card, exactly 3 required" in line and "(7.1.1" in line for line in shields_block
    )
    assert any("✘ shield-tiers [0/1] Shields: no card of tier 2" in line for line in shields_block)
    assert lines[-1] == "  ✘ NOT LEGAL: 5 errors, 1 warning"


def test_illegal_verdict_is_red_on_a_terminal(deckcli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path, "deck.txt", elekin_text(main=_with(ELEKIN["main"], "Swoop", 4)))
    monkeypatch.setitem(common._consoles, False, Console(force_terminal=True, color_system="standard", width=200))
    out = deckcli("validate", path, expect=1).stdout
    assert "\x1b[1;31m✘ NOT LEGAL\x1b[0m" in out
    assert "\x1b[31m✘\x1b[0m \x1b[1mcopy-limit\x1b[0m [4/3]" in out


def test_names_with_markup_characters_are_printed_as_written(
    deckcli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(tmp_path, "deck.txt", elekin_text(main=[*_with(ELEKIN["main"], "Glint", 2), (1, "[bold]Glint[/]")]))
    monkeypatch.setitem(common._consoles, False, Console(force_terminal=True, color_system=None, width=200))
    out = deckcli("validate", path, expect=1).stdout
    assert "no elekin card named '[bold]Glint[/]'" in out


# ----------------------------------------------------------------------------- JSON output


def test_json_one_deck(deckcli, tmp_path: Path) -> None:
    text = elekin_text(main=_with(ELEKIN["main"], "Swoop", 4))
    path = _write(tmp_path, "deck.txt", text)
    data = json.loads(deckcli("validate", path, "--json", expect=1).stdout)
    assert isinstance(data, dict)
    assert set(data) == {"deck", "format", "valid", "violations", "source"}
    assert (data["deck"], data["format"], data["valid"], data["source"]) == ("Lightning", "elekin", False, str(path))
    errors = [v for v in data["violations"] if v["severity"] == "error"]
    assert errors == [
        {
            "code": "copy-limit",
            "severity": "error",
            "message": "Swoop: 4 copies in Main Deck, at most 3 allowed",
            "section": "main",
            "card": "Swoop",
            "line": line_of(text, "4 Swoop"),
            "found": 4,
            "allowed": 3,
            "rule": "7.1.2 Card Limitations: 'Maximum 3 copies of any card, based on exact card name'",
        }
    ]
    assert all(v["code"] in CODES for v in data["violations"])


def test_json_legal_deck(deckcli) -> None:
    data = json.loads(deckcli("validate", SAMPLES / "elestrals-sample.txt", "--json").stdout)
    assert data["valid"] is True and data["violations"] == []


def test_json_several_decks_is_an_array(deckcli, tmp_path: Path) -> None:
    two = _write(
        tmp_path,
        "two.txt",
        "Game: elemystic\n## Deck A\nElements:\n"
        + "".join(
            f"1 {e}\n" for e in ("Earth", "Light", "Air", "Storm", "Water", "Fire", "Shadow", "Chaos", "Lightning")
        )
        + "## Deck B\nElements:\n1 Earth\n",
    )
    data = json.loads(deckcli("validate", two, SAMPLES / "elekin-sample.txt", "--json", expect=1).stdout)
    assert isinstance(data, list) and len(data) == 3
    assert [(d["deck"], d["valid"]) for d in data] == [
        ("Deck A", True),
        ("Deck B", False),
        ("Lightning Structure Deck (sample)", True),
    ]
    assert [d["source"] for d in data] == [f"{two}#1", f"{two}#2", str(SAMPLES / "elekin-sample.txt")]


# ----------------------------------------------------------------------------- exit codes


def test_exit_codes(deckcli, tmp_path: Path) -> None:
    legal = SAMPLES / "elekin-sample.txt"
    illegal = _write(tmp_path, "bad.txt", elekin_text(main=_with(ELEKIN["main"], "Swoop", 4)))
    deckcli("validate", legal, expect=0)
    deckcli("validate", illegal, expect=1)
    deckcli("validate", legal, illegal, expect=1)
    deckcli("validate", legal, SAMPLES / "elestrals-sample.txt", expect=0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["validate", "{tmp}/missing.txt"], "no such decklist file"),
        (["validate", "{tmp}/empty"], "no decklist files found"),
        (["validate", "{sample}", "--format", "pokemon"], "unknown format 'pokemon'"),
        (["validate", "{sample}", "--format", "{tmp}/missing.toml"], "no such format file"),
        (["validate", "{sample}", "--date", "2025-02-30"], "--date: '2025-02-30' is not a date"),
        (["validate", "{tmp}/nogame.txt"], "cannot tell which game the deck is for"),
        (["validate", "{tmp}/pokemon.txt"], "unknown format 'pokemon'"),
        (["validate", "{sample}", "{sample}", "--against", "{sample}"], "--against compares exactly one decklist"),
        (["validate", "{sample}", "--against", "{tmp}/missing.txt"], "no such decklist file"),
    ],
)
def test_usage_and_input_errors_exit_2(deckcli, tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "empty").mkdir()
    _write(tmp_path, "nogame.txt", "1 Something\n1 Other Thing\n")
    _write(tmp_path, "pokemon.txt", "Game: pokemon\n4 Pikachu\n")
    argv = [a.format(tmp=tmp_path, sample=SAMPLES / "elekin-sample.txt") for a in args]
    result = deckcli(*argv, expect=2)
    assert message in result.stderr
    assert result.stdout == ""


def test_unreadable_json_is_a_parse_error_not_a_crash(deckcli, tmp_path: Path) -> None:
    path = _write(tmp_path, "deck.json", '{"game": "elekin", "main": [')
    data = json.loads(deckcli("validate", path, "--format", "elekin", "--json", expect=1).stdout)
    assert data["violations"][0]["code"] == "parse-error"
    assert "not valid JSON" in data["violations"][0]["message"]


# ----------------------------------------------------------------------------- choosing the format


def test_format_from_game_line_format_option_and_inference(deckcli, tmp_path: Path) -> None:
    with_game = SAMPLES / "elekin-sample.txt"
    assert "Elekin Set 1 Constructed, Game: line" in deckcli("validate", with_game).stdout
    assert "Elekin Set 1 Constructed, --format" in deckcli("validate", with_game, "--format", "elekin").stdout
    no_game = _write(tmp_path, "nogame.txt", elekin_text(game=None))
    assert "Elekin Set 1 Constructed, inferred" in deckcli("validate", no_game).stdout
    # Sections say the game too: a Spirit Deck is Elestrals.
    spirits = _write(tmp_path, "spirits.txt", elestrals_text(game=None))
    assert "Elestrals Constructed (Daybreak v3.0), inferred" in deckcli("validate", spirits).stdout


def test_format_option_overrides_the_game_line(deckcli) -> None:
    data = json.loads(
        deckcli("validate", SAMPLES / "elekin-sample.txt", "--format", "elestrals", "--json", expect=1).stdout
    )
    assert data["format"] == "elestrals"
    assert {v["code"] for v in data["violations"]} >= {"unknown-card", "wrong-section", "deck-size"}


# ----------------------------------------------------------------------------- several files and folders


def test_several_files_and_folders_with_summary(deckcli, tmp_path: Path) -> None:
    folder = tmp_path / "intake"
    legal = _write(folder, "round1/ada.txt", elestrals_text())
    illegal = _write(folder, "round1/bo.txt", elestrals_text(main=_with(ELESTRALS["main"], "Sluggle", 4)))
    nested = _write(
        folder,
        "round1/late/cy.json",
        json.dumps(
            {
                "game": "elekin",
                "name": "Cy's deck",
                "main": [{"count": c, "name": n} for c, n in ELEKIN["main"]],
                "shields": [{"count": c, "name": n} for c, n in ELEKIN["shields"]],
            }
        ),
    )
    _write(folder, "notes.pdf", "not a deck")
    result = deckcli("validate", folder, SAMPLES / "elemystic-sample.txt", expect=1)
    out = result.stdout
    # Details only for the illegal deck; then one summary row per deck.
    assert f"Majesea ({illegal}) — Elestrals Constructed" in out
    assert f"({legal})" not in out.split("File")[0]
    table = out[out.index("File") :]
    rows = [line for line in table.splitlines()[2:] if line and not line.startswith("3 of")]
    assert [row.split()[0] for row in rows] == [
        str(legal),
        str(illegal),
        str(nested),
        str(SAMPLES / "elemystic-sample.txt"),
    ]
    assert "NOT LEGAL" in rows[1] and all("NOT LEGAL" not in r for r in rows[:1] + rows[2:])
    assert out.rstrip().endswith("3 of 4 decks legal.")
    # --all shows every deck's details.
    everything = deckcli("validate", folder, "--all", expect=1).stdout
    assert f"Majesea ({legal})" in everything and "✔ LEGAL" in everything


def test_intake_goes_on_past_a_file_it_cannot_check_and_exits_2(deckcli, tmp_path: Path) -> None:
    """One undecidable or unreadable file does not hide the other decks' verdicts."""
    folder = tmp_path / "intake"
    legal = _write(folder, "a.txt", elestrals_text())
    gameless = _write(folder, "b.txt", "1 Zzzz Qqqq\n")
    unknown_game = _write(folder, "c.txt", "Game: nosuchgame\n1 X\n")
    result = deckcli("validate", folder, expect=2)
    out = result.stdout
    assert f"{gameless} — not checked: " in out and "cannot tell which game" in out
    assert f"{unknown_game} — not checked: unknown format 'nosuchgame'" in out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(str(folder))}
    assert "legal" in rows[str(legal)] and "NOT CHECKED" in rows[str(gameless)]
    assert "NOT CHECKED" in rows[str(unknown_game)]
    assert "could not be checked" in out
    data = json.loads(deckcli("validate", legal, gameless, "--json", expect=2).stdout)
    assert [(d["format"], d["valid"]) for d in data] == [("elestrals", True), (None, False)]
    assert data[1]["violations"][0]["code"] == "parse-error"
    # A single file that cannot be checked is a plain input error.
    single = deckcli("validate", gameless, expect=2)
    assert "cannot tell which game" in single.stderr


def test_summary_counts_errors_and_warnings(deckcli, tmp_path: Path) -> None:
    bad = _write(tmp_path, "bad.txt", elekin_text(main=[*_with(ELEKIN["main"], "Swoop", 4), (1, "Glnt")]))
    out = deckcli("validate", bad, SAMPLES / "elekin-sample.txt", expect=1).stdout
    row = next(line for line in out.splitlines() if line.startswith(str(bad)))
    assert row.split()[-4:] == ["NOT", "LEGAL", "2", "1"]


# ----------------------------------------------------------------------------- --against


def _against(deckcli, folder: Path, registered: str, game2: str, expect: int) -> dict:
    reg = _write(folder, "registered.txt", registered)
    now = _write(folder, "game2.txt", game2)
    data = json.loads(deckcli("validate", now, "--against", reg, "--json", expect=expect).stdout)
    assert isinstance(data, dict)
    return data


def _swaps(data: dict) -> list[tuple]:
    return sorted(
        (v["section"] or "", v["card"] or "", v["found"], v["allowed"])
        for v in data["violations"]
        if v["code"] == "side-swap"
    )


EL_SIDE: Entries = [(2, "Aardbud"), (4, "Vipyro")]


def test_against_elestrals_one_in_one_out(deckcli, tmp_path: Path) -> None:
    registered = elestrals_text(side=EL_SIDE)
    game2 = elestrals_text(
        main=[*_with(ELESTRALS["main"], "Sluggle", 2), (1, "Aardbud")],
        side=[(1, "Aardbud"), (4, "Vipyro"), (1, "Sluggle")],
    )
    data = _against(deckcli, tmp_path, registered, game2, expect=0)
    assert data["valid"] is True


def test_against_elestrals_spirit_for_spirit(deckcli, tmp_path: Path) -> None:
    registered = elestrals_text(side=EL_SIDE)
    game2 = elestrals_text(
        spirit=[(11, "Leviaphin"), (5, "Vipyro"), (3, "Lycarus"), (1, "Vipyro")],
        side=[(2, "Aardbud"), (3, "Vipyro"), (1, "Leviaphin")],
    )
    assert _against(deckcli, tmp_path, registered, game2, expect=0)["valid"] is True


def test_against_elestrals_spirit_for_an_elestral_breaks_the_sizes(deckcli, tmp_path: Path) -> None:
    registered = elestrals_text(side=EL_SIDE)
    game2 = elestrals_text(
        main=_with(ELESTRALS["main"], "Sluggle", 2),
        spirit=[*ELESTRALS["spirit"], (1, "Vipyro")],
        side=[(2, "Aardbud"), (3, "Vipyro"), (1, "Sluggle")],
    )
    data = _against(deckcli, tmp_path, registered, game2, expect=1)
    assert _swaps(data) == [("main", "", 39, 40), ("spirit", "", 21, 20)]
    assert {(v["code"], v["section"]) for v in data["violations"]} == {
        ("side-swap", "main"),
        ("side-swap", "spirit"),
        ("deck-size", "main"),
        ("deck-size", "spirit"),
    }


def test_against_a_card_not_registered(deckcli, tmp_path: Path) -> None:
    registered = elestrals_text(side=EL_SIDE)
    game2 = elestrals_text(main=[*_with(ELESTRALS["main"], "Sluggle", 2), (1, "Boombatt")], side=EL_SIDE)
    data = _against(deckcli, tmp_path, registered, game2, expect=1)
    assert _swaps(data) == [("", "Boombatt", 1, 0), ("", "Sluggle", 2, 3)]
    boombatt = next(v for v in data["violations"] if v["card"] == "Boombatt" and v["code"] == "side-swap")
    assert boombatt["message"] == "Boombatt: 1 copy, but was not registered"
    assert boombatt["line"] == line_of(game2, "1 Boombatt")


def test_against_human_output_and_format_from_the_registration(deckcli, tmp_path: Path) -> None:
    reg = _write(tmp_path, "registered.txt", elestrals_text(side=EL_SIDE))
    now = _write(
        tmp_path,
        "game2.txt",
        elestrals_text(game=None, main=[*_with(ELESTRALS["main"], "Sluggle", 2), (1, "Boombatt")], side=EL_SIDE),
    )
    out = deckcli("validate", now, "--against", reg, expect=1).stdout
    assert "registered deck's Game: line" in out
    assert "✘ side-swap [1/0] Boombatt: 1 copy, but was not registered" in out
    assert "Tournament Rules, Side Deck" in out


def test_against_elekin_main_may_grow_but_stays_40(deckcli, tmp_path: Path) -> None:
    side = [(3, "Air Bugs"), (1, "Essence Wall")]
    registered = elekin_text(side=side)
    bigger = elekin_text(main=[*_with(ELEKIN["main"], "Glint", 1), (3, "Air Bugs")], side=[(2, "Glint"), side[1]])
    assert _against(deckcli, tmp_path, registered, bigger, expect=0)["valid"] is True
    smaller = elekin_text(main=_with(ELEKIN["main"], "Glint", 2), side=[(1, "Glint"), *side])
    data = _against(deckcli, tmp_path, registered, smaller, expect=1)
    assert [
        (v["code"], v["section"], v["found"], v["allowed"]) for v in data["violations"] if v["severity"] == "error"
    ] == [("deck-size", "main", 39, 40)]


def test_against_elekin_shield_swaps_keep_one_per_tier(deckcli, tmp_path: Path) -> None:
    registered = elekin_text(side=[(1, "Essence Wall"), (1, "Shadow Guard")])  # tiers I and II
    same_tier = elekin_text(
        shields=[(1, "Essence Wall"), (1, "Mythical Barrier"), (1, "Elemental Shield")],
        side=[(1, "Mystic Ward"), (1, "Shadow Guard")],
    )
    assert _against(deckcli, tmp_path, registered, same_tier, expect=0)["valid"] is True
    wrong_tier = elekin_text(
        shields=[(1, "Mystic Ward"), (1, "Essence Wall"), (1, "Elemental Shield")],
        side=[(1, "Mythical Barrier"), (1, "Shadow Guard")],
    )
    data = _against(deckcli, tmp_path, registered, wrong_tier, expect=1)
    tiers = sorted((v["code"], v["section"], v["found"]) for v in data["violations"] if v["severity"] == "error")
    # Two tier I Shields and no tier II; the Side now holds two tier II Shields.
    assert tiers == [("shield-tiers", "shields", 0), ("shield-tiers", "shields", 2), ("shield-tiers", "side", 2)]


EC_SIDE: Entries = [(3, "Salamander"), (3, "Negate"), (3, "Repulse"), (1, "Cumulus")]


def test_against_clash_counts_unchanged(deckcli, tmp_path: Path) -> None:
    registered = clash_text(side=EC_SIDE)
    swap = clash_text(
        main=[*_with(CLASH["main"], "Ball Lightning", 2), (1, "Salamander")],
        side=[(2, "Salamander"), (3, "Negate"), (3, "Repulse"), (1, "Cumulus"), (1, "Ball Lightning")],
    )
    assert _against(deckcli, tmp_path, registered, swap, expect=0)["valid"] is True
    uneven = clash_text(main=[*CLASH["main"], (1, "Salamander")], side=_with(EC_SIDE, "Salamander", 2))
    data = _against(deckcli, tmp_path, registered, uneven, expect=1)
    assert _swaps(data) == [("main", "", 41, 40), ("side", "", 9, 10)]
    assert {v["code"] for v in data["violations"] if v["severity"] == "error"} == {
        "side-swap",
        "deck-size",
        "side-size",
    }


def test_against_needs_one_deck_per_file(deckcli, tmp_path: Path) -> None:
    two = _write(tmp_path, "two.txt", "Game: elemystic\n## Deck A\n1 Fire\n## Deck B\n1 Water\n")
    result = deckcli("validate", two, "--against", SAMPLES / "elemystic-sample.txt", expect=2)
    assert "holds 2 decks" in result.stderr

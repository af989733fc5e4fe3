"""`deckcli db search/show/stats`, markers, --help everywhere, real subprocess runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from conftest import CliInvoker, run_cli
from typer.testing import CliRunner

from deckcli import __version__
from deckcli.cards.store import CardStore
from deckcli.cli import app


def _search(cli: CliInvoker, *args: str) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = json.loads(cli("db", "search", *args, "--json", "--limit", "0").stdout)
    return result


# -- first use ---------------------------------------------------------------------


def test_first_use_fills_a_fresh_store_without_any_command(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "fresh" / "cards.sqlite"
    assert not db.exists()
    result = run_cli(runner, ["--db", str(db), "db", "search", "elekin", "dragon"])
    assert "Veton | The Lightning Dragon" in result.stdout
    assert "Diamoria | The Crystal Dragon" in result.stdout
    assert db.is_file()


# -- search ------------------------------------------------------------------------


def test_search_by_name_or_text(cli: CliInvoker) -> None:
    names = [card["name"] for card in _search(cli, "elekin", "dragon")]
    assert "Veton | The Lightning Dragon" in names
    assert names == sorted(names, key=str.casefold)
    # The query also matches rules text; every hit has it in its name or text.
    for card in _search(cli, "elestrals", "Nexus"):
        assert "nexus" in (card["name"] + card.get("text", "")).lower()
    # Name queries use the normal form: the title separator may be typed as a comma.
    assert [c["name"] for c in _search(cli, "elekin", "Veton, The")] == ["Veton | The Lightning Dragon"]


def test_search_treats_like_wildcards_literally(cli: CliInvoker, tmp_path: Path) -> None:
    assert _search(cli, "elekin", "_") == []
    assert _search(cli, "elekin", "%") == []
    source = tmp_path / "odd.json"
    source.write_text(json.dumps([{"name": "Under_Score 100%", "type": "rune", "text": "Gain 5_0 life."}]))
    cli("db", "import", "elekin", str(source))
    for query in ("_", "%", "r_s", "100%", "5_0"):
        assert [c["name"] for c in _search(cli, "elekin", query)] == ["Under_Score 100%"], query


def test_search_filters(cli: CliInvoker, store: CardStore) -> None:
    shields = _search(cli, "elekin", "--type", "shield")
    assert len(shields) == 15
    assert {card["type"] for card in shields} == {"shield"}

    fire = _search(cli, "elekin", "--element", "fire", "--type", "creature")
    assert fire and all("fire" in card["elements"] for card in fire)
    assert "Veton | The Lightning Dragon" in {card["name"] for card in fire}
    assert len(fire) == sum("fire" in c.data.get("elements", []) for c in store.search("elekin", card_type="creature"))

    red = _search(cli, "aestery", "--color", "red")
    assert red and all("red" in card["colors"] for card in red)

    cost_two = _search(cli, "elestrals", "--cost", "2", "--type", "elestral")
    assert cost_two and all(len(card["cost"]) == 2 for card in cost_two)

    cheap_air = _search(cli, "elekin", "--cost", "0", "-e", "air", "-t", "creature")
    assert "Glint" in {card["name"] for card in cheap_air}
    assert all(card["cost"] == 0 for card in cheap_air)

    level_one = _search(cli, "clash", "--cost", "1")
    assert level_one and all(card.get("level") == 1 for card in level_one)

    assert _search(cli, "elekin", "--type", "spell") == []
    assert "No elekin cards match." in cli("db", "search", "elekin", "zzzzzz").stdout


def test_search_table_and_limit(cli: CliInvoker) -> None:
    table = cli("db", "search", "elekin", "--limit", "5").stdout
    assert "elekin: 175 card(s), first 5 shown" in table
    for column in ("Name", "Type", "Cost", "Elements", "Stats", "Flags"):
        assert column in table
    assert len(_search(cli, "elekin")) == 175
    assert len(json.loads(cli("db", "search", "elekin", "--json", "-n", "7").stdout)) == 7
    cli("db", "search", "elekin", "--cost", "cheap", expect=2)


# -- show --------------------------------------------------------------------------


def test_show_all_fields_and_printings(cli: CliInvoker) -> None:
    data = json.loads(cli("db", "show", "elestrals", "Charcoon", "--json").stdout)
    assert data["counts_as"] == "Cirrucoon"
    assert [p["source_id"] for p in data["printings"]] == ["cd-1004", "cd-1270", "cd-1742"]
    table = cli("db", "show", "elestrals", "charcoon").stdout
    for key, value in data.items():
        if key == "printings":
            continue
        assert key in table
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        if len(shown) < 60:  # long text wraps in the table
            assert shown in table, (key, shown)
    for fragment in ("Cirrucoon", "FST-054", "3 printing(s)", "Frostfall", "FF1-065", "2025-05-23", "cd-1270", "yes"):
        assert fragment in table, fragment


def test_show_elekin_card(cli: CliInvoker) -> None:
    table = cli("db", "show", "kinbrold", "Veton, The Lightning Dragon").stdout
    assert "Veton | The Lightning Dragon" in table
    assert "air, fire" in table
    data = json.loads(cli("db", "show", "elekin", "glint", "--json").stdout)
    assert data == {
        "name": "Glint",
        "type": "creature",
        "number": "2",
        "rarity": "U",
        "elements": ["air"],
        "cost": 0,
        "strength": 80,
        "agility": 70,
        "generation": 1,
    }


def test_show_unknown_name(cli: CliInvoker) -> None:
    result = cli("db", "show", "elekin", "Skiters", expect=2)
    assert "no elekin card named 'Skiters'" in result.stderr
    assert "did you mean: Skitters" in result.stderr
    result = cli("db", "show", "elekin", "qqqqxxxxzzzz", expect=2)
    assert "did you mean" not in result.stderr


# -- markers -----------------------------------------------------------------------


def test_demo_cards_are_marked(cli: CliInvoker) -> None:
    table = cli("db", "search", "aestery", "--limit", "0").stdout
    rows = [line for line in table.splitlines() if "Demo " in line]
    assert len(rows) == 27
    assert all("DEMO" in row for row in rows)
    shown = cli("db", "show", "aestery", "Demo Ember Warlord").stdout
    assert "DEMO" in shown.splitlines()[0]
    assert all(card.get("demo") is True for card in _search(cli, "aestery"))


def test_provisional_cards_are_marked(cli: CliInvoker, store: CardStore) -> None:
    provisional = {c.name for c in store.cards("elemental-clash") if c.provisional}
    real = {c.name for c in store.cards("elemental-clash") if not c.provisional}
    assert len(provisional) == 27 and len(real) == 4
    table = cli("db", "search", "clash", "--limit", "0").stdout
    for line in table.splitlines():
        name = line.strip("│ ").split("│")[0].strip()
        if name in provisional:
            assert "PROVISIONAL" in line, line
        elif name in real:
            assert "PROVISIONAL" not in line, line
    assert "PROVISIONAL" in cli("db", "show", "clash", "Salamander").stdout.splitlines()[0]
    assert "PROVISIONAL" not in cli("db", "show", "clash", "Venus Stone").stdout.splitlines()[0]
    assert "INCOMPLETE" in cli("db", "show", "elekin", "Cyclonos").stdout.splitlines()[0]


# -- stats -------------------------------------------------------------------------


def test_stats(cli: CliInvoker, seeded_db: Path) -> None:
    data = json.loads(cli("db", "stats", "--json").stdout)
    assert data["store"] == str(seeded_db)
    games = data["games"]
    assert games["elestrals"]["total"] == 436
    assert games["elestrals"]["type:elestral"] == 321
    assert games["elekin"]["incomplete"] == 28
    assert games["aestery"]["demo"] == 27
    assert games["elemental-clash"]["provisional"] == 27
    assert games["elemystic"]["total"] == 13
    table = cli("db", "stats").stdout
    assert str(seeded_db) in table
    assert "shield 15" in table


# -- help and errors ---------------------------------------------------------------


def _command_paths() -> list[list[str]]:
    def walk(command: Any, path: list[str]) -> list[list[str]]:
        found = [path]
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            found += walk(sub, [*path, name])
        return found

    return walk(typer.main.get_command(app), [])


def test_every_command_has_help(runner: CliRunner) -> None:
    paths = _command_paths()
    assert ["db", "import"] in paths and ["games"] in paths
    for path in paths:
        for flag in ("--help", "-h"):
            result = run_cli(runner, [*path, flag])
            assert "Usage:" in result.stdout, path


def test_no_arguments_shows_help(runner: CliRunner) -> None:
    result = run_cli(runner, [], expect=None)
    assert "Usage:" in result.output
    assert "db" in result.output and "games" in result.output


def test_usage_errors_exit_2_without_traceback(cli: CliInvoker) -> None:
    for args in (["db", "bogus"], ["db", "show", "elekin"], ["games", "extra"], ["--bogus"], ["db", "search"]):
        result = cli(*args, expect=2)
        assert "internal error" not in result.output


def test_version(runner: CliRunner) -> None:
    assert run_cli(runner, ["--version"]).stdout.strip() == f"deckcli {__version__}"


# -- real processes ----------------------------------------------------------------


def _run(args: list[str], db: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DECKCLI_DB": str(db), "COLUMNS": "200"}
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=120, check=False)


def test_python_dash_m_show(seeded_db: Path) -> None:
    result = _run([sys.executable, "-m", "deckcli", "db", "show", "elekin", "Veton, The Lightning Dragon"], seeded_db)
    assert result.returncode == 0, result.stderr
    assert "Veton | The Lightning Dragon" in result.stdout
    result = _run([sys.executable, "-m", "deckcli", "db", "show", "elekin", "Veton"], seeded_db)
    assert result.returncode == 2
    assert "did you mean: Veton | The Lightning Dragon" in result.stderr
    assert "Traceback" not in result.stderr


def test_console_script_on_a_corrupt_store(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("deckcli")
    if not script.exists():
        pytest.skip("deckcli console script not installed next to the interpreter")
    db = tmp_path / "corrupt.sqlite"
    db.write_bytes(os.urandom(4096))
    result = _run([str(script), "--db", str(db), "db", "stats"], tmp_path / "unused.sqlite")
    assert result.returncode == 2
    assert "not a usable deckcli card store" in result.stderr
    assert "deckcli db reset" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    result = _run([str(script), "db", "reset", "--yes"], db)  # the store chosen by DECKCLI_DB
    assert result.returncode == 0, result.stderr
    result = _run([str(script), "db", "search", "elekin", "dragon"], db)
    assert result.returncode == 0
    assert "Veton | The Lightning Dragon" in result.stdout

"""The games registry, `deckcli games`, and choosing the store with --db / DECKCLI_DB."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import CliInvoker, run_cli
from typer.testing import CliRunner

from deckcli.cards.store import CardStore, default_db_path
from deckcli.errors import UnknownGameError
from deckcli.games import GAMES, find_game, game_ids

EXPECTED_IDS = ["elestrals", "elekin", "aestery", "elemental-clash", "elemystic"]


def test_registry_has_the_five_games_in_order() -> None:
    assert game_ids() == EXPECTED_IDS
    assert [g.id for g in GAMES] == EXPECTED_IDS
    assert all(g.name and g.publisher for g in GAMES)


@pytest.mark.parametrize(
    ("spelling", "expected"),
    [
        ("elestrals", "elestrals"),
        ("ELESTRALS", "elestrals"),
        ("Elestral", "elestrals"),
        ("elekin", "elekin"),
        ("Kinbrold", "elekin"),
        ("masters_of_kinbrold", "elekin"),
        ("Aestery", "aestery"),
        ("aestery-TCG", "aestery"),
        ("elemental-clash", "elemental-clash"),
        ("clash", "elemental-clash"),
        ("CLASH", "elemental-clash"),
        ("Clash", "elemental-clash"),
        ("EC", "elemental-clash"),
        ("Elemental Clash", "elemental-clash"),
        ("elemental_clash", "elemental-clash"),
        ("  elemystic ", "elemystic"),
        ("Mystic", "elemystic"),
    ],
)
def test_ids_and_aliases_are_case_insensitive(spelling: str, expected: str) -> None:
    assert find_game(spelling).id == expected


@pytest.mark.parametrize("spelling", ["pokemon", "", "elestralz", "clash royale", "elekin2"])
def test_unknown_game_lists_the_valid_ids(spelling: str) -> None:
    with pytest.raises(UnknownGameError) as info:
        find_game(spelling)
    assert info.value.hint is not None
    for game_id in EXPECTED_IDS:
        assert game_id in info.value.hint
    assert info.value.exit_code == 2


def test_cli_accepts_an_alias(cli: CliInvoker) -> None:
    by_alias = json.loads(cli("db", "search", "CLASH", "--json", "--limit", "0").stdout)
    by_id = json.loads(cli("db", "search", "elemental-clash", "--json", "--limit", "0").stdout)
    assert by_alias == by_id
    assert len(by_id) == 31


def test_cli_unknown_game_exit_2_lists_games(cli: CliInvoker) -> None:
    result = cli("db", "search", "pokemon", "dragon", expect=2)
    assert "unknown game 'pokemon'" in result.stderr
    for game_id in EXPECTED_IDS:
        assert game_id in result.stderr
    assert result.stdout == ""


def test_games_command_shows_counts_and_sources(cli: CliInvoker, store: CardStore) -> None:
    rows = json.loads(cli("games", "--json").stdout)
    assert [row["id"] for row in rows] == EXPECTED_IDS
    for row in rows:
        assert row["cards"] == store.card_count(row["id"]) > 0
        assert len(row["sources"]) == 1
        assert row["sources"][0].startswith("bundled: ")
    by_id = {row["id"]: row for row in rows}
    assert by_id["elestrals"]["cards"] == 436
    assert "Elestrals API dump" in by_id["elestrals"]["sources"][0]
    assert by_id["elekin"]["cards"] == 175
    assert "elemental-card-gallery" in by_id["elekin"]["sources"][0]
    assert "clash" in by_id["elemental-clash"]["aliases"]

    table = cli("games").stdout
    for game in GAMES:
        assert game.id in table
        assert game.name in table
        assert str(store.card_count(game.id)) in table
    assert "Elestrals API dump" in table


def test_games_command_shows_an_import_as_a_source(cli: CliInvoker, tmp_path: Path) -> None:
    source = tmp_path / "extra.json"
    source.write_text(json.dumps([{"name": "Test Sprite", "type": "creature", "elements": ["air"], "cost": 1}]))
    cli("db", "import", "elekin", str(source))
    elekin = next(row for row in json.loads(cli("games", "--json").stdout) if row["id"] == "elekin")
    assert elekin["cards"] == 176
    assert elekin["sources"][-1] == str(source)


def test_env_var_chooses_the_store(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_db = tmp_path / "from-env" / "cards.sqlite"
    monkeypatch.setenv("DECKCLI_DB", str(env_db))
    assert default_db_path() == env_db
    stats = json.loads(run_cli(runner, ["db", "stats", "--json"]).stdout)
    assert stats["store"] == str(env_db)
    assert env_db.is_file()
    assert stats["games"]["elekin"]["total"] == 175


def test_db_option_overrides_env_var(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_db = tmp_path / "env.sqlite"
    option_db = tmp_path / "option.sqlite"
    monkeypatch.setenv("DECKCLI_DB", str(env_db))
    source = tmp_path / "one.json"
    source.write_text(json.dumps([{"name": "Only Here", "type": "creature"}]))
    run_cli(runner, ["--db", str(option_db), "db", "import", "elekin", str(source)])
    assert option_db.is_file()
    assert not env_db.exists()
    with CardStore.open(option_db) as store:
        assert store.get("elekin", "only here") is not None
    # The same import is invisible through another --db.
    other = tmp_path / "other.sqlite"
    run_cli(runner, ["--db", str(other), "db", "show", "elekin", "Only Here"], expect=2)


def test_db_option_is_a_global_option_in_help(runner: CliRunner) -> None:
    result = run_cli(runner, ["--help"])
    assert "--db" in result.stdout
    assert "DECKCLI_DB" in result.stdout


def test_bad_store_paths_exit_2(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = run_cli(runner, ["--db", str(tmp_path), "db", "stats"], expect=2)
    assert "is a directory" in result.output
    monkeypatch.setenv("DECKCLI_DB", str(tmp_path))
    assert "is a directory" in run_cli(runner, ["db", "stats"], expect=2).output
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    result = run_cli(runner, ["--db", str(blocker / "cards.sqlite"), "games"], expect=2)
    assert "cannot create the folder for the card store" in result.stderr

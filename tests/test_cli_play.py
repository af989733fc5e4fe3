"""``deckcli play``: full Elemystic games between two policies, through the real Typer app."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli
from typer.testing import CliRunner


def _play(runner: CliRunner, db: Path, *args: str, expect: int = 0) -> str:
    return run_cli(runner, ["--db", str(db), "play", *args], expect=expect).output


def test_play_table(runner: CliRunner, seeded_db: Path) -> None:
    out = _play(
        runner, seeded_db, "elemystic", "-n", "30", "--seed", "4", "--policies", "greedy,random", "--workers", "1"
    )
    for heading in ("By seat", "By policy", "By front element", "Race win %", "Game win %", "P1", "greedy", "random"):
        assert heading in out, out
    assert "Elemystic: 30 games, seed 4, P1 = greedy, P2 = random" in out
    assert "provisional card data" in out


def test_play_json_is_deterministic_for_any_workers(runner: CliRunner, seeded_db: Path) -> None:
    args = ("mystic", "-n", "24", "--seed", "9", "--policies", "random,greedy", "--json")
    one = json.loads(_play(runner, seeded_db, *args, "--workers", "1"))
    two = json.loads(_play(runner, seeded_db, *args, "--workers", "2"))
    assert one == two
    assert one["game"] == "elemystic" and one["games"] == 24 and one["policies"] == ["random", "greedy"]
    seats = {row["seat"]: row for row in one["by_seat"]}
    policies = {row["policy"]: row for row in one["by_policy"]}
    assert policies["greedy"]["wins"] == seats[2]["wins"] and policies["random"]["wins"] == seats[1]["wins"]
    assert seats[1]["wins"] + seats[2]["wins"] + one["draws"] == 24
    assert policies["greedy"]["win_rate"] > 0.7
    fronts = sum(row["fronts"] for row in one["elements"])
    assert fronts == 2 * sum(int(r) * n for r, n in one["rounds"]["histogram"].items())
    for row in one["elements"]:
        assert row["race_won"] + row["race_tied"] + row["race_lost"] == row["fronts"]
    assert {"Fire", "Light"} <= {row["element"] for row in one["elements"]}
    assert "Fire" not in one["provisional_elements"] and "Earth" in one["provisional_elements"]


def test_play_mirror_splits_policies_across_seats(runner: CliRunner, seeded_db: Path) -> None:
    result = json.loads(
        _play(runner, seeded_db, "elemystic", "-n", "10", "--seed", "2", "--mirror", "--json", "--workers", "1")
    )
    assert result["mirror"] is True and result["policies"] == ["greedy", "random"]
    assert {row["policy"]: row["seat_games"] for row in result["by_policy"]} == {"greedy": 10, "random": 10}


def test_play_errors_are_one_line(runner: CliRunner, seeded_db: Path) -> None:
    out = _play(runner, seeded_db, "elestrals", "-n", "2", expect=2)
    assert "elemystic only" in out
    out = _play(runner, seeded_db, "elemystic", "--policies", "greedy", expect=2)
    assert "two policies" in out
    out = _play(runner, seeded_db, "elemystic", "--policies", "greedy,nobody", expect=2)
    assert "unknown policy 'nobody'" in out
    out = _play(runner, seeded_db, "elemystic", "--policies", "greedy,no_such_module:Bot", expect=2)
    assert "cannot import" in out
    out = _play(runner, seeded_db, "nosuchgame", expect=2)
    assert "unknown game" in out
    _play(runner, seeded_db, "elemystic", "-n", "0", expect=2)


def test_play_custom_policy_class(runner: CliRunner, seeded_db: Path) -> None:
    result = json.loads(
        _play(
            runner,
            seeded_db,
            "elemystic",
            "-n",
            "6",
            "--json",
            "--workers",
            "1",
            "--policies",
            "deckcli.engine.elemystic:GreedyPolicy,deckcli.engine.base:RandomPolicy",
        )
    )
    assert {row["policy"] for row in result["by_policy"]} == {
        "deckcli.engine.elemystic:GreedyPolicy",
        "deckcli.engine.base:RandomPolicy",
    }

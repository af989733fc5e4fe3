"""``deckcli goldfish`` and ``deckcli odds`` end to end (real store, real sample deck)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import CARD_DB, CliInvoker

SAMPLE = str(CARD_DB / "decks" / "elestrals-sample.txt")

GOLDFISH_KEYS = {
    "game",
    "games",
    "seed",
    "on_the_draw",
    "wins_by_turn",
    "no_win",
    "mean_win_turn",
    "median_win_turn",
    "p90_win_turn",
    "mulligan_rate",
    "engine_version",
}


def goldfish_json(cli: CliInvoker, *args: str) -> dict[str, Any]:
    result = cli("goldfish", SAMPLE, "--json", *args)
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_goldfish_json(cli: CliInvoker) -> None:
    data = goldfish_json(cli, "-n", "300", "--seed", "4", "--workers", "1")
    assert set(data) >= GOLDFISH_KEYS
    assert (data["game"], data["games"], data["seed"], data["on_the_draw"]) == ("elestrals", 300, 4, False)
    # see tests/test_engine_elestrals.py: the sample deck always wins on turn 7 on the play
    assert data["wins_by_turn"] == {"7": 300}
    assert (data["no_win"], data["mean_win_turn"], data["median_win_turn"], data["p90_win_turn"]) == (0, 7.0, 7, 7)
    assert 0 <= data["mulligan_rate"] < 0.2 and data["stall_rate"] == 0
    assert data["incomplete_cards"] == []


def test_goldfish_same_result_with_any_number_of_workers(cli: CliInvoker) -> None:
    one = goldfish_json(cli, "-n", "500", "--seed", "8", "--workers", "1", "--on-the-draw")
    two = goldfish_json(cli, "-n", "500", "--seed", "8", "--workers", "2", "--on-the-draw")
    assert one == two
    assert one["wins_by_turn"] == {"6": 500} and one["on_the_draw"] is True


def test_goldfish_turn_cap(cli: CliInvoker) -> None:
    data = goldfish_json(cli, "-n", "50", "--turns", "5", "--workers", "1")
    assert data["wins_by_turn"] == {} and data["no_win"] == 50
    assert data["mean_win_turn"] is None and data["median_win_turn"] is None


def test_goldfish_table_and_histogram(cli: CliInvoker) -> None:
    out = cli("goldfish", SAMPLE, "-n", "200", "--workers", "1").stdout
    for label in ("Games", "Wins", "Mean winning turn", "Median winning turn", "90th percentile", "Mulligan rate"):
        assert label in out
    assert "Stall rate" in out and "Won by turn" in out
    histogram = [line for line in out.splitlines() if line.strip().startswith("7 ")]
    assert histogram and "█" in histogram[0] and histogram[0].rstrip().endswith("100.0%")


def test_goldfish_policy_option(cli: CliInvoker) -> None:
    data = goldfish_json(cli, "-n", "20", "--workers", "1", "--policy", "deckcli.engine.elestrals:GreedyPolicy")
    assert data["wins_by_turn"] == {"7": 20}
    result = cli("goldfish", SAMPLE, "-n", "5", "--policy", "nope:Nothing", expect=2)
    assert "cannot import" in result.output


@pytest.fixture
def incomplete_deck(cli: CliInvoker, tmp_path: Path) -> Path:
    """The sample deck with one Sluggle replaced by a provisional card with no Attack."""
    cards = tmp_path / "cards.json"
    card = {"name": "Mystery Drake", "type": "elestral", "cost": ["fire"], "attack": None, "provisional": True}
    cards.write_text(json.dumps({"game": "elestrals", "source": "test", "cards": [card]}))
    cli("db", "import", "elestrals", str(cards))
    text = Path(SAMPLE).read_text().replace("3 Sluggle", "2 Sluggle\n1 Mystery Drake")
    deck = tmp_path / "deck.txt"
    deck.write_text(text)
    return deck


def test_incomplete_cards_refused(cli: CliInvoker, incomplete_deck: Path) -> None:
    result = cli("goldfish", str(incomplete_deck), "-n", "10", "--workers", "1", expect=2)
    assert "Mystery Drake" in result.output and "missing attack" in result.output
    assert "provisional" in result.output and "--allow-incomplete" in result.output


def test_incomplete_cards_allowed(cli: CliInvoker, incomplete_deck: Path) -> None:
    result = cli("goldfish", str(incomplete_deck), "-n", "10", "--workers", "1", "--allow-incomplete")
    assert "Mystery Drake" in result.output and "Incomplete data" in result.output
    result = cli("goldfish", str(incomplete_deck), "-n", "10", "--workers", "1", "--allow-incomplete", "--json")
    assert json.loads(result.stdout)["incomplete_cards"] == ["Mystery Drake"]


def test_plot(cli: CliInvoker, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "wins.png"
    cli("goldfish", SAMPLE, "-n", "50", "--workers", "1", "--plot", str(target))
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    result = cli("goldfish", SAMPLE, "-n", "50", "--workers", "1", "--plot", str(target), expect=2)
    assert "exists" in result.output and "--force" in result.output
    cli("goldfish", SAMPLE, "-n", "50", "--workers", "1", "--plot", str(target), "--force")


def test_plot_without_matplotlib(cli: CliInvoker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes `import matplotlib` fail
    result = cli("goldfish", SAMPLE, "-n", "5", "--plot", str(tmp_path / "x.png"), expect=2)
    assert "matplotlib" in result.output and "deckcli[plot]" in result.output
    assert not (tmp_path / "x.png").exists()


def test_odds_json_exact_and_simulated(cli: CliInvoker) -> None:
    result = cli("odds", SAMPLE, "--card", "Sluggle", "--by-turn", "3", "--json", "--simulate", "4000", "--seed", "2")
    data = json.loads(result.stdout)
    assert (data["card"], data["copies"], data["deck_size"]) == ("Sluggle", 1, 40)
    rows = data["by_turn"]
    assert [r["turn"] for r in rows] == [0, 1, 2, 3]
    # 3 Sluggle in 40 cards; on the play 5, 5, 6, 7 cards seen by turns 0..3
    for row, seen in zip(rows, (5, 5, 6, 7), strict=True):
        exact = 1 - math.comb(37, seen) / math.comb(40, seen)
        assert row["probability"] == pytest.approx(exact)
        assert abs(row["simulated"] - exact) <= 4 * math.sqrt(exact * (1 - exact) / 4000)


def test_odds_group_copies_and_on_the_draw(cli: CliInvoker) -> None:
    args = ["odds", SAMPLE, "--card", "Sluggle", "--card", "majesea", "--copies", "2", "--by-turn", "1"]
    data = json.loads(cli(*args, "--on-the-draw", "--json", "--simulate", "0").stdout)
    assert data["card"] == "Sluggle / Majesea"
    # 4 copies in 40; on the draw 6 cards by turn 1: P(X >= 2) = 1 - [C(36,6) + 4 C(36,5)] / C(40,6)
    expected = 1 - (math.comb(36, 6) + 4 * math.comb(36, 5)) / math.comb(40, 6)
    assert data["by_turn"][1]["probability"] == pytest.approx(expected)
    assert data["by_turn"][1]["simulated"] is None


def test_odds_table(cli: CliInvoker) -> None:
    out = cli("odds", SAMPLE, "--card", "Sluggle", "--by-turn", "2", "--simulate", "500").stdout
    assert "Exact" in out and "Simulated" in out and "33.76%" in out  # 222111/658008


def test_odds_bad_cards(cli: CliInvoker) -> None:
    result = cli("odds", SAMPLE, "--card", "Slugle", "--by-turn", "2", expect=2)
    assert "unknown card" in result.output and "Sluggle" in result.output
    result = cli("odds", SAMPLE, "--card", "Leviaphin", "--by-turn", "2", expect=2)
    assert "not in the deck's main deck" in result.output

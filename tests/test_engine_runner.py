"""The goldfish runner: seeds, worker-independent results, streamed statistics, policies."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import CARD_DB

from deckcli.cards.pool import CardPool
from deckcli.cards.store import CardStore
from deckcli.decks.io import read_deck_file
from deckcli.engine.base import Action, EngineDeck, EngineError, GameOptions, GameOutcome, GameState
from deckcli.engine.decks import engine_deck
from deckcli.engine.elestrals import ENGINE, GreedyPolicy
from deckcli.engine.runner import GoldfishStats, load_policy, play_game, run_goldfish
from deckcli.engine.seeds import game_seed
from deckcli.rules import find_format


@pytest.fixture(scope="module")
def sample_deck(tmp_path_factory: pytest.TempPathFactory, seeded_template: Path) -> EngineDeck:
    copy = tmp_path_factory.mktemp("runner") / "cards.sqlite"
    shutil.copyfile(seeded_template, copy)
    with CardStore.open(copy) as store:
        pool = CardPool.load(store, "elestrals")
        deck = read_deck_file(CARD_DB / "decks" / "elestrals-sample.txt")[0]
        return engine_deck(deck, find_format("elestrals"), pool)


class FirstLegalPolicy:
    """Always the first legal action (a policy with no fast path)."""

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        return actions[0]


def test_game_seeds() -> None:
    assert game_seed(1, 0) == game_seed(1, 0)
    assert len({game_seed(1, i) for i in range(1000)}) == 1000
    assert game_seed(1, 5) != game_seed(2, 5)
    assert 0 <= game_seed(7, 7) < 2**64


def test_results_do_not_depend_on_workers(sample_deck: EngineDeck) -> None:
    options = GameOptions(on_the_draw=False)
    one = run_goldfish(ENGINE, sample_deck, 700, 5, options=options, workers=1)
    two = run_goldfish(ENGINE, sample_deck, 700, 5, options=options, workers=2)
    assert one == two
    assert one.games == 700 and one.wins + one.no_win == 700


def test_random_policy_spec_results_do_not_depend_on_workers(sample_deck: EngineDeck) -> None:
    spec = "test_engine_runner:FirstLegalPolicy"
    one = run_goldfish(ENGINE, sample_deck, 120, 9, policy_spec=spec, workers=1)
    two = run_goldfish(ENGINE, sample_deck, 120, 9, policy_spec=spec, workers=2)
    assert one == two and one.games == 120


def test_progress_counts_every_game(sample_deck: EngineDeck) -> None:
    seen: list[int] = []
    stats = run_goldfish(ENGINE, sample_deck, 333, 1, workers=2, progress=seen.append)
    assert sum(seen) == 333 == stats.games


def test_zero_and_negative_games(sample_deck: EngineDeck) -> None:
    assert run_goldfish(ENGINE, sample_deck, 0, 1, workers=1).games == 0
    with pytest.raises(EngineError):
        run_goldfish(ENGINE, sample_deck, -1, 1)


def test_play_game_uses_the_fast_path_only_for_its_policy(sample_deck: EngineDeck) -> None:
    calls: Counter[str] = Counter()

    class Spy(GreedyPolicy):
        def decide(self, state: Any) -> Action:
            calls["decide"] += 1
            return super().decide(state)

        def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
            calls["choose"] += 1
            return super().choose(state, actions)

    play_game(ENGINE, sample_deck, 3, Spy())
    assert calls["choose"] == 0 and calls["decide"] > 0
    calls.clear()

    class NoFastPath(Spy):
        supports_play_out = False

    play_game(ENGINE, sample_deck, 3, NoFastPath())
    assert calls["choose"] > 0


def test_stats_percentiles_and_merge() -> None:
    stats = GoldfishStats()
    for turn, n in ((5, 2), (6, 5), (7, 2), (9, 1)):
        for _ in range(n):
            stats.add(GameOutcome(True, turn, 0, False, turn, "opponent out of Spirits"))
    stats.add(GameOutcome(False, None, 2, True, 20, "turn cap"))
    assert stats.games == 11 and stats.wins == 10 and stats.no_win == 1
    assert stats.mean_win_turn == pytest.approx((10 + 30 + 14 + 9) / 10)
    assert stats.median_win_turn == 6  # 5th and 6th of 10 wins are on turn 6
    assert stats.p90_win_turn == 7  # the 9th win is on turn 7
    assert stats.mulligan_rate == pytest.approx(1 / 11) and stats.stall_rate == pytest.approx(1 / 11)
    assert stats.won_by_turn() == {5: 2 / 11, 6: 7 / 11, 7: 9 / 11, 9: 10 / 11}
    merged = GoldfishStats()
    merged.merge(stats)
    merged.merge(stats)
    assert merged.games == 22 and merged.wins_by_turn[6] == 10 and merged.reasons["turn cap"] == 2
    empty = GoldfishStats()
    assert empty.mean_win_turn is None and empty.median_win_turn is None and empty.mulligan_rate == 0


def test_load_policy() -> None:
    assert isinstance(load_policy(None, ENGINE), GreedyPolicy)
    assert isinstance(load_policy("greedy", ENGINE), GreedyPolicy)
    assert isinstance(load_policy("deckcli.engine.elestrals:GreedyPolicy", ENGINE), GreedyPolicy)
    for bad in ("nocolon", "no_such_module_xyz:Policy", "deckcli.engine.elestrals:Nope", "deckcli.engine.base:Action"):
        with pytest.raises(EngineError):
            load_policy(bad, ENGINE)

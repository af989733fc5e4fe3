"""Goldfish engine benchmarks (pytest-benchmark). Skipped in the normal run (--benchmark-skip).

Run: ``pytest tests/bench/test_bench_engine.py --benchmark-only -p no:cacheprovider``.
Figures, not asserts (see ``report_engine.py`` for the targets: 5,000 games/s per core for
Elestrals and Elekin on the sample decks, a 2-worker speed-up of 1.7x, flat memory up to
1,000,000 games). An engine whose module does not exist yet is skipped. The 1,000,000-game
memory run takes minutes: it runs only with ``DECKCLI_BENCH_MILLION=1``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from report_engine import (
    BENCH_GAMES,
    engine_available,
    memory_run,
    sample_engine_deck,
    single_core_rate,
    time_run,
)

GAMES = 2_000


def _engine_deck(game: str, tmp_path_factory: pytest.TempPathFactory, seeded_template: Path) -> tuple[Any, Any]:
    if not engine_available(game):
        pytest.skip(f"no {game} engine module yet")
    db = tmp_path_factory.mktemp(f"bench-{game}") / "cards.sqlite"
    shutil.copyfile(seeded_template, db)
    return sample_engine_deck(game, db)


@pytest.mark.parametrize("on_the_draw", [False, True], ids=["on-the-play", "on-the-draw"])
@pytest.mark.parametrize("game", BENCH_GAMES)
def test_bench_goldfish_one_core(
    benchmark: Any,
    game: str,
    on_the_draw: bool,
    tmp_path_factory: pytest.TempPathFactory,
    seeded_template: Path,
) -> None:
    engine, deck = _engine_deck(game, tmp_path_factory, seeded_template)
    single_core_rate(engine, deck, 200, on_the_draw)  # warm up the per-deck facts
    rate = benchmark.pedantic(
        time_run,
        args=(engine, deck, GAMES),
        kwargs={"workers": 1, "on_the_draw": on_the_draw},
        rounds=5,
        iterations=1,
    )
    benchmark.extra_info["games"] = GAMES
    benchmark.extra_info["games_per_cpu_second"] = round(rate.per_cpu_second)
    benchmark.extra_info["games_per_wall_second"] = round(rate.per_second)
    assert rate.games == GAMES


@pytest.mark.parametrize("game", BENCH_GAMES)
def test_bench_two_worker_speedup(
    benchmark: Any, game: str, tmp_path_factory: pytest.TempPathFactory, seeded_template: Path
) -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core")
    engine, deck = _engine_deck(game, tmp_path_factory, seeded_template)
    games = 20_000
    one = single_core_rate(engine, deck, games)
    two = benchmark.pedantic(time_run, args=(engine, deck, games), kwargs={"workers": 2}, rounds=3, iterations=1)
    benchmark.extra_info["speedup"] = round(two.per_second / one.per_second, 2)
    benchmark.extra_info["one_worker_games_per_s"] = round(one.per_second)
    benchmark.extra_info["two_workers_games_per_s"] = round(two.per_second)


@pytest.mark.skipif(not os.environ.get("DECKCLI_BENCH_MILLION"), reason="set DECKCLI_BENCH_MILLION=1 (minutes)")
@pytest.mark.parametrize("game", BENCH_GAMES)
def test_bench_million_games_flat_memory(
    benchmark: Any, game: str, tmp_path_factory: pytest.TempPathFactory, seeded_template: Path
) -> None:
    if not engine_available(game):
        pytest.skip(f"no {game} engine module yet")
    db = tmp_path_factory.mktemp(f"million-{game}") / "cards.sqlite"
    shutil.copyfile(seeded_template, db)
    small = memory_run(game, db, 100_000)
    big = benchmark.pedantic(memory_run, args=(game, db, 1_000_000), rounds=1, iterations=1)
    benchmark.extra_info["peak_rss_mb_100k"] = round(small["peak_rss_mb"], 1)
    benchmark.extra_info["peak_rss_mb_1m"] = round(big["peak_rss_mb"], 1)
    benchmark.extra_info["worker_peak_rss_mb_100k"] = round(small["worker_peak_rss_mb"], 1)
    benchmark.extra_info["worker_peak_rss_mb_1m"] = round(big["worker_peak_rss_mb"], 1)
    assert big["games"] == 1_000_000

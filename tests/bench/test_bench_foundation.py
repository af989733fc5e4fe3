"""Foundation benchmarks (pytest-benchmark). Skipped in the normal run (--benchmark-skip).

Run: ``pytest tests/bench --benchmark-only -p no:cacheprovider``. Figures, not asserts:
the only assertions check that the measured work produced the right result. Targets
(see ``_foundation.py``): Elestrals folder import <= 2 s; 100,000-card JSON import
<= 10 s and <= 300 MB peak RSS; exact lookup <= 20 us; "did you mean" over 100,000
names <= 20 ms; ``deckcli --help`` / ``deckcli db show elekin Glint`` <= 150 ms
(reported with their ratio to ``python -c pass``).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from _foundation import (
    EXACT_QUERIES,
    SUGGEST_QUERIES,
    bytecode_env,
    copy_store,
    elestrals_data_dir,
    import_100k,
    name_pool,
    real_names,
    startup_commands,
    time_command,
    write_synthetic_cards,
)

from deckcli.cards.importers import import_source
from deckcli.cards.lookup import NameIndex
from deckcli.cards.store import CardStore

POOL_SIZE = 100_000


@pytest.fixture(scope="module")
def big_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_synthetic_cards(tmp_path_factory.mktemp("big") / "cards-100k.json", POOL_SIZE)


@pytest.fixture(scope="module")
def index_100k(seeded_template: Path) -> NameIndex:
    index = NameIndex("bench", name_pool(POOL_SIZE, real_names(seeded_template)))
    assert len(index) == POOL_SIZE
    index.suggest("warm up the lazily built lists")
    return index


def test_bench_import_elestrals_folder(benchmark: Any, seeded_db: Path) -> None:
    with CardStore.open(seeded_db) as store:
        result = benchmark.pedantic(
            import_source,
            args=(store, "elestrals", elestrals_data_dir()),
            kwargs={"replace": True},
            rounds=5,
            iterations=1,
            warmup_rounds=1,
        )
        assert len(result.cards) == 436
        assert store.card_count("elestrals") == 436
    benchmark.extra_info["target_s"] = 2.0


def test_bench_import_100k_canonical(benchmark: Any, seeded_db: Path, big_json: Path) -> None:
    runs = []

    def run() -> None:
        runs.append(import_100k(seeded_db, big_json))

    benchmark.pedantic(run, rounds=2, iterations=1)
    with CardStore.open(seeded_db) as store:
        assert store.card_count("elekin") == POOL_SIZE
    benchmark.extra_info["peak_rss_mb"] = max(r.peak_rss_mb for r in runs)
    benchmark.extra_info["target_s"] = 10.0
    benchmark.extra_info["target_peak_mb"] = 300.0


@pytest.mark.parametrize("query", EXACT_QUERIES)
def test_bench_exact_lookup(benchmark: Any, index_100k: NameIndex, query: str) -> None:
    found = benchmark(index_100k.exact, query)
    assert found is not None
    benchmark.extra_info["target_us"] = 20.0


@pytest.mark.parametrize(("query", "meant"), SUGGEST_QUERIES.items())
def test_bench_did_you_mean_100k(benchmark: Any, index_100k: NameIndex, query: str, meant: str) -> None:
    suggestions = benchmark(index_100k.suggest, query)
    assert suggestions[0] == meant
    benchmark.extra_info["target_ms"] = 20.0


@pytest.mark.parametrize("which", ["deckcli --help", "deckcli db show elekin Glint"])
def test_bench_startup(benchmark: Any, tmp_path: Path, seeded_template: Path, which: str) -> None:
    store = copy_store(seeded_template, tmp_path / "startup.sqlite")
    commands = startup_commands(store)
    env = bytecode_env(tmp_path / "pycache")  # as installed: deckcli's .pyc files exist
    baseline = time_command(commands["python -c pass"], runs=15, env=env)
    command = commands[which]
    subprocess.run(command, capture_output=True, check=True, env=env)  # writes .pyc; must succeed
    benchmark.pedantic(
        subprocess.run,
        args=(command,),
        kwargs={"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "check": True, "env": env},
        rounds=15,
        iterations=1,
    )
    median = benchmark.stats.stats.median
    benchmark.extra_info["python_c_pass_ms"] = round(baseline * 1000, 1)
    benchmark.extra_info["ratio_to_python"] = round(median / baseline, 2)
    benchmark.extra_info["target_ms"] = 150.0

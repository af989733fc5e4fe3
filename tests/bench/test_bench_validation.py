"""Validation benchmarks (pytest-benchmark). Skipped in the normal run (--benchmark-skip).

Run: ``pytest tests/bench/test_bench_validation.py --benchmark-only -p no:cacheprovider``,
or the plain table: ``python tests/bench/report_validation.py``. Figures, not asserts:
the assertions check only that the measured work produced the right result.

Targets: in-process validation of pre-parsed decks >= 20,000 decks/s on one core (the
Elestrals sample, the Elekin sample, a mix of all five games with illegal decks);
``deckcli validate`` on a folder of 10,000 generated decklist files (a real
subprocess; ``--json`` to a file, and human output to /dev/null) <= 5 s each.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import report_validation as rv

#: legal decks in each in-process measure (the mix: "as is" and "x-forms" of 5 games)
LEGAL = {"elestrals sample": 1, "elekin sample": 1, "mix: 5 games, 2 of 3 illegal": 10}


@pytest.fixture(scope="module")
def bench_db(seeded_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bench-validation") / "cards.sqlite"
    shutil.copyfile(seeded_template, path)
    return path


@pytest.fixture(scope="module")
def bench_pools(bench_db: Path) -> dict[str, object]:
    return rv.load_pools(bench_db)


@pytest.fixture(scope="module")
def deck_folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    folder = tmp_path_factory.mktemp("bench-decks") / "decks"
    expected = rv.write_deck_files(folder, rv.FILES)
    return folder, expected


@pytest.mark.parametrize("label", list(LEGAL))
def test_bench_validate_in_process(benchmark: Any, bench_pools: dict[str, object], label: str) -> None:
    work = rv.prepared(rv.bench_decks()[label], bench_pools)
    legal = benchmark(rv.validate_all, work)
    assert legal == LEGAL[label]
    mean = benchmark.stats.stats.mean
    benchmark.extra_info["decks"] = len(work)
    benchmark.extra_info["decks_per_s"] = round(len(work) / mean)
    benchmark.extra_info["target_decks_per_s"] = rv.TARGET_DECKS_PER_S


@pytest.mark.parametrize("output", ["json", "human"])
def test_bench_cli_10000_files(
    benchmark: Any, bench_db: Path, deck_folder: tuple[Path, dict[str, int]], tmp_path: Path, output: str
) -> None:
    folder, expected = deck_folder
    env = rv.cli_env(tmp_path / "pycache")
    json_out = tmp_path / "report.json" if output == "json" else None
    _elapsed, code = benchmark.pedantic(
        rv.run_cli, args=(bench_db, folder, env, json_out), rounds=3, iterations=1, warmup_rounds=1
    )
    assert code == 1  # the generated folder holds illegal decks
    if json_out is not None:
        rv.check_json_report(json_out, expected)
    benchmark.extra_info["files"] = rv.FILES
    benchmark.extra_info["target_s"] = rv.TARGET_CLI_S

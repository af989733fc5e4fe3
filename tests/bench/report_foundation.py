"""Run every foundation benchmark once and print a table of figures against targets.

Usage: ``python tests/bench/report_foundation.py``. Everything happens in a temporary
folder (stores, the synthetic 100,000-card file, bytecode cache); the user's card store
is never touched. Figures are measurements on this machine, not pass/fail checks; the
quality of what is measured (card counts, first suggestions) is checked.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _foundation import (
    EXACT_QUERIES,
    SUGGEST_QUERIES,
    TARGET_100K_IMPORT_S,
    TARGET_100K_PEAK_MB,
    TARGET_ELESTRALS_IMPORT_S,
    TARGET_EXACT_US,
    TARGET_STARTUP_MS,
    TARGET_SUGGEST_MS,
    bytecode_env,
    copy_store,
    deckcli_command,
    elestrals_data_dir,
    import_100k,
    import_elestrals_once,
    median_call,
    name_pool,
    real_names,
    seeded_store,
    startup_commands,
    time_command,
    write_synthetic_cards,
)

Row = tuple[str, str, str, str, str]


def _fmt(value: float, unit: str) -> str:
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "ms":
        return f"{value:.1f} ms"
    if unit == "us":
        return f"{value:.2f} µs"
    return f"{value:.0f} {unit}"


def _row(measure: str, value: float, unit: str, target: float | None, vs_python: float | None = None) -> Row:
    return (
        measure,
        _fmt(value, unit),
        f"≤ {_fmt(target, unit)}" if target is not None else "-",
        f"{value / target:.2f}" if target is not None else "-",
        f"{vs_python:.2f}x" if vs_python is not None else "-",
    )


def _print_table(rows: list[Row]) -> None:
    header: Row = ("Measure", "Figure", "Target", "Figure/target", "vs python -c pass")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(5)]
    line = "  ".join("-" * w for w in widths)
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print(line)
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))


def main() -> None:
    from deckcli.cards.lookup import NameIndex

    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="deckcli-bench-") as tmp:
        work = Path(tmp)
        os.environ["DECKCLI_DB"] = str(work / "never-used.sqlite")  # belt and braces
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, deckcli command: {' '.join(deckcli_command())}")
        print("building a seeded store ...", flush=True)
        template = seeded_store(work / "seeded.sqlite")

        # 1. Elestrals API data/ folder (1,875 files): read, merge, validate, write.
        store = copy_store(template, work / "elestrals.sqlite")
        import_elestrals_once(store)  # warm-up (file cache, imports)
        samples = [import_elestrals_once(store) for _ in range(5)]
        rows.append(
            _row(
                "Import Elestrals API data/ (1,875 files), median of 5",
                sorted(samples)[2],
                "s",
                TARGET_ELESTRALS_IMPORT_S,
            )
        )
        cli_store = copy_store(template, work / "elestrals-cli.sqlite")
        command = [
            *deckcli_command(),
            "--db",
            str(cli_store),
            "db",
            "import",
            "elestrals",
            str(elestrals_data_dir()),
            "--replace",
        ]
        rows.append(
            _row(
                "  same through `deckcli db import` (process, median of 3)",
                time_command(command, runs=3),
                "s",
                TARGET_ELESTRALS_IMPORT_S,
            )
        )

        # 2. 100,000-card canonical JSON through the CLI, in a child process.
        print("writing the 100,000-card file ...", flush=True)
        big = write_synthetic_cards(work / "cards-100k.json")
        big_store = copy_store(template, work / "big.sqlite")
        run = import_100k(big_store, big)
        rows.append(
            _row(
                f"Import 100,000-card canonical JSON ({big.stat().st_size / 1e6:.0f} MB), wall",
                run.seconds,
                "s",
                TARGET_100K_IMPORT_S,
            )
        )
        rows.append(_row("  peak RSS of that process", run.peak_rss_mb, "MB", TARGET_100K_PEAK_MB))

        # 3. Name lookup over 100,000 names (the real Elestrals and Elekin names included).
        pairs = name_pool(100_000, real_names(template))
        started = time.perf_counter()
        index = NameIndex("bench", pairs)
        build = time.perf_counter() - started
        exact = max(median_call(partial(index.exact, q), repeat=7, number=20_000) for q in EXACT_QUERIES)
        assert all(index.exact(q) for q in EXACT_QUERIES)
        rows.append(
            _row("Exact name lookup, 100,000 names (slowest query's median)", exact * 1e6, "us", TARGET_EXACT_US)
        )
        started = time.perf_counter()
        index.suggest("first call builds the lazy lists")
        first = time.perf_counter() - started
        medians = {}
        for query, meant in SUGGEST_QUERIES.items():
            got = index.suggest(query)
            assert got[0] == meant, (query, got)
            medians[query] = median_call(partial(index.suggest, query), repeat=15)
        worst = max(medians, key=medians.__getitem__)
        rows.append(
            _row(
                f'"Did you mean", 100,000 names (slowest query: {worst!r})',
                medians[worst] * 1e3,
                "ms",
                TARGET_SUGGEST_MS,
            )
        )
        for query, seconds in medians.items():
            if query != worst:
                rows.append(
                    _row(f"  query {query!r} -> {SUGGEST_QUERIES[query]!r}", seconds * 1e3, "ms", TARGET_SUGGEST_MS)
                )
        rows.append(_row("  (info) index build, 100,000 names", build * 1e3, "ms", None))
        rows.append(_row("  (info) first suggestion (builds the lazy lists)", first * 1e3, "ms", None))

        # 4. Start-up, median of 15 runs each, python -c pass measured in the same run.
        startup_store = copy_store(template, work / "startup.sqlite")
        commands = startup_commands(startup_store)
        for label, cache in (
            ("bytecode cached, as installed", work / "pycache"),
            ("no bytecode cache: PYTHONDONTWRITEBYTECODE as set here", None),
        ):
            if cache is None and os.environ.get("PYTHONDONTWRITEBYTECODE") is None:
                continue
            env = bytecode_env(cache)
            baseline = time_command(commands["python -c pass"], runs=15, env=env)
            rows.append(_row(f"python -c pass ({label})", baseline * 1e3, "ms", None, 1.0))
            for name in ("deckcli --help", "deckcli db show elekin Glint"):
                median = time_command(commands[name], runs=15, env=env)
                rows.append(_row(f"  {name}", median * 1e3, "ms", TARGET_STARTUP_MS, median / baseline))
    print()
    _print_table(rows)


if __name__ == "__main__":
    main()

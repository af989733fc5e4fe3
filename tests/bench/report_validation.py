"""Validation benchmarks: print a table of figures against targets.

Usage: ``python tests/bench/report_validation.py [--files N]``. Everything happens in a
temporary folder (the card store, the generated decklists, the JSON report, a bytecode
cache); the user's card store is never touched. Figures are measurements on this
machine, not pass/fail checks; what is measured is checked (every deck validated, the
verdicts the generator intended).

Measures:

- in-process validation, decks per second on one core, of pre-parsed decks: the
  Elestrals sample, the Elekin sample, and a mix of all five games with illegal decks
  (unknown cards, copy limits, wrong sizes and sections, parse errors);
- ``deckcli validate FOLDER`` on 10,000 generated decklist files (text and JSON, legal
  and illegal) as a real subprocess: with ``--json`` written to a file, and with the
  default human output to /dev/null.

The helpers are shared with ``test_bench_validation.py`` (pytest-benchmark).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SAMPLES = REPO_ROOT / "card_db" / "decks"
GAMES = ("elestrals", "elekin", "aestery", "elemental-clash", "elemystic")

TARGET_DECKS_PER_S = 20_000.0
TARGET_CLI_S = 5.0
FILES = 10_000
ON = dt.date(2025, 6, 1)


# ----------------------------------------------------------------------------- store and pools


def seeded_store(folder: Path) -> Path:
    """A card store filled from the bundled data, in ``folder``."""
    from deckcli.cards.store import CardStore

    path = folder / "cards.sqlite"
    CardStore.open(path).close()
    return path


def load_pools(db: Path) -> dict[str, object]:
    from deckcli.cards.pool import CardPool
    from deckcli.cards.store import CardStore

    with CardStore.open(db) as store:
        return {game: CardPool.load(store, game) for game in GAMES}


# ----------------------------------------------------------------------------- decks


def sample_text(game: str) -> str:
    return (SAMPLES / f"{game}-sample.txt").read_text(encoding="utf-8")


def _first_card_line(text: str) -> str:
    return next(line for line in text.splitlines() if line[:1].isdigit())


#: mutation name -> (legal?, text -> text)
MUTATIONS: dict[str, tuple[bool, Callable[[str], str]]] = {
    "as is": (True, lambda t: t),
    "x-forms": (
        True,
        lambda t: (
            "\n".join(
                (f"{line.split(' ', 1)[1]} x{line.split(' ', 1)[0]}" if line[:1].isdigit() else line)
                for line in t.splitlines()
            )
            + "\n"
        ),
    ),
    "unknown card": (False, lambda t: t.replace(_first_card_line(t), _first_card_line(t) + "\n1 Mystery Card of Doom")),
    "one card short": (False, lambda t: t.replace(_first_card_line(t) + "\n", "", 1)),
    "over the copy limit": (False, lambda t: t.replace(_first_card_line(t), "9" + _first_card_line(t)[1:], 1)),
    "parse error": (False, lambda t: t + "this line is not a card\n"),
}


def mixed_texts() -> list[tuple[str, bool, str]]:
    """``(game, expected legal?, text)`` for every game and mutation."""
    return [(game, legal, mutate(sample_text(game))) for game in GAMES for legal, mutate in MUTATIONS.values()]


def bench_decks() -> dict[str, list[tuple[str, object]]]:
    """Pre-parsed decks per measure: ``[(game, Deck)]``."""
    from deckcli.decks.text import read_text_deck

    return {
        "elestrals sample": [("elestrals", read_text_deck(sample_text("elestrals")))],
        "elekin sample": [("elekin", read_text_deck(sample_text("elekin")))],
        "mix: 5 games, 2 of 3 illegal": [(game, read_text_deck(text)) for game, _, text in mixed_texts()],
    }


def validate_all(work: Sequence[tuple[object, object, object]]) -> int:
    """Validate every ``(deck, format, pool)``; the number of legal decks."""
    from deckcli.rules import validate

    legal = 0
    for deck, fmt, pool in work:
        legal += validate(deck, fmt, pool, ON).valid  # type: ignore[arg-type]
    return legal


def prepared(decks: list[tuple[str, object]], pools: dict[str, object]) -> list[tuple[object, object, object]]:
    from deckcli.rules import find_format

    return [(deck, find_format(game), pools[game]) for game, deck in decks]


def validation_rate(work: Sequence[tuple[object, object, object]], seconds: float = 1.0, repeats: int = 3) -> float:
    """Best-of-``repeats`` decks per second, each repeat running for about ``seconds``."""
    validate_all(work)  # warm the caches (name lookups, suggestions, format plans)
    best = 0.0
    for _ in range(repeats):
        done, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            validate_all(work)
            done += len(work)
        best = max(best, done / (time.perf_counter() - started))
    return best


# ----------------------------------------------------------------------------- decklist files


def write_deck_files(folder: Path, count: int = FILES, seed: int = 7) -> dict[str, int]:
    """``count`` decklist files in sub-folders of ``folder``; every tenth is JSON.

    Returns the expected verdict counts: ``{"legal": n, "illegal": m}``.
    """
    from deckcli.decks.jsonform import write_json_deck
    from deckcli.decks.text import read_text_deck

    rng = random.Random(seed)
    variants = mixed_texts()
    expected = {"legal": 0, "illegal": 0}
    for index in range(count):
        _, legal, text = variants[rng.randrange(len(variants))]
        sub = folder / f"round{index % 10}"
        sub.mkdir(parents=True, exist_ok=True)
        name = f"player{index:05d}"
        if index % 10 == 9 and "not a card" not in text:
            deck = read_text_deck(text)
            deck.name = name
            (sub / f"{name}.json").write_text(write_json_deck(deck), encoding="utf-8")
        else:
            (sub / f"{name}.txt").write_text(text.replace("Name: ", f"Name: {name} ", 1), encoding="utf-8")
        expected["legal" if legal else "illegal"] += 1
    return expected


def deckcli_command() -> list[str]:
    """The installed console script, else ``python -m deckcli``."""
    script = Path(sys.executable).with_name("deckcli")
    return [str(script)] if script.exists() else [sys.executable, "-m", "deckcli"]


def cli_env(cache: Path) -> dict[str, str]:
    """Bytecode cached in ``cache`` (as an installed deckcli has its .pyc files)."""
    env = {**os.environ, "COLUMNS": "120"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def run_cli(db: Path, folder: Path, env: dict[str, str], json_out: Path | None = None) -> tuple[float, int]:
    """``deckcli --db DB validate FOLDER [--json > json_out]`` (else human output to /dev/null):
    wall seconds and exit code."""
    command = [*deckcli_command(), "--db", str(db), "validate", str(folder), "--date", ON.isoformat()]
    if json_out is not None:
        command.append("--json")
    started = time.perf_counter()
    with open(json_out if json_out is not None else os.devnull, "w", encoding="utf-8") as out:
        done = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, env=env, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode()[-500:]}")
    return elapsed, done.returncode


def check_json_report(path: Path, expected: dict[str, int]) -> None:
    """Every generated deck is in the report, with the verdict it was generated for."""
    reports = json.loads(path.read_text(encoding="utf-8"))
    legal = sum(r["valid"] for r in reports)
    got = {"legal": legal, "illegal": len(reports) - legal}
    if got != expected:
        raise AssertionError(f"verdicts {got} != expected {expected}")


# ----------------------------------------------------------------------------- the table


def _print_table(rows: list[tuple[str, str, str]]) -> None:
    header = ("Measure", "Figure", "Target")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(3)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=FILES, help="decklist files for the CLI runs")
    parser.add_argument("--runs", type=int, default=3, help="CLI runs per measure (the median is shown)")
    args = parser.parse_args(argv)
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="deckcli-bench-validation-") as tmp:
        folder = Path(tmp)
        db = seeded_store(folder)
        pools = load_pools(db)
        for label, decks in bench_decks().items():
            rate = validation_rate(prepared(decks, pools))
            target = f"≥ {TARGET_DECKS_PER_S:,.0f} decks/s"
            rows.append((f"validate() in-process, {label}", f"{rate:,.0f} decks/s", target))
        decks_folder = folder / "decks"
        expected = write_deck_files(decks_folder, args.files)
        env = cli_env(folder / "pycache")
        run_cli(db, decks_folder, env)  # warm-up: bytecode and the OS file cache
        json_out = folder / "report.json"
        for label, out in (("--json to a file", json_out), ("human output to /dev/null", None)):
            times = []
            for _ in range(args.runs):
                elapsed, code = run_cli(db, decks_folder, env, out)
                assert code == (1 if expected["illegal"] else 0), code
                times.append(elapsed)
            if out is not None:
                check_json_report(out, expected)
            median = sorted(times)[len(times) // 2]
            measure = f"deckcli validate, {args.files:,} files, {label}"
            rows.append((measure, f"{median:.2f} s", f"≤ {TARGET_CLI_S:.0f} s"))
    print(
        f"deckcli validation benchmarks ({args.files:,} files: {expected['legal']:,} legal, "
        f"{expected['illegal']:,} illegal; python {sys.version.split()[0]})"
    )
    _print_table(rows)


if __name__ == "__main__":
    sys.path.insert(0, str(REPO_ROOT))
    main()

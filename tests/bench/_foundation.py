"""Measurements for the foundation benchmarks, shared by the pytest-benchmark tests and
``report_foundation.py``. Nothing here asserts a time: it measures and returns figures.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REALDATA = Path("/work/shared/realdata")
ELESTRALS_DATA = REALDATA / "elestrals" / "elestras-api" / "data"
REPO_ROOT = Path(__file__).resolve().parents[2]
BUNDLED_ELESTRALS_DATA = REPO_ROOT / "card_db" / "elestrals" / "data"

# Targets (the numbers).
TARGET_ELESTRALS_IMPORT_S = 2.0
TARGET_100K_IMPORT_S = 10.0
TARGET_100K_PEAK_MB = 300.0
TARGET_EXACT_US = 20.0
TARGET_SUGGEST_MS = 20.0
TARGET_STARTUP_MS = 150.0

SUGGEST_QUERIES: dict[str, str] = {
    # query -> the name that must come first (quality is checked, not timed)
    "Veton": "Veton | The Lightning Dragon",
    "HoH": "Hammer of Hephaestus",
    "Skiters": "Skitters",
    "Hamer of Hefaestus": "Hammer of Hephaestus",
    "Posiedon": "Poseidon",
}
EXACT_QUERIES = ("Veton, The Lightning Dragon", "gorgon's gaze", "Skitters", "HAMMER OF HEPHAESTUS")

_SYLLABLES = (
    "bra",
    "cor",
    "dun",
    "fel",
    "gri",
    "hal",
    "jor",
    "kel",
    "mur",
    "nax",
    "pil",
    "quo",
    "rud",
    "sav",
    "tor",
    "ul",
    "vex",
    "wyn",
    "yal",
    "zor",
    "ae",
    "ith",
    "oon",
    "ess",
)
_TITLES = ("Warden", "of the Deep", "Storm Caller", "Iron Guard", "the Elder", "Flame Keeper", "Champion of Ash")
_TEXTS = (
    "When this creature is summoned, draw 1 card.",
    "Deal 20 damage to target creature. Pierce.",
    "Your creatures gain +10 strength until end of turn.",
    "Counter target rune. Its owner discards 1 card.",
)


def elestrals_data_dir() -> Path:
    """The Elestrals API ``data/`` folder (shared real data, else the bundled copy)."""
    return ELESTRALS_DATA if ELESTRALS_DATA.is_dir() else BUNDLED_ELESTRALS_DATA


def deckcli_command() -> list[str]:
    """The installed console script (no pyenv shim in between), else ``python -m deckcli``."""
    script = Path(sys.executable).with_name("deckcli")
    return [str(script)] if script.exists() else [sys.executable, "-m", "deckcli"]


def synthetic_names(count: int, seed: int = 11) -> list[str]:
    """``count`` distinct made-up card names, some with a title."""
    rng = random.Random(seed)
    names: set[str] = set()
    while len(names) < count:
        name = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize()
        roll = rng.random()
        if roll < 0.3:
            name += " | " + rng.choice(_TITLES)
        elif roll < 0.4:
            name = f"{rng.choice(_TITLES).split()[-1]} {name}"
        names.add(name)
    return sorted(names)


def name_pool(total: int, real: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """``total`` (normalised, display) names: the real ones plus synthetic ones."""
    from deckcli.cards.names import normalize_name

    pairs = list(real)
    seen = {norm for norm, _ in pairs}
    for name in synthetic_names(total):
        if len(pairs) >= total:
            break
        norm = normalize_name(name)
        if norm not in seen:
            seen.add(norm)
            pairs.append((norm, name))
    return pairs


def real_names(store_path: Path) -> list[tuple[str, str]]:
    """The Elestrals and Elekin names of a (seeded) store."""
    from deckcli.cards.store import CardStore

    with CardStore.open(store_path) as store:
        return store.names("elestrals") + store.names("elekin")


def write_synthetic_cards(path: Path, count: int = 100_000, seed: int = 5) -> Path:
    """A canonical JSON file of ``count`` Elekin cards."""
    rng = random.Random(seed)
    elements = ("air", "water", "earth", "fire")
    cards: list[dict[str, Any]] = []
    for i in range(count):
        kind = rng.random()
        card: dict[str, Any] = {"name": f"Synthetic Card {i:06d}", "number": str(i), "rarity": rng.choice("CURL")}
        if kind < 0.7:
            card.update(
                type="creature",
                elements=[rng.choice(elements)],
                cost=rng.randint(0, 9),
                strength=rng.randint(10, 200),
                agility=rng.randint(10, 200),
                generation=rng.randint(0, 2),
                text=rng.choice(_TEXTS),
            )
        elif kind < 0.85:
            card.update(type="rune", rune_kind=rng.choice(["normal", "equipment", "instant"]), text=rng.choice(_TEXTS))
        elif kind < 0.95:
            card.update(type="counter", text=rng.choice(_TEXTS))
        else:
            card.update(type="shield", tier=rng.randint(1, 3), text=rng.choice(_TEXTS))
        if i % 7 == 0:
            card["keywords"] = ["Pierce"]
        cards.append(card)
    path.write_text(json.dumps({"game": "elekin", "cards": cards}), encoding="utf-8")
    return path


def seeded_store(path: Path) -> Path:
    """A store at ``path`` filled from the bundled data (one checkpointed file)."""
    from deckcli.cards.store import CardStore

    CardStore.open(path).close()
    return path


@dataclass(frozen=True)
class ProcessRun:
    seconds: float
    peak_rss_mb: float
    returncode: int
    stderr: str


_PEAK_WRAPPER = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
seconds = time.perf_counter() - started
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"seconds": seconds, "peak_kb": peak_kb, "rc": done.returncode,
                  "stderr": done.stderr.decode("utf-8", "replace")[-2000:]}))
"""


def run_with_peak_rss(command: Sequence[str]) -> ProcessRun:
    """Wall time and peak RSS of ``command``, measured by a fresh wrapper process.

    ``RUSAGE_CHILDREN`` keeps the largest child ever waited for; a wrapper whose only
    child is ``command`` reports exactly that child's peak.
    """
    env = {**os.environ, "COLUMNS": "120"}
    out = subprocess.run(
        [sys.executable, "-c", _PEAK_WRAPPER, *command], capture_output=True, text=True, env=env, check=True
    )
    data = json.loads(out.stdout)
    return ProcessRun(data["seconds"], data["peak_kb"] / 1024, data["rc"], data["stderr"])


def import_100k(store_path: Path, source: Path) -> ProcessRun:
    """``deckcli --db STORE db import elekin SOURCE --replace`` in a child process."""
    command = [*deckcli_command(), "--db", str(store_path), "db", "import", "elekin", str(source), "--replace"]
    run = run_with_peak_rss(command)
    if run.returncode != 0:
        raise RuntimeError(f"100k import failed ({run.returncode}): {run.stderr}")
    return run


def bytecode_env(cache_dir: Path | None) -> dict[str, str]:
    """The environment for start-up timings.

    With ``cache_dir``, Python may cache bytecode there (``PYTHONPYCACHEPREFIX``), as an
    installed deckcli has its ``.pyc`` files; without it the environment is left as is
    (this sandbox sets PYTHONDONTWRITEBYTECODE=1, so deckcli's own modules are compiled
    at every start).
    """
    env = {**os.environ, "COLUMNS": "120"}
    if cache_dir is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(cache_dir)
    return env


def time_command(command: Sequence[str], runs: int = 15, env: dict[str, str] | None = None) -> float:
    """Median wall time of ``command`` in seconds (one unmeasured warm-up run first)."""
    env = env if env is not None else bytecode_env(None)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
        times.append(time.perf_counter() - started)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} exited {done.returncode}")
    return statistics.median(times)


def startup_commands(store_path: Path) -> dict[str, list[str]]:
    cli = deckcli_command()
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "deckcli --help": [*cli, "--help"],
        "deckcli db show elekin Glint": [*cli, "--db", str(store_path), "db", "show", "elekin", "Glint"],
    }


def median_call(function: Callable[[], object], repeat: int = 7, number: int = 1) -> float:
    """Median seconds per call of ``function`` over ``repeat`` batches of ``number`` calls."""
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        for _ in range(number):
            function()
        samples.append((time.perf_counter() - started) / number)
    return statistics.median(samples)


def import_elestrals_once(store_path: Path) -> float:
    """Seconds to import the Elestrals ``data/`` folder (read, merge, validate, write)."""
    from deckcli.cards.importers import import_source
    from deckcli.cards.store import CardStore

    with CardStore.open(store_path) as store:
        started = time.perf_counter()
        result = import_source(store, "elestrals", elestrals_data_dir(), replace=True)
        seconds = time.perf_counter() - started
    if len(result.cards) != 436:
        raise RuntimeError(f"expected 436 Elestrals cards, got {len(result.cards)}")
    return seconds


def copy_store(template: Path, target: Path) -> Path:
    shutil.copyfile(template, target)
    return target

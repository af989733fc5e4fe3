"""The built wheel carries formats/ and card_db/ and works from any directory."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    (built,) = out.glob("deckcli-*.whl")
    return built


def test_wheel_contains_bundled_data(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    for game in ("elestrals", "elekin", "aestery", "elemental-clash", "elemystic"):
        assert f"deckcli/_data/formats/{game}.toml" in names
        assert f"deckcli/_data/card_db/decks/{game}-sample.txt" in names
    assert "deckcli/_data/card_db/sources.toml" in names
    assert sum(name.startswith("deckcli/_data/card_db/elestrals/data/cards/") for name in names) == 1875


def test_installed_wheel_works_from_another_directory(wheel: Path, tmp_path: Path) -> None:
    # Install the wheel alone into a folder that goes first on sys.path; the dependencies
    # come from the environment running the tests (no network, no system packages).
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        timeout=120,
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run(
        [
            sys.executable,
            "-c",
            "import deckcli; from deckcli.resources import data_dir; print(deckcli.__file__, data_dir('formats'))",
        ],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert where[0].startswith(str(target)) and where[1] == str(target / "deckcli" / "_data" / "formats")
    deck = elsewhere / "deck.txt"
    deck.write_text((ROOT / "card_db" / "decks" / "elekin-sample.txt").read_text(encoding="utf-8"), encoding="utf-8")
    db = str(elsewhere / "cards.sqlite")
    result = subprocess.run(
        [sys.executable, "-m", "deckcli", "--db", db, "validate", "deck.txt"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "LEGAL" in result.stdout
    search = subprocess.run(
        [sys.executable, "-m", "deckcli", "--db", db, "db", "search", "elekin", "dragon"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Veton" in search.stdout

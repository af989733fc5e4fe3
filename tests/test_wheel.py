"""The built wheel carries formats/ and card_db/ and works from any directory."""

from __future__ import annotations

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
    venv = tmp_path / "venv"
    # System site-packages provide the dependencies; the wheel's deckcli comes first on sys.path.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", str(wheel)],
        check=True,
        timeout=120,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run(
        [str(python), "-c", "from deckcli.resources import data_dir; print(data_dir('formats'))"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert str(venv) in where and where.endswith("deckcli/_data/formats")
    deck = elsewhere / "deck.txt"
    deck.write_text((ROOT / "card_db" / "decks" / "elekin-sample.txt").read_text(encoding="utf-8"), encoding="utf-8")
    result = subprocess.run(
        [str(venv / "bin" / "deckcli"), "--db", str(elsewhere / "cards.sqlite"), "validate", "deck.txt"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "LEGAL" in result.stdout
    search = subprocess.run(
        [str(venv / "bin" / "deckcli"), "--db", str(elsewhere / "cards.sqlite"), "db", "search", "elekin", "dragon"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Veton" in search.stdout

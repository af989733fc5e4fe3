"""Shared fixtures: real SQLite stores in tmp_path, the real data, a CLI runner.

Every test runs with ``DECKCLI_DB`` pointing into its own tmp_path, so nothing ever
touches the user's real card store. Building a store from the bundled data takes a
while, so one seeded store is built per session and copied for each test that needs
one.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from deckcli.cards.store import CardStore
from deckcli.cli import app

REPO_ROOT = Path(__file__).resolve().parents[1]
CARD_DB = REPO_ROOT / "card_db"
REALDATA = Path("/work/shared/realdata")
ELESTRALS_API = REALDATA / "elestrals" / "elestras-api"
ELESTRALS_DATA = ELESTRALS_API / "data"
ELESTRALS_ARRAY = ELESTRALS_API / "cards.all.derived.json"
ELEKIN_GALLERY = REALDATA / "elekin" / "new_cards.game_fields.json"

requires_realdata = pytest.mark.skipif(
    not (ELESTRALS_DATA.is_dir() and ELEKIN_GALLERY.is_file()), reason="shared real data not available"
)


def store_dump(path: Path) -> list[str]:
    """Every row of a store (schema and data) as SQL text, in a stable order."""
    connection = sqlite3.connect(path)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


def file_bytes(path: Path) -> bytes:
    """The store file's bytes (a closed WAL store is one checkpointed file)."""
    return path.read_bytes()


@pytest.fixture(autouse=True)
def _isolated_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may use the real user data folder; tables are wide enough not to wrap."""
    monkeypatch.setenv("DECKCLI_DB", str(tmp_path / "env-default.sqlite"))
    monkeypatch.setenv("COLUMNS", "250")
    monkeypatch.delenv("DECKCLI_DEBUG", raising=False)
    # The CLI caches its rich consoles; a fresh one picks up COLUMNS.
    from deckcli.cli import common

    monkeypatch.setattr(common, "_consoles", {}, raising=False)


@pytest.fixture(scope="session")
def seeded_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store filled from the bundled data once per session (do not modify: copy it)."""
    path = tmp_path_factory.mktemp("template") / "seeded.sqlite"
    CardStore.open(path).close()  # closing the last connection checkpoints the WAL
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture
def seeded_db(tmp_path: Path, seeded_template: Path) -> Path:
    """A private copy of the seeded store."""
    target = tmp_path / "cards.sqlite"
    shutil.copyfile(seeded_template, target)
    return target


@pytest.fixture
def store(seeded_db: Path) -> Iterator[CardStore]:
    """The seeded store, opened."""
    with CardStore.open(seeded_db) as opened:
        yield opened


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def cli(runner: CliRunner, seeded_db: Path) -> CliInvoker:
    """Run ``deckcli --db <seeded copy> ARGS...`` in-process."""
    return CliInvoker(runner, seeded_db)


class CliInvoker:
    """Calls the Typer app with ``--db`` set and checks that no traceback leaks out."""

    def __init__(self, runner: CliRunner, db: Path) -> None:
        self.runner = runner
        self.db = db

    def __call__(self, *args: str, expect: int | None = 0) -> Result:
        return run_cli(self.runner, ["--db", str(self.db), *args], expect=expect)


def run_cli(runner: CliRunner, args: Sequence[str], *, expect: int | None = 0) -> Result:
    """Invoke the app; assert the exit code (unless ``expect`` is None) and no traceback."""
    result = runner.invoke(app, list(args))
    output = result.output
    assert "Traceback" not in output, output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"deckcli {' '.join(args)} raised {result.exception!r}\n{output}")
    if expect is not None:
        assert result.exit_code == expect, f"exit {result.exit_code} != {expect} for {list(args)}:\n{output}"
    return result

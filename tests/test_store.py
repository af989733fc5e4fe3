"""The SQLite store: schema, WAL, seeding, transactions, damaged files, two processes."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import random
import shutil
import sqlite3
import time
from collections.abc import Iterator
from multiprocessing.synchronize import Barrier, Event
from pathlib import Path

import pytest
from conftest import CliInvoker, run_cli, store_dump
from typer.testing import CliRunner

from deckcli.cards.models import ElekinCard
from deckcli.cards.store import APPLICATION_ID, SCHEMA_VERSION, CardStore, reset_store
from deckcli.errors import StoreError
from deckcli.games import game_ids

BUNDLED_COUNTS = {"elestrals": 436, "elekin": 175, "aestery": 27, "elemental-clash": 31, "elemystic": 13}

# Forked workers start fast; no test opens a connection the children inherit.
FORK = mp.get_context("fork")


def _pragma(path: Path, name: str) -> object:
    connection = sqlite3.connect(path)
    try:
        return connection.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        connection.close()


def _cards(prefix: str, count: int) -> list[ElekinCard]:
    return [ElekinCard(name=f"{prefix} {i:04d}", type="creature", cost=i % 10, elements=["air"]) for i in range(count)]


# -- schema and first use ----------------------------------------------------------


def test_new_store_is_versioned_wal_and_seeded(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "dir" / "cards.sqlite"
    with CardStore.open(path) as store:
        assert _pragma(path, "journal_mode") == "wal"
        assert {g: store.card_count(g) for g in game_ids()} == BUNDLED_COUNTS
        history = store.imports()
        assert [h.game for h in history] == game_ids()
        assert all(h.bundled and not h.replaced for h in history)
        assert [h.cards for h in history] == list(BUNDLED_COUNTS.values())
    assert _pragma(path, "application_id") == APPLICATION_ID
    assert _pragma(path, "user_version") == SCHEMA_VERSION


def test_reopening_does_not_seed_again(seeded_db: Path) -> None:
    before = store_dump(seeded_db)
    CardStore.open(seeded_db).close()
    assert store_dump(seeded_db) == before


def test_a_game_emptied_by_replace_is_not_refilled(store: CardStore, seeded_db: Path) -> None:
    store.write_cards("aestery", [], source="empty.json", importer="canonical-json", replace=True)
    store.close()
    with CardStore.open(seeded_db) as reopened:
        assert reopened.card_count("aestery") == 0


def test_open_without_seed_leaves_the_store_empty(tmp_path: Path) -> None:
    with CardStore.open(tmp_path / "empty.sqlite", seed=False) as store:
        assert store.counts() == {}
        assert store.unseeded_games() == game_ids()


# -- transactions ------------------------------------------------------------------


def test_write_is_one_transaction(store: CardStore, seeded_db: Path) -> None:
    before = store_dump(seeded_db)

    def failing() -> Iterator[ElekinCard]:
        yield from _cards("Good", 50)
        raise RuntimeError("source broke half way")

    for replace in (False, True):
        with pytest.raises(RuntimeError):
            store.write_cards("elekin", failing(), source="x", importer="canonical-json", replace=replace)
        assert store_dump(seeded_db) == before
    assert store.card_count("elekin") == 175


def test_replace_and_upsert(store: CardStore) -> None:
    assert store.write_cards("elekin", _cards("New", 3), source="a.json", importer="canonical-json") == 3
    assert store.card_count("elekin") == 178
    # Upsert by normalised name: same names again do not add rows.
    store.write_cards("elekin", _cards("NEW", 3), source="b.json", importer="canonical-json")
    assert store.card_count("elekin") == 178
    assert store.get("elekin", "new 0001") is not None
    assert store.get("elekin", "new 0001").name == "NEW 0001"  # type: ignore[union-attr]
    store.write_cards("elekin", _cards("Only", 2), source="c.json", importer="canonical-json", replace=True)
    assert [c.name for c in store.cards("elekin")] == ["Only 0000", "Only 0001"]
    assert store.card_count("elestrals") == 436  # other games untouched
    last = store.imports("elekin")[-1]
    assert (last.source, last.cards, last.replaced, last.bundled) == ("c.json", 2, True, False)


# -- damaged, foreign and newer files ----------------------------------------------


def _random_bytes(path: Path, size: int = 8192) -> None:
    path.write_bytes(random.Random(1).randbytes(size))


def test_random_bytes_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "random.sqlite"
    _random_bytes(path)
    with pytest.raises(StoreError) as info:
        CardStore.open(path)
    assert "not a usable deckcli card store" in info.value.message
    assert info.value.hint is not None and "deckcli db reset" in info.value.hint
    assert path.read_bytes() == random.Random(1).randbytes(8192)  # not "repaired" or overwritten


def test_damaged_pages_are_reported_not_crashed(seeded_db: Path) -> None:
    """A valid header over damaged data pages fails on read, still with the reset hint."""
    data = bytearray(seeded_db.read_bytes())
    page = 4096
    rng = random.Random(2)
    data[page * 3 :] = rng.randbytes(len(data) - page * 3)
    seeded_db.write_bytes(bytes(data))
    # Opening may pass (page 1 is intact); reading the damaged pages must not crash.
    with pytest.raises(StoreError) as info, CardStore.open(seeded_db) as store:
        store.search("elekin", "dragon")
        store.cards("elestrals")
    assert "deckcli db reset" in str(info.value)


def test_foreign_sqlite_file_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "foreign.sqlite"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE notes (body TEXT)")
    connection.execute("INSERT INTO notes VALUES ('mine')")
    connection.commit()
    connection.close()
    before = path.read_bytes()
    with pytest.raises(StoreError) as info:
        CardStore.open(path)
    assert "not a deckcli card store" in info.value.message
    assert info.value.hint is not None and "deckcli db reset" in info.value.hint
    assert path.read_bytes() == before


def test_newer_schema_is_refused(seeded_db: Path) -> None:
    connection = sqlite3.connect(seeded_db)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    with pytest.raises(StoreError) as info:
        CardStore.open(seeded_db)
    assert "newer deckcli" in info.value.message
    assert info.value.hint is not None and "db reset" in info.value.hint


def test_directory_path_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        CardStore.open(tmp_path)


@pytest.mark.parametrize("damage", ["random", "foreign", "pages", "newer"])
def test_cli_reports_damaged_store_with_exit_2(runner: CliRunner, seeded_db: Path, damage: str) -> None:
    if damage == "random":
        _random_bytes(seeded_db)
    elif damage == "foreign":
        seeded_db.unlink()
        sqlite3.connect(seeded_db).execute("CREATE TABLE t (x)").connection.close()
    elif damage == "pages":
        data = bytearray(seeded_db.read_bytes())
        data[4096 * 3 :] = random.Random(3).randbytes(len(data) - 4096 * 3)
        seeded_db.write_bytes(bytes(data))
    else:
        sqlite3.connect(seeded_db).execute("PRAGMA user_version = 99").connection.close()
    for args in (["db", "stats"], ["db", "search", "elekin", "dragon"], ["db", "show", "elekin", "Glint"], ["games"]):
        result = run_cli(runner, ["--db", str(seeded_db), *args], expect=2)
        assert "error:" in result.stderr
        assert "deckcli db reset" in result.stderr
        assert "internal error" not in result.stderr


def test_db_reset_yes_replaces_a_damaged_store(runner: CliRunner, seeded_db: Path) -> None:
    _random_bytes(seeded_db)
    result = run_cli(runner, ["--db", str(seeded_db), "db", "reset", "--yes"])
    assert "682 bundled cards loaded" in result.stdout
    stats = json.loads(run_cli(runner, ["--db", str(seeded_db), "db", "stats", "--json"]).stdout)
    assert {g: v["total"] for g, v in stats["games"].items()} == BUNDLED_COUNTS


def test_db_reset_drops_imports(cli: CliInvoker, tmp_path: Path) -> None:
    source = tmp_path / "x.json"
    source.write_text(json.dumps([{"name": "Imported Thing", "type": "rune"}]))
    cli("db", "import", "elekin", str(source))
    cli("db", "show", "elekin", "Imported Thing")
    cli("db", "reset", "--yes")
    cli("db", "show", "elekin", "Imported Thing", expect=2)
    assert json.loads(cli("db", "stats", "--json").stdout)["games"]["elekin"]["total"] == 175


def test_db_reset_needs_confirmation(cli: CliInvoker, seeded_db: Path) -> None:
    before = seeded_db.read_bytes()
    result = cli("db", "reset", expect=2)  # CliRunner's stdin is not a terminal
    assert "--yes" in result.stderr
    assert seeded_db.read_bytes() == before


def test_reset_store_removes_side_files(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).write_bytes(b"x")
    assert reset_store(path) == path
    assert list(tmp_path.iterdir()) == []


# -- two processes -----------------------------------------------------------------


def _open_at_once(path: str, barrier: Barrier, seed: bool, results: mp.Queue) -> None:  # type: ignore[type-arg]
    try:
        barrier.wait()
        with CardStore.open(path, seed=seed) as store:
            results.put(("ok", {g: store.card_count(g) for g in game_ids()}))
    except BaseException as exc:  # report everything to the parent
        results.put(("error", f"{type(exc).__name__}: {exc}"))


def _run_at_once(path: Path, processes: int, seed: bool) -> list[tuple[str, object]]:
    barrier = FORK.Barrier(processes)
    results = FORK.Queue()
    workers = [FORK.Process(target=_open_at_once, args=(str(path), barrier, seed, results)) for _ in range(processes)]
    for worker in workers:
        worker.start()
    outcome = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    return outcome


def test_processes_creating_a_fresh_store_at_once(tmp_path: Path) -> None:
    """Several processes race to create the schema; none may see a half-made file."""
    for attempt in range(8):
        path = tmp_path / f"race-{attempt}.sqlite"
        outcome = _run_at_once(path, 4, seed=False)
        assert all(status == "ok" for status, _ in outcome), outcome
        assert _pragma(path, "application_id") == APPLICATION_ID


def test_two_processes_seeding_a_fresh_store_at_once(tmp_path: Path) -> None:
    path = tmp_path / "fresh.sqlite"
    outcome = _run_at_once(path, 2, seed=True)
    assert outcome == [("ok", BUNDLED_COUNTS), ("ok", BUNDLED_COUNTS)]
    with CardStore.open(path, seed=False) as store:
        history = store.imports()
    assert sorted(h.game for h in history) == sorted(game_ids())  # each game filled exactly once
    assert _pragma(path, "journal_mode") == "wal"


def _writer(path: str, rounds: int, started: Barrier, done: Event, results: mp.Queue) -> None:  # type: ignore[type-arg]
    try:
        small, large = _cards("Wave", 40), _cards("Wave", 120)
        with CardStore.open(path, seed=False) as store:
            started.wait()
            for i in range(rounds):
                store.write_cards("elekin", large if i % 2 else small, source=f"w{i}", importer="t", replace=True)
                time.sleep(0.002)  # let the reader in between writes
        results.put(("writer", "ok"))
    except BaseException as exc:
        results.put(("writer", f"{type(exc).__name__}: {exc}"))
    finally:
        done.set()


def _reader(path: str, started: Barrier, done: Event, results: mp.Queue) -> None:  # type: ignore[type-arg]
    try:
        seen: set[int] = set()
        with CardStore.open(path, seed=False) as store:
            started.wait()
            while not done.is_set():
                count = store.card_count("elekin")
                cards = store.cards("elekin")
                seen.add(count)
                # Each query sees one snapshot: all of a replace or nothing of it.
                assert len(cards) in (40, 120, 175), len(cards)
                assert count in (40, 120, 175), count
        results.put(("reader", sorted(seen)))
    except BaseException as exc:
        results.put(("reader", f"{type(exc).__name__}: {exc}"))


def test_reader_and_writer_processes_at_once(seeded_db: Path) -> None:
    started = FORK.Barrier(2)
    done = FORK.Event()
    results = FORK.Queue()
    workers = [
        FORK.Process(target=_writer, args=(str(seeded_db), 100, started, done, results)),
        FORK.Process(target=_reader, args=(str(seeded_db), started, done, results)),
    ]
    for worker in workers:
        worker.start()
    outcome = dict(results.get(timeout=120) for _ in workers)
    for worker in workers:
        worker.join(timeout=60)
    assert outcome["writer"] == "ok", outcome
    assert isinstance(outcome["reader"], list), outcome
    assert set(outcome["reader"]) <= {40, 120, 175}
    assert len(outcome["reader"]) >= 2  # the reader really ran while the writer wrote
    with CardStore.open(seeded_db) as store:
        assert store.card_count("elekin") == 120  # the last of 60 rounds wrote the large set
        assert store.card_count("elestrals") == 436


def _importer(path: str, game: str, source: str, started: Barrier, results: mp.Queue) -> None:  # type: ignore[type-arg]
    try:
        from deckcli.cards.importers import import_source

        with CardStore.open(path) as store:
            started.wait()
            import_source(store, game, source, replace=True)
        results.put((game, "ok"))
    except BaseException as exc:
        results.put((game, f"{type(exc).__name__}: {exc}"))


def test_two_importing_processes_both_land(seeded_db: Path, tmp_path: Path) -> None:
    sources = {}
    for game, type_ in (("elekin", "creature"), ("aestery", "fighter")):
        sources[game] = tmp_path / f"{game}.json"
        cards = [{"name": f"{game} card {i}", "type": type_} for i in range(500)]
        sources[game].write_text(json.dumps({"game": game, "cards": cards}))
    started = FORK.Barrier(2)
    results = FORK.Queue()
    workers = [
        FORK.Process(target=_importer, args=(str(seeded_db), game, str(src), started, results))
        for game, src in sources.items()
    ]
    for worker in workers:
        worker.start()
    outcome = dict(results.get(timeout=120) for _ in workers)
    for worker in workers:
        worker.join(timeout=60)
    assert outcome == {"elekin": "ok", "aestery": "ok"}
    with CardStore.open(seeded_db) as store:
        assert store.card_count("elekin") == 500
        assert store.card_count("aestery") == 500
        assert store.card_count("elestrals") == 436


def test_store_file_is_a_single_file_after_close(seeded_db: Path) -> None:
    with CardStore.open(seeded_db) as store:
        store.write_cards("elekin", _cards("Tmp", 2), source="t", importer="t")
    assert not Path(str(seeded_db) + "-wal").exists()
    copy = seeded_db.with_name("copy.sqlite")
    shutil.copyfile(seeded_db, copy)
    with CardStore.open(copy) as store:
        assert store.card_count("elekin") == 177
    assert os.path.getsize(copy) > 0

"""The SQLite card store.

One file holds the cards of every game. Writes are single transactions (an import
either lands whole or not at all), the journal is WAL so a reader and a writer in two
processes do not block each other, and the schema carries a version
(``PRAGMA user_version``) and an application id so that a foreign or newer file is
refused with a clear message instead of being damaged.

On first use every game that was never filled is filled from the bundled ``card_db/``
data (see :mod:`deckcli.cards.bundled`); that is the only time the import machinery
(pydantic) is loaded on the read path.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from deckcli.cards.names import normalize_name
from deckcli.errors import StoreError

if TYPE_CHECKING:
    from deckcli.cards.models import CardBase

SCHEMA_VERSION = 1
APPLICATION_ID = 0x44434B43  # "DCKC"
DB_ENV_VAR = "DECKCLI_DB"
#: how long a process waits for another one's write lock, in seconds
_BUSY_TIMEOUT_S = 30

_SCHEMA = """
CREATE TABLE IF NOT EXISTS cards (
    game        TEXT NOT NULL,
    norm_name   TEXT NOT NULL,
    name        TEXT NOT NULL,
    type        TEXT NOT NULL,
    cost        REAL,
    elements    TEXT NOT NULL DEFAULT '',
    text        TEXT NOT NULL DEFAULT '',
    demo        INTEGER NOT NULL DEFAULT 0,
    provisional INTEGER NOT NULL DEFAULT 0,
    incomplete  INTEGER NOT NULL DEFAULT 0,
    data        TEXT NOT NULL,
    PRIMARY KEY (game, norm_name)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS cards_by_type ON cards (game, type);
CREATE TABLE IF NOT EXISTS imports (
    id          INTEGER PRIMARY KEY,
    game        TEXT NOT NULL,
    source      TEXT NOT NULL,
    importer    TEXT NOT NULL,
    cards       INTEGER NOT NULL,
    replaced    INTEGER NOT NULL,
    bundled     INTEGER NOT NULL,
    imported_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


_P = ParamSpec("_P")
_T = TypeVar("_T")

_RESET_HINT = "run `deckcli db reset` to start a fresh store from the bundled data"


def _store_error(path: Path, exc: sqlite3.Error) -> StoreError:
    """A user-facing error for an SQLite failure on an open store."""
    text = str(exc)
    if isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
        return StoreError(
            f"card store {path} is busy ({text})",
            hint="another deckcli process is writing to it; try again when it has finished",
        )
    return StoreError(f"{path} is not a usable deckcli card store ({text})", hint=_RESET_HINT)


def _guarded(method: Callable[_P, _T]) -> Callable[_P, _T]:
    """Turn SQLite errors raised by a store method (a damaged file) into StoreError."""

    @wraps(method)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return method(*args, **kwargs)
        except sqlite3.Error as exc:
            store = args[0]
            assert isinstance(store, CardStore)
            raise _store_error(store.path, exc) from exc

    return wrapper


def default_db_path() -> Path:
    """The store path: ``$DECKCLI_DB`` if set, else the platform's user data folder."""
    env = os.environ.get(DB_ENV_VAR)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_path

    return user_data_path("deckcli", appauthor=False) / "cards.sqlite"


@dataclass(frozen=True)
class StoredCard:
    """A card as stored: its game, name, type and the full canonical record."""

    game: str
    name: str
    type: str
    data: dict[str, Any] = field(repr=False)

    @property
    def demo(self) -> bool:
        return bool(self.data.get("demo"))

    @property
    def provisional(self) -> bool:
        return bool(self.data.get("provisional"))

    @property
    def incomplete(self) -> bool:
        return bool(self.data.get("incomplete"))

    @property
    def counts_as(self) -> str | None:
        value = self.data.get("counts_as")
        return str(value) if value else None


@dataclass(frozen=True)
class ImportRecord:
    """One row of the store's import history."""

    game: str
    source: str
    importer: str
    cards: int
    replaced: bool
    bundled: bool
    imported_at: str


def _cost_value(data: dict[str, Any]) -> float | None:
    """A single number to filter and sort by cost, whatever the game calls it."""
    cost = data.get("cost")
    if isinstance(cost, list):
        return float(len(cost))
    if isinstance(cost, int | float):
        return float(cost)
    level = data.get("level")
    return float(level) if isinstance(level, int | float) else None


def _element_tokens(data: dict[str, Any]) -> str:
    """Space-delimited elements/colours/cost symbols, for ``LIKE '% fire %'`` filters."""
    values: list[str] = []
    for key in ("elements", "colors", "cost"):
        raw = data.get(key)
        if isinstance(raw, list):
            values.extend(str(v) for v in raw)
    for key in ("element", "produces"):
        if data.get(key):
            values.append(str(data[key]))
    return f" {' '.join(sorted(set(values)))} " if values else ""


def _like_literal(text: str) -> str:
    """``text`` for a ``LIKE ... ESCAPE '\\'`` pattern, its wildcards escaped."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _row(game_id: str, card: CardBase) -> tuple[Any, ...]:
    data = card.model_dump(mode="json", exclude_defaults=True)
    data["name"] = card.name
    data["type"] = card.type
    return (
        game_id,
        normalize_name(card.name),
        card.name,
        card.type,
        _cost_value(data),
        _element_tokens(data),
        card.text,
        int(card.demo),
        int(card.provisional),
        int(card.incomplete),
        json.dumps(data, ensure_ascii=False, separators=(",", ":")),
    )


class CardStore:
    """The card store file. Use :meth:`open`; close with :meth:`close` or ``with``."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection

    # -- opening -----------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path | str | None = None, *, seed: bool = True) -> CardStore:
        """Open (creating if needed) the store at ``path`` and fill unfilled games.

        Raises :class:`StoreError` for a corrupt, foreign or newer file.
        """
        db_path = Path(path).expanduser() if path is not None else default_db_path()
        if db_path.is_dir():
            raise StoreError(f"card store path {db_path} is a directory, not a file")
        try:
            db_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder for the card store {db_path}: {exc}") from exc
        try:
            connection = sqlite3.connect(db_path, timeout=_BUSY_TIMEOUT_S, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open card store {db_path}: {exc}") from exc
        store = cls(db_path, connection)
        try:
            store._check_and_create()
        except sqlite3.DatabaseError as exc:
            connection.close()
            raise _store_error(db_path, exc) from exc
        except StoreError:
            connection.close()
            raise
        if seed:
            store.seed_bundled()
        return store

    def _header(self) -> tuple[int, int, bool]:
        """``(application id, schema version, has tables)``, read in one snapshot.

        Read separately, another process creating the store between two reads could
        make a fresh file look foreign (tables already there, application id not yet).
        """
        db = self._db
        db.execute("BEGIN")
        try:
            has_tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
        finally:
            db.execute("COMMIT")
        return int(app_id), int(version), bool(has_tables)

    def _check_header(self, app_id: int, version: int, has_tables: bool) -> None:
        if has_tables and app_id != APPLICATION_ID:
            raise StoreError(
                f"{self.path} is an SQLite file but not a deckcli card store",
                hint="choose another --db path, or run `deckcli db reset` to replace it",
            )
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer deckcli (schema {version}, this one knows {SCHEMA_VERSION})",
                hint="upgrade deckcli, or run `deckcli db reset` to start over",
            )

    def _enable_wal(self) -> None:
        """Switch the file to WAL (persistent), unless another process already did.

        The switch needs a moment of exclusive access and SQLite reports a busy file at
        once instead of waiting, so it is retried for up to the busy time-out.
        """
        deadline = time.monotonic() + _BUSY_TIMEOUT_S
        while True:
            try:
                if str(self._db.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                    self._db.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def _check_and_create(self) -> None:
        db = self._db
        db.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_S * 1000}")
        app_id, version, has_tables = self._header()
        self._check_header(app_id, version, has_tables)
        if has_tables and version == SCHEMA_VERSION:
            return
        self._enable_wal()
        with self.transaction():
            # Another process may have created (or claimed) the file since the check.
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            has_tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0
            self._check_header(app_id, version, has_tables)
            if has_tables and version == SCHEMA_VERSION:
                return
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
                (str(SCHEMA_VERSION),),
            )

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    def __enter__(self) -> CardStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: ``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on error."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                # The original error says more than a failed rollback would.
                with suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
            raise

    # -- bundled data --------------------------------------------------------------

    @_guarded
    def unseeded_games(self) -> list[str]:
        """Games never filled (from the bundled data or an import)."""
        from deckcli.games import game_ids

        seeded = {row[0] for row in self._db.execute("SELECT DISTINCT game FROM imports")}
        return [g for g in game_ids() if g not in seeded]

    def seed_bundled(self) -> None:
        """Fill every game that was never filled from the bundled ``card_db/`` data."""
        if not self.unseeded_games():
            return
        from deckcli.cards.bundled import seed_store

        seed_store(self)

    # -- writing ---------------------------------------------------------------------

    @_guarded
    def write_cards(
        self,
        game_id: str,
        cards: Iterable[CardBase],
        *,
        source: str,
        importer: str,
        replace: bool = False,
        bundled: bool = False,
        only_if_unseeded: bool = False,
    ) -> int:
        """Upsert ``cards`` (already validated) for ``game_id`` in one transaction.

        With ``replace`` the game's existing cards are deleted first. With
        ``only_if_unseeded`` nothing is written when another process filled the game
        first. Returns the number of cards written.
        """
        written = 0

        def rows() -> Iterator[tuple[Any, ...]]:
            # Rows are made as SQLite takes them: a list of 100,000 rows would double
            # the memory an import needs.
            nonlocal written
            for card in cards:
                written += 1
                yield _row(game_id, card)

        with self.transaction() as db:
            if only_if_unseeded and db.execute("SELECT 1 FROM imports WHERE game = ? LIMIT 1", (game_id,)).fetchone():
                return 0
            if replace:
                db.execute("DELETE FROM cards WHERE game = ?", (game_id,))
            db.executemany("INSERT OR REPLACE INTO cards VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows())
            db.execute(
                "INSERT INTO imports (game, source, importer, cards, replaced, bundled, imported_at)"
                " VALUES (?,?,?,?,?,?,?)",
                (game_id, source, importer, written, int(replace), int(bundled), time.strftime("%Y-%m-%dT%H:%M:%S")),
            )
        return written

    # -- reading ---------------------------------------------------------------------

    @_guarded
    def card_count(self, game_id: str) -> int:
        """How many cards the store holds for ``game_id``."""
        return int(self._db.execute("SELECT count(*) FROM cards WHERE game = ?", (game_id,)).fetchone()[0])

    @_guarded
    def counts(self) -> dict[str, dict[str, int]]:
        """Per game: total, and counts by type, demo, provisional, incomplete."""
        result: dict[str, dict[str, int]] = {}
        query = (
            "SELECT game, type, count(*), sum(demo), sum(provisional), sum(incomplete) FROM cards GROUP BY game, type"
        )
        for game, type_, n, demo, provisional, incomplete in self._db.execute(query):
            entry = result.setdefault(game, {"total": 0, "demo": 0, "provisional": 0, "incomplete": 0})
            entry["total"] += n
            entry[f"type:{type_}"] = n
            entry["demo"] += demo
            entry["provisional"] += provisional
            entry["incomplete"] += incomplete
        return result

    @_guarded
    def imports(self, game_id: str | None = None) -> list[ImportRecord]:
        """The import history, oldest first."""
        query = "SELECT game, source, importer, cards, replaced, bundled, imported_at FROM imports"
        params: tuple[str, ...] = ()
        if game_id is not None:
            query += " WHERE game = ?"
            params = (game_id,)
        return [
            ImportRecord(g, s, i, c, bool(r), bool(b), t)
            for g, s, i, c, r, b, t in self._db.execute(query + " ORDER BY id", params)
        ]

    @_guarded
    def get(self, game_id: str, name: str) -> StoredCard | None:
        """The card whose name normalises like ``name``, or None."""
        row = self._db.execute(
            "SELECT name, type, data FROM cards WHERE game = ? AND norm_name = ?",
            (game_id, normalize_name(name)),
        ).fetchone()
        return StoredCard(game_id, row[0], row[1], json.loads(row[2])) if row else None

    @_guarded
    def names(self, game_id: str) -> list[tuple[str, str]]:
        """Every ``(norm_name, name)`` of a game, for name indexes."""
        return list(self._db.execute("SELECT norm_name, name FROM cards WHERE game = ?", (game_id,)))

    @_guarded
    def cards(self, game_id: str) -> list[StoredCard]:
        """Every card of a game, in name order."""
        return [
            StoredCard(game_id, name, type_, json.loads(data))
            for name, type_, data in self._db.execute(
                "SELECT name, type, data FROM cards WHERE game = ? ORDER BY norm_name", (game_id,)
            )
        ]

    @_guarded
    def search(
        self,
        game_id: str,
        query: str | None = None,
        *,
        card_type: str | None = None,
        element: str | None = None,
        cost: float | None = None,
        limit: int | None = None,
    ) -> list[StoredCard]:
        """Cards whose name or text contains ``query`` (case-insensitive), filtered.

        ``element`` matches elements, colours or cost symbols; ``cost`` matches the
        card's cost (Elestrals: number of Spirits; Elemental Clash: level).
        """
        clauses = ["game = ?"]
        params: list[Any] = [game_id]
        if query:
            # '%' and '_' in the query are literal characters, not LIKE wildcards.
            clauses.append("(norm_name LIKE ? ESCAPE '\\' OR lower(text) LIKE ? ESCAPE '\\')")
            params += [f"%{_like_literal(normalize_name(query))}%", f"%{_like_literal(query.strip().lower())}%"]
        if card_type:
            clauses.append("type = ?")
            params.append(card_type.strip().lower())
        if element:
            clauses.append("elements LIKE ?")
            params.append(f"% {element.strip().lower()} %")
        if cost is not None:
            clauses.append("cost = ?")
            params.append(float(cost))
        sql = f"SELECT name, type, data FROM cards WHERE {' AND '.join(clauses)} ORDER BY norm_name"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [StoredCard(game_id, n, t, json.loads(d)) for n, t, d in self._db.execute(sql, params)]


def reset_store(path: Path | str | None = None) -> Path:
    """Delete the store file (and its WAL side files); the next open refills it."""
    db_path = Path(path).expanduser() if path is not None else default_db_path()
    for suffix in ("", "-wal", "-shm", "-journal"):
        target = db_path.with_name(db_path.name + suffix)
        try:
            target.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise StoreError(f"cannot delete {target}: {exc}") from exc
    return db_path

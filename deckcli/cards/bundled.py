"""The card data that ships in ``card_db/`` and fills a new store on first use."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from deckcli.errors import StoreError
from deckcli.resources import data_dir

MANIFEST = "sources.toml"


@dataclass(frozen=True)
class BundledSource:
    """Where one game's bundled cards come from."""

    game: str
    path: Path
    importer: str
    origin: str


def bundled_sources() -> dict[str, BundledSource]:
    """The bundled source of every game, from ``card_db/sources.toml``."""
    root = data_dir("card_db")
    manifest = root / MANIFEST
    try:
        table = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise StoreError(f"bundled card manifest {manifest} is unreadable: {exc}") from exc
    return {
        game: BundledSource(game, root / entry["path"], entry["importer"], entry["origin"])
        for game, entry in table.items()
    }


def seed_store(store: object) -> list[str]:
    """Fill every never-filled game of ``store`` from its bundled source.

    Each game is one transaction that re-checks, inside the transaction, that no other
    process filled it first. Returns the games filled.
    """
    from deckcli.cards.importers import load_cards
    from deckcli.cards.store import CardStore

    assert isinstance(store, CardStore)
    sources = bundled_sources()
    filled = []
    for game in store.unseeded_games():
        bundled = sources.get(game)
        if bundled is None or not bundled.path.exists():
            continue
        result = load_cards(game, bundled.path, bundled.importer)
        written = store.write_cards(
            game,
            result.cards,
            source=f"bundled: {bundled.origin}",
            importer=result.importer,
            bundled=True,
            only_if_unseeded=True,
        )
        if written:
            filled.append(game)
    return filled

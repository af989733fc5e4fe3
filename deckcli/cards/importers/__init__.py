"""Importers: one per source format, chosen by detection.

:func:`load_cards` reads a source (file, folder or URL), picks the importer that
understands it and returns validated cards; :func:`import_source` also writes them to
the store in one transaction. Any bad record raises before anything is written.
"""

from __future__ import annotations

from pathlib import Path

from deckcli.cards.importers.base import Importer, ImportResult
from deckcli.cards.importers.canonical import CanonicalCsvImporter, CanonicalJsonImporter
from deckcli.cards.importers.elekin_gallery import ElekinGalleryImporter
from deckcli.cards.importers.elestrals_api import ElestralsApiImporter
from deckcli.cards.importers.sources import Source, read_source
from deckcli.cards.store import CardStore
from deckcli.errors import SourceError

#: Detection order: source-specific formats first, canonical last.
IMPORTERS: tuple[Importer, ...] = (
    ElestralsApiImporter(),
    ElekinGalleryImporter(),
    CanonicalJsonImporter(),
    CanonicalCsvImporter(),
)

__all__ = ["IMPORTERS", "ImportResult", "Importer", "find_importer", "import_source", "load_cards", "read_source"]


def find_importer(source: Source, name: str | None = None) -> Importer:
    """The importer named ``name``, or the first that detects ``source``."""
    if name is not None:
        for importer in IMPORTERS:
            if importer.name == name:
                return importer
        valid = ", ".join(i.name for i in IMPORTERS)
        raise SourceError(f"unknown importer '{name}'", hint=f"valid importers: {valid}")
    for importer in IMPORTERS:
        if importer.detect(source):
            return importer
    raise SourceError(
        f"{source.label}: not a card format deckcli knows",
        hint="expected canonical JSON/CSV (see card_db/README.md), the Elestrals API dump or the Elekin gallery JSON",
    )


def load_cards(game_id: str, source: str | Path, importer: str | None = None) -> ImportResult:
    """Read ``source`` and return its cards validated for ``game_id``."""
    parsed = read_source(source)
    return find_importer(parsed, importer).convert(parsed, game_id)


def import_source(
    store: CardStore, game_id: str, source: str | Path, *, replace: bool = False, importer: str | None = None
) -> ImportResult:
    """Load ``source`` and write its cards to ``store`` in one transaction."""
    result = load_cards(game_id, source, importer)
    store.write_cards(game_id, result.cards, source=result.source, importer=result.importer, replace=replace)
    return result

"""What every importer shares: the protocol, the result, record validation."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import ValidationError

from deckcli.cards.importers.sources import Source
from deckcli.cards.models import CardBase, card_model
from deckcli.errors import ImportRecordError


@dataclass
class ImportResult:
    """The validated cards an importer produced, with notes for the user."""

    game: str
    importer: str
    source: str
    cards: list[CardBase]
    notes: list[str] = field(default_factory=list)


class Importer(Protocol):
    """One source format. ``detect`` must be cheap; ``convert`` validates everything."""

    name: str
    description: str

    def detect(self, source: Source) -> bool:
        """True when this importer understands ``source``."""
        ...

    def convert(self, source: Source, game_id: str) -> ImportResult:
        """Every record of ``source`` as validated cards; raises ImportRecordError."""
        ...


def validate_record(game_id: str, data: dict[str, Any], source: str, record: str) -> CardBase:
    """Validate one canonical record, naming the source, record and field on failure."""
    try:
        return card_model(game_id).model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        field_name = ".".join(str(part) for part in error["loc"]) or None
        expected = str(error["msg"])
        # pydantic says "Input should be a valid integer"; the error reads "expected a valid integer".
        for prefix in ("Input should be ", "Value error, "):
            expected = expected.removeprefix(prefix)
        expected = expected[:1].lower() + expected[1:]
        if error["type"] == "extra_forbidden":
            expected = f"no field '{field_name}' (not a field of {game_id} cards)"
        elif error["type"] == "missing":
            expected = "a value (the field is required)"
        found = error.get("input") if error["type"] != "missing" else None
        if isinstance(found, dict):
            found = "{...}"
        raise ImportRecordError(source, record, field_name, expected, found) from exc


def records_of(document: Any, source: Source, *, consume: bool = False) -> Iterator[tuple[str, Any]]:
    """``(record label, record)`` pairs of a JSON document or folder of documents.

    Arrays and ``{"cards": [...]}`` wrappers are unpacked; labels are 1-based record
    numbers, prefixed with the file name for folders. With ``consume`` each record of
    a single document's array is dropped from the document once the caller moves on,
    so that a large file is not held in memory twice (as JSON and as cards).
    """
    if source.from_folder:
        for file_label, doc in document:
            if isinstance(doc, list):
                for index, record in enumerate(doc, 1):
                    yield f"{file_label}#{index}", record
            elif isinstance(doc, dict) and isinstance(doc.get("cards"), list):
                for index, record in enumerate(doc["cards"], 1):
                    yield f"{file_label}#{index}", record
            else:
                yield file_label, doc
        return
    items = document.get("cards") if isinstance(document, dict) else document
    if isinstance(items, list):
        for index in range(len(items)):
            yield str(index + 1), items[index]
            if consume:
                items[index] = None
    elif isinstance(document, dict):
        yield "1", document


def first_record(source: Source) -> dict[str, Any] | None:
    """The first record of a JSON source, for cheap detection."""
    if source.kind != "json":
        return None
    for _, record in records_of(source.document, source):
        return record if isinstance(record, dict) else None
    return None


def require_dict(record: Any, source: str, label: str) -> dict[str, Any]:
    """The record, if it is a JSON object; else a record error."""
    if not isinstance(record, dict):
        raise ImportRecordError(source, label, None, "a JSON object (one card)", type(record).__name__)
    return record

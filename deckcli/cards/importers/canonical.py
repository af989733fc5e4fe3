"""Canonical JSON and CSV: deckcli's own card format (documented in card_db/README.md)."""

from __future__ import annotations

import types
import typing
from typing import Any

from deckcli.cards.importers.base import ImportResult, first_record, records_of, require_dict, validate_record
from deckcli.cards.importers.sources import Source
from deckcli.cards.models import CardBase, card_model
from deckcli.cards.names import normalize_name
from deckcli.errors import ImportRecordError, SourceError

_TRUE = {"1", "true", "yes", "y", "x"}
_FALSE = {"0", "false", "no", "n", ""}


def _check_game(source: Source, game_id: str) -> None:
    documents = source.document if source.from_folder else [(source.label, source.document)]
    for label, document in documents:
        if isinstance(document, dict) and "game" in document:
            from deckcli.games import find_game

            declared = str(document["game"])
            try:
                declared_id = find_game(declared).id
            except Exception:
                declared_id = declared
            if declared_id != game_id:
                where = f"{source.label}: {label}" if source.from_folder else label
                raise SourceError(f"{where}: the file holds {declared} cards, not {game_id} cards")


def _unique(cards: list[tuple[str, CardBase]], source: str) -> list[CardBase]:
    first_seen: dict[str, str] = {}
    for label, card in cards:
        key = normalize_name(card.name)
        if key in first_seen:
            raise ImportRecordError(
                source, label, "name", f"a name not already used (record {first_seen[key]} has it)", card.name
            )
        first_seen[key] = label
    return [card for _, card in cards]


class CanonicalJsonImporter:
    """An array of canonical card objects, or ``{"game": ..., "cards": [...]}``."""

    name = "canonical-json"
    description = "deckcli canonical JSON"

    def detect(self, source: Source) -> bool:
        if source.kind != "json":
            return False
        if source.from_folder:
            # A folder of canonical files (one card, an array, or a {"cards": [...]} each).
            sample = first_record(source)
            return sample is not None and "name" in sample
        document = source.document
        if isinstance(document, dict) and "game" in document and isinstance(document.get("cards"), list):
            return True
        items = document.get("cards") if isinstance(document, dict) else document
        # Canonical JSON is the last JSON format tried: any array is taken as canonical
        # cards, so that a record missing its name or type gets an error naming the
        # record and the field rather than "not a card format deckcli knows".
        return isinstance(items, list)

    def convert(self, source: Source, game_id: str) -> ImportResult:
        _check_game(source, game_id)
        cards: list[tuple[str, CardBase]] = []
        # ``consume``: records are released as they are validated (a 100,000-card file
        # would otherwise sit in memory both as parsed JSON and as validated cards).
        for label, record in records_of(source.document, source, consume=True):
            data = require_dict(record, source.label, label)
            cards.append((label, validate_record(game_id, data, source.label, label)))
        return ImportResult(game_id, self.name, source.label, _unique(cards, source.label))


def _list_fields(model: type[CardBase]) -> set[str]:
    result = set()
    for name, info in model.model_fields.items():
        origin = typing.get_origin(info.annotation)
        if origin is list:
            result.add(name)
    return result


def _bool_fields(model: type[CardBase]) -> set[str]:
    return {name for name, info in model.model_fields.items() if info.annotation is bool}


def _optional_fields(model: type[CardBase]) -> set[str]:
    result = set()
    for name, info in model.model_fields.items():
        args = typing.get_args(info.annotation)
        if typing.get_origin(info.annotation) in (typing.Union, types.UnionType) and type(None) in args:
            result.add(name)
    return result


class CanonicalCsvImporter:
    """A header row naming canonical fields; list fields separated by ``;``."""

    name = "canonical-csv"
    description = "deckcli canonical CSV"

    def detect(self, source: Source) -> bool:
        return source.kind == "csv"

    def convert(self, source: Source, game_id: str) -> ImportResult:
        model = card_model(game_id)
        list_fields = _list_fields(model)
        bool_fields = _bool_fields(model)
        optional = _optional_fields(model)
        cards: list[tuple[str, CardBase]] = []
        for line, row in source.rows:
            label = f"line {line}"
            data: dict[str, Any] = {}
            for key, raw in row.items():
                value = raw.strip()
                if key in list_fields:
                    data[key] = [part.strip() for part in value.split(";") if part.strip()]
                elif key in bool_fields:
                    if value.lower() not in _TRUE | _FALSE:
                        raise ImportRecordError(source.label, label, key, "true or false", raw)
                    data[key] = value.lower() in _TRUE
                elif value == "" and key in optional:
                    data[key] = None
                else:
                    data[key] = value
            if "printings" in data:
                raise ImportRecordError(source.label, label, "printings", "no printings column in CSV", "printings")
            cards.append((label, validate_record(game_id, data, source.label, label)))
        return ImportResult(game_id, self.name, source.label, _unique(cards, source.label))

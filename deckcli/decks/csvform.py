"""CSV decklists: one row per card entry, ``count,name,section``.

Written form::

    count,name,section
    ,elekin,game
    ,Lightning Structure Deck,name
    3,Glint,main
    1,Mystic Ward,shields

Metadata rows come first: an empty count, the value in the ``name`` column and the
metadata key (``game``, ``name``, ``player``, ``event``, ``date``) in the ``section``
column. Card rows follow in section order, in deck order within a section.

Read leniently: the header's columns may come in any order and in any case, with
``qty``/``quantity``/``copies`` for ``count`` and ``card`` for ``name``; extra columns are
ignored; the ``section`` column is optional (main) and takes any header word (``Spirit
Deck``, ``Sideboard``, ``SB``); an empty count is 1; ``;`` and tab separated files work
too. A row that cannot be read is a parse problem with its line number, and reading
goes on.
"""

from __future__ import annotations

import csv
import io

from deckcli.decks.model import METADATA_KEYS, SECTION_ORDER, Deck, DeckEntry, ParseProblem, section_for_header

HEADER = ("count", "name", "section")
_COUNT_COLUMNS = ("count", "qty", "quantity", "copies", "amount")
_NAME_COLUMNS = ("name", "card", "card name")
_SECTION_COLUMNS = ("section", "board", "zone", "deck")


def _delimiter(first_line: str) -> str:
    if "," in first_line:
        return ","
    if ";" in first_line:
        return ";"
    return "\t" if "\t" in first_line else ","


def _column(header: list[str], names: tuple[str, ...]) -> int | None:
    keys = [" ".join(cell.strip().lower().split()) for cell in header]
    return next((keys.index(name) for name in names if name in keys), None)


def read_csv_deck(text: str, source: str | None = None) -> Deck:
    """The deck in a CSV decklist (``count,name,section`` rows)."""
    deck = Deck(source=source)
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(first))
    columns: tuple[int, int, int | None] | None = None
    previous_end = 0
    for row in reader:
        line = previous_end + 1
        previous_end = reader.line_num
        raw = ",".join(row)
        if not any(cell.strip() for cell in row):
            continue
        if columns is None:
            count_col, name_col = _column(row, _COUNT_COLUMNS), _column(row, _NAME_COLUMNS)
            if count_col is not None and name_col is not None:
                columns = (count_col, name_col, _column(row, _SECTION_COLUMNS))
                continue
            if row[0].strip().isdigit() and len(row) >= 2:
                columns = (0, 1, 2 if len(row) >= 3 else None)  # no header: count,name[,section]
            else:
                message = "expected a header row naming the count and name columns (count,name,section)"
                deck.problems.append(ParseProblem(line, raw, message))
                return deck
        _row(deck, row, columns, line, raw)
    return deck


def _cell(row: list[str], index: int | None) -> str:
    return row[index].strip() if index is not None and index < len(row) else ""


def _row(deck: Deck, row: list[str], columns: tuple[int, int, int | None], line: int, raw: str) -> None:
    count_col, name_col, section_col = columns
    count_text, name, section_text = _cell(row, count_col), _cell(row, name_col), _cell(row, section_col)
    key = section_text.lower()
    if not count_text and key in METADATA_KEYS:
        setattr(deck, key, name or None)
        return
    section = section_for_header(section_text) if section_text else "main"
    if section is None:
        message = f"unknown section '{section_text}' (expected main, spirit, shields, side, ...)"
        deck.problems.append(ParseProblem(line, raw, message))
        return
    if not name:
        deck.problems.append(ParseProblem(line, raw, "the name column is empty"))
        return
    try:
        count = int(count_text) if count_text else 1
    except ValueError:
        deck.problems.append(ParseProblem(line, raw, f"count must be a whole number, found '{count_text}'"))
        return
    if count < 1:
        deck.problems.append(ParseProblem(line, raw, f"count must be at least 1, found {count}"))
        return
    deck.add(section, DeckEntry(count, name, line))


def write_csv_deck(deck: Deck) -> str:
    """The deck as CSV text: a ``count,name,section`` header, metadata rows, card rows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for key in METADATA_KEYS:
        value = getattr(deck, key)
        if value:
            writer.writerow(("", value, key))
    ordered = [s for s in SECTION_ORDER if s in deck.sections] + [s for s in deck.sections if s not in SECTION_ORDER]
    for section in ordered:
        for entry in deck.sections[section]:
            writer.writerow((entry.count, entry.name, section))
    return out.getvalue()

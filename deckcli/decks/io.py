"""Reading and writing decklist files of any supported form.

Forms: the native text form (``.txt`` and anything unknown), JSON (``.json``), CSV
(``.csv``) and MTGO-style plaintext (``.dek``). Reading picks the form by the file's
suffix, then by content (a leading ``{``/``[`` is JSON); writing by the target's suffix
or an explicit form name.
"""

from __future__ import annotations

from pathlib import Path

from deckcli.decks.csvform import read_csv_deck, write_csv_deck
from deckcli.decks.files import (
    DeckFileError,
    DeckFileExistsError,
    read_text_file,
    write_text_atomic,
)
from deckcli.decks.jsonform import read_json_decks, write_json_deck
from deckcli.decks.model import METADATA_KEYS, Deck
from deckcli.decks.mtgo import read_mtgo_deck, write_mtgo_deck
from deckcli.decks.text import read_text_decks, write_text_deck

__all__ = [
    "DECK_FORMS",
    "DECK_SUFFIXES",
    "DeckFileError",
    "DeckFileExistsError",
    "deck_difference",
    "deck_files",
    "form_for_path",
    "read_deck_file",
    "read_deck_text",
    "render_deck",
    "write_deck",
    "write_text_atomic",
]

DECK_SUFFIXES = (".txt", ".dek", ".deck", ".json", ".md", ".csv")

#: form name -> the suffix its files get
DECK_FORMS: dict[str, str] = {"text": ".txt", "json": ".json", "csv": ".csv", "mtgo": ".dek"}
_SUFFIX_FORMS = {".txt": "text", ".deck": "text", ".md": "text", ".json": "json", ".csv": "csv", ".dek": "mtgo"}
_FORM_ALIASES = {"txt": "text", "native": "text", "dek": "mtgo", "plaintext": "mtgo"}


def read_deck_text(text: str, source: str, suffix: str = "") -> list[Deck]:
    """Every deck in ``text``: by suffix (JSON, CSV, MTGO ``.dek``), else by content."""
    suffix = suffix.lower()
    if suffix == ".json" or (not suffix and text.lstrip()[:1] in ("{", "[")):
        return read_json_decks(text, source)
    if suffix == ".csv":
        return [read_csv_deck(text, source)]
    if suffix == ".dek":
        deck = read_mtgo_deck(text, source)
        if deck.problems:
            # A .dek file in the native text form (headers, "Name x3", "Hero: ...") reads
            # better as text; keep whichever reading understands more lines.
            decks = read_text_decks(text.splitlines(), source)
            if sum(len(d.problems) for d in decks) < len(deck.problems):
                return decks
        return [deck]
    return read_text_decks(text.splitlines(), source)


def read_deck_file(path: Path | str) -> list[Deck]:
    """Every deck in the decklist file at ``path``."""
    file = Path(path)
    return read_deck_text(read_text_file(file).text, str(file), file.suffix)


def deck_files(paths: list[Path]) -> list[Path]:
    """The decklist files named: files as given, folders searched recursively."""
    result: list[Path] = []
    for path in paths:
        if path.is_dir():
            result.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in DECK_SUFFIXES))
        else:
            result.append(path)
    return result


def form_for_path(path: Path | str, explicit: str | None = None) -> str:
    """The form (``text``, ``json``, ``csv``, ``mtgo``) to write ``path`` in.

    ``explicit`` (a form name) wins; otherwise the suffix decides. Raises
    :class:`DeckFileError` for an unknown form or suffix.
    """
    valid = ", ".join(DECK_FORMS)
    if explicit is not None:
        key = explicit.strip().lower().lstrip(".")
        form = _FORM_ALIASES.get(key, key)
        if form not in DECK_FORMS:
            raise DeckFileError(f"unknown deck form '{explicit}'", hint=f"valid forms: {valid}")
        return form
    suffix = Path(path).suffix.lower()
    form_name = _SUFFIX_FORMS.get(suffix)
    if form_name is None:
        raise DeckFileError(
            f"cannot tell which form to write {path} in (suffix '{suffix}')",
            hint=f"use a .txt, .json, .csv or .dek file name, or pass --to ({valid})",
        )
    return form_name


def write_deck(deck: Deck, form: str, titles: dict[str, str] | None = None) -> str:
    """The deck as text in ``form``; ``titles`` overrides section header words."""
    if form == "text":
        return write_text_deck(deck, titles)
    if form == "json":
        return write_json_deck(deck)
    if form == "csv":
        return write_csv_deck(deck)
    if form == "mtgo":
        return write_mtgo_deck(deck, titles)
    raise DeckFileError(f"unknown deck form '{form}'", hint=f"valid forms: {', '.join(DECK_FORMS)}")


def deck_difference(before: Deck, after: Deck) -> str | None:
    """How ``after`` differs from ``before`` in metadata or cards (None: not at all).

    Sections compare by their entries' names and counts, in order; empty sections and
    line numbers do not count.
    """
    for key in METADATA_KEYS:
        if getattr(before, key) != getattr(after, key):
            return f"{key} {getattr(before, key)!r} would read back as {getattr(after, key)!r}"
    old = {s: [(e.count, e.name) for e in entries] for s, entries in before.sections.items() if entries}
    new = {s: [(e.count, e.name) for e in entries] for s, entries in after.sections.items() if entries}
    for section in dict.fromkeys([*old, *new]):
        was, now = old.get(section, []), new.get(section, [])
        if was != now:
            lost = [f"{c} {n}" for c, n in was if (c, n) not in now]
            gained = [f"{c} {n}" for c, n in now if (c, n) not in was]
            parts = ([f"lost {', '.join(lost)}"] if lost else []) + ([f"gained {', '.join(gained)}"] if gained else [])
            detail = "; ".join(parts)
            return f"section {section} would read back differently ({detail or 'order changed'})"
    return None


def render_deck(deck: Deck, form: str, titles: dict[str, str] | None = None) -> str:
    """The deck as text in ``form``, checked to read back as the same deck.

    Raises :class:`DeckFileError` when the form cannot hold the deck as it is (e.g. a
    card name the form would read as something else).
    """
    text = write_deck(deck, form, titles)
    back = read_deck_text(text, "", DECK_FORMS[form])
    problem = (
        f"it would read back as {len(back)} decks"
        if len(back) != 1
        else f"line {back[0].problems[0].line} would not read back ({back[0].problems[0].message})"
        if back[0].problems
        else deck_difference(deck, back[0])
    )
    if problem:
        raise DeckFileError(f"cannot write the deck as {form} without losing something: {problem}")
    return text

"""Reading decklist files of any supported form (by extension, then by content)."""

from __future__ import annotations

from pathlib import Path

from deckcli.decks.jsonform import read_json_decks
from deckcli.decks.model import Deck
from deckcli.decks.text import read_text_decks
from deckcli.errors import DeckcliError

DECK_SUFFIXES = (".txt", ".dek", ".deck", ".json", ".md")


class DeckFileError(DeckcliError):
    """A decklist file that cannot be read at all (missing, unreadable, not text)."""


def read_deck_text(text: str, source: str, suffix: str = "") -> list[Deck]:
    """Every deck in ``text``; JSON by suffix or by a leading ``{``/``[``."""
    if suffix.lower() == ".json" or (not suffix and text.lstrip()[:1] in ("{", "[")):
        return read_json_decks(text, source)
    return read_text_decks(text.splitlines(), source)


def read_deck_file(path: Path | str) -> list[Deck]:
    """Every deck in the decklist file at ``path``."""
    file = Path(path)
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise DeckFileError(f"no such decklist file: {file}") from None
    except IsADirectoryError:
        raise DeckFileError(f"{file} is a folder, not a decklist file") from None
    except OSError as exc:
        raise DeckFileError(f"cannot read {file}: {exc.strerror or exc}") from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError as exc:
            raise DeckFileError(f"{file} is not a text decklist (undecodable byte {exc.start})") from exc
    return read_deck_text(text, str(file), file.suffix)


def deck_files(paths: list[Path]) -> list[Path]:
    """The decklist files named: files as given, folders searched recursively."""
    result: list[Path] = []
    for path in paths:
        if path.is_dir():
            result.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in DECK_SUFFIXES))
        else:
            result.append(path)
    return result

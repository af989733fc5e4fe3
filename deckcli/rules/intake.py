"""Checking decklist files: choose each deck's format, validate, collect reports.

This is what ``deckcli validate`` calls; it works for one file or a tournament's worth
of folders, loading each game's card pool once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

from deckcli.cards.pool import CardPool
from deckcli.cards.store import CardStore
from deckcli.decks.io import DeckFileError, deck_files, read_deck_file
from deckcli.decks.model import Deck
from deckcli.errors import DeckcliError
from deckcli.games import game_ids
from deckcli.rules.formats import Format, FormatError, find_format
from deckcli.rules.report import Report, Violation
from deckcli.rules.validate import validate, validate_against

#: sections only one game has, so a deck using one says which game it is for
_SECTION_GAMES = {
    "spirit": "elestrals",
    "shields": "elekin",
    "spellcaster": "elemental-clash",
    "hero": "aestery",
    "elements": "elemystic",
}


class UnknownFormatError(DeckcliError):
    """A deck whose game cannot be told."""


class Pools:
    """Card pools loaded on demand, once per game."""

    def __init__(self, store: CardStore) -> None:
        self.store = store
        self._pools: dict[str, CardPool] = {}

    def __call__(self, game_id: str) -> CardPool:
        if game_id not in self._pools:
            self._pools[game_id] = CardPool.load(self.store, game_id)
        return self._pools[game_id]


def infer_game(deck: Deck, pools: Callable[[str], CardPool]) -> str | None:
    """The game a deck without a ``Game:`` line is for: by its sections, else its card names."""
    hinted = {_SECTION_GAMES[s] for s in deck.sections if s in _SECTION_GAMES and deck.sections[s]}
    if len(hinted) == 1:
        return hinted.pop()
    names = [e.name for entries in deck.sections.values() for e in entries]
    if not names:
        return None
    candidates = sorted(hinted) if hinted else game_ids()
    scores = {game: sum(pools(game).find(name) is not None for name in names) for game in candidates}
    best = max(scores, key=lambda g: scores[g])
    return best if scores[best] * 2 > len(names) else None


def choose_format(deck: Deck, explicit: str | None, pools: Callable[[str], CardPool]) -> tuple[Format, str]:
    """The format to check ``deck`` with, and how it was chosen."""
    if explicit:
        return find_format(explicit), "--format"
    if deck.game:
        return find_format(deck.game), "Game: line"
    game = infer_game(deck, pools)
    if game is None:
        raise UnknownFormatError(
            f"{deck.source or deck.label}: cannot tell which game the deck is for",
            hint="add a 'Game: <game>' line to the decklist or pass --format",
        )
    return find_format(game), "inferred"


def check_files(
    store: CardStore,
    paths: list[Path],
    *,
    format_name: str | None = None,
    on: dt.date | None = None,
) -> list[Report]:
    """Validate every deck in ``paths`` (files, or folders searched recursively)."""
    files = deck_files(paths)
    if not files:
        raise DeckFileError("no decklist files found in " + ", ".join(map(str, paths)))
    pools = Pools(store)
    reports: list[Report] = []
    for file in files:
        try:
            decks = read_deck_file(file)
        except DeckFileError as exc:
            if len(files) == 1:
                raise
            reports.append(_input_error(str(file), exc))
            continue
        for deck in decks:
            try:
                fmt, how = choose_format(deck, format_name, pools)
            except (UnknownFormatError, FormatError) as exc:
                # A bad --format is the whole run's problem; a deck's own bad Game: line is its file's.
                if (len(files) == 1 and len(decks) == 1) or (format_name and isinstance(exc, FormatError)):
                    raise
                reports.append(_input_error(deck.source or str(file), exc))
                continue
            reports.append(validate(deck, fmt, pools(fmt.game), on, format_source=how))
    return reports


def _input_error(source: str, error: DeckcliError) -> Report:
    """A report for a file of a multi-file run that could not be checked at all."""
    message = error.message + (f" ({error.hint})" if error.hint else "")
    return Report(source, "", [Violation("parse-error", message, rule="input")], source=source, input_error=True)


def check_against(
    store: CardStore,
    path: Path,
    registered_path: Path,
    *,
    format_name: str | None = None,
    on: dt.date | None = None,
) -> Report:
    """Is the deck in ``path`` a legal sideboarded version of the one in ``registered_path``?"""
    pools = Pools(store)
    deck = _single_deck(path)
    registered = _single_deck(registered_path)
    if format_name is None and not deck.game and registered.game:
        # The registration names the game; the sideboarded list need not repeat it.
        fmt, how = find_format(registered.game), "registered deck's Game: line"
    else:
        fmt, how = choose_format(deck, format_name, pools)
    return validate_against(deck, registered, fmt, pools(fmt.game), on, format_source=how)


def _single_deck(path: Path) -> Deck:
    decks = read_deck_file(path)
    if len(decks) != 1:
        raise DeckFileError(f"{path} holds {len(decks)} decks; --against compares one deck with one deck")
    return decks[0]


def missing_names(fmt: Format, pool: CardPool) -> list[tuple[str, list[str]]]:
    """Card names the format mentions that no card has, each with suggestions."""
    return [(name, pool.suggest(name)) for name in dict.fromkeys(fmt.names()) if pool.find(name) is None]

"""The games registry: ids, display names, aliases (after python-chess ``find_variant``)."""

from __future__ import annotations

from dataclasses import dataclass

from deckcli.errors import UnknownGameError


@dataclass(frozen=True)
class Game:
    """A supported card game."""

    id: str
    name: str
    aliases: tuple[str, ...]
    publisher: str


GAMES: tuple[Game, ...] = (
    Game("elestrals", "Elestrals", ("elestral",), "Elestrals LLC"),
    Game("elekin", "Elekin: Masters of Kinbrold", ("kinbrold", "masters-of-kinbrold"), "Elemental Games LLC"),
    Game("aestery", "Aestery TCG", ("aestery-tcg", "world-banner"), "The World Banner"),
    Game("elemental-clash", "Elemental Clash", ("clash", "ec", "elementalclash"), "Andreas Propst"),
    Game("elemystic", "Elemystic", ("mystic",), "Wise Wizard Games"),
)

_BY_KEY: dict[str, Game] = {}
for _game in GAMES:
    for _alias in (_game.id, *_game.aliases):
        _BY_KEY[_alias] = _game


def _key(name: str) -> str:
    return "-".join(name.strip().lower().replace("_", " ").replace(":", " ").split())


def find_game(name: str) -> Game:
    """The game whose id or alias is ``name`` (case-insensitive, '_' or ' ' for '-')."""
    key = _key(name)
    game = _BY_KEY.get(key)
    if game is None:
        # A descriptive name ("Elekin: Masters of Kinbrold (Set 1)") names its game first.
        game = next((g for g in GAMES if key.startswith((_key(g.name), g.id + "-"))), None)
    if game is None:
        valid = ", ".join(g.id for g in GAMES)
        raise UnknownGameError(f"unknown game '{name}'", hint=f"valid games: {valid}")
    return game


def game_ids() -> list[str]:
    """Every game id, in registry order."""
    return [g.id for g in GAMES]

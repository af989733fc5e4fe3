"""The headless game runner: one module per game, registered here by game id.

Modules are imported on first use so that ``deckcli --help`` stays fast.
"""

from __future__ import annotations

import importlib

from deckcli.engine.base import EngineError, GameEngine

#: game id -> module defining ``ENGINE: GameEngine``
ENGINE_MODULES: dict[str, str] = {
    "elestrals": "deckcli.engine.elestrals",
    "elekin": "deckcli.engine.elekin",
    "aestery": "deckcli.engine.aestery",
    "elemental-clash": "deckcli.engine.clash",
    "elemystic": "deckcli.engine.elemystic",
}


def find_engine(game_id: str) -> GameEngine:
    """The engine of ``game_id``."""
    module_name = ENGINE_MODULES.get(game_id)
    if module_name is None:
        raise EngineError(f"no game engine for '{game_id}'", hint=f"engines: {', '.join(ENGINE_MODULES)}")
    engine = importlib.import_module(module_name).ENGINE
    assert isinstance(engine, GameEngine)
    return engine

"""Locations of the data that ships with deckcli (``card_db/`` and ``formats/``).

An installed wheel carries them inside the package as ``deckcli/_data/<name>``; an
editable install or a source checkout finds them at the repository's top level.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The directory of bundled data ``name`` ('card_db' or 'formats')."""
    for candidate in (_PACKAGE_DIR / "_data" / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"bundled data folder '{name}' is missing from the installation")

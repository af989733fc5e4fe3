"""Per-game seeds: game ``i`` of a run depends only on (run seed, i), never on workers."""

from __future__ import annotations

import hashlib


def game_seed(run_seed: int, index: int) -> int:
    """A 64-bit seed for game ``index`` of the run seeded ``run_seed``."""
    digest = hashlib.blake2b(f"deckcli:{run_seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")

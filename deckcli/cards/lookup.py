"""Name lookup: exact (normalised) matches and "did you mean" suggestions.

A :class:`NameIndex` holds one game's names in memory: a dict for exact lookups and
the lists rapidfuzz scans for suggestions. Suggestions rank, in order: names whose
base name (the part before a title) or initials equal the query, names that start
with the query, then rapidfuzz's ``WRatio`` (which scores partial and reordered
matches well, so "Veton" finds "Veton | The Lightning Dragon").

``WRatio`` costs about a microsecond per name, too slow for a 100,000-name pool, so a
large index first short-lists candidates with the much cheaper ``ratio`` over the full
names and over the base names, and ranks only that short list with ``WRatio``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable

from deckcli.cards.names import TITLE_SEPARATOR, normalize_name
from deckcli.errors import CardNotFoundError

SUGGESTION_LIMIT = 3
#: rapidfuzz score (0-100) below which a name is not worth suggesting
SUGGESTION_CUTOFF = 60.0
#: above this many names, WRatio only ranks a short list picked by a cheaper scorer
FULL_SCAN_LIMIT = 5_000
#: how many names each cheap pre-filter pass keeps for WRatio to rank
SHORTLIST = 40

_WORDS = re.compile(r"[0-9a-z]+")


def _initials(norm: str) -> str:
    """Initials of an already normalised name (``names.initials`` without re-normalising)."""
    return "".join(word[0] for word in _WORDS.findall(norm))


class NameIndex:
    """Every card name of one game, ready for exact and fuzzy lookup."""

    def __init__(self, game_id: str, names: Iterable[tuple[str, str]]) -> None:
        """``names`` are ``(normalised name, display name)`` pairs."""
        self.game_id = game_id
        self._by_norm: dict[str, str] = {}
        self._by_short: dict[str, list[str]] = defaultdict(list)
        for norm, name in names:
            self._by_norm[norm] = name
        #: base names (before the title) of the titled names, and those names' positions
        self._bases: list[str] = []
        self._base_of: list[int] = []
        for position, (norm, name) in enumerate(self._by_norm.items()):
            base = norm.split(TITLE_SEPARATOR, 1)[0]
            if base != norm:
                self._by_short[base].append(name)
                self._bases.append(base)
                self._base_of.append(position)
            abbreviation = _initials(norm)
            if len(abbreviation) >= 2:
                self._by_short[abbreviation].append(name)
        self._norms = list(self._by_norm)
        self._names = [self._by_norm[n] for n in self._norms]
        self._sorted_norms: list[str] | None = None

    def __len__(self) -> int:
        return len(self._by_norm)

    def __contains__(self, name: str) -> bool:
        return normalize_name(name) in self._by_norm

    def exact(self, name: str) -> str | None:
        """The stored spelling of ``name``, or None when no name normalises alike."""
        return self._by_norm.get(normalize_name(name))

    # -- suggestions -----------------------------------------------------------------

    def _prefixed(self, query: str) -> list[str]:
        """Display names whose normal form starts with ``query`` (binary search)."""
        if self._sorted_norms is None:
            self._sorted_norms = sorted(self._norms)
        found = []
        start = bisect_left(self._sorted_norms, query)
        for norm in self._sorted_norms[start:]:
            if not norm.startswith(query):
                break
            found.append(self._by_norm[norm])
        return found

    def _shortlist(self, query: str) -> list[int]:
        """Indexes of the names closest to ``query`` by the cheap ``ratio``.

        Scores the normal forms as they are (no per-name processing, so nothing has to
        be prepared first), over the full names and over the base names of titled ones.
        """
        from rapidfuzz import fuzz, process

        picked = {
            index
            for _, _, index in process.extract(query, self._norms, scorer=fuzz.ratio, processor=None, limit=SHORTLIST)
        }
        for _, _, at in process.extract(query, self._bases, scorer=fuzz.ratio, processor=None, limit=SHORTLIST):
            picked.add(self._base_of[at])
        return sorted(picked)

    def suggest(self, name: str, limit: int = SUGGESTION_LIMIT) -> list[str]:
        """Up to ``limit`` names the user may have meant, best first."""
        from rapidfuzz import fuzz, process, utils

        query = normalize_name(name)
        if not query or limit <= 0:
            return []
        ranked: list[str] = []
        compact = query.replace(" ", "").replace("'", "").replace(".", "")
        for key in (query, compact):
            for candidate in sorted(self._by_short.get(key, ())):
                if candidate not in ranked:
                    ranked.append(candidate)
        if len(ranked) < limit and len(query) >= 3:
            prefixed = self._prefixed(query)
            for candidate in sorted(prefixed, key=len)[: limit - len(ranked)]:
                if candidate not in ranked:
                    ranked.append(candidate)
        if len(ranked) < limit:
            # WRatio over every name, or (large index) over a cheap short list.
            indexes = list(range(len(self._norms))) if len(self._norms) <= FULL_SCAN_LIMIT else self._shortlist(query)
            matches = process.extract(
                query,
                [self._norms[i] for i in indexes],
                scorer=fuzz.WRatio,
                processor=utils.default_process,
                limit=limit + len(ranked),
                score_cutoff=SUGGESTION_CUTOFF,
            )
            for _, _, position in matches:
                index = indexes[position]
                candidate = self._names[index]
                if candidate not in ranked:
                    ranked.append(candidate)
        return ranked[:limit]

    def resolve(self, name: str) -> str:
        """The stored spelling of ``name``; raises CardNotFoundError with suggestions."""
        found = self.exact(name)
        if found is None:
            raise CardNotFoundError(self.game_id, name, self.suggest(name))
        return found

"""Name lookup: exact (normalised) matches and "did you mean" suggestions.

A :class:`NameIndex` holds one game's names in memory: a dict for exact lookups and
the lists rapidfuzz scans for suggestions. Suggestions rank, in order: names whose
base name (the part before a title) or initials equal the query, names that start
with the query, then rapidfuzz's ``WRatio`` (which scores partial and reordered
matches well, so "Veton" finds "Veton | The Lightning Dragon").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from deckcli.cards.names import TITLE_SEPARATOR, initials, normalize_name
from deckcli.errors import CardNotFoundError

SUGGESTION_LIMIT = 3
#: rapidfuzz score (0-100) below which a name is not worth suggesting
SUGGESTION_CUTOFF = 60.0


class NameIndex:
    """Every card name of one game, ready for exact and fuzzy lookup."""

    def __init__(self, game_id: str, names: Iterable[tuple[str, str]]) -> None:
        """``names`` are ``(normalised name, display name)`` pairs."""
        self.game_id = game_id
        self._by_norm: dict[str, str] = {}
        self._by_short: dict[str, list[str]] = defaultdict(list)
        for norm, name in names:
            self._by_norm[norm] = name
        for norm, name in self._by_norm.items():
            base = norm.split(TITLE_SEPARATOR, 1)[0]
            if base != norm:
                self._by_short[base].append(name)
            abbreviation = initials(norm)
            if len(abbreviation) >= 2:
                self._by_short[abbreviation].append(name)
        self._norms = list(self._by_norm)
        self._names = [self._by_norm[n] for n in self._norms]

    def __len__(self) -> int:
        return len(self._by_norm)

    def __contains__(self, name: str) -> bool:
        return normalize_name(name) in self._by_norm

    def exact(self, name: str) -> str | None:
        """The stored spelling of ``name``, or None when no name normalises alike."""
        return self._by_norm.get(normalize_name(name))

    def suggest(self, name: str, limit: int = SUGGESTION_LIMIT) -> list[str]:
        """Up to ``limit`` names the user may have meant, best first."""
        from rapidfuzz import fuzz, process, utils

        query = normalize_name(name)
        if not query:
            return []
        ranked: list[str] = []
        compact = query.replace(" ", "").replace("'", "").replace(".", "")
        for key in (query, compact):
            for candidate in sorted(self._by_short.get(key, ())):
                if candidate not in ranked:
                    ranked.append(candidate)
        if len(ranked) < limit and len(query) >= 3:
            prefixed = [self._names[i] for i, norm in enumerate(self._norms) if norm.startswith(query)]
            for candidate in sorted(prefixed, key=len)[: limit - len(ranked)]:
                if candidate not in ranked:
                    ranked.append(candidate)
        if len(ranked) < limit:
            matches = process.extract(
                query,
                self._norms,
                scorer=fuzz.WRatio,
                processor=utils.default_process,
                limit=limit + len(ranked),
                score_cutoff=SUGGESTION_CUTOFF,
            )
            for _, _, index in matches:
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

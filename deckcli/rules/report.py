"""Validation results: violations with stable codes, and the per-deck report."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning"]

#: Every violation code deckcli emits, with what it means. Codes are stable: scripts
#: and tournament software may rely on them.
CODES: dict[str, str] = {
    "unknown-card": "a card name that matches no card of the game (with suggestions)",
    "deck-size": "a section has fewer or more cards than the format allows",
    "copy-limit": "more copies of a card than the format allows",
    "restricted": "more copies of a restricted card than its list allows",
    "banned": "a card banned on the date checked",
    "wrong-section": "a card whose type may not go in that section, or a section the format does not have",
    "color-identity": "a card outside the Hero's colours",
    "shield-tiers": "Shields that are not one of each tier",
    "side-size": "a side deck (or part of it) larger than allowed",
    "side-swap": "a sideboarded deck that is not a legal swap of the registered deck",
    "parse-error": "a decklist line that could not be read",
    # warnings: legal, but risky
    "combined-copies": "warning: Main and Side together hold more copies than one deck may",
    "uncastable": "warning: a card needs an element the deck does not provide",
    "oversized": "warning: a section larger than it needs to be (consistency suffers)",
    "demo-card": "warning: a demo card made up by deckcli, not a real card",
    "provisional-card": "warning: a card whose data is partly guessed",
    "incomplete-card": "warning: a card whose source data lacks stats",
}


@dataclass(frozen=True, slots=True)
class Violation:
    """One problem with a deck: a stable ``code``, a human ``message`` and where."""

    code: str
    message: str
    severity: Severity = "error"
    section: str | None = None
    card: str | None = None
    line: int | None = None
    found: int | None = None
    allowed: int | None = None
    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object form used by ``--json``."""
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "section": self.section,
            "card": self.card,
            "line": self.line,
            "found": self.found,
            "allowed": self.allowed,
            "rule": self.rule,
        }


@dataclass
class Report:
    """Everything wrong (or risky) with one deck under one format."""

    deck: str
    format: str
    violations: list[Violation] = field(default_factory=list)
    #: how the format was chosen: "--format", "Game: line", "inferred"
    format_source: str = ""
    source: str | None = None
    #: True when the file could not be checked at all (unreadable, game unknown); its
    #: one violation says why. Intake runs go on past such files and exit 2 at the end.
    input_error: bool = False

    @property
    def valid(self) -> bool:
        """True when no violation is an error (warnings allowed)."""
        return not any(v.severity == "error" for v in self.violations)

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "error"]

    @property
    def warnings(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "warning"]

    def to_json(self) -> dict[str, Any]:
        """``{"deck", "format", "valid", "violations": [...]}``."""
        return {
            "deck": self.deck,
            "format": self.format or None,
            "valid": self.valid,
            "source": self.source,
            "violations": [v.to_json() for v in self.violations],
        }

"""The registry of rule kinds. A format file picks kinds by name and sets their parameters.

Each kind is a strict pydantic model (its parameters) with a ``check`` method that adds
every violation it finds to the context; none stops at the first problem. A new kind is
a new class decorated with :func:`rule_kind`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from deckcli.cards.names import normalize_name
from deckcli.cards.pool import PoolCard
from deckcli.decks.model import DeckEntry
from deckcli.rules.report import Severity, Violation


@dataclass(slots=True)
class Resolved:
    """A deck entry and the card it names (None when unknown)."""

    entry: DeckEntry
    card: PoolCard | None


@dataclass
class RuleContext:
    """What rules read (the resolved deck) and write (violations)."""

    sections: dict[str, list[Resolved]]
    titles: dict[str, str]
    on: dt.date
    violations: list[Violation] = field(default_factory=list)
    #: maximum size replacing a section's own, set by size-from-card; the section's
    #: minimum still applies unless the new maximum is lower
    size_overrides: dict[str, int] = field(default_factory=dict)

    def title(self, section: str) -> str:
        return self.titles.get(section, section)

    def add(self, violation: Violation) -> None:
        self.violations.append(violation)

    def cards(self, sections: list[str]) -> list[tuple[str, Resolved]]:
        """``(section, resolved)`` pairs of known cards in ``sections``."""
        return [(s, r) for s in sections for r in self.sections.get(s, ()) if r.card is not None]


class RuleBase(BaseModel):
    """Parameters every rule kind shares."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str
    cite: str = Field(..., description="Rulebook section (and quote) the rule comes from.")
    severity: Severity = "error"
    #: the violation code; each kind has a default
    code: str = ""

    default_code: ClassVar[str] = ""
    #: rules that change section sizes run before sizes are checked
    adjusts_sizes: ClassVar[bool] = False

    @property
    def violation_code(self) -> str:
        return self.code or self.default_code

    def check(self, ctx: RuleContext) -> None:
        """Add every violation of this rule to ``ctx``."""
        raise NotImplementedError

    def names(self) -> list[str]:
        """Card names the rule mentions (for ``formats check``)."""
        return []

    def describe(self) -> str:
        """One line for ``formats show``."""
        return self.kind


RULE_KINDS: dict[str, type[RuleBase]] = {}
R = TypeVar("R", bound=type[RuleBase])


def rule_kind(name: str) -> Callable[[R], R]:
    """Register a rule kind under ``name`` (the ``kind`` key in format files)."""

    def register(cls: R) -> R:
        RULE_KINDS[name] = cls
        return cls

    return register


class Match(BaseModel):
    """Select cards whose ``field`` equals ``equals``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    field: str
    equals: Any


class ListEntry(BaseModel):
    """A card on a banned or restricted list, with the dates it is in force."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    card: str
    limit: int = Field(0, ge=0)
    since: dt.date | None = None
    until: dt.date | None = None
    note: str = ""


def _in_force(since: dt.date | None, until: dt.date | None, on: dt.date) -> bool:
    return (since is None or since <= on) and (until is None or on < until)


class _DatedList(RuleBase):
    """A rule over a dated list of cards; the list in force is cached per date."""

    cards: list[ListEntry]
    _in_force_cache: dict[dt.date, dict[str, ListEntry]] = PrivateAttr(default_factory=dict)

    def names(self) -> list[str]:
        return [c.card for c in self.cards]

    def listed(self, on: dt.date) -> dict[str, ListEntry]:
        """Normalised name -> entry, for the entries in force on ``on``."""
        cached = self._in_force_cache.get(on)
        if cached is None:
            cached = {normalize_name(c.card): c for c in self.cards if _in_force(c.since, c.until, on)}
            self._in_force_cache[on] = cached
        return cached


def _where(ctx: RuleContext, sections: list[str] | tuple[str, ...]) -> str:
    return " + ".join(ctx.title(s) for s in sections)


@rule_kind("copy-limit")
class CopyLimit(RuleBase):
    """At most ``limit`` copies of each card, by name or by what it counts as."""

    kind: Literal["copy-limit"]
    limit: int = Field(..., ge=0)
    sections: list[str]
    combined: bool = True
    key: Literal["name", "counts_as"] = "name"
    exempt_types: list[str] = []
    exempt_field: str | None = None
    match: Match | None = None

    default_code: ClassVar[str] = "copy-limit"

    def describe(self) -> str:
        what = "each card" if self.match is None else f"each card with {self.match.field} = {self.match.equals}"
        scope = _sections_scope(self.sections, self.combined)
        extra = f"; exempt: {', '.join(self.exempt_types)}" if self.exempt_types else ""
        extra += f"; exempt: cards with {self.exempt_field}" if self.exempt_field else ""
        by = " (counts-as names count together)" if self.key == "counts_as" else ""
        return f"at most {self.limit} of {what}{by}, {scope}{extra}"

    def check(self, ctx: RuleContext) -> None:
        groups = [self.sections] if self.combined else [[s] for s in self.sections]
        exempt_types = self.exempt_types
        exempt_field = self.exempt_field
        match = self.match
        by_counts_as = self.key == "counts_as"
        limit = self.limit
        for group in groups:
            copies: dict[str, int] = {}
            first: dict[str, Resolved] = {}
            for section in group:
                for resolved in ctx.sections.get(section, ()):
                    card = resolved.card
                    if card is None or card.type in exempt_types:
                        continue
                    if exempt_field is not None and card.data.get(exempt_field):
                        continue
                    if match is not None and card.data.get(match.field) != match.equals:
                        continue
                    key = card.counts_as_key if by_counts_as else card.key
                    if key in copies:
                        copies[key] += resolved.entry.count
                    else:
                        copies[key] = resolved.entry.count
                        first[key] = resolved
            for key, total in copies.items():
                if total > limit:
                    self._report(ctx, group, key, total, first[key])

    def _report(self, ctx: RuleContext, group: list[str], key: str, total: int, first: Resolved) -> None:
        assert first.card is not None
        by_counts_as = self.key == "counts_as"
        label = first.card.counts_as if by_counts_as else first.card.name
        names: dict[str, int] = {}
        for section in group:
            for resolved in ctx.sections.get(section, ()):
                card = resolved.card
                if card is not None and (card.counts_as_key if by_counts_as else card.key) == key:
                    names[card.name] = names.get(card.name, 0) + resolved.entry.count
        detail = " (" + ", ".join(f"{n} {name}" for name, n in names.items()) + ")" if len(names) > 1 else ""
        ctx.add(
            Violation(
                self.violation_code,
                f"{label}: {total} copies in {_where(ctx, group)}, at most {self.limit} allowed{detail}",
                self.severity,
                group[0] if len(group) == 1 else "+".join(group),
                label,
                first.entry.line,
                total,
                self.limit,
                self.cite,
            )
        )


def _sections_scope(sections: list[str], combined: bool) -> str:
    if len(sections) == 1:
        return f"in {sections[0]}"
    return f"in {' + '.join(sections)} combined" if combined else f"in each of {', '.join(sections)}"


@rule_kind("restricted")
class Restricted(_DatedList):
    """Listed cards are limited to their own ``limit`` (dated entries)."""

    kind: Literal["restricted"]
    sections: list[str]
    combined: bool = True

    default_code: ClassVar[str] = "restricted"

    def describe(self) -> str:
        parts = [f"{c.card} ≤{c.limit}" + _dates(c) for c in self.cards]
        return f"restricted ({_sections_scope(self.sections, self.combined)}): " + "; ".join(parts)

    def check(self, ctx: RuleContext) -> None:
        listed = self.listed(ctx.on)
        if not listed:
            return
        groups = [self.sections] if self.combined else [[s] for s in self.sections]
        for group in groups:
            counts: dict[str, list[Any]] = {}
            for section in group:
                for resolved in ctx.sections.get(section, ()):
                    card = resolved.card
                    if card is None or card.key not in listed:
                        continue
                    slot = counts.setdefault(card.key, [0, resolved])
                    slot[0] += resolved.entry.count
            for key, (copies, first) in counts.items():
                entry = listed[key]
                if copies > entry.limit:
                    assert first.card is not None
                    ctx.add(
                        Violation(
                            self.violation_code,
                            f"{first.card.name}: {copies} copies in {_where(ctx, group)}, restricted to {entry.limit}",
                            self.severity,
                            group[0] if len(group) == 1 else "+".join(group),
                            first.card.name,
                            first.entry.line,
                            copies,
                            entry.limit,
                            self.cite,
                        )
                    )


def _dates(entry: ListEntry) -> str:
    if entry.since and entry.until:
        return f" ({entry.since} to {entry.until})"
    if entry.since:
        return f" (since {entry.since})"
    if entry.until:
        return f" (until {entry.until})"
    return ""


@rule_kind("banned")
class Banned(_DatedList):
    """Listed cards may not be played at all (dated entries)."""

    kind: Literal["banned"]
    sections: list[str]

    default_code: ClassVar[str] = "banned"

    def describe(self) -> str:
        return "banned: " + "; ".join(c.card + _dates(c) for c in self.cards)

    def check(self, ctx: RuleContext) -> None:
        listed = self.listed(ctx.on)
        if not listed:
            return
        for section, resolved in ctx.cards(self.sections):
            card = resolved.card
            assert card is not None
            if card.key in listed:
                since = listed[card.key].since
                when = f" since {since}" if since else ""
                ctx.add(
                    Violation(
                        self.violation_code,
                        f"{card.name} is banned{when} ({resolved.entry.count} in {ctx.title(section)})",
                        self.severity,
                        section,
                        card.name,
                        resolved.entry.line,
                        resolved.entry.count,
                        0,
                        self.cite,
                    )
                )


@rule_kind("tiers")
class Tiers(RuleBase):
    """Cards of a section carry one of ``values`` in ``field``: one each, or at most one each."""

    kind: Literal["tiers"]
    section: str
    field: str
    values: list[int]
    types: list[str] = []
    exactly_one_each: bool = True

    default_code: ClassVar[str] = "shield-tiers"

    def describe(self) -> str:
        how = "exactly one" if self.exactly_one_each else "at most one"
        return f"{self.section}: {how} card of each {self.field} {', '.join(map(str, self.values))}"

    def check(self, ctx: RuleContext) -> None:
        types = self.types
        entries = [
            r for r in ctx.sections.get(self.section, ()) if r.card is not None and (not types or r.card.type in types)
        ]
        if not entries and not self.exactly_one_each:
            return
        by_value: dict[Any, list[Resolved]] = {}
        for resolved in entries:
            assert resolved.card is not None
            by_value.setdefault(resolved.card.data.get(self.field), []).append(resolved)
        title = ctx.title(self.section)
        for value in self.values:
            found = by_value.get(value, [])
            copies = sum(r.entry.count for r in found)
            if copies > 1:
                names = ", ".join(r.card.name for r in found if r.card)
                ctx.add(
                    Violation(
                        self.violation_code,
                        f"{title}: {copies} cards of {self.field} {value} ({names}), exactly one allowed"
                        if self.exactly_one_each
                        else f"{title}: {copies} cards of {self.field} {value} ({names}), at most one allowed",
                        self.severity,
                        self.section,
                        found[0].card.name if found[0].card else None,
                        found[0].entry.line,
                        copies,
                        1,
                        self.cite,
                    )
                )
            elif copies == 0 and self.exactly_one_each:
                ctx.add(
                    Violation(
                        self.violation_code,
                        f"{title}: no card of {self.field} {value}; "
                        f"one of each of {', '.join(map(str, self.values))} is required",
                        self.severity,
                        self.section,
                        None,
                        None,
                        0,
                        1,
                        self.cite,
                    )
                )
        for value, found in by_value.items():
            if value not in self.values:
                for resolved in found:
                    assert resolved.card is not None
                    ctx.add(
                        Violation(
                            self.violation_code,
                            f"{title}: {resolved.card.name} has {self.field} {value!r}, not one of {self.values}",
                            self.severity,
                            self.section,
                            resolved.card.name,
                            resolved.entry.line,
                            None,
                            None,
                            self.cite,
                        )
                    )


@rule_kind("type-count")
class TypeCount(RuleBase):
    """The cards of some types (or all but some types) in a section: min/max copies."""

    kind: Literal["type-count"]
    section: str
    types: list[str] = []
    exclude_types: list[str] = []
    min: int | None = None
    max: int | None = None

    default_code: ClassVar[str] = "deck-size"

    def _what(self) -> str:
        if self.types:
            return " and ".join(self.types) + " cards"
        if self.exclude_types:
            return "cards other than " + " and ".join(self.exclude_types)
        return "cards"

    def describe(self) -> str:
        bounds = []
        if self.min is not None:
            bounds.append(f"at least {self.min}")
        if self.max is not None:
            bounds.append(f"at most {self.max}")
        return f"{self.section}: {' and '.join(bounds)} {self._what()}"

    def check(self, ctx: RuleContext) -> None:
        copies = 0
        first_line = None
        for resolved in ctx.sections.get(self.section, ()):
            card = resolved.card
            if card is None:
                continue
            if (self.types and card.type not in self.types) or card.type in self.exclude_types:
                continue
            copies += resolved.entry.count
            first_line = first_line or resolved.entry.line
        title = ctx.title(self.section)
        if self.max is not None and copies > self.max:
            ctx.add(
                Violation(
                    self.violation_code,
                    f"{title}: {copies} {self._what()}, at most {self.max} allowed",
                    self.severity,
                    self.section,
                    None,
                    first_line,
                    copies,
                    self.max,
                    self.cite,
                )
            )
        if self.min is not None and copies < self.min:
            ctx.add(
                Violation(
                    self.violation_code,
                    f"{title}: {copies} {self._what()}, at least {self.min} required",
                    self.severity,
                    self.section,
                    None,
                    first_line,
                    copies,
                    self.min,
                    self.cite,
                )
            )


@rule_kind("color-identity")
class ColorIdentity(RuleBase):
    """With an identity card (Hero), every card's colours must lie within its colours."""

    kind: Literal["color-identity"]
    identity_section: str
    field: str
    sections: list[str]

    default_code: ClassVar[str] = "color-identity"

    def describe(self) -> str:
        return f"with a {self.identity_section}, cards in {', '.join(self.sections)} must lie within its {self.field}"

    def check(self, ctx: RuleContext) -> None:
        identity_cards = [r.card for r in ctx.sections.get(self.identity_section, ()) if r.card is not None]
        if not identity_cards:
            return
        allowed: set[str] = set()
        for identity in identity_cards:
            allowed.update(identity.data.get(self.field) or ())
        names = ", ".join(c.name for c in identity_cards)
        for section, resolved in ctx.cards(self.sections):
            card = resolved.card
            assert card is not None
            colors = card.data.get(self.field) or []
            outside = [c for c in colors if c not in allowed]
            if outside:
                ctx.add(
                    Violation(
                        self.violation_code,
                        f"{card.name} is {', '.join(colors)}; "
                        f"{names} allows only {', '.join(sorted(allowed)) or 'colourless'}",
                        self.severity,
                        section,
                        card.name,
                        resolved.entry.line,
                        None,
                        None,
                        self.cite,
                    )
                )


@rule_kind("size-from-card")
class SizeFromCard(RuleBase):
    """A card (e.g. a Spellcaster) sets the maximum size of another section."""

    kind: Literal["size-from-card"]
    card_section: str
    field: str
    target: str

    default_code: ClassVar[str] = "deck-size"
    adjusts_sizes: ClassVar[bool] = True

    def describe(self) -> str:
        return f"a {self.card_section}'s {self.field} is the {self.target}'s maximum size (its minimum too, if lower)"

    def check(self, ctx: RuleContext) -> None:
        for resolved in ctx.sections.get(self.card_section, ()):
            card = resolved.card
            if card is not None and isinstance(card.data.get(self.field), int):
                ctx.size_overrides[self.target] = int(card.data[self.field])
                return


@rule_kind("exact-contents")
class ExactContents(RuleBase):
    """A section must hold exactly the listed cards, one each (Elemystic's nine elements)."""

    kind: Literal["exact-contents"]
    section: str
    cards: list[str]

    default_code: ClassVar[str] = "deck-size"

    def names(self) -> list[str]:
        return list(self.cards)

    def describe(self) -> str:
        return f"{self.section}: exactly {', '.join(self.cards)}, one each"

    _wanted: dict[str, str] | None = PrivateAttr(default=None)

    def wanted(self) -> dict[str, str]:
        """Normalised name -> the name as the format writes it (computed once)."""
        if self._wanted is None:
            self._wanted = {normalize_name(name): name for name in self.cards}
        return self._wanted

    def check(self, ctx: RuleContext) -> None:
        wanted = self.wanted()
        seen: dict[str, int] = {}
        first_line: dict[str, int | None] = {}
        title = ctx.title(self.section)
        for resolved in ctx.sections.get(self.section, ()):
            card = resolved.card
            if card is None:
                continue
            if card.key not in wanted:
                ctx.add(
                    Violation(
                        "wrong-section",
                        f"{title}: {card.name} is not one of the {len(wanted)} required cards",
                        self.severity,
                        self.section,
                        card.name,
                        resolved.entry.line,
                        None,
                        None,
                        self.cite,
                    )
                )
                continue
            seen[card.key] = seen.get(card.key, 0) + resolved.entry.count
            first_line.setdefault(card.key, resolved.entry.line)
        for key, name in wanted.items():
            copies = seen.get(key, 0)
            if copies == 0:
                ctx.add(
                    Violation(
                        self.violation_code,
                        f"{title}: {name} is missing",
                        self.severity,
                        self.section,
                        name,
                        None,
                        0,
                        1,
                        self.cite,
                    )
                )
            elif copies > 1:
                ctx.add(
                    Violation(
                        "copy-limit",
                        f"{title}: {copies} copies of {name}, exactly 1 required",
                        self.severity,
                        self.section,
                        name,
                        first_line.get(key),
                        copies,
                        1,
                        self.cite,
                    )
                )


@rule_kind("element-coverage")
class ElementCoverage(RuleBase):
    """Cards whose elements (or cost symbols) nothing in the deck provides."""

    kind: Literal["element-coverage"]
    demand_sections: list[str]
    demand_field: str
    demand_types: list[str] = []
    supply_sections: list[str]
    supply_field: str
    supply_types: list[str] = []
    supply_positive: str | None = None
    wildcard: str | None = None

    default_code: ClassVar[str] = "uncastable"

    def describe(self) -> str:
        demand, supply = ", ".join(self.demand_sections), ", ".join(self.supply_sections)
        return f"{self.demand_field} of {demand} cards provided by {self.supply_field} in {supply}"

    def check(self, ctx: RuleContext) -> None:
        supply: set[str] = set()
        suppliers = 0
        supply_types = self.supply_types
        positive = self.supply_positive
        for section in self.supply_sections:
            for resolved in ctx.sections.get(section, ()):
                card = resolved.card
                if card is None or (supply_types and card.type not in supply_types):
                    continue
                if positive and not (card.data.get(positive) or 0) > 0:
                    continue
                suppliers += 1
                supply.update(card.values(self.supply_field))
        if not suppliers or (self.wildcard and self.wildcard in supply):
            return
        if self.wildcard:
            supply.add(self.wildcard)
        demand_types = self.demand_types
        for section in self.demand_sections:
            for resolved in ctx.sections.get(section, ()):
                card = resolved.card
                if card is None or (demand_types and card.type not in demand_types):
                    continue
                needed = card.values(self.demand_field)
                if needed <= supply:
                    continue
                missing = ", ".join(sorted(needed - supply))
                ctx.add(
                    Violation(
                        self.violation_code,
                        f"{card.name} needs {missing}, which nothing in {_where(ctx, self.supply_sections)} provides",
                        self.severity,
                        section,
                        card.name,
                        resolved.entry.line,
                        None,
                        None,
                        self.cite,
                    )
                )

"""The registration-sheet model: what every tournament decklist export prints.

``build_sheet(deck, fmt, pool, report, overrides)`` lays a deck out by its game's
sections (the format's sections, in the format's order, empty ones included so the
sheet always shows where the Side Deck would go), with card names spelled as the card
store spells them, each card's type and cost in the game's own terms, section totals,
the player/event/date/deck-name header, and the legality verdict with its violations.
The writers (:mod:`deckcli.export.writers`, :mod:`deckcli.export.html`,
:mod:`deckcli.export.pdf`) only render a :class:`Sheet`.

Rows of the same card in one section are merged (a sheet lists each card once, with
its quantity); rows keep file order unless a sort is asked for.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from deckcli.cards.display import summarize
from deckcli.cards.pool import CardPool, PoolCard
from deckcli.cards.store import StoredCard
from deckcli.decks.model import Deck
from deckcli.errors import DeckcliError
from deckcli.rules.formats import Format
from deckcli.rules.report import Report, Violation
from deckcli.rules.validate import map_sections

#: what each game calls the cost column (a game absent here has no cost on its sheet)
COST_LABELS: dict[str, str] = {
    "elestrals": "Cost",
    "elekin": "Cost",
    "aestery": "Cost",
    "elemental-clash": "Level",
}
#: the orders ``--sort`` offers; None keeps file order
SORT_KEYS = ("name", "type", "cost")


class ExportError(DeckcliError):
    """An export that cannot be made (bad option, illegal deck, existing output)."""


@dataclass(frozen=True)
class SheetOverrides:
    """Header fields given on the command line; each replaces the deck file's value."""

    player: str | None = None
    event: str | None = None
    date: str | None = None
    deck_name: str | None = None


@dataclass(frozen=True)
class SheetRow:
    """One card line: quantity, canonical name, type and cost as the game prints them."""

    qty: int
    name: str
    type: str
    cost: str
    #: False for a name no card of the game has (printed as written)
    known: bool = True
    #: a number to order by cost (None: no cost)
    cost_value: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON object."""
        return {"qty": self.qty, "name": self.name, "type": self.type, "cost": self.cost, "known": self.known}


@dataclass
class SheetSection:
    """One section of the sheet (Main Deck, Spirit Deck, Side Deck, ...)."""

    id: str
    title: str
    rows: list[SheetRow] = field(default_factory=list)
    #: the size the format asks for, as printed ("40", "40-60", "up to 12", "")
    required: str = ""

    @property
    def total(self) -> int:
        """Total copies in the section."""
        return sum(row.qty for row in self.rows)

    def to_json(self) -> dict[str, Any]:
        """The section as a JSON object."""
        return {
            "id": self.id,
            "title": self.title,
            "required": self.required,
            "total": self.total,
            "rows": [row.to_json() for row in self.rows],
        }


@dataclass
class Sheet:
    """Everything a registration sheet shows, independent of the output form."""

    game: str
    game_name: str
    format_id: str
    format_name: str
    sections: list[SheetSection]
    legal: bool
    violations: list[Violation] = field(default_factory=list)
    player: str | None = None
    event: str | None = None
    date: str | None = None
    deck_name: str | None = None
    #: header of the cost column, or None when the game's cards have no cost
    cost_label: str | None = None
    source: str | None = None

    @property
    def total(self) -> int:
        """Total copies on the sheet."""
        return sum(section.total for section in self.sections)

    @property
    def errors(self) -> list[Violation]:
        """The violations that make the deck not legal."""
        return [v for v in self.violations if v.severity == "error"]

    @property
    def warnings(self) -> list[Violation]:
        """The violations that are only warnings."""
        return [v for v in self.violations if v.severity == "warning"]

    def fields(self) -> list[tuple[str, str]]:
        """The header fields in print order: (label, value, empty when unknown)."""
        return [
            ("Player", self.player or ""),
            ("Event", self.event or ""),
            ("Date", self.date or ""),
            ("Deck name", self.deck_name or ""),
        ]

    def totals_line(self) -> str:
        """``Main Deck 40 · Spirit Deck 20 · Side Deck 0 · Total 60``."""
        parts = [f"{s.title} {s.total}" for s in self.sections]
        return " · ".join([*parts, f"Total {self.total}"])

    def to_json(self) -> dict[str, Any]:
        """The full sheet as a JSON object (the ``json`` export)."""
        return {
            "sheet": "deck-registration",
            "game": self.game,
            "game_name": self.game_name,
            "format": self.format_id,
            "format_name": self.format_name,
            "player": self.player,
            "event": self.event,
            "date": self.date,
            "deck_name": self.deck_name,
            "source": self.source,
            "legal": self.legal,
            "cost_label": self.cost_label,
            "sections": [s.to_json() for s in self.sections],
            "totals": {**{s.id: s.total for s in self.sections}, "total": self.total},
            "violations": [v.to_json() for v in self.violations],
        }


def _required(fmt: Format, section_id: str) -> str:
    """The size the format asks of a section, in words for the sheet."""
    spec = fmt.section(section_id)
    if spec is None:
        return ""
    low, high = spec.min, spec.max
    if low is not None and low == high:
        text = str(low)
    elif low is not None and high is not None:
        text = f"{low}-{high}"
    elif high is not None:
        text = f"up to {high}"
    elif low is not None:
        text = f"at least {low}"
    else:
        text = ""
    return f"{text} or none" if spec.optional and low else text


def _cost_value(data: dict[str, Any]) -> float | None:
    cost = data.get("cost")
    if isinstance(cost, list):
        return float(len(cost))
    if isinstance(cost, int | float) and not isinstance(cost, bool):
        return float(cost)
    level = data.get("level")
    return float(level) if isinstance(level, int | float) and not isinstance(level, bool) else None


def _row(qty: int, card: PoolCard | None, written: str, game: str, with_cost: bool) -> SheetRow:
    if card is None:
        return SheetRow(qty, written, "?", "", known=False)
    summary = summarize(StoredCard(game, card.name, card.type, card.data))
    type_text = summary.type[:1].upper() + summary.type[1:]
    cost = summary.cost if with_cost else ""
    spirits = card.data.get("cost")
    if with_cost and game == "elestrals" and isinstance(spirits, list) and spirits:
        # "3 (lunar×2, wind)": the Spirits a card costs, compact enough for a sheet column
        counts: dict[str, int] = {}
        for spirit in map(str, spirits):
            counts[spirit] = counts.get(spirit, 0) + 1
        cost = f"{len(spirits)} ({', '.join(e if n == 1 else f'{e}×{n}' for e, n in counts.items())})"
    return SheetRow(qty, card.name, type_text, cost, True, _cost_value(card.data))


def _homes(fmt: Format) -> dict[str, str]:
    """Card type -> the one section other than main/side taking it (as validation places header-less cards)."""
    homes: dict[str, str] = {}
    for spec in fmt.sections:
        if spec.id in ("main", "side") or spec.types is None:
            continue
        for card_type in spec.types:
            homes[card_type] = spec.id if card_type not in homes else ""
    return {t: h for t, h in homes.items() if h}


def sort_rows(rows: list[SheetRow], sort: str | None) -> list[SheetRow]:
    """``rows`` ordered by ``sort`` (name, type or cost; ties by name); None keeps them."""
    if sort is None:
        return list(rows)
    if sort == "name":
        return sorted(rows, key=lambda r: r.name.casefold())
    if sort == "type":
        return sorted(rows, key=lambda r: (r.type.casefold(), r.name.casefold()))
    if sort == "cost":
        return sorted(rows, key=lambda r: (r.cost_value is None, r.cost_value or 0.0, r.name.casefold()))
    raise ExportError(f"unknown sort '{sort}'", hint=f"valid sorts: {', '.join(SORT_KEYS)}")


def build_sheet(
    deck: Deck,
    fmt: Format,
    pool: CardPool,
    report: Report,
    overrides: SheetOverrides | None = None,
    *,
    sort: str | None = None,
    today: dt.date | None = None,
) -> Sheet:
    """The registration sheet of ``deck`` under ``fmt``, with ``report``'s verdict.

    Header fields come from ``overrides`` first, then the deck file; the date defaults
    to ``today`` (the current date). Card names take the store's spelling.
    """
    from deckcli.games import find_game

    overrides = overrides or SheetOverrides()
    cost_label = COST_LABELS.get(fmt.game)
    sections: dict[str, SheetSection] = {
        spec.id: SheetSection(spec.id, spec.title, required=_required(fmt, spec.id)) for spec in fmt.sections
    }
    positions: dict[tuple[str, str], int] = {}
    mapping = map_sections(fmt, deck)
    homes = _homes(fmt)
    allowed = {s.id: set(s.types) if s.types is not None else None for s in fmt.sections}
    for deck_section, entries in deck.sections.items():
        target = mapping.get(deck_section)
        for entry in entries:
            card = pool.find(entry.name)
            home = target
            if home is None:
                # a section the format lacks: printed under its own heading (the deck is not legal)
                home = f"extra:{deck_section}"
                if home not in sections:
                    title = deck_section.replace("_", " ").title()
                    sections[home] = SheetSection(home, f"{title} (not a {fmt.name} section)")
            elif (
                entry.implicit
                and card is not None
                and card.type in homes
                and (allowed.get(home) is not None and card.type not in (allowed.get(home) or set()))
            ):
                home = homes[card.type]
            row = _row(entry.count, card, entry.name, fmt.game, cost_label is not None)
            key = (home, card.key if card is not None else entry.name.casefold())
            bucket = sections[home].rows
            if key in positions:
                index = positions[key]
                bucket[index] = SheetRow(
                    bucket[index].qty + row.qty, row.name, row.type, row.cost, row.known, row.cost_value
                )
            else:
                positions[key] = len(bucket)
                bucket.append(row)
    for section in sections.values():
        section.rows = sort_rows(section.rows, sort)
    try:
        game_name = find_game(fmt.game).name
    except DeckcliError:
        game_name = fmt.game
    return Sheet(
        game=fmt.game,
        game_name=game_name,
        format_id=fmt.id,
        format_name=fmt.name,
        sections=list(sections.values()),
        legal=report.valid,
        violations=list(report.violations),
        player=overrides.player or deck.player,
        event=overrides.event or deck.event,
        date=overrides.date or deck.date or (today or dt.date.today()).isoformat(),
        deck_name=overrides.deck_name or deck.name,
        cost_label=cost_label,
        source=deck.source,
    )


def violation_lines(sheet: Sheet, limit: int | None = None) -> list[str]:
    """The sheet's errors as printable lines (``code: message``), at most ``limit`` plus a "more" line."""
    errors = sheet.errors
    shown = errors if limit is None or len(errors) <= limit else errors[: limit - 1]
    lines = [f"{v.code}: {v.message}" for v in shown]
    if len(shown) < len(errors):
        lines.append(f"... and {len(errors) - len(shown)} more (deckcli validate lists them all)")
    return lines

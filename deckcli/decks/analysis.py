"""What a deck holds, the way players break it down (``deckcli deck show``).

:func:`analyze` takes a deck and its game's card pool and returns a
:class:`DeckAnalysis`: the cards grouped by section and card type, and, for the main
deck, the cost curve, the elements (colours), the card types, the average cost and the
game's own resources:

- Elestrals: Spirits of each element in the Spirit Deck against the cost symbols of
  that element in the Main Deck (``omni`` symbols take any Spirit);
- Elekin: essence generated per element (each creature's generation times its copies,
  credited to each of its elements) against summoning costs by element (likewise);
- Aestery: total and average pitch value and how many cards pitch for 1, 2 and 3;
- Elemental Clash: basic element-stones per element they produce against the levels of
  the cards of that element (special stones are counted apart);
- Elemystic: the stats of the nine elements.

Costs are a number per card: the count of Spirits in an Elestrals cost, an Elekin or
Aestery cost, an Elemental Clash level. Cards the pool does not know are listed in
``unknown`` and left out of every number.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from deckcli.cards.display import summarize
from deckcli.cards.pool import CardPool, PoolCard
from deckcli.cards.store import StoredCard
from deckcli.decks.edit import PlacedEntry, SectionLayout, place_entries
from deckcli.decks.model import Deck

#: what each game calls the number the curve counts
COST_LABELS = {"elestrals": "Spirits", "elemental-clash": "level"}


@dataclass
class CardRow:
    """One entry of a section, described in its game's terms."""

    count: int
    name: str
    type: str
    #: type with subtype/tier, e.g. "rune (invoke)"
    type_label: str = ""
    cost: str = ""
    elements: str = ""
    stats: str = ""
    flags: str = ""
    known: bool = True


@dataclass
class TypeGroup:
    """The cards of one type in a section (``unknown`` for cards the pool lacks)."""

    type: str
    count: int
    cards: list[CardRow]


@dataclass
class SectionView:
    """A section: its title, size and cards by type."""

    id: str
    title: str
    count: int
    groups: list[TypeGroup]


@dataclass
class UnknownCard:
    """An entry naming no card of the game, with "did you mean" suggestions."""

    section: str
    count: int
    name: str
    line: int | None
    suggestions: list[str]


@dataclass
class ElementBalance:
    """Resources of one element: what the deck provides against what it needs."""

    element: str
    #: Spirits / essence generated / basic stones of the element
    supply: int
    #: cost symbols / summoning costs / levels of the element
    demand: int
    #: copies of main-deck cards that need the element
    cards: int


@dataclass
class ElementStats:
    """One Elemystic element card's stats."""

    name: str
    strength: int | None
    defense: int | None
    invocation_strength: int | None
    invocation_defense: int | None
    speed: int | None
    provisional: bool


@dataclass
class Resources:
    """The game's own resource breakdown; only the fields of the deck's game are filled."""

    kind: str
    supply_label: str = ""
    demand_label: str = ""
    balance: list[ElementBalance] = field(default_factory=list)
    pitch_total: int = 0
    pitch_average: float | None = None
    #: pitch value -> copies
    pitch_distribution: dict[int, int] = field(default_factory=dict)
    #: element-stones that are not basic (they produce no element)
    other_stones: int = 0
    elements: list[ElementStats] = field(default_factory=list)


@dataclass
class DeckAnalysis:
    """Everything ``deckcli deck show`` prints about a deck."""

    game: str
    deck: str
    sections: list[SectionView]
    total: int
    #: the section the statistics describe (the Main Deck; Elemystic's Elements)
    main_section: str
    main_count: int
    cost_label: str
    #: cost -> copies, for main-deck cards that have a cost
    curve: dict[int, int]
    #: main-deck copies without a cost (Elekin runes, element-stones, ...)
    uncosted: int
    average_cost: float | None
    #: element or colour -> copies (a card of two elements counts for both)
    elements: dict[str, int]
    #: card type -> copies
    types: dict[str, int]
    resources: Resources
    unknown: list[UnknownCard]

    def to_json(self) -> dict[str, Any]:
        """The analysis as plain JSON data."""
        return asdict(self)


def _number(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def card_cost(game: str, card: PoolCard) -> int | None:
    """The number a card's cost counts as on the curve, or None if it has none."""
    data = card.data
    if game == "elestrals":
        return len(data["cost"]) if card.type != "spirit" and isinstance(data.get("cost"), list) else None
    if game == "elemental-clash":
        return None if card.type == "element-stone" else _number(data.get("level"))
    if game == "elemystic":
        return None
    return _number(data.get("cost"))


def card_elements(game: str, card: PoolCard) -> list[str]:
    """The elements (Aestery: colours, or ``colourless``) a card is of."""
    data = card.data
    if game == "aestery":
        return [str(c) for c in data.get("colors") or []] or ["colourless"]
    if game == "elemental-clash":
        return [str(data["element"])] if data.get("element") else []
    if game == "elemystic":
        return []
    return [str(e) for e in data.get("elements") or []]


def _row(game: str, item: PlacedEntry, card: PoolCard | None) -> CardRow:
    entry = item.entry
    if card is None:
        return CardRow(entry.count, entry.name, "unknown", "unknown", known=False)
    summary = summarize(StoredCard(game, card.name, card.type, card.data))
    return CardRow(
        entry.count, card.name, card.type, summary.type, summary.cost, summary.elements, summary.stats, summary.flags
    )


def _sort_balance(rows: dict[str, ElementBalance], last: tuple[str, ...] = ()) -> list[ElementBalance]:
    return sorted(rows.values(), key=lambda r: (r.element in last, -r.demand, -r.supply, r.element))


def _balance(rows: dict[str, ElementBalance], element: str) -> ElementBalance:
    if element not in rows:
        rows[element] = ElementBalance(element, 0, 0, 0)
    return rows[element]


Copies = list[tuple[int, PoolCard]]


def _resources(game: str, main: Copies, by_section: dict[str, Copies]) -> Resources:
    rows: dict[str, ElementBalance] = {}
    if game == "elestrals":
        for count, card in by_section.get("spirit", []):
            if card.type == "spirit" and card.data.get("element"):
                _balance(rows, str(card.data["element"])).supply += count
        for count, card in main:
            symbols = [str(symbol) for symbol in card.data.get("cost") or []] if card.type != "spirit" else []
            for symbol, needed in Counter(symbols).items():
                row = _balance(rows, symbol)
                row.demand += needed * count
                row.cards += count
        return Resources(
            "spirits", "Spirits in the Spirit Deck", "cost symbols in the Main Deck", _sort_balance(rows, ("omni",))
        )
    if game == "elekin":
        for count, card in main:
            if card.type != "creature":
                continue
            generation = _number(card.data.get("generation")) or 0
            cost = _number(card.data.get("cost")) or 0
            for element in card_elements(game, card):
                row = _balance(rows, element)
                row.supply += generation * count
                row.demand += cost * count
                row.cards += count
        return Resources(
            "essence", "essence generated (generation x copies)", "summoning costs (cost x copies)", _sort_balance(rows)
        )
    if game == "aestery":
        distribution: Counter[int] = Counter()
        for count, card in main:
            pitch = _number(card.data.get("pitch"))
            if pitch is not None:
                distribution[pitch] += count
        copies = sum(distribution.values())
        total = sum(pitch * n for pitch, n in distribution.items())
        return Resources(
            "pitch",
            pitch_total=total,
            pitch_average=total / copies if copies else None,
            pitch_distribution=dict(sorted(distribution.items())),
        )
    if game == "elemental-clash":
        other = 0
        for count, card in main:
            if card.type == "element-stone":
                if card.data.get("basic") and card.data.get("produces"):
                    _balance(rows, str(card.data["produces"])).supply += count
                else:
                    other += count
                continue
            level = _number(card.data.get("level"))
            for element in card_elements(game, card):
                row = _balance(rows, element)
                row.demand += (level or 0) * count
                row.cards += count
        return Resources(
            "stones", "basic element-stones", "levels (level x copies)", _sort_balance(rows), other_stones=other
        )
    if game == "elemystic":
        stats = [
            ElementStats(
                card.name,
                _number(card.data.get("strength")),
                _number(card.data.get("defense")),
                _number(card.data.get("invocation_strength")),
                _number(card.data.get("invocation_defense")),
                _number(card.data.get("speed")),
                "provisional" in card.flags,
            )
            for _, card in main
            if card.type == "element"
        ]
        return Resources("elements", elements=stats)
    return Resources("none")


def analyze(deck: Deck, pool: CardPool, layout: SectionLayout | None = None) -> DeckAnalysis:
    """The breakdown of ``deck`` using the cards of ``pool`` (its game's).

    ``layout`` gives the format's sections (titles, header words, where header-less
    cards go); without it every known section is used under its default title.
    """
    game = pool.game_id
    layout = layout or SectionLayout.default()
    placed = place_entries(deck, layout, pool)
    order = layout.ids + [p.section for p in placed if p.section not in layout.ids]
    views: dict[str, dict[str, TypeGroup]] = {}
    by_section: dict[str, Copies] = {}
    unknown: list[UnknownCard] = []
    for item in placed:
        card = pool.find(item.entry.name)
        row = _row(game, item, card)
        groups = views.setdefault(item.section, {})
        group = groups.setdefault(row.type, TypeGroup(row.type, 0, []))
        group.count += row.count
        group.cards.append(row)
        if card is None:
            unknown.append(
                UnknownCard(
                    item.section, item.entry.count, item.entry.name, item.entry.line, pool.suggest(item.entry.name)
                )
            )
        else:
            by_section.setdefault(item.section, []).append((item.entry.count, card))
    sections = [
        SectionView(
            section, layout.title(section), sum(g.count for g in views[section].values()), list(views[section].values())
        )
        for section in dict.fromkeys(order)
        if section in views
    ]
    main_id = "main" if layout.get("main") is not None else layout.sections[0].id
    if main_id not in views and "elements" in views:
        main_id = "elements"
    main = by_section.get(main_id, [])
    curve: Counter[int] = Counter()
    uncosted = 0
    elements: Counter[str] = Counter()
    types: Counter[str] = Counter()
    for count, card in main:
        cost = card_cost(game, card)
        if cost is None:
            uncosted += count
        else:
            curve[cost] += count
        for element in card_elements(game, card):
            elements[element] += count
        types[card.type] += count
    costed = sum(curve.values())
    average = sum(cost * n for cost, n in curve.items()) / costed if costed else None
    return DeckAnalysis(
        game=game,
        deck=deck.label,
        sections=sections,
        total=sum(s.count for s in sections),
        main_section=main_id,
        main_count=sum(count for count, _ in main) + sum(u.count for u in unknown if u.section == main_id),
        cost_label=COST_LABELS.get(game, "cost"),
        curve=dict(sorted(curve.items())),
        uncosted=uncosted,
        average_cost=average,
        elements=dict(sorted(elements.items(), key=lambda kv: (-kv[1], kv[0]))),
        types=dict(sorted(types.items(), key=lambda kv: (-kv[1], kv[0]))),
        resources=_resources(game, main, by_section),
        unknown=unknown,
    )

"""Page layout shared by the printable sheets (PDF and HTML).

A sheet page is a fixed frame — title, header fields, (a NOT LEGAL banner), the card
area, and at the bottom the totals, the signature line and the judge box — with
heights in millimetres, so that the PDF and the HTML page lay out alike. The card
area holds the sections as *pieces* (a section, or the part of one that fits in a
column). :func:`plan` picks the largest font and the fewest columns that fit the
deck on one page: one column at the largest font, else two balanced columns at a
font shrunk step by step down to a readable minimum; only a deck too large even then
(never a legal one of the bundled games' sizes) flows onto more pages.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache

from deckcli.export.sheet import Sheet, SheetRow, SheetSection, violation_lines


@dataclass(frozen=True)
class Paper:
    """A paper size in millimetres, and its CSS ``@page`` name."""

    id: str
    label: str
    css: str
    width: float
    height: float


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", "A4", "A4", 210.0, 297.0),
    "letter": Paper("letter", "Letter", "letter", 215.9, 279.4),
}

MARGIN = 10.0
TITLE_H = 14.0
FIELD_H = 10.0
FIELDS_H = 2 * FIELD_H + 3.0
BANNER_BAR_H = 7.0
BANNER_LINE_H = 3.4
#: space between the banner and the card sections
BANNER_GAP = 2.5
#: most violation lines a NOT LEGAL banner prints (then "... and N more")
BANNER_MAX_LINES = 12
TOTALS_H = 7.0
SIGNATURE_H = 14.0
JUDGE_H = 19.0
FOOTER_H = TOTALS_H + SIGNATURE_H + JUDGE_H + 3.5
COLUMN_GAP = 6.0

#: card-area font sizes tried in turn (points); the last is the smallest allowed
FONT_STEPS = (9.0, 8.5, 8.0, 7.5, 7.0)
#: line height as a multiple of the font size
LINE_FACTOR = 1.45
PT_MM = 25.4 / 72

# Heights in card-row units.
HEADER_U = 1.35
COLHEAD_U = 0.9
TOTAL_U = 1.1
GAP_U = 0.7
#: a section starts a column only if its header and this many rows fit
MIN_ROWS = 3


def row_height(font: float) -> float:
    """Card-row height in millimetres for a font size in points."""
    return font * PT_MM * LINE_FACTOR


@dataclass(frozen=True)
class Piece:
    """A section, or the part of it that fits in one column."""

    section: SheetSection
    rows: tuple[SheetRow, ...]
    #: the section began in an earlier column ("continued" heading)
    continued: bool
    #: the section's total row ends this piece
    closes: bool

    @property
    def units(self) -> float:
        """Height in card-row units."""
        if not self.section.rows:
            return HEADER_U + 1 + TOTAL_U
        return HEADER_U + COLHEAD_U + len(self.rows) + (TOTAL_U if self.closes else 0)


Column = list[Piece]


def flow(sections: list[SheetSection], capacity: float) -> list[Column]:
    """The sections poured into columns of ``capacity`` row units, splitting long sections."""
    columns: list[Column] = [[]]
    used = 0.0

    def fresh() -> None:
        nonlocal used
        columns.append([])
        used = 0.0

    for section in sections:
        rows = tuple(section.rows)
        head = HEADER_U + COLHEAD_U
        first = head + min(max(len(rows), 1), MIN_ROWS) + (TOTAL_U if len(rows) <= MIN_ROWS else 0)
        if columns[-1] and used + GAP_U + first > capacity:
            fresh()
        if columns[-1]:
            used += GAP_U
        if not rows:
            piece = Piece(section, (), False, True)
            columns[-1].append(piece)
            used += piece.units
            continue
        start = 0
        continued = False
        while start < len(rows):
            remaining = len(rows) - start
            room = capacity - used - head
            if remaining + TOTAL_U <= room:
                take = remaining
            else:
                take = min(int(room), remaining - 1)
                if take < 1:
                    if columns[-1]:
                        fresh()
                        continue
                    take = min(remaining, max(int(room), 1))
            piece = Piece(section, rows[start : start + take], continued, start + take == len(rows))
            columns[-1].append(piece)
            used += piece.units
            start += take
            continued = True
            if start < len(rows):
                fresh()
    return [c for c in columns if c]


def _units(sections: list[SheetSection]) -> float:
    return sum(Piece(s, tuple(s.rows), False, True).units for s in sections) + GAP_U * max(len(sections) - 1, 0)


def balanced(sections: list[SheetSection], capacity: float) -> list[Column] | None:
    """Two columns as even as possible within ``capacity``, or None if two do not suffice."""
    if len(flow(sections, capacity)) > 2:
        return None
    low, high = _units(sections) / 2, capacity
    for _ in range(24):
        middle = (low + high) / 2
        if len(flow(sections, middle)) <= 2:
            high = middle
        else:
            low = middle
    return flow(sections, high)


@dataclass(frozen=True)
class Layout:
    """How a sheet goes onto paper: font, row height, and the columns of each page."""

    paper: Paper
    font: float
    row_h: float
    #: columns across the page (1 or 2)
    across: int
    #: per page, its columns of pieces
    pages: list[list[Column]]
    banner: list[str]

    @property
    def content_width(self) -> float:
        """Width inside the margins, in millimetres."""
        return self.paper.width - 2 * MARGIN

    @property
    def column_width(self) -> float:
        """Width of one card column, in millimetres."""
        return (self.content_width - COLUMN_GAP * (self.across - 1)) / self.across

    @property
    def banner_h(self) -> float:
        """Height of the NOT LEGAL banner (0 for a legal deck)."""
        return banner_height(self.banner)


def banner_height(lines: list[str] | None) -> float:
    """Height in millimetres of a NOT LEGAL banner with ``lines`` (None: no banner)."""
    if lines is None:
        return 0.0
    return BANNER_BAR_H + BANNER_LINE_H * len(lines) + 3.0 + BANNER_GAP


def card_area(paper: Paper, banner: list[str] | None) -> float:
    """Height in millimetres left for the card sections."""
    return paper.height - 2 * MARGIN - TITLE_H - FIELDS_H - banner_height(banner) - FOOTER_H


def plan(sheet: Sheet, paper_id: str = "a4") -> Layout:
    """The layout of ``sheet`` on ``paper_id`` paper (a4 or letter)."""
    paper = PAPERS[paper_id]
    banner = None if sheet.legal else violation_lines(sheet, BANNER_MAX_LINES)
    area = card_area(paper, banner)
    sections = sheet.sections
    for font in FONT_STEPS:
        row_h = row_height(font)
        capacity = area / row_h
        columns = flow(sections, capacity)
        if len(columns) == 1 and font == FONT_STEPS[0]:
            return Layout(paper, font, row_h, 1, [columns], banner or [])
        two = balanced(sections, capacity)
        if two is not None:
            return Layout(paper, font, row_h, 2, [two], banner or [])
    font = FONT_STEPS[-1]
    row_h = row_height(font)
    columns = flow(sections, area / row_h)
    pages = [columns[i : i + 2] for i in range(0, len(columns), 2)]
    return Layout(paper, font, row_h, 2, pages, banner or [])


# -- text: Latin-1 for core PDF fonts, and Helvetica metrics ------------------------------

_PUNCTUATION = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
    "\u2026": "...", "\u2022": "\u00b7", "\u2192": "->", "\u2264": "<=", "\u2265": ">=",
    "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u2713": "v", "\u2714": "v", "\u2718": "x",
    # letters without a decomposition
    "\u0141": "L", "\u0142": "l", "\u0110": "D", "\u0111": "d", "\u0152": "OE", "\u0153": "oe", "\u0131": "i",
    "\u0126": "H", "\u0127": "h", "\u0166": "T", "\u0167": "t", "\u014a": "N", "\u014b": "n",
}  # fmt: skip


def latin1_text(text: str) -> str:
    """``text`` in Latin-1 for a core PDF font: plain punctuation, foreign accents dropped, '?' last.

    ``Arachne’s Lair`` becomes ``Arachne's Lair``; Latin-1 letters (é, ö) stay as they are.
    """
    out: list[str] = []
    for char in text:
        if ord(char) < 256:
            out.append(char)
        elif char in _PUNCTUATION:
            out.append(_PUNCTUATION[char])
        else:
            base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
            out.append(base if base and all(ord(c) < 256 for c in base) else "?")
    return "".join(out)


@cache
def _metrics(bold: bool) -> dict[str, int]:
    from fpdf.fonts import CORE_FONTS_CHARWIDTHS

    widths: dict[str, int] = CORE_FONTS_CHARWIDTHS["helveticaB" if bold else "helvetica"]
    return widths


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width in millimetres of ``text`` set in Helvetica (Arial) at ``size`` points."""
    widths = _metrics(bold)
    return sum(widths.get(c, 556) for c in latin1_text(text)) * size / 1000 * PT_MM


def fit_size(text: str, width: float, size: float, bold: bool = False, floor: float = 0.72) -> float | None:
    """The largest font size from ``size`` down to ``floor`` × ``size`` (in 0.25 pt steps) at which
    ``text`` fits ``width`` millimetres, or None when even the smallest does not."""
    current = size
    while current >= size * floor - 1e-9:
        if text_width(text, current, bold) <= width:
            return current
        current -= 0.25
    return None


#: horizontal padding inside a table cell, each side (mm)
CELL_PAD = 1.0


@dataclass(frozen=True)
class Widths:
    """Card-table column widths in millimetres (cost 0 when the game has none)."""

    qty: float
    name: float
    type: float
    cost: float


def column_widths(sheet: Sheet, layout: Layout) -> Widths:
    """Qty, name, type and cost widths, the same in every column of the sheet.

    Each column gets the width its longest text needs; when a column of the page is too
    narrow for all of them, name, type and cost give up width in proportion, and the
    longest texts are then set in a smaller font (see :func:`fit_size`). Type and cost
    are set half a point smaller than names.
    """
    column = layout.column_width
    pad = 2 * CELL_PAD + 0.4
    small = layout.font - 0.5
    rows = [r for s in sheet.sections for r in s.rows]
    qty = max(8.0, text_width("Qty", layout.font, True) + pad + 1)
    name = max([text_width(r.name, layout.font) for r in rows] + [text_width("Card Name", layout.font)]) + pad
    type_ = max([text_width(r.type, small) for r in rows] + [text_width("Type", small)]) + pad
    cost = 0.0
    if sheet.cost_label:
        cost = max([text_width(r.cost, small) for r in rows] + [text_width(sheet.cost_label, small)]) + pad
    room = column - qty
    if name + type_ + cost > room:
        scale = room / (name + type_ + cost)
        type_ *= scale
        cost *= scale
    return Widths(qty, room - type_ - cost, type_, cost)

"""The PDF registration sheet, drawn with fpdf2 and its core Helvetica font.

Core PDF fonts cover Latin-1 only, so every string goes through :func:`pdf_text`,
which maps typographic punctuation to its plain form (’ → ', “ → ", – → -, … → ...)
and strips accents only from letters outside Latin-1 (é stays é); card names stay
recognisable and nothing is embedded, so the file stays small. fpdf is imported
inside :func:`render_pdf` only (``deckcli --help`` does not load it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckcli.export.layout import (
    BANNER_BAR_H,
    BANNER_GAP,
    BANNER_LINE_H,
    CELL_PAD,
    COLHEAD_U,
    COLUMN_GAP,
    FIELD_H,
    FIELDS_H,
    FOOTER_H,
    HEADER_U,
    JUDGE_H,
    MARGIN,
    SIGNATURE_H,
    TITLE_H,
    TOTAL_U,
    Column,
    Layout,
    Piece,
    column_widths,
    latin1_text,
    plan,
)
from deckcli.export.sheet import Sheet

if TYPE_CHECKING:
    from fpdf import FPDF

_GREY = (110, 110, 110)
_LIGHT = (232, 232, 232)
_RULE = (190, 190, 190)
_RED = (190, 20, 20)


#: every string drawn goes through this (core fonts are Latin-1)
pdf_text = latin1_text


class _Painter:
    """Draws one sheet with one layout."""

    def __init__(self, pdf: FPDF, sheet: Sheet, layout: Layout) -> None:
        self.pdf = pdf
        self.sheet = sheet
        self.layout = layout
        self.paper = layout.paper
        self.width = layout.content_width
        self.row_h = layout.row_h
        self.font = layout.font
        self._widths()

    # -- helpers -------------------------------------------------------------------

    def set_font(self, size: float, style: str = "", color: tuple[int, int, int] = (0, 0, 0)) -> None:
        self.pdf.set_font("helvetica", style, size)
        self.pdf.set_text_color(*color)

    def text_width(self, text: str) -> float:
        return float(self.pdf.get_string_width(pdf_text(text)))

    def fitted(self, text: str, width: float, size: float, style: str = "", floor: float = 0.72) -> tuple[str, float]:
        """``text`` and a font size (down to ``floor`` × ``size``) so that it fits ``width``; else cut with '...'."""
        text = pdf_text(text)
        current = size
        self.pdf.set_font("helvetica", style, current)
        while self.pdf.get_string_width(text) > width and current > size * floor:
            current -= 0.25
            self.pdf.set_font("helvetica", style, current)
        if self.pdf.get_string_width(text) > width:
            while text and self.pdf.get_string_width(text + "...") > width:
                text = text[:-1]
            text += "..."
        return text, current

    def cell(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        text: str,
        size: float,
        style: str = "",
        align: str = "L",
        color: tuple[int, int, int] = (0, 0, 0),
        fit: bool = True,
    ) -> None:
        pad = 2 * self.pdf.c_margin
        if fit:
            text, size = self.fitted(text, w - pad, size, style)
        else:
            text = pdf_text(text)
        self.set_font(size, style, color)
        self.pdf.set_xy(x, y)
        self.pdf.cell(w=w, h=h, text=text, align=align)

    def hline(self, x: float, y: float, w: float, color: tuple[int, int, int] = _RULE, width: float = 0.2) -> None:
        self.pdf.set_draw_color(*color)
        self.pdf.set_line_width(width)
        self.pdf.line(x, y, x + w, y)

    def _widths(self) -> None:
        widths = column_widths(self.sheet, self.layout)
        self.qty_w, self.name_w, self.type_w, self.cost_w = widths.qty, widths.name, widths.type, widths.cost

    # -- parts -----------------------------------------------------------------------

    def title(self, page: int, pages: int) -> float:
        sheet, x, y = self.sheet, MARGIN, MARGIN
        self.cell(x, y, self.width * 0.6, 8, "DECK REGISTRATION SHEET", 16, "B", fit=False)
        self.cell(x + self.width * 0.5, y, self.width * 0.5, 8, sheet.game_name, 12, "B", "R")
        suffix = f" - page {page} of {pages}" if pages > 1 else ""
        self.cell(x, y + 8, self.width * 0.7, 4.5, f"Format: {sheet.format_name}{suffix}", 8, color=_GREY)
        paper = self.paper.label
        note = f"{paper} - one sheet per player"
        self.cell(x + self.width * 0.7, y + 8, self.width * 0.3, 4.5, note, 7, "", "R", _GREY)
        self.hline(x, y + TITLE_H - 1.2, self.width, (0, 0, 0), 0.6)
        return y + TITLE_H

    def fields(self, y: float) -> float:
        half = self.width / 2
        for index, (label, value) in enumerate(self.sheet.fields()):
            x = MARGIN + (index % 2) * half
            top = y + (index // 2) * FIELD_H
            self.pdf.set_draw_color(0, 0, 0)
            self.pdf.set_line_width(0.3)
            self.pdf.rect(x, top, half, FIELD_H)
            self.cell(x + 0.5, top + 0.4, half - 1, 3.4, label.upper(), 6.5, "B", color=_GREY)
            self.cell(x + 0.5, top + 3.8, half - 1, 5.8, value, 11, "B")
        return y + FIELDS_H

    def banner(self, y: float) -> float:
        lines = self.layout.banner
        if not lines:
            return y
        errors = len(self.sheet.errors)
        self.pdf.set_fill_color(*_RED)
        self.pdf.rect(MARGIN, y, self.width, BANNER_BAR_H, style="F")
        text = f"NOT LEGAL - this deck breaks the format's rules ({errors} error{'s' if errors != 1 else ''})"
        self.cell(MARGIN + 1, y, self.width - 2, BANNER_BAR_H, text, 11, "B", color=(255, 255, 255))
        self.pdf.set_draw_color(*_RED)
        self.pdf.set_line_width(0.4)
        height = BANNER_LINE_H * len(lines) + 3.0
        self.pdf.rect(MARGIN, y + BANNER_BAR_H, self.width, height)
        for index, line in enumerate(lines):
            self.cell(
                MARGIN + 1.5,
                y + BANNER_BAR_H + 1.5 + index * BANNER_LINE_H,
                self.width - 3,
                BANNER_LINE_H,
                f"- {line}",
                7.5,
                color=_RED,
            )
        return y + BANNER_BAR_H + height + BANNER_GAP

    def column(self, x: float, y: float, pieces: Column) -> None:
        for index, piece in enumerate(pieces):
            if index:
                y += self.row_h * 0.7
            y = self.piece(x, y, piece)

    def piece(self, x: float, y: float, piece: Piece) -> float:
        sheet, rh, font = self.sheet, self.row_h, self.font
        width = self.layout.column_width
        section = piece.section
        head_h = rh * HEADER_U
        self.pdf.set_fill_color(*_LIGHT)
        self.pdf.rect(x, y, width, head_h, style="F")
        title = section.title.upper() + (" (continued)" if piece.continued else "")
        self.cell(x, y, width * 0.7, head_h, title, font + 0.5, "B")
        if section.required:
            self.cell(
                x + width * 0.6, y, width * 0.4, head_h, f"required: {section.required}", font - 1.5, "", "R", _GREY
            )
        y += head_h
        if not section.rows:
            self.cell(x + self.qty_w, y, self.name_w, rh, "(none)", font, "I", color=_GREY)
            y += rh
        else:
            col_h = rh * COLHEAD_U
            small = font - 1.5
            self.cell(x, y, self.qty_w, col_h, "Qty", small, "B", "C", _GREY)
            self.cell(x + self.qty_w, y, self.name_w, col_h, "Card Name", small, "B", color=_GREY)
            self.cell(x + self.qty_w + self.name_w, y, self.type_w, col_h, "Type", small, "B", color=_GREY)
            if sheet.cost_label:
                self.cell(x + width - self.cost_w, y, self.cost_w, col_h, sheet.cost_label, small, "B", color=_GREY)
            y += col_h
            self.hline(x, y, width, (0, 0, 0), 0.3)
            for row in piece.rows:
                self.cell(x, y, self.qty_w, rh, str(row.qty), font, "B", "C")
                name = row.name if row.known else f"{row.name} (unknown card)"
                self.cell(
                    x + self.qty_w,
                    y,
                    self.name_w,
                    rh,
                    name,
                    font,
                    "" if row.known else "I",
                    color=(0, 0, 0) if row.known else _RED,
                )
                self.cell(x + self.qty_w + self.name_w, y, self.type_w, rh, row.type, font - 0.5, color=(40, 40, 40))
                if sheet.cost_label:
                    self.cell(x + width - self.cost_w, y, self.cost_w, rh, row.cost, font - 0.5, color=(40, 40, 40))
                y += rh
                self.hline(x, y, width)
        if piece.closes:
            total_h = rh * TOTAL_U
            self.hline(x, y, width, (0, 0, 0), 0.3)
            self.cell(x, y, width, total_h, f"{section.title} total: {section.total}", font, "B", "R")
            y += total_h
        return y

    def footer(self, page: int, pages: int) -> None:
        sheet, x = self.sheet, MARGIN
        y = self.paper.height - MARGIN - FOOTER_H
        self.hline(x, y, self.width, (0, 0, 0), 0.6)
        self.cell(x, y + 1, self.width, 5, sheet.totals_line(), 9.5, "B")
        y += 7.0
        self.cell(
            x,
            y,
            self.width,
            4,
            "I certify that this decklist is complete and correct, and that I will play "
            "this deck exactly as registered.",
            7.5,
            color=_GREY,
        )
        self.cell(x, y + 5.5, 30, 6, "Player signature:", 9, "B")
        self.hline(x + 30, y + 11, self.width * 0.55 - 30, (0, 0, 0), 0.3)
        self.cell(x + self.width * 0.6, y + 5.5, 22, 6, "Table / seat:", 9, "B")
        self.hline(x + self.width * 0.6 + 22, y + 11, self.width * 0.4 - 22, (0, 0, 0), 0.3)
        y += SIGNATURE_H
        self.pdf.set_draw_color(0, 0, 0)
        self.pdf.set_line_width(0.5)
        self.pdf.rect(x, y, self.width, JUDGE_H)
        self.pdf.set_fill_color(*_LIGHT)
        self.pdf.rect(x, y, self.width, 4.2, style="FD")
        self.cell(x, y, self.width, 4.2, "JUDGE USE ONLY", 7.5, "B", "C")
        boxes = ("Deck check", "Penalties", "Round / time", "Judge initials")
        box_w = self.width / len(boxes)
        self.pdf.set_line_width(0.3)
        for index, label in enumerate(boxes):
            bx = x + index * box_w
            if index:
                self.pdf.line(bx, y + 4.2, bx, y + JUDGE_H)
            self.cell(bx + 0.5, y + 4.6, box_w - 1, 3.5, label, 7, "B", color=_GREY)
            if index == 0:
                for offset, word in ((0.0, "passed"), (box_w / 2, "problem")):
                    self.pdf.rect(bx + 2 + offset, y + 10.5, 3, 3)
                    self.cell(bx + 5.5 + offset, y + 10.2, box_w / 2 - 6, 3.6, word, 7)
        note = f"deckcli - {sheet.format_id}" + (f" - {sheet.source}" if sheet.source else "")
        self.cell(x, self.paper.height - MARGIN + 1.5, self.width, 3.5, note, 6, color=_GREY)

    def draw(self) -> None:
        pages = len(self.layout.pages)
        for number, columns in enumerate(self.layout.pages, 1):
            self.pdf.add_page()
            y = self.title(number, pages)
            y = self.fields(y)
            if number == 1:
                y = self.banner(y)
            for index, pieces in enumerate(columns):
                x = MARGIN + index * (self.layout.column_width + COLUMN_GAP)
                self.column(x, y, pieces)
            self.footer(number, pages)


def render_pdf(sheet: Sheet, paper: str = "a4") -> bytes:
    """The sheet as a PDF document on ``paper`` (a4 or letter): one page for a legal deck."""
    from fpdf import FPDF

    layout = plan(sheet, paper)
    pdf = FPDF(orientation="P", unit="mm", format=(layout.paper.width, layout.paper.height))
    pdf.set_auto_page_break(False)
    pdf.set_margins(MARGIN, MARGIN, MARGIN)
    pdf.c_margin = CELL_PAD
    pdf.set_title(pdf_text(f"Deck registration - {sheet.deck_name or sheet.game_name}"))
    if sheet.player:
        pdf.set_author(pdf_text(sheet.player))
    pdf.set_subject(pdf_text(f"{sheet.game_name} - {sheet.format_name}"))
    pdf.set_creator("deckcli")
    _Painter(pdf, sheet, layout).draw()
    return bytes(pdf.output())

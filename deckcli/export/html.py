"""The HTML registration sheet: one self-contained printable page.

Everything is inline (one ``<style>`` element, no scripts, no fonts, images or links
to fetch), so the file prints the same offline. The print stylesheet sets the paper
(``@page { size: A4 }`` or ``letter``) and the page is laid out with the same frame,
font size, row heights and columns as the PDF (:mod:`deckcli.export.layout`), in
millimetres, so that a legal deck prints on one page. On screen the page is shown as
a sheet of paper on a grey desk.
"""

from __future__ import annotations

from html import escape

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
    GAP_U,
    HEADER_U,
    JUDGE_H,
    MARGIN,
    SIGNATURE_H,
    TITLE_H,
    TOTAL_U,
    TOTALS_H,
    Layout,
    Piece,
    Widths,
    column_widths,
    fit_size,
    plan,
)
from deckcli.export.sheet import Sheet, SheetRow

_CSS = """
@page {{ size: {page}; margin: {margin}mm; }}
* {{ box-sizing: border-box; }}
html, body {{ margin: 0; padding: 0; }}
body {{ font-family: Helvetica, Arial, "Liberation Sans", "Nimbus Sans", sans-serif; color: #000;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; }}
.sheet {{ width: {content_w}mm; min-height: {content_h}mm; display: flex; flex-direction: column; }}
.title {{ height: {title_h}mm; border-bottom: 0.6mm solid #000; margin-bottom: 0; display: grid;
  grid-template-columns: 1fr auto; align-content: start; }}
.title h1 {{ font-size: 16pt; margin: 0; line-height: 8mm; text-transform: uppercase; }}
.title .game {{ font-size: 12pt; font-weight: bold; line-height: 8mm; text-align: right; }}
.title .format, .title .paper {{ font-size: 8pt; color: #666; line-height: 4.5mm; }}
.title .paper {{ text-align: right; font-size: 7pt; }}
table {{ border-collapse: collapse; }}
.fields {{ width: 100%; height: {fields_h}mm; table-layout: fixed; padding-top: 3mm; border-collapse: separate;
  border-spacing: 0; }}
.fields td {{ border: 0.3mm solid #000; height: {field_h}mm; padding: 0.4mm 1mm; vertical-align: top; }}
.fields .label {{ display: block; font-size: 6.5pt; font-weight: bold; color: #666; text-transform: uppercase; }}
.fields .value {{ display: block; font-size: 11pt; font-weight: bold; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }}
.banner {{ border: 0.4mm solid #be1414; color: #be1414; margin: 0 0 {banner_gap}mm 0; }}
.banner h2 {{ background: #be1414; color: #fff; font-size: 11pt; margin: 0; height: {bar_h}mm; line-height: {bar_h}mm;
  padding: 0 1mm; }}
.banner ul {{ margin: 0; padding: 1.5mm; list-style: disc inside; font-size: 7.5pt; line-height: {line_h}mm; }}
.banner li {{ white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }}
.cards {{ flex: 1 0 auto; display: flex; gap: {gap}mm; font-size: {font}pt; }}
.column {{ width: {column_w}mm; flex: none; }}
.deck-section {{ margin: 0 0 {section_gap}mm 0; }}
.deck-section h2 {{ margin: 0; background: #e8e8e8; height: {head_h}mm; line-height: {head_h}mm;
  font-size: {head_font}pt; padding: 0 {pad}mm; display: flex; justify-content: space-between;
  text-transform: uppercase; }}
.deck-section h2 .required {{ font-weight: normal; font-size: {small}pt; color: #666; text-transform: none; }}
.deck-section table {{ width: 100%; table-layout: fixed; }}
.deck-section th {{ height: {colhead_h}mm; font-size: {small}pt; color: #666; text-align: left; padding: 0 {pad}mm;
  border-bottom: 0.3mm solid #000; }}
.deck-section td {{ height: {row_h}mm; padding: 0 {pad}mm; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; border-bottom: 0.2mm solid #bebebe; line-height: 1; }}
.deck-section .qty {{ text-align: center; font-weight: bold; }}
.deck-section td.type, .deck-section td.cost {{ font-size: {type_font}pt; color: #282828; }}
.deck-section tr.unknown td.name {{ color: #be1414; font-style: italic; }}
.deck-section tr.none td {{ color: #666; font-style: italic; }}
.deck-section tr.total td {{ height: {total_h}mm; text-align: right; font-weight: bold; border-top: 0.3mm solid #000;
  border-bottom: none; }}
footer {{ height: {footer_h}mm; flex: none; border-top: 0.6mm solid #000; overflow: hidden; }}
footer .totals {{ height: {totals_h}mm; line-height: 6mm; font-size: 9.5pt; font-weight: bold; margin: 0; }}
footer .signature {{ height: {signature_h}mm; margin: 0; }}
footer .certify {{ font-size: 7.5pt; color: #666; margin: 0; height: 5.5mm; }}
footer .sign {{ display: flex; gap: 6mm; font-size: 9pt; font-weight: bold; align-items: flex-end; height: 6mm; }}
footer .sign .line {{ flex: 1; border-bottom: 0.3mm solid #000; height: 5mm; }}
footer .sign .wide {{ flex: 2.2; }}
.judge {{ width: 100%; height: {judge_h}mm; table-layout: fixed; border: 0.5mm solid #000; }}
.judge th {{ background: #e8e8e8; font-size: 7.5pt; height: 4.2mm; border-bottom: 0.3mm solid #000; }}
.judge td {{ border-left: 0.3mm solid #000; vertical-align: top; font-size: 7pt; font-weight: bold; color: #666;
  padding: 0.6mm 1mm; }}
.judge td:first-child {{ border-left: none; }}
.judge .choices {{ display: flex; gap: 4mm; margin-top: 2.5mm; }}
.judge .choice {{ display: inline-flex; align-items: center; gap: 1.2mm; font-weight: normal; color: #000; }}
.judge .box {{ display: inline-block; width: 3mm; height: 3mm; border: 0.3mm solid #000; }}
.note {{ font-size: 6pt; color: #666; margin: 0.5mm 0 0 0; line-height: 2.4mm; height: 2.4mm; }}
@media screen {{
  body {{ background: #d0d0d0; }}
  .sheet {{ background: #fff; width: {paper_w}mm; height: auto; min-height: {paper_h}mm; margin: 8mm auto;
    padding: {margin}mm; box-shadow: 0 1mm 4mm rgba(0, 0, 0, 0.35); }}
}}
@media print {{
  body {{ background: none; }}
  .sheet {{ margin: 0; box-shadow: none; break-after: avoid; }}
}}
"""


def _css(sheet: Sheet, layout: Layout) -> str:
    paper, row_h = layout.paper, layout.row_h
    return _CSS.format(
        page=paper.css,
        margin=MARGIN,
        paper_w=paper.width,
        paper_h=paper.height,
        content_w=f"{layout.content_width:.2f}",
        # a hair short of the page so rounding never pushes the footer onto a second page
        content_h=f"{paper.height - 2 * MARGIN - 0.6:.2f}",
        title_h=TITLE_H,
        fields_h=FIELDS_H,
        field_h=FIELD_H,
        bar_h=BANNER_BAR_H,
        banner_gap=BANNER_GAP,
        line_h=BANNER_LINE_H,
        gap=COLUMN_GAP,
        font=layout.font,
        column_w=f"{layout.column_width:.2f}",
        section_gap=f"{row_h * GAP_U:.2f}",
        head_h=f"{row_h * HEADER_U:.2f}",
        head_font=layout.font + 0.5,
        pad=CELL_PAD,
        small=layout.font - 1.5,
        colhead_h=f"{row_h * COLHEAD_U:.2f}",
        row_h=f"{row_h:.2f}",
        type_font=layout.font - 0.5,
        total_h=f"{row_h * TOTAL_U:.2f}",
        footer_h=FOOTER_H,
        totals_h=TOTALS_H,
        signature_h=SIGNATURE_H,
        judge_h=JUDGE_H,
    )


def _cell(text: str, css_class: str, width: float, size: float, bold: bool = False) -> str:
    """A table cell; text that would overflow gets a smaller font (the ellipsis is the last resort)."""
    fitted = fit_size(text, width - 2 * CELL_PAD, size, bold)
    style = f' style="font-size: {fitted:g}pt"' if fitted is not None and fitted < size else ""
    if fitted is None:
        style = f' style="font-size: {size * 0.72:g}pt"'
    return f'<td class="{css_class}"{style} title="{escape(text)}">{escape(text)}</td>'


def _row(sheet: Sheet, row: SheetRow, widths: Widths, font: float) -> str:
    name = row.name if row.known else f"{row.name} (unknown card)"
    cells = [
        f'<td class="qty">{row.qty}</td>',
        _cell(name, "name", widths.name, font),
        _cell(row.type, "type", widths.type, font - 0.5),
    ]
    if sheet.cost_label:
        cells.append(_cell(row.cost, "cost", widths.cost, font - 0.5))
    css_class = "card" if row.known else "card unknown"
    return f'<tr class="{css_class}" data-qty="{row.qty}" data-name="{escape(row.name)}">{"".join(cells)}</tr>'


def _piece(sheet: Sheet, piece: Piece, widths: Widths, font: float) -> str:
    section = piece.section
    span = 4 if sheet.cost_label else 3
    title = escape(section.title) + (" (continued)" if piece.continued else "")
    required = f'<span class="required">required: {escape(section.required)}</span>' if section.required else ""
    parts = [
        f'<section class="deck-section" data-section="{escape(section.id)}" data-total="{section.total}"'
        + (' data-continued="true">' if piece.continued else ">"),
        f"<h2><span>{title}</span>{required}</h2>",
        "<table>",
        "<colgroup>"
        + f'<col style="width: {widths.qty:.2f}mm"><col style="width: {widths.name:.2f}mm">'
        + f'<col style="width: {widths.type:.2f}mm">'
        + (f'<col style="width: {widths.cost:.2f}mm">' if sheet.cost_label else "")
        + "</colgroup>",
    ]
    if section.rows:
        cost = f"<th>{escape(sheet.cost_label)}</th>" if sheet.cost_label else ""
        parts.append(f'<thead><tr><th class="qty">Qty</th><th>Card Name</th><th>Type</th>{cost}</tr></thead>')
        parts.append("<tbody>" + "".join(_row(sheet, row, widths, font) for row in piece.rows) + "</tbody>")
    else:
        parts.append(f'<tbody><tr class="none"><td></td><td colspan="{span - 1}">(none)</td></tr></tbody>')
    if piece.closes:
        parts.append(
            f'<tfoot><tr class="total"><td colspan="{span}">{escape(section.title)} total: '
            f'<span class="count">{section.total}</span></td></tr></tfoot>'
        )
    parts.append("</table></section>")
    return "\n".join(parts)


def render_html(sheet: Sheet, paper: str = "a4") -> str:
    """The sheet as a self-contained HTML page that prints on one ``paper`` page (a4 or letter)."""
    layout = plan(sheet, paper)
    widths = column_widths(sheet, layout)
    deck = sheet.deck_name or sheet.game_name
    fields = "".join(
        f'<td><span class="label">{escape(label)}</span><span class="value">{escape(value) or "&nbsp;"}</span></td>'
        + ("</tr><tr>" if index == 1 else "")
        for index, (label, value) in enumerate(sheet.fields())
    )
    body: list[str] = [
        '<main class="sheet" data-game="{}" data-format="{}" data-legal="{}">'.format(
            escape(sheet.game), escape(sheet.format_id), "true" if sheet.legal else "false"
        ),
        '<header class="title">',
        "<h1>Deck registration sheet</h1>",
        f'<div class="game">{escape(sheet.game_name)}</div>',
        f'<div class="format">Format: {escape(sheet.format_name)}</div>',
        f'<div class="paper">{escape(layout.paper.label)} · one sheet per player</div>',
        "</header>",
        f'<table class="fields"><tr>{fields}</tr></table>',
    ]
    if not sheet.legal:
        errors = len(sheet.errors)
        items = "".join(f"<li>{escape(line)}</li>" for line in layout.banner)
        body.append(
            '<section class="banner" role="alert">'
            f"<h2>NOT LEGAL — this deck breaks the format's rules ({errors} error{'s' if errors != 1 else ''})</h2>"
            f"<ul>{items}</ul></section>"
        )
    for number, columns in enumerate(layout.pages):
        if number:
            body.append('<div style="break-before: page"></div>')
        body.append('<div class="cards">')
        for pieces in columns:
            body.append('<div class="column">')
            body.extend(_piece(sheet, piece, widths, layout.font) for piece in pieces)
            body.append("</div>")
        body.append("</div>")
    note = f"deckcli · {sheet.format_id}" + (f" · {sheet.source}" if sheet.source else "")
    body += [
        "<footer>",
        f'<p class="totals">{escape(sheet.totals_line())}</p>',
        '<div class="signature">',
        '<p class="certify">I certify that this decklist is complete and correct, and that I will play this deck '
        "exactly as registered.</p>",
        '<div class="sign"><span>Player signature:</span><span class="line wide"></span>'
        '<span>Table / seat:</span><span class="line"></span></div>',
        "</div>",
        '<table class="judge"><tr><th colspan="4">JUDGE USE ONLY</th></tr><tr>'
        '<td>Deck check<div class="choices"><span class="choice"><span class="box"></span>passed</span>'
        '<span class="choice"><span class="box"></span>problem</span></div></td>'
        "<td>Penalties</td><td>Round / time</td><td>Judge initials</td></tr></table>",
        f'<p class="note">{escape(note)}</p>',
        "</footer>",
        "</main>",
    ]
    title = f"Deck registration sheet — {deck}"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n"
        f"<style>{_css(sheet, layout)}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )

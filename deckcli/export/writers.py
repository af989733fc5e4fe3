"""The text forms of the registration sheet: ``txt``, ``md``, ``csv`` and ``json``.

``txt`` and ``md`` lay each section's table out with tabulate (``md`` as pipe tables,
with ``|`` in card names escaped). ``csv`` and ``json`` carry the same content for
tournament software:

- ``json`` is :meth:`Sheet.to_json` — header fields, ``legal``, the sections with
  their rows (``qty``, ``name``, ``type``, ``cost``, ``known``) and totals, and every
  violation with its stable code;
- ``csv`` has one header line ``record,section,count,name,type,cost`` and one row per
  card (``record`` = ``card``: section title, count, name, type, cost), preceded by
  ``meta`` rows (``section`` = field name, ``name`` = value: game, format, player,
  event, date, deck, legal) and followed by a ``total`` row per section and one for
  the deck (``section`` = ``Total``, ``count`` = cards), then a ``violation`` row per
  error or warning (``section``, ``name`` = message, ``type`` = code, ``cost`` =
  severity). Filtering on ``record == "card"`` gives a plain decklist table.
"""

from __future__ import annotations

import csv
import io
import json

from tabulate import tabulate

from deckcli.export.sheet import Sheet, SheetRow, SheetSection, violation_lines

_SIGNATURE = (
    "I certify that this decklist is complete and correct, and that I will play this deck exactly as registered."
)
_JUDGE_BOXES = ("Deck check", "Penalties", "Round / time", "Judge initials")


def _headers(sheet: Sheet) -> list[str]:
    return ["Qty", "Card Name", "Type", *([sheet.cost_label] if sheet.cost_label else [])]


def _cells(sheet: Sheet, row: SheetRow) -> list[object]:
    name = row.name if row.known else f"{row.name} (unknown card)"
    return [row.qty, name, row.type, *([row.cost] if sheet.cost_label else [])]


def _heading(section: SheetSection) -> str:
    required = f" (required: {section.required})" if section.required else ""
    return f"{section.title.upper()}{required}"


def render_txt(sheet: Sheet) -> str:
    """The sheet as plain text: header fields, a table per section, totals, signature, judge box."""
    lines = [
        f"DECK REGISTRATION SHEET - {sheet.game_name}",
        f"Format: {sheet.format_name}",
        "",
    ]
    if not sheet.legal:
        lines += ["*** NOT LEGAL: this deck breaks the format's rules ***"]
        lines += [f"  - {line}" for line in violation_lines(sheet)]
        lines.append("")
    width = max(len(label) for label, _ in sheet.fields())
    for label, value in sheet.fields():
        lines.append(f"{label + ':':<{width + 1}}  {value or '_' * 30}")
    for section in sheet.sections:
        lines += ["", _heading(section)]
        if section.rows:
            rows = [_cells(sheet, r) for r in section.rows]
            table = tabulate(
                rows,
                headers=_headers(sheet),
                tablefmt="simple",
                disable_numparse=True,
                colalign=("right", "left", "left", "left")[: len(_headers(sheet))],
            )
            lines += table.splitlines()
        else:
            lines.append("  (none)")
        lines.append(f"{section.title} total: {section.total}")
    lines += [
        "",
        "Totals: " + sheet.totals_line(),
        "",
        _SIGNATURE,
        "Player signature: ________________________________    Table / seat: ________",
        "",
    ]
    cells = "  ".join(f"{label}: ________" for label in _JUDGE_BOXES)
    border = "+" + "-" * (len(cells) + 2) + "+"
    title = " JUDGE USE ONLY "
    lines += [
        "+" + title.center(len(cells) + 2, "-") + "+",
        f"| {cells} |",
        border,
    ]
    return "\n".join(lines) + "\n"


def _md(text: object) -> str:
    """A Markdown table cell: pipes and backslashes escaped, no line breaks."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def render_md(sheet: Sheet) -> str:
    """The sheet as Markdown: pipe tables for the header fields, each section and the judge box."""
    lines = [f"# Deck registration sheet — {_md(sheet.game_name)}", "", f"**Format:** {_md(sheet.format_name)}", ""]
    if not sheet.legal:
        lines.append("> **NOT LEGAL** — this deck breaks the format's rules:")
        lines += [f"> - {_md(line)}" for line in violation_lines(sheet)]
        lines.append("")
    fields = sheet.fields()
    lines.append(
        tabulate(
            [[_md(v) or " " for _, v in fields]],
            headers=[label for label, _ in fields],
            tablefmt="pipe",
            disable_numparse=True,
        )
    )
    for section in sheet.sections:
        required = f" (required: {section.required})" if section.required else ""
        lines += ["", f"## {_md(section.title)}{required}", ""]
        if section.rows:
            rows = [[_md(c) for c in _cells(sheet, r)] for r in section.rows]
            lines.append(
                tabulate(
                    rows,
                    headers=_headers(sheet),
                    tablefmt="pipe",
                    disable_numparse=True,
                    colalign=("right", "left", "left", "left")[: len(_headers(sheet))],
                )
            )
        else:
            lines.append("*(none)*")
        lines += ["", f"**{_md(section.title)} total: {section.total}**"]
    lines += [
        "",
        f"**Totals:** {_md(sheet.totals_line())}",
        "",
        _SIGNATURE,
        "",
        "Player signature: ______________________________ Table / seat: ________",
        "",
        "**Judge use only**",
        "",
        tabulate([["[ ] passed [ ] problem", *[" "] * (len(_JUDGE_BOXES) - 1)]], headers=_JUDGE_BOXES, tablefmt="pipe"),
    ]
    return "\n".join(lines) + "\n"


def render_csv(sheet: Sheet) -> str:
    """The sheet as CSV (layout in the module docstring)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["record", "section", "count", "name", "type", "cost"])
    meta = [
        ("game", sheet.game),
        ("format", sheet.format_id),
        ("player", sheet.player or ""),
        ("event", sheet.event or ""),
        ("date", sheet.date or ""),
        ("deck", sheet.deck_name or ""),
        ("legal", "yes" if sheet.legal else "no"),
    ]
    for key, value in meta:
        writer.writerow(["meta", key, "", value, "", ""])
    for section in sheet.sections:
        for row in section.rows:
            writer.writerow(["card", section.title, row.qty, row.name, row.type, row.cost])
    for section in sheet.sections:
        writer.writerow(["total", section.title, section.total, "", "", ""])
    writer.writerow(["total", "Total", sheet.total, "", "", ""])
    titles = {s.id: s.title for s in sheet.sections}
    for violation in sheet.violations:
        where = " + ".join(titles.get(part, part) for part in violation.section.split("+")) if violation.section else ""
        writer.writerow(["violation", where, "", violation.message, violation.code, violation.severity])
    return buffer.getvalue()


def render_json(sheet: Sheet) -> str:
    """The sheet as indented JSON (:meth:`Sheet.to_json`)."""
    return json.dumps(sheet.to_json(), indent=2, ensure_ascii=False) + "\n"

"""``deckcli validate``: is a deck legal, and if not, every reason why."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcli.cli.common import EXIT_INVALID, EXIT_OK, EXIT_USAGE, console, fail, open_store, print_json

if TYPE_CHECKING:
    from deckcli.rules.formats import Format
    from deckcli.rules.report import Report, Violation


def _parse_date(value: str | None) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        fail(f"--date: '{value}' is not a date", "expected YYYY-MM-DD, e.g. 2025-06-01")


def validate(
    ctx: typer.Context,
    paths: Annotated[
        list[Path], typer.Argument(help="Decklist files (.txt, .json, ...) or folders of them (searched recursively).")
    ],
    format_name: Annotated[
        str | None,
        typer.Option("--format", "-f", help="Format id, game, or house-format .toml (default: the deck's Game: line)."),
    ] = None,
    date: Annotated[
        str | None,
        typer.Option("--date", help="Check the banned/restricted lists in force on YYYY-MM-DD (default: today)."),
    ] = None,
    against: Annotated[
        Path | None,
        typer.Option("--against", help="Registered decklist: check that PATH is a legal sideboarded version of it."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Write JSON: one object per deck, an array for several.")
    ] = False,
    show_all: Annotated[
        bool, typer.Option("--all", help="With several decks, show every deck's details, not only illegal ones.")
    ] = False,
) -> None:
    """Check decks against their format's construction rules and report every violation.

    Exit code 0 when every deck is legal, 1 when any is not, 2 for a usage or input error.
    """
    from deckcli.rules.intake import check_against, check_files

    on = _parse_date(date)
    store = open_store(ctx)
    if against is not None:
        if len(paths) != 1:
            fail("--against compares exactly one decklist with the registered one", f"got {len(paths)} paths")
        reports = [check_against(store, paths[0], against, format_name=format_name, on=on)]
    else:
        reports = check_files(store, paths, format_name=format_name, on=on)
    if as_json:
        print_json(reports[0].to_json() if len(reports) == 1 else [r.to_json() for r in reports])
    elif len(reports) == 1:
        _render_report(reports[0], _report_format(reports[0], format_name))
    else:
        for report in reports:
            if report.input_error:
                _emit(f"{report.deck} — not checked: {report.violations[0].message}", markup=False)
            elif show_all or not report.valid:
                _render_report(report, _report_format(report, format_name))
        _render_summary(reports)
    if any(r.input_error for r in reports):
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_OK if all(r.valid for r in reports) else EXIT_INVALID)


def _report_format(report: Report, format_name: str | None) -> Format:
    """The format a report was made with: the one named by ``--format`` (which may be a
    house-format file, whose id is only its file's stem), else the bundled one."""
    from deckcli.rules import find_format

    return find_format(format_name if format_name else report.format)


def _render_report(report: Report, fmt: Format) -> None:
    out = console()
    _emit(_report_text(report, fmt, markup=out.is_terminal))


def _report_text(report: Report, fmt: Format, *, markup: bool) -> str:
    """The report as text, with rich markup (for a terminal) or plain."""
    if markup:
        from rich.markup import escape

        def esc(text: str) -> str:
            return escape(text)

        def tag(style: str, text: str) -> str:
            return f"[{style}]{text}[/]"
    else:

        def esc(text: str) -> str:
            return text

        def tag(style: str, text: str) -> str:
            return text

    titles = fmt.titles()
    where = " " + tag("dim", f"({esc(report.source)})") if report.source and report.source != report.deck else ""
    chosen = f", {report.format_source}" if report.format_source else ""
    lines = [f"{tag('bold', esc(report.deck))}{where} — {esc(fmt.name)}{chosen}"]
    # Grouped by section: the whole deck first, then the format's sections in order.
    groups: dict[str, list[Violation]] = {}
    for violation in report.violations:
        groups.setdefault(violation.section or "", []).append(violation)
    order = {spec.id: index for index, spec in enumerate(fmt.sections)}

    def rank(section: str) -> tuple[int, int, int]:
        parts = section.split("+")
        return (bool(section), min(order.get(part, len(order)) for part in parts), len(parts))

    for section in sorted(groups, key=rank):
        violations = groups[section]
        label = " + ".join(titles.get(part, part) for part in section.split("+")) if section else "Deck"
        lines.append("  " + tag("underline", esc(label)))
        for v in violations:
            mark = tag("red", "✘") if v.severity == "error" else tag("yellow", "!")
            counts = f" [{v.found}/{v.allowed}]" if v.found is not None and v.allowed is not None else ""
            refs = [f"line {v.line}"] if v.line else []
            refs += [v.rule] if v.rule else []
            rule = " " + tag("dim", esc(f"({'; '.join(refs)})")) if refs else ""
            lines.append(f"    {mark} {tag('bold', v.code)}{esc(counts)} {esc(v.message)}{rule}")
    errors, warnings = len(report.errors), len(report.warnings)
    if report.valid:
        extra = f" ({warnings} warning{'s' if warnings != 1 else ''})" if warnings else ""
        lines.append("  " + tag("bold green", "✔ LEGAL") + extra)
    else:
        lines.append(
            "  "
            + tag("bold red", "✘ NOT LEGAL")
            + f": {errors} error{'s' if errors != 1 else ''}"
            + (f", {warnings} warning{'s' if warnings != 1 else ''}" if warnings else "")
        )
    return "\n".join(lines)


def _emit(text: str, *, markup: bool = True) -> None:
    """Write ``text`` and a newline: through rich on a terminal, else straight to the file.

    rich renders nothing but plain text when stdout is not a terminal, and its per-call
    cost dominates intake runs of thousands of decks written to a file or a pipe.
    """
    out = console()
    if out.is_terminal:
        out.print(text, markup=markup, emoji=False, highlight=False, soft_wrap=True)
    else:
        out.file.write(text + "\n")


def _render_summary(reports: list[Report]) -> None:
    from tabulate import tabulate

    rows = [
        (
            r.source or r.deck,
            _short(r.deck) if r.source and r.deck != r.source else "",
            r.format or "-",
            "NOT CHECKED" if r.input_error else "legal" if r.valid else "NOT LEGAL",
            len(r.errors),
            len(r.warnings),
        )
        for r in reports
    ]
    # tabulate, not a rich table: intake runs print thousands of rows. Column types are
    # given, not guessed (guessing reads every cell: a third of the time for 10,000 rows).
    table = tabulate(
        rows,
        headers=("File", "Deck", "Format", "Verdict", "Errors", "Warnings"),
        disable_numparse=True,
        colalign=("left", "left", "left", "left", "right", "right"),
    )
    legal = sum(r.valid for r in reports)
    unchecked = sum(r.input_error for r in reports)
    tail = f"; {unchecked} file(s) could not be checked" if unchecked else ""
    _emit(f"{table}\n{legal} of {len(reports)} decks legal{tail}.", markup=False)


def _short(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"

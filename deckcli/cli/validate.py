"""``deckcli validate``: is a deck legal, and if not, every reason why."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcli.cli.common import EXIT_INVALID, EXIT_OK, console, fail, open_store, print_json

if TYPE_CHECKING:
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
        str | None, typer.Option("--date", help="Check the banned/restricted lists in force on YYYY-MM-DD (default: today).")
    ] = None,
    against: Annotated[
        Path | None,
        typer.Option("--against", help="Registered decklist: check that PATH is a legal sideboarded version of it."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Write JSON: one object per deck, an array for several.")] = False,
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
        _render_report(reports[0])
    else:
        for report in reports:
            if show_all or not report.valid:
                _render_report(report)
        _render_summary(reports)
    raise typer.Exit(EXIT_OK if all(r.valid for r in reports) else EXIT_INVALID)


def _render_report(report: Report) -> None:
    from rich.markup import escape

    from deckcli.rules import find_format

    out = console()
    fmt = find_format(report.format)
    titles = fmt.titles()
    where = f" [dim]({escape(report.source)})[/]" if report.source and report.source != report.deck else ""
    chosen = f", {report.format_source}" if report.format_source else ""
    out.print(f"[bold]{escape(report.deck)}[/]{where} — {escape(fmt.name)}{chosen}")
    groups: dict[str, list[Violation]] = {}
    for violation in report.violations:
        section = violation.section or ""
        label = " + ".join(titles.get(part, part) for part in section.split("+")) if section else "Deck"
        groups.setdefault(label, []).append(violation)
    for label, violations in groups.items():
        out.print(f"  [underline]{escape(label)}[/]")
        for v in violations:
            mark = "[red]✘[/]" if v.severity == "error" else "[yellow]![/]"
            counts = f" [{v.found}/{v.allowed}]" if v.found is not None and v.allowed is not None else ""
            refs = [f"line {v.line}"] if v.line else []
            refs += [v.rule] if v.rule else []
            rule = f" [dim]({escape('; '.join(refs))})[/]" if refs else ""
            out.print(f"    {mark} [bold]{v.code}[/]{escape(counts)} {escape(v.message)}{rule}")
    errors, warnings = len(report.errors), len(report.warnings)
    if report.valid:
        extra = f" ({warnings} warning{'s' if warnings != 1 else ''})" if warnings else ""
        out.print(f"  [bold green]✔ LEGAL[/]{extra}")
    else:
        out.print(
            f"  [bold red]✘ NOT LEGAL[/]: {errors} error{'s' if errors != 1 else ''}"
            + (f", {warnings} warning{'s' if warnings != 1 else ''}" if warnings else "")
        )


def _render_summary(reports: list[Report]) -> None:
    from tabulate import tabulate

    rows = [
        (r.source or r.deck, _short(r.deck) if r.source and r.deck != r.source else "", r.format,
         "legal" if r.valid else "NOT LEGAL", len(r.errors), len(r.warnings))
        for r in reports
    ]
    out = console()
    # tabulate, not a rich table: intake runs print thousands of rows.
    out.print(tabulate(rows, headers=("File", "Deck", "Format", "Verdict", "Errors", "Warnings")), markup=False, soft_wrap=True)
    legal = sum(r.valid for r in reports)
    out.print(f"{legal} of {len(reports)} decks legal.", markup=False)


def _short(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"

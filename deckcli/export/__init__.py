"""Tournament decklist export: a registration sheet per game, in six output forms.

:func:`prepare` reads a decklist, chooses its format, validates it and builds the
:class:`~deckcli.export.sheet.Sheet` (refusing an illegal deck unless asked not to);
:func:`render` turns the sheet into ``txt``, ``md``, ``csv``, ``json``, ``html`` or
``pdf``; :func:`write_output` writes a file atomically and never overwrites one
without ``force``. The writers are imported on first use (fpdf only for PDF).
"""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from deckcli.export.sheet import ExportError, Sheet, SheetOverrides, build_sheet, violation_lines

if TYPE_CHECKING:
    from deckcli.cards.store import CardStore

__all__ = [
    "FORMATS",
    "PAPERS",
    "TEXT_FORMATS",
    "ExportError",
    "IllegalDeckError",
    "OutputExistsError",
    "Sheet",
    "SheetOverrides",
    "build_sheet",
    "prepare",
    "render",
    "violation_lines",
    "write_output",
]

#: every output form, in the order ``--help`` lists them
FORMATS = ("txt", "md", "csv", "json", "html", "pdf")
#: the forms that are text (and may go to standard output)
TEXT_FORMATS = ("txt", "md", "csv", "json", "html")
PAPERS = ("a4", "letter")


class IllegalDeckError(ExportError):
    """The deck is not legal and ``allow_illegal`` was not given (exit code 1)."""

    exit_code = 1

    def __init__(self, sheet: Sheet, label: str) -> None:
        errors = len(sheet.errors)
        super().__init__(
            f"{label} is NOT LEGAL ({errors} error{'s' if errors != 1 else ''}); no sheet written",
            hint="fix the deck, or pass --allow-illegal to export a sheet marked NOT LEGAL",
        )
        self.sheet = sheet


class OutputExistsError(ExportError):
    """The output file exists and ``force`` was not given."""


def _check_date(on: str | None) -> dt.date | None:
    if on is None:
        return None
    try:
        return dt.date.fromisoformat(on)
    except ValueError:
        return None


def prepare(
    store: CardStore,
    path: Path,
    *,
    format_name: str | None = None,
    overrides: SheetOverrides | None = None,
    sort: str | None = None,
    allow_illegal: bool = False,
) -> Sheet:
    """The registration sheet of the one deck in ``path``, validated.

    The banned/restricted lists checked are those in force on the sheet's date when
    it is an ISO date (``YYYY-MM-DD``), else today's. Raises :class:`IllegalDeckError`
    for an illegal deck unless ``allow_illegal``.
    """
    from deckcli.decks.io import DeckFileError, read_deck_file
    from deckcli.rules.intake import Pools, choose_format
    from deckcli.rules.validate import validate

    decks = read_deck_file(path)
    if len(decks) != 1:
        raise DeckFileError(
            f"{path} holds {len(decks)} decks; a registration sheet is for one deck",
            hint="split the file, one deck per file",
        )
    deck = decks[0]
    overrides = overrides or SheetOverrides()
    pools = Pools(store)
    fmt, how = choose_format(deck, format_name, pools)
    pool = pools(fmt.game)
    on = _check_date(overrides.date) or _check_date(deck.date)
    report = validate(deck, fmt, pool, on, format_source=how)
    sheet = build_sheet(deck, fmt, pool, report, overrides, sort=sort)
    if not sheet.legal and not allow_illegal:
        raise IllegalDeckError(sheet, str(path))
    return sheet


def render(sheet: Sheet, to: str, paper: str = "a4") -> str | bytes:
    """The sheet in output form ``to``: text for txt/md/csv/json/html, bytes for pdf."""
    if paper not in PAPERS:
        raise ExportError(f"unknown paper size '{paper}'", hint=f"valid sizes: {', '.join(PAPERS)}")
    if to == "pdf":
        from deckcli.export.pdf import render_pdf

        return render_pdf(sheet, paper)
    if to == "html":
        from deckcli.export.html import render_html

        return render_html(sheet, paper)
    from deckcli.export import writers

    renderers = {
        "txt": writers.render_txt,
        "md": writers.render_md,
        "csv": writers.render_csv,
        "json": writers.render_json,
    }
    if to not in renderers:
        raise ExportError(f"unknown export format '{to}'", hint=f"valid formats: {', '.join(FORMATS)}")
    return renderers[to](sheet)


def write_output(path: Path, data: str | bytes, *, force: bool = False) -> None:
    """Write ``data`` to ``path`` atomically (a temporary file in the same folder, then
    ``os.replace``); an existing ``path`` is replaced only with ``force``."""
    if path.is_dir():
        raise ExportError(f"{path} is a folder; -o needs a file name")
    if path.exists() and not force:
        raise OutputExistsError(f"{path} already exists", hint="pass --force to overwrite it")
    payload = data.encode("utf-8") if isinstance(data, str) else data
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ExportError(f"cannot write {path}: folder {folder} does not exist")
    try:
        handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(handle, "wb") as temp:
            temp.write(payload)
            temp.flush()
            os.fsync(temp.fileno())
        os.chmod(temp_name, 0o644 & ~_umask())
        os.replace(temp_name, path)
    except BaseException as exc:
        Path(temp_name).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from exc
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask

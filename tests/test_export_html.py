"""The HTML registration sheet: structure (html.parser), self-containment, print CSS, and a
real print in headless Chromium (skipped where Chromium is not installed)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from deckcli.cards.store import CardStore
from deckcli.export import Sheet, SheetOverrides, prepare, render

REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLES = REPO_ROOT / "card_db" / "decks"
GAMES = ("elestrals", "elekin", "aestery", "elemental-clash", "elemystic")


class SheetParser(HTMLParser):
    """Collects the sections, card rows, totals, styles and every URL-bearing attribute."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[str] = []
        self.rows: list[tuple[str, int, str]] = []
        self.totals: list[str] = []
        self.urls: list[tuple[str, str, str]] = []
        self.tags: set[str] = set()
        self.styles: list[str] = []
        self.text: list[str] = []
        self._section = ""
        self._in_style = False
        self._in_total = False
        self._total = ""
        self.legal: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        self.tags.add(tag)
        for key, value in values.items():
            if key in ("src", "href", "action", "data", "poster", "srcset") or "url(" in value:
                self.urls.append((tag, key, value))
        if tag == "main":
            self.legal = values.get("data-legal")
        if tag == "section" and "deck-section" in values.get("class", ""):
            self._section = values["data-section"]
            if values.get("data-continued") != "true":
                self.sections.append(self._section)
        if tag == "tr" and "card" in values.get("class", "").split():
            self.rows.append((self._section, int(values["data-qty"]), values["data-name"]))
        if tag == "tr" and values.get("class") == "total":
            self._in_total, self._total = True, ""
        if tag == "style":
            self._in_style = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False
        if tag == "tr" and self._in_total:
            self.totals.append(" ".join(self._total.split()))
            self._in_total = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.styles.append(data)
            return
        self.text.append(data)
        if self._in_total:
            self._total += data


def parse(html: str) -> SheetParser:
    parser = SheetParser()
    parser.feed(html)
    parser.close()
    return parser


def html_of(sheet: Sheet, paper: str = "a4") -> str:
    html = render(sheet, "html", paper)
    assert isinstance(html, str)
    return html


@pytest.mark.parametrize("game", GAMES)
def test_html_has_every_section_row_and_total(store: CardStore, game: str) -> None:
    sheet = prepare(store, SAMPLES / f"{game}-sample.txt", overrides=SheetOverrides(player="Ada", event="Cup"))
    parsed = parse(html_of(sheet))
    assert parsed.sections == [s.id for s in sheet.sections]
    assert parsed.rows == [(s.id, r.qty, r.name) for s in sheet.sections for r in s.rows]
    assert parsed.totals == [f"{s.title} total: {s.total}" for s in sheet.sections]
    text = " ".join(" ".join(parsed.text).split())
    assert "Ada" in text and "Cup" in text and sheet.date in text
    assert f"Total {sheet.total}" in text
    assert "Player signature:" in text and "JUDGE USE ONLY" in text
    assert parsed.legal == "true" and "NOT LEGAL" not in text


@pytest.mark.parametrize(("paper", "size"), [("a4", "A4"), ("letter", "letter")])
def test_html_is_self_contained_with_a_print_stylesheet(store: CardStore, paper: str, size: str) -> None:
    html = html_of(prepare(store, SAMPLES / "elestrals-sample.txt"), paper)
    parsed = parse(html)
    assert not [u for u in parsed.urls if re.match(r"\s*(https?:)?//", u[2])], parsed.urls
    assert parsed.urls == []  # nothing to fetch at all: no src, href or url()
    assert not parsed.tags & {"script", "link", "img", "iframe", "object", "embed"}
    css = "".join(parsed.styles)
    assert f"@page {{ size: {size};" in css
    assert "@media print" in css
    assert "@import" not in css and "@font-face" not in css and "url(" not in css
    assert html.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in html


def test_html_escapes_names_and_marks_illegal_decks(store: CardStore, tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(
        "Game: elestrals\nMain Deck:\n4 Sluggle\n1 <b>Fake</b> & Co\n1 Arachne’s Lair\nSpirit Deck:\n12 Leviaphin\n",
        encoding="utf-8",
    )
    sheet = prepare(store, path, allow_illegal=True, overrides=SheetOverrides(player="<script>x</script>"))
    html = html_of(sheet)
    parsed = parse(html)
    assert "script" not in parsed.tags
    assert ("main", 1, "<b>Fake</b> & Co") in parsed.rows
    assert ("main", 1, "Arachne’s Lair") in parsed.rows
    assert parsed.legal == "false"
    text = " ".join(parsed.text)
    assert "NOT LEGAL" in text and "unknown-card:" in text


# -- a real print -------------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
@pytest.mark.parametrize(("game", "paper"), [("elestrals", "a4"), ("elekin", "letter")])
def test_chromium_prints_the_sheet_on_one_page(store: CardStore, tmp_path: Path, game: str, paper: str) -> None:
    pypdf = pytest.importorskip("pypdf")
    sheet = prepare(store, SAMPLES / f"{game}-sample.txt", overrides=SheetOverrides(player="Ada Lovelace"))
    page = tmp_path / "sheet.html"
    page.write_text(html_of(sheet, paper), encoding="utf-8")
    out = tmp_path / "out.pdf"
    assert CHROMIUM is not None
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--no-pdf-header-footer",
        f"--user-data-dir={tmp_path / 'profile'}",
        f"--print-to-pdf={out}",
        page.as_uri(),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert out.is_file() and out.stat().st_size > 1000, result.stderr[-2000:]
    reader = pypdf.PdfReader(io.BytesIO(out.read_bytes()))
    assert len(reader.pages) == 1
    text = " ".join(reader.pages[0].extract_text().split())
    for section in sheet.sections:
        assert f"{section.title} total: {section.total}" in text
        for row in section.rows:
            assert row.name in text
    assert "Ada Lovelace" in text and "JUDGE USE ONLY" in text

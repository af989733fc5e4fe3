"""The PDF registration sheet, read back with pypdf: one page, every card line, every total."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

pypdf = pytest.importorskip("pypdf")

from deckcli.cards.store import CardStore  # noqa: E402
from deckcli.export import Sheet, SheetOverrides, prepare, render  # noqa: E402
from deckcli.export.layout import latin1_text  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLES = REPO_ROOT / "card_db" / "decks"
GAMES = ("elestrals", "elekin", "aestery", "elemental-clash", "elemystic")
#: page sizes in PDF points
PAGE_SIZES = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


def pdf_pages(sheet: Sheet, paper: str) -> list[str]:
    data = render(sheet, "pdf", paper)
    assert isinstance(data, bytes) and data.startswith(b"%PDF-")
    reader = pypdf.PdfReader(io.BytesIO(data))
    for page in reader.pages:
        box = page.mediabox
        assert (float(box.width), float(box.height)) == pytest.approx(PAGE_SIZES[paper], abs=0.5)
    return [page.extract_text() for page in reader.pages]


def assert_sheet_text(sheet: Sheet, text: str) -> None:
    """Every card line (qty + name), every section total, the header fields, the boxes."""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    for section in sheet.sections:
        assert f"{section.title} total: {section.total}" in lines, section.title
        for row in section.rows:
            expected = f"{row.qty} {latin1_text(row.name)}"
            assert any(line.startswith(expected) for line in lines), expected
    for _, value in sheet.fields():
        if value:
            assert latin1_text(value) in text
    assert f"Total {sheet.total}" in text
    assert "Player signature:" in text
    assert "JUDGE USE ONLY" in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_every_sample_deck_fits_one_page(store: CardStore, game: str, paper: str) -> None:
    overrides = SheetOverrides(player="Ada Lovelace", event="Store Championship", date="2025-06-01")
    sheet = prepare(store, SAMPLES / f"{game}-sample.txt", overrides=overrides)
    pages = pdf_pages(sheet, paper)
    assert len(pages) == 1
    assert_sheet_text(sheet, pages[0])
    assert "Ada Lovelace" in pages[0] and "Store Championship" in pages[0] and "2025-06-01" in pages[0]
    assert "NOT LEGAL" not in pages[0]
    for title in (s.title.upper() for s in sheet.sections):
        assert title in pages[0]


def _singles_deck(store: CardStore) -> str:
    """A legal 40 + 20 + 12 Elestrals deck of single copies, long names first, curly quotes included."""
    cards = store.cards("elestrals")
    curly = [c.name for c in cards if "’" in c.name]
    runes = [c.name for c in cards if c.type == "rune" and c.name not in curly]
    elestrals = sorted((c.name for c in cards if c.type == "elestral"), key=len, reverse=True)
    spirits = [c.name for c in cards if c.type == "spirit"]
    main = curly + runes[: 20 - len(curly)] + elestrals[:20]
    return "\n".join(
        [
            "Game: elestrals",
            "Name: Forty singles",
            "Player: Zoë O’Brien",
            "Main Deck:",
            *(f"1 {n}" for n in main),
            "Spirit Deck:",
            *(f"{3 if i < 4 else 2} {n}" for i, n in enumerate(spirits)),
            "Side Deck:",
            *(f"1 {n}" for n in elestrals[20:32]),
        ]
    )


def _elekin_singles(store: CardStore) -> str:
    """A legal Elekin deck of 60 different cards, 3 Shields and a full 10 + 3 Side Deck."""
    cards = [c.name for c in store.cards("elekin") if c.type != "shield" and "dragon" not in c.name.lower()]
    return "\n".join(
        [
            "Game: elekin",
            "Main Deck:",
            *(f"1 {n}" for n in cards[:60]),
            "Shields:",
            "1 Mystic Ward",
            "1 Mythical Barrier",
            "1 Elemental Shield",
            "Side Deck:",
            *(f"1 {n}" for n in cards[60:70]),
            "1 Essence Wall",
            "1 Shadow Guard",
            "1 Tempest Barrier",
        ]
    )


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("deck", ["elestrals", "elekin"])
def test_largest_legal_decks_still_fit_one_page(store: CardStore, tmp_path: Path, deck: str, paper: str) -> None:
    path = tmp_path / "big.txt"
    path.write_text(_singles_deck(store) if deck == "elestrals" else _elekin_singles(store), encoding="utf-8")
    sheet = prepare(store, path)
    assert sheet.legal
    assert sum(len(s.rows) for s in sheet.sections) >= 55
    pages = pdf_pages(sheet, paper)
    assert len(pages) == 1
    assert_sheet_text(sheet, pages[0])


def test_curly_quotes_and_accents_do_not_crash_and_stay_readable(store: CardStore, tmp_path: Path) -> None:
    path = tmp_path / "quotes.txt"
    path.write_text(_singles_deck(store), encoding="utf-8")
    sheet = prepare(store, path, overrides=SheetOverrides(event="Café “Open” – Round 1"))
    text = pdf_pages(sheet, "a4")[0]
    assert "1 Arachne's Lair" in text and "1 Pandora's Box" in text
    assert "Zoë O'Brien" in text
    assert 'Café "Open" - Round 1' in text


def test_illegal_sheet_has_a_not_legal_banner_and_the_violations(store: CardStore, tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("Game: elestrals\nMain Deck:\n4 Sluggle\n1 Not A Real Card\nSpirit Deck:\n12 Leviaphin\n")
    sheet = prepare(store, path, allow_illegal=True)
    text = pdf_pages(sheet, "a4")[0]
    assert "NOT LEGAL" in text
    assert "unknown-card:" in text and "deck-size:" in text
    assert "Not A Real Card (unknown card)" in text
    assert "4 Sluggle" in text


def test_pdf_metadata_names_the_deck_and_player(store: CardStore) -> None:
    sheet = prepare(store, SAMPLES / "elekin-sample.txt", overrides=SheetOverrides(player="Ada"))
    data = render(sheet, "pdf", "a4")
    assert isinstance(data, bytes)
    info = pypdf.PdfReader(io.BytesIO(data)).metadata
    assert info is not None
    assert info.title == "Deck registration - Lightning Structure Deck (sample)"
    assert info.author == "Ada"

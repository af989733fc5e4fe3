"""The registration-sheet model and its text forms (txt, md, csv, json), and atomic output."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path

import pytest

from deckcli.cards.store import CardStore
from deckcli.export import (
    IllegalDeckError,
    OutputExistsError,
    Sheet,
    SheetOverrides,
    prepare,
    render,
    write_output,
)
from deckcli.export.layout import PAPERS, card_area, flow, latin1_text, plan, row_height
from deckcli.export.sheet import ExportError

REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLES = REPO_ROOT / "card_db" / "decks"
GAMES = ("elestrals", "elekin", "aestery", "elemental-clash", "elemystic")
SECTION_TITLES = {
    "elestrals": ["Main Deck", "Spirit Deck", "Side Deck"],
    "elekin": ["Main Deck", "Shields", "Side Deck"],
    "aestery": ["Hero", "Main Deck"],
    "elemental-clash": ["Spellcaster", "Spellbook", "Sideboard"],
    "elemystic": ["Elements"],
}

ILLEGAL_ELESTRALS = """Game: elestrals
Name: Broken Brew
Player: Mallory
Main Deck:
4 Sluggle
2 Glauby
1 Not A Real Card
Spirit Deck:
12 Leviaphin
"""


def sample(game: str) -> Path:
    return SAMPLES / f"{game}-sample.txt"


def sheet_of(store: CardStore, path: Path, **kwargs: object) -> Sheet:
    return prepare(store, path, **kwargs)  # type: ignore[arg-type]


def write_deck(tmp_path: Path, text: str, name: str = "deck.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def card_rows(sheet: Sheet) -> list[tuple[str, int, str]]:
    return [(s.title, r.qty, r.name) for s in sheet.sections for r in s.rows]


@pytest.mark.parametrize("game", GAMES)
def test_sample_sheet_follows_the_games_sections(store: CardStore, game: str) -> None:
    sheet = sheet_of(store, sample(game))
    assert sheet.legal
    assert [s.title for s in sheet.sections] == SECTION_TITLES[game]
    assert sheet.game == game
    assert sheet.total == sum(s.total for s in sheet.sections) > 0
    assert all(r.known and r.type for s in sheet.sections for r in s.rows)
    assert (sheet.cost_label is None) == (game == "elemystic")


def test_elestrals_sample_rows_totals_and_costs(store: CardStore) -> None:
    sheet = sheet_of(store, sample("elestrals"))
    main, spirit, side = sheet.sections
    assert (main.total, spirit.total, side.total, sheet.total) == (40, 20, 0, 60)
    assert (main.rows[0].qty, main.rows[0].name, main.rows[0].type) == (3, "Sluggle", "Elestral")
    assert main.rows[0].cost == "1 (water)"
    majesea = next(r for r in main.rows if r.name == "Majesea")
    assert majesea.cost == "3 (water×3)"
    assert [r.name for r in spirit.rows] == ["Leviaphin", "Vipyro", "Lycarus"]
    assert main.required == "40" and side.required == "up to 12"
    assert sheet.totals_line() == "Main Deck 40 · Spirit Deck 20 · Side Deck 0 · Total 60"


def test_names_take_the_card_stores_spelling_and_repeats_merge(store: CardStore, tmp_path: Path) -> None:
    deck = write_deck(
        tmp_path,
        """Game: elekin
Main Deck:
2 veton, the lightning dragon
1 GLINT
2 Glint
Shields:
1 mystic ward
""",
    )
    sheet = sheet_of(store, deck, allow_illegal=True)
    assert card_rows(sheet)[:2] == [("Main Deck", 2, "Veton | The Lightning Dragon"), ("Main Deck", 3, "Glint")]
    assert ("Shields", 1, "Mystic Ward") in card_rows(sheet)


def test_overrides_beat_the_deck_file_and_date_defaults_to_today(store: CardStore, tmp_path: Path) -> None:
    deck = write_deck(tmp_path, "Player: File Player\nEvent: File Event\n" + sample("elekin").read_text())
    sheet = sheet_of(store, deck)
    assert (sheet.player, sheet.event, sheet.date) == ("File Player", "File Event", dt.date.today().isoformat())
    assert sheet.deck_name == "Lightning Structure Deck (sample)"
    overrides = SheetOverrides(player="Ada", event="Nationals", date="2025-06-01", deck_name="Sparks")
    sheet = sheet_of(store, deck, overrides=overrides)
    assert (sheet.player, sheet.event, sheet.date, sheet.deck_name) == ("Ada", "Nationals", "2025-06-01", "Sparks")
    assert sheet.fields() == [
        ("Player", "Ada"),
        ("Event", "Nationals"),
        ("Date", "2025-06-01"),
        ("Deck name", "Sparks"),
    ]


@pytest.mark.parametrize(
    ("sort", "first"),
    [
        (None, ["Glint", "Swoop", "Stawid"]),
        ("name", ["Aeris | The Air Slyph", "Archen", "Binding Coils"]),
        ("type", ["Passive Aggressive", "Revival Rain", "Aeris | The Air Slyph"]),
        ("cost", ["Ember Flicker", "Fire Bugs", "Glint"]),
    ],
)
def test_sort_orders_cards_within_each_section(store: CardStore, sort: str | None, first: list[str]) -> None:
    sheet = sheet_of(store, sample("elekin"), sort=sort)
    main = sheet.sections[0]
    assert [r.name for r in main.rows[:3]] == first
    assert main.total == 40
    if sort == "cost":
        # cards without a cost (runes, counters) come last
        assert [r.cost for r in main.rows][-1] == ""
        assert [r.name for r in main.rows][14] == "Veton | The Lightning Dragon"


def test_illegal_deck_is_refused_unless_allowed(store: CardStore, tmp_path: Path) -> None:
    deck = write_deck(tmp_path, ILLEGAL_ELESTRALS)
    with pytest.raises(IllegalDeckError) as caught:
        sheet_of(store, deck)
    assert caught.value.exit_code == 1
    assert "NOT LEGAL" in caught.value.message
    sheet = sheet_of(store, deck, allow_illegal=True)
    assert not sheet.legal
    codes = {v.code for v in sheet.errors}
    assert {"unknown-card", "deck-size", "copy-limit"} <= codes
    unknown = next(r for s in sheet.sections for r in s.rows if not r.known)
    assert (unknown.name, unknown.type) == ("Not A Real Card", "?")


def test_multi_deck_file_is_an_input_error(store: CardStore, tmp_path: Path) -> None:
    deck = write_deck(tmp_path, "Game: elemystic\n## Deck one\nElements:\n1 Fire\n## Deck two\nElements:\n1 Water\n")
    with pytest.raises(Exception, match=r"holds \d decks") as caught:
        sheet_of(store, deck)
    assert getattr(caught.value, "exit_code", None) == 2


@pytest.mark.parametrize("game", GAMES)
def test_txt_and_md_carry_every_card_and_total(store: CardStore, game: str) -> None:
    sheet = sheet_of(store, sample(game), overrides=SheetOverrides(player="Ada", event="Store Cup"))
    txt = render(sheet, "txt")
    md = render(sheet, "md")
    assert isinstance(txt, str) and isinstance(md, str)
    txt_lines = [line.strip() for line in txt.splitlines()]
    md_cells = [[c.strip() for c in line.strip("|").split(" | ")] for line in md.splitlines() if line.startswith("|")]
    for section in sheet.sections:
        assert f"{section.title} total: {section.total}" in txt
        assert f"**{section.title} total: {section.total}**" in md
        for row in section.rows:
            assert any(line.startswith(f"{row.qty}  {row.name}") for line in txt_lines), row
            escaped = row.name.replace("|", "\\|")
            assert any(cells[:2] == [str(row.qty), escaped] for cells in md_cells), row
    for text in (txt, md):
        assert "Ada" in text and "Store Cup" in text
        assert "signature" in text.lower() and "judge use only" in text.lower()
        assert f"Total {sheet.total}" in text
        assert "NOT LEGAL" not in text


def test_md_uses_pipe_tables_and_escapes_pipes(store: CardStore) -> None:
    md = render(sheet_of(store, sample("elekin")), "md")
    assert isinstance(md, str)
    assert "|   Qty | Card Name" in md
    assert "| Aeris \\| The Air Slyph" in md
    assert "|------:|" in md


@pytest.mark.parametrize("game", GAMES)
def test_csv_has_a_row_per_card_and_totals(store: CardStore, game: str) -> None:
    sheet = sheet_of(store, sample(game), overrides=SheetOverrides(player="Ada"))
    text = render(sheet, "csv")
    assert isinstance(text, str)
    records = list(csv.DictReader(io.StringIO(text)))
    cards = [(r["section"], int(r["count"]), r["name"], r["type"], r["cost"]) for r in records if r["record"] == "card"]
    assert cards == [(s.title, r.qty, r.name, r.type, r.cost) for s in sheet.sections for r in s.rows]
    totals = {r["section"]: int(r["count"]) for r in records if r["record"] == "total"}
    assert totals == {**{s.title: s.total for s in sheet.sections}, "Total": sheet.total}
    meta = {r["section"]: r["name"] for r in records if r["record"] == "meta"}
    assert meta["player"] == "Ada" and meta["game"] == game and meta["legal"] == "yes"


def test_csv_lists_violations_of_an_illegal_deck(store: CardStore, tmp_path: Path) -> None:
    sheet = sheet_of(store, write_deck(tmp_path, ILLEGAL_ELESTRALS), allow_illegal=True)
    records = list(csv.DictReader(io.StringIO(str(render(sheet, "csv")))))
    assert {r["type"] for r in records if r["record"] == "violation"} >= {"unknown-card", "deck-size"}
    assert next(r for r in records if r["section"] == "legal")["name"] == "no"


@pytest.mark.parametrize("game", GAMES)
def test_json_is_the_full_sheet(store: CardStore, game: str) -> None:
    sheet = sheet_of(store, sample(game), overrides=SheetOverrides(event="Store Cup"))
    document = json.loads(str(render(sheet, "json")))
    assert document["game"] == game and document["legal"] is True and document["event"] == "Store Cup"
    assert [s["title"] for s in document["sections"]] == SECTION_TITLES[game]
    for section, model in zip(document["sections"], sheet.sections, strict=True):
        assert section["total"] == model.total
        assert [(r["qty"], r["name"], r["type"], r["cost"]) for r in section["rows"]] == [
            (r.qty, r.name, r.type, r.cost) for r in model.rows
        ]
    assert document["totals"]["total"] == sheet.total


def test_illegal_sheets_say_so_in_every_text_form(store: CardStore, tmp_path: Path) -> None:
    sheet = sheet_of(store, write_deck(tmp_path, ILLEGAL_ELESTRALS), allow_illegal=True)
    for form in ("txt", "md"):
        text = str(render(sheet, form))
        assert "NOT LEGAL" in text
        assert "no elestrals card named 'Not A Real Card'" in text
    assert json.loads(str(render(sheet, "json")))["legal"] is False


def test_unknown_format_and_paper_are_errors(store: CardStore) -> None:
    sheet = sheet_of(store, sample("elemystic"))
    with pytest.raises(ExportError, match="unknown export format"):
        render(sheet, "docx")
    with pytest.raises(ExportError, match="unknown paper"):
        render(sheet, "pdf", "a5")


# -- layout -------------------------------------------------------------------------------


def test_latin1_text_keeps_names_recognisable() -> None:
    assert latin1_text("Arachne’s Lair") == "Arachne's Lair"
    assert latin1_text("“Zoë” – café…") == '"Zoë" - café...'
    assert latin1_text("Łódź") == "Lódz"  # ó is Latin-1, Ł and ź are not
    assert latin1_text("雷") == "?"


def _big_elestrals(store: CardStore) -> str:
    cards = store.cards("elestrals")
    runes = [c.name for c in cards if c.type == "rune"]
    elestrals = sorted((c.name for c in cards if c.type == "elestral"), key=len, reverse=True)
    spirits = [c.name for c in cards if c.type == "spirit"]
    main = runes[:20] + elestrals[:20]
    side = elestrals[20:32]
    return "\n".join(
        [
            "Game: elestrals",
            "Name: Forty singles",
            "Main Deck:",
            *(f"1 {n}" for n in main),
            "Spirit Deck:",
            *(f"{3 if i < 4 else 2} {n}" for i, n in enumerate(spirits)),
            "Side Deck:",
            *(f"1 {n}" for n in side),
        ]
    )


def test_sixty_plus_twenty_card_deck_plans_to_one_page_in_two_columns(store: CardStore, tmp_path: Path) -> None:
    sheet = sheet_of(store, write_deck(tmp_path, _big_elestrals(store)))
    assert sheet.legal and sheet.total == 72
    for paper in PAPERS:
        layout = plan(sheet, paper)
        assert len(layout.pages) == 1 and layout.across == 2
        placed = [(p.section.title, r.name) for column in layout.pages[0] for p in column for r in p.rows]
        assert placed == [(s.title, r.name) for s in sheet.sections for r in s.rows]


def test_flow_never_loses_or_repeats_rows(store: CardStore) -> None:
    sheet = sheet_of(store, sample("elekin"))
    for capacity in (6.0, 9.5, 14.0, 30.0, 200.0):
        columns = flow(sheet.sections, capacity)
        placed = [(p.section.id, r.name) for column in columns for p in column for r in p.rows]
        assert placed == [(s.id, r.name) for s in sheet.sections for r in s.rows]
        closing = [p.section.id for column in columns for p in column if p.closes]
        assert closing == [s.id for s in sheet.sections]


def test_small_samples_use_one_column_at_full_size(store: CardStore) -> None:
    for game in GAMES:
        layout = plan(sheet_of(store, sample(game)), "letter")
        assert (layout.across, layout.font, len(layout.pages)) == (1, 9.0, 1)
        assert card_area(layout.paper, None) / row_height(layout.font) > 30


# -- output files ---------------------------------------------------------------------------


def test_write_output_is_atomic_and_never_overwrites_without_force(tmp_path: Path) -> None:
    target = tmp_path / "sheet.txt"
    write_output(target, "first")
    assert target.read_text() == "first"
    with pytest.raises(OutputExistsError):
        write_output(target, "second")
    assert target.read_text() == "first"
    write_output(target, b"second", force=True)
    assert target.read_bytes() == b"second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.txt"]  # no temporary file left
    with pytest.raises(ExportError, match="does not exist"):
        write_output(tmp_path / "missing" / "x.txt", "x")
    with pytest.raises(ExportError, match="folder"):
        write_output(tmp_path, "x", force=True)

"""``deckcli export`` end to end: real files, exit codes, no tracebacks."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import CliInvoker, run_cli

REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLES = REPO_ROOT / "card_db" / "decks"
ELEKIN = str(SAMPLES / "elekin-sample.txt")
ELESTRALS = str(SAMPLES / "elestrals-sample.txt")

ILLEGAL = """Game: elestrals
Name: Broken Brew
Main Deck:
4 Sluggle
1 Not A Real Card
Spirit Deck:
12 Leviaphin
"""


@pytest.fixture
def illegal_deck(tmp_path: Path) -> Path:
    path = tmp_path / "broken.txt"
    path.write_text(ILLEGAL, encoding="utf-8")
    return path


def test_fresh_store_fills_itself_and_exports(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "fresh" / "cards.sqlite"
    db.parent.mkdir()
    result = run_cli(runner, ["--db", str(db), "export", ELESTRALS, "--to", "txt", "--player", "Ada"])
    assert "DECK REGISTRATION SHEET - Elestrals" in result.stdout
    assert "3  Sluggle" in result.stdout and "12  Leviaphin" in result.stdout
    assert "Main Deck total: 40" in result.stdout and "Spirit Deck total: 20" in result.stdout
    assert db.is_file()


@pytest.mark.parametrize("form", ["txt", "md", "csv", "json", "html"])
def test_text_forms_go_to_stdout(cli: CliInvoker, form: str) -> None:
    result = cli("export", ELEKIN, "--to", form, "--event", "Store Cup")
    out = result.stdout
    for name in ("Glint", "Binding Coils", "Mystic Ward", "Elemental Shield"):
        assert name in out
    assert "Store Cup" in out
    if form == "json":
        document = json.loads(out)
        assert document["totals"] == {"main": 40, "shields": 3, "side": 0, "total": 43}
    elif form == "csv":
        totals = [r for r in csv.DictReader(io.StringIO(out)) if r["record"] == "total"]
        assert [(r["section"], r["count"]) for r in totals] == [
            ("Main Deck", "40"),
            ("Shields", "3"),
            ("Side Deck", "0"),
            ("Total", "43"),
        ]
    else:
        assert "Main Deck total: 40" in out.replace('<span class="count">', "").replace("</span>", "")


def test_pdf_needs_an_output_file(cli: CliInvoker) -> None:
    result = cli("export", ELEKIN, "--to", "pdf", expect=2)
    assert "needs an output file" in result.output and "-o" in result.output


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pdf_written_to_a_file(cli: CliInvoker, tmp_path: Path, paper: str) -> None:
    pypdf = pytest.importorskip("pypdf")
    out = tmp_path / "sheet.pdf"
    result = cli("export", ELEKIN, "--to", "pdf", "-o", str(out), "--paper", paper, "--player", "Ada Lovelace")
    assert f"wrote {out}" in result.output
    reader = pypdf.PdfReader(str(out))
    assert len(reader.pages) == 1
    width = float(reader.pages[0].mediabox.width)
    assert width == pytest.approx(595.28 if paper == "a4" else 612.0, abs=0.5)
    text = reader.pages[0].extract_text()
    assert "Ada Lovelace" in text and "3 Glint" in text and "Shields total: 3" in text
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temp files left


def test_output_is_never_overwritten_without_force(cli: CliInvoker, tmp_path: Path) -> None:
    out = tmp_path / "sheet.md"
    out.write_text("keep me")
    result = cli("export", ELEKIN, "--to", "md", "-o", str(out), expect=2)
    assert "already exists" in result.output and "--force" in result.output
    assert out.read_text() == "keep me"
    cli("export", ELEKIN, "--to", "md", "-o", str(out), "--force")
    assert out.read_text().startswith("# Deck registration sheet")


def test_illegal_deck_is_refused_with_the_violations(cli: CliInvoker, tmp_path: Path, illegal_deck: Path) -> None:
    out = tmp_path / "sheet.pdf"
    result = cli("export", str(illegal_deck), "--to", "pdf", "-o", str(out), expect=1)
    assert "NOT LEGAL" in result.output
    assert "unknown-card" in result.output and "Not A Real Card" in result.output
    assert "deck-size" in result.output
    assert "--allow-illegal" in result.output
    assert not out.exists()


def test_allow_illegal_marks_the_sheet(cli: CliInvoker, tmp_path: Path, illegal_deck: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    out = tmp_path / "sheet.pdf"
    result = cli("export", str(illegal_deck), "--to", "pdf", "-o", str(out), "--allow-illegal")
    assert "NOT LEGAL" in result.output
    text = pypdf.PdfReader(str(out)).pages[0].extract_text()
    assert "NOT LEGAL" in text and "unknown-card" in text
    txt = cli("export", str(illegal_deck), "--to", "txt", "--allow-illegal").stdout
    assert "*** NOT LEGAL" in txt and "4  Sluggle" in txt


def test_options_override_the_deck_metadata_and_sort(cli: CliInvoker, tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    header = "Player: File Player\nEvent: File Event\nDate: 2024-01-01\n"
    deck.write_text(header + (SAMPLES / "elekin-sample.txt").read_text())
    plain = json.loads(cli("export", str(deck), "--to", "json").stdout)
    assert (plain["player"], plain["event"], plain["date"]) == ("File Player", "File Event", "2024-01-01")
    result = cli(
        "export",
        str(deck),
        "--to",
        "json",
        "--player",
        "Ada",
        "--event",
        "Nationals",
        "--date",
        "2025-06-01",
        "--deck-name",
        "Sparks",
        "--sort",
        "name",
    )
    document = json.loads(result.stdout)
    assert (document["player"], document["event"], document["date"], document["deck_name"]) == (
        "Ada",
        "Nationals",
        "2025-06-01",
        "Sparks",
    )
    names = [r["name"] for r in document["sections"][0]["rows"]]
    assert names == sorted(names, key=str.casefold)


def test_input_and_usage_errors_exit_2(cli: CliInvoker, tmp_path: Path) -> None:
    missing = cli("export", str(tmp_path / "nope.txt"), "--to", "txt", expect=2)
    assert "no such decklist file" in missing.output
    bad_form = cli("export", ELEKIN, "--to", "docx", expect=2)
    assert "docx" in bad_form.output
    bad_paper = cli("export", ELEKIN, "--to", "html", "--paper", "a5", expect=2)
    assert "a5" in bad_paper.output
    two = tmp_path / "two.txt"
    two.write_text(
        "## Deck one\nGame: elemystic\nElements:\n1 Fire\n## Deck two\nGame: elemystic\nElements:\n1 Water\n"
    )
    result = cli("export", str(two), "--to", "txt", expect=2)
    assert "holds 2 decks" in result.output
    unknown = tmp_path / "unknown.txt"
    unknown.write_text("3 Nothing Like A Card\n")
    assert "cannot tell which game" in cli("export", str(unknown), "--to", "txt", expect=2).output
    no_folder = cli("export", ELEKIN, "--to", "txt", "-o", str(tmp_path / "missing" / "x.txt"), expect=2)
    assert "does not exist" in no_folder.output


def test_json_decklists_export_too(cli: CliInvoker, tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    names = ("Earth", "Light", "Air", "Storm", "Water", "Fire", "Shadow", "Chaos", "Lightning")
    elements = [{"count": 1, "name": n} for n in names]
    deck.write_text(json.dumps({"game": "elemystic", "player": "Ada", "sections": {"elements": elements}}))
    out = cli("export", str(deck), "--to", "csv").stdout
    rows = [r for r in csv.DictReader(io.StringIO(out)) if r["record"] == "card"]
    assert len(rows) == 9 and {r["section"] for r in rows} == {"Elements"}

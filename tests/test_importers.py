"""Importers: canonical JSON/CSV, the Elestrals API dump, the Elekin gallery; all-or-nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    ELEKIN_GALLERY,
    ELESTRALS_API,
    ELESTRALS_ARRAY,
    ELESTRALS_DATA,
    CliInvoker,
    requires_realdata,
    store_dump,
)

from deckcli.cards.importers import import_source, load_cards
from deckcli.cards.importers.elekin_gallery import DRAGON_ELEMENTS
from deckcli.cards.models import ElekinCard
from deckcli.cards.store import CardStore
from deckcli.errors import ImportRecordError, SourceError

# -- canonical JSON and CSV --------------------------------------------------------


def _write_json(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return path


ELEKIN_RECORDS = [
    {"name": "Test Wisp", "type": "creature", "elements": ["air"], "cost": 2, "strength": 50, "agility": 60},
    {"name": "Test Ward", "type": "shield", "tier": 2, "text": "Block 100."},
    {"name": "Test Rune", "type": "rune", "rune_kind": "instant", "keywords": ["Pierce", " "]},
]


@pytest.mark.parametrize("wrapped", [False, True])
def test_canonical_json_array_and_wrapper(tmp_path: Path, wrapped: bool) -> None:
    document: Any = {"game": "kinbrold", "cards": ELEKIN_RECORDS} if wrapped else ELEKIN_RECORDS
    result = load_cards("elekin", _write_json(tmp_path / "cards.json", document))
    assert result.importer == "canonical-json"
    assert [c.name for c in result.cards] == ["Test Wisp", "Test Ward", "Test Rune"]
    wisp, ward, rune = result.cards
    assert isinstance(wisp, ElekinCard) and (wisp.cost, wisp.strength, wisp.elements) == (2, 50, ["air"])
    assert isinstance(ward, ElekinCard) and ward.tier == 2
    assert rune.keywords == ["Pierce"]


def test_canonical_json_for_another_game_is_refused(tmp_path: Path) -> None:
    path = _write_json(tmp_path / "a.json", {"game": "aestery", "cards": []})
    with pytest.raises(SourceError, match="holds aestery cards, not elekin cards"):
        load_cards("elekin", path)


def test_canonical_csv_list_and_bool_fields(tmp_path: Path) -> None:
    path = tmp_path / "cards.csv"
    path.write_text(
        "\ufeffname,type,cost,elements,keywords,demo,provisional\n"
        "Csv Drake,creature,3,air; fire,Pierce;Double Strike,yes,false\n"
        "\n"
        "Csv Rune,rune,,,,0,1\n",
        encoding="utf-8",
    )
    result = load_cards("elekin", path)
    assert result.importer == "canonical-csv"
    drake, rune = result.cards
    assert isinstance(drake, ElekinCard)
    assert drake.elements == ["air", "fire"]
    assert drake.keywords == ["Pierce", "Double Strike"]
    assert (drake.cost, drake.demo, drake.provisional) == (3, True, False)
    assert isinstance(rune, ElekinCard)
    assert (rune.cost, rune.elements, rune.demo, rune.provisional) == (None, [], False, True)


def test_canonical_folder(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    _write_json(folder / "1.json", ELEKIN_RECORDS[0])
    _write_json(folder / "2.json", ELEKIN_RECORDS[1:])
    _write_json(folder / "3.json", {"game": "elekin", "cards": [{"name": "Test Extra", "type": "counter"}]})
    result = load_cards("elekin", folder)
    assert result.importer == "canonical-json"
    assert sorted(c.name for c in result.cards) == ["Test Extra", "Test Rune", "Test Ward", "Test Wisp"]
    _write_json(folder / "4.json", [{"name": "Test Spell", "type": "spell"}])
    with pytest.raises(ImportRecordError, match=r"record 4\.json#1, field 'type'"):
        load_cards("elekin", folder)
    _write_json(folder / "4.json", {"game": "aestery", "cards": []})
    with pytest.raises(SourceError, match=r"4\.json: the file holds aestery cards"):
        load_cards("elekin", folder)


def test_import_source_writes_and_replace_deletes(store: CardStore, tmp_path: Path) -> None:
    path = _write_json(tmp_path / "cards.json", ELEKIN_RECORDS)
    import_source(store, "elekin", path)
    assert store.card_count("elekin") == 178
    import_source(store, "elekin", path, replace=True)
    assert store.card_count("elekin") == 3
    assert store.get("elekin", "Glint") is None
    assert store.imports("elekin")[-1].replaced


# -- bad records: the error names everything, the store is unchanged ----------------


def _bad_sources(tmp_path: Path) -> list[tuple[str, Path, list[str]]]:
    """(game, source, fragments the error must contain) for each source format."""
    cases: list[tuple[str, Path, list[str]]] = []
    good = ELEKIN_RECORDS[:2]
    bad_json = _write_json(tmp_path / "bad.json", [*good, {"name": "Broken", "type": "creature", "cost": "lots"}])
    cases.append(("elekin", bad_json, [str(bad_json), "record 3", "field 'cost'", "integer", "'lots'"]))
    unknown = _write_json(tmp_path / "unknown.json", [*good, {"name": "Odd", "type": "creature", "colour": "red"}])
    cases.append(("elekin", unknown, [str(unknown), "record 3", "field 'colour'", "no field 'colour'", "'red'"]))
    nameless = _write_json(tmp_path / "nameless.json", [{"type": "rune"}])
    cases.append(("elekin", nameless, [str(nameless), "record 1", "field 'name'", "required", "None"]))
    dup = _write_json(tmp_path / "dup.json", [*good, {"name": "TEST  WISP", "type": "rune"}])
    cases.append(("elekin", dup, [str(dup), "record 3", "field 'name'", "record 1 has it", "'TEST  WISP'"]))
    csv = tmp_path / "bad.csv"
    csv.write_text("name,type,cost\nGood One,creature,1\nBad One,creature,x\n", encoding="utf-8")
    cases.append(("elekin", csv, [str(csv), "record line 3", "field 'cost'", "integer", "'x'"]))
    csv_bool = tmp_path / "bool.csv"
    csv_bool.write_text("name,type,demo\nGood One,rune,maybe\n", encoding="utf-8")
    cases.append(("elekin", csv_bool, [str(csv_bool), "line 2", "field 'demo'", "true or false", "'maybe'"]))
    if ELESTRALS_DATA.is_dir():
        folder = tmp_path / "api" / "data"
        shutil.copytree(ELESTRALS_DATA / "sets", folder / "sets")
        (folder / "cards").mkdir()
        for card in sorted((ELESTRALS_DATA / "cards").glob("cd-10*.json"))[:20]:
            shutil.copy(card, folder / "cards")
        record = json.loads((folder / "cards" / "cd-1004.json").read_text(encoding="utf-8"))
        record["attack"] = -3
        _write_json(folder / "cards" / "cd-1004.json", record)
        fragments = [str(folder), "cd-1004.json", "field 'attack'", "greater than or equal to 0", "-3"]
        cases.append(("elestrals", folder, fragments))
    if ELEKIN_GALLERY.is_file():
        gallery = json.loads(ELEKIN_GALLERY.read_text(encoding="utf-8"))
        gallery["cards"][9]["element"] = "Plasma"
        bad_gallery = _write_json(tmp_path / "gallery.json", gallery)
        fragments = [str(bad_gallery), "record 10", "field 'element'", "Dragon element", "'Plasma'"]
        cases.append(("elekin", bad_gallery, fragments))
    return cases


def test_bad_record_errors_name_source_record_field_expected_found(tmp_path: Path) -> None:
    for game, source, fragments in _bad_sources(tmp_path):
        with pytest.raises(ImportRecordError) as info:
            load_cards(game, source)
        message = str(info.value)
        for fragment in fragments:
            assert fragment in message, (fragment, message)


@pytest.mark.parametrize("replace", [False, True])
def test_failed_import_leaves_store_unchanged(cli: CliInvoker, seeded_db: Path, tmp_path: Path, replace: bool) -> None:
    rows_before = store_dump(seeded_db)
    bytes_before = seeded_db.read_bytes()
    for game, source, fragments in _bad_sources(tmp_path):
        args = ["db", "import", game, str(source)] + (["--replace"] if replace else [])
        result = cli(*args, expect=2)
        assert fragments[1] in result.stderr
        assert "Imported" not in result.stdout
        assert store_dump(seeded_db) == rows_before
        assert seeded_db.read_bytes() == bytes_before


def test_source_errors(cli: CliInvoker, seeded_db: Path, tmp_path: Path) -> None:
    before = store_dump(seeded_db)
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    (tmp_path / "broken.json").write_text('[{"name": "x",,}]', encoding="utf-8")
    (tmp_path / "latin1.csv").write_bytes("name,type\nCaf\xe9,rune\n".encode("latin-1"))
    (tmp_path / "empty").mkdir()
    _write_json(tmp_path / "object.json", {"hello": "world"})
    cases = {
        str(tmp_path / "missing.json"): "no such file or folder",
        str(tmp_path / "notes.txt"): "unknown source format",
        str(tmp_path / "broken.json"): "not valid JSON (line 1, column",
        str(tmp_path / "latin1.csv"): "not UTF-8",
        str(tmp_path / "empty"): "holds no .json files",
        str(tmp_path / "object.json"): "not a card format deckcli knows",
    }
    for source, fragment in cases.items():
        result = cli("db", "import", "elekin", source, expect=2)
        assert fragment in result.stderr, (source, result.stderr)
    result = cli("db", "import", "elekin", str(tmp_path / "object.json"), "--importer", "nope", expect=2)
    assert "unknown importer 'nope'" in result.stderr
    assert store_dump(seeded_db) == before


# -- the Elestrals API dump --------------------------------------------------------


@pytest.fixture(scope="module")
def api_folder_result() -> Any:
    return load_cards("elestrals", ELESTRALS_DATA)


def _api_records() -> list[dict[str, Any]]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted((ELESTRALS_DATA / "cards").glob("*.json"))]


def _by_name(cards: list[Any]) -> dict[str, Any]:
    return {card.name: card for card in cards}


@requires_realdata
def test_api_folder_merges_printings(api_folder_result: Any) -> None:
    records = _api_records()
    assert len(records) == 1875
    cards = api_folder_result.cards
    assert api_folder_result.importer == "elestrals-api"
    assert len(cards) == 436
    printing_ids = [p.source_id for card in cards for p in card.printings]
    assert len(printing_ids) == 1875
    assert set(printing_ids) == {r["id"] for r in records}
    assert api_folder_result.notes[0] == "1875 printings merged into 436 cards"
    assert "13 cards have printings that differ" in api_folder_result.notes[1]


@requires_realdata
def test_api_curly_and_straight_apostrophes_are_one_card(api_folder_result: Any) -> None:
    records = _api_records()
    spellings = {r["name"] for r in records if r["name"].replace("’", "'") == "Poseidon's Fury"}
    assert spellings == {"Poseidon's Fury", "Poseidon’s Fury"}
    fury = [c for c in api_folder_result.cards if c.name.replace("’", "'") == "Poseidon's Fury"]
    assert len(fury) == 1
    assert len(fury[0].printings) == sum(r["name"] in spellings for r in records)


@requires_realdata
def test_api_differing_printings_keep_the_newest(api_folder_result: Any) -> None:
    charcoon = _by_name(api_folder_result.cards)["Charcoon"]
    # FST-054 (Firestorm, 2025) changed attack 1 -> 2 and the text; it is kept.
    assert (charcoon.number, charcoon.set, charcoon.attack, charcoon.defense) == ("FST-054", "Firestorm", 2, 6)
    assert "Nexus" in charcoon.text
    printings = {p.source_id: p for p in charcoon.printings}
    assert set(printings) == {"cd-1004", "cd-1270", "cd-1742"}
    assert printings["cd-1004"].differs and printings["cd-1270"].differs
    assert not printings["cd-1742"].differs
    assert printings["cd-1742"].released == "2025-05-23"
    assert "2 older printing(s) differ" in charcoon.notes
    vysceris = _by_name(api_folder_result.cards)["Vysceris"]
    assert [p.source_id for p in vysceris.printings][-1] == "cd-1770"
    assert vysceris.number == next(r["set_number"] for r in _api_records() if r["id"] == "cd-1770")


@requires_realdata
def test_api_alias_becomes_counts_as(api_folder_result: Any) -> None:
    cards = _by_name(api_folder_result.cards)
    # Only the two older printings carry the alias; the card keeps it.
    assert cards["Charcoon"].counts_as == "Cirrucoon"
    assert cards["Cirrucoon"].counts_as is None
    assert sum(c.counts_as is not None for c in api_folder_result.cards) == 1


@requires_realdata
def test_api_title_is_part_of_the_name(api_folder_result: Any) -> None:
    cards = _by_name(api_folder_result.cards)
    morphrost = cards["Morphrost - Abominable Form"]
    assert (morphrost.base_name, morphrost.title) == ("Morphrost", "Abominable Form")
    # Every titled printing's full name is a card (doubled spaces in the dump are tidied).
    titled = {" ".join(r["name"].split()) for r in _api_records() if r["title"]}
    assert len(titled) > 20
    assert titled <= set(cards)
    assert all(cards[name].title is not None and cards[name].title in name for name in titled)


@requires_realdata
def test_api_types_and_subtypes(api_folder_result: Any) -> None:
    cards = _by_name(api_folder_result.cards)
    by_type: dict[str, int] = {}
    for card in api_folder_result.cards:
        by_type[card.type] = by_type.get(card.type, 0) + 1
    assert by_type == {"elestral": 321, "rune": 107, "spirit": 8}
    assert {c.subtype for c in api_folder_result.cards if c.type == "rune"} == {
        "invoke",
        "counter",
        "artifact",
        "divine",
        "stadium",
    }
    leviaphin = cards["Leviaphin"]
    assert (leviaphin.type, leviaphin.element) == ("spirit", "water")


@requires_realdata
@pytest.mark.parametrize("source", [ELESTRALS_ARRAY, ELESTRALS_API])
def test_api_one_array_file_and_parent_folder(api_folder_result: Any, source: Path) -> None:
    result = load_cards("elestrals", source)
    assert result.importer == "elestrals-api"
    assert sorted(c.name for c in result.cards) == sorted(c.name for c in api_folder_result.cards)
    assert sum(len(c.printings) for c in result.cards) == 1875
    assert _by_name(result.cards)["Charcoon"].counts_as == "Cirrucoon"


@requires_realdata
def test_api_import_through_cli_reports_counts(cli: CliInvoker) -> None:
    result = cli("db", "import", "elestrals", str(ELESTRALS_DATA), "--replace")
    assert "436 elestrals cards" in result.stdout
    assert "1875 printings merged into 436 cards" in result.stdout
    assert "13 cards have printings that differ" in result.stdout
    shown = json.loads(cli("db", "show", "elestrals", "Charcoon", "--json").stdout)
    assert shown["counts_as"] == "Cirrucoon"
    assert len(shown["printings"]) == 3


# -- the Elekin gallery ------------------------------------------------------------


@pytest.fixture(scope="module")
def gallery() -> tuple[Any, list[dict[str, Any]]]:
    raw = json.loads(ELEKIN_GALLERY.read_text(encoding="utf-8"))["cards"]
    return load_cards("elekin", ELEKIN_GALLERY), raw


@requires_realdata
def test_gallery_imports_every_card(gallery: tuple[Any, list[dict[str, Any]]]) -> None:
    result, raw = gallery
    assert result.importer == "elekin-gallery"
    assert len(result.cards) == len(raw) == 175
    assert [c.name for c in result.cards] == [r["name"].strip() for r in raw]


@requires_realdata
def test_gallery_stats_and_essence_are_flattened(gallery: tuple[Any, list[dict[str, Any]]]) -> None:
    result, raw = gallery
    checked = 0
    for card, record in zip(result.cards, raw, strict=True):
        stats = record.get("stats") or {}
        essence = record.get("essence") or {}
        assert card.strength == stats.get("strength")
        assert card.agility == stats.get("agility")
        assert card.cost == (essence.get("cost") or {}).get("amount")
        assert card.generation == (essence.get("generation") or {}).get("amount")
        assert card.number == str(record["cardNumber"])
        checked += bool(stats)
    assert checked > 90
    glint = _by_name(result.cards)["Glint"]
    assert (glint.type, glint.elements, glint.cost, glint.strength, glint.agility, glint.generation) == (
        "creature",
        ["air"],
        0,
        80,
        70,
        1,
    )


@requires_realdata
@pytest.mark.parametrize(
    ("name", "elements"),
    [
        ("Veton | The Lightning Dragon", ["air", "fire"]),
        ("Diamoria | The Crystal Dragon", ["water", "earth"]),
        ("Zoryn | The Lava Dragon", ["earth", "fire"]),
        ("Eldritch | The Frost Dragon", ["water", "air"]),
        ("Noxilus | The Poison Dragon", ["water", "fire"]),
        ("Aridus | The Sand Dragon", ["earth", "air"]),
    ],
)
def test_gallery_dragons_get_paired_elements(
    gallery: tuple[Any, list[dict[str, Any]]], name: str, elements: list[str]
) -> None:
    dragon = _by_name(gallery[0].cards)[name]
    assert dragon.elements == elements
    assert dragon.dragon
    assert DRAGON_ELEMENTS[name.split()[-2].lower()] == tuple(elements)


@requires_realdata
def test_gallery_element_typed_records_are_incomplete_creatures(gallery: tuple[Any, list[dict[str, Any]]]) -> None:
    result, raw = gallery
    element_typed = [r for r in raw if r["type"] in ("Air", "Water", "Earth", "Fire")]
    assert len(element_typed) == 24
    cards = _by_name(result.cards)
    for record in element_typed:
        card = cards[record["name"].strip()]
        assert card.type == "creature"
        assert card.incomplete
        assert card.elements == [record["type"].lower()]
        assert "strength" in card.notes
    assert sum(c.incomplete for c in result.cards) == 28  # + 4 Ancients whose cost is missing
    assert not cards["Glint"].incomplete
    assert "28 creatures" in result.notes[0]
    assert sum(c.dragon for c in result.cards) == 6

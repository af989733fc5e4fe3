# ruff: noqa: F811  (pytest fixtures are imported, then named as parameters)
"""Formats as data: loading, strictness, citations, house formats, dated lists, and the
``deckcli formats list/show/check`` commands."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from rules_fixtures import (
    FORMATS_DIR,
    HOUSE_COPY_LIMIT,
    RULEBOOKS,
    SAMPLES,
    card_store,  # noqa: F401  (a fixture)
    check,
    deckcli,  # noqa: F401  (a fixture)
    house_format,
    line_of,
    only_error,
    pools,  # noqa: F401  (a fixture)
    requires_rulebooks,
    rules_db,  # noqa: F401  (a fixture)
)

from deckcli.games import game_ids
from deckcli.rules import CODES, FormatError, find_format, list_formats
from deckcli.rules.formats import load_format_file
from deckcli.rules.intake import missing_names
from deckcli.rules.kinds import RULE_KINDS

ELESTRALS_TOML = FORMATS_DIR / "elestrals.toml"
SAMPLE_ELESTRALS = SAMPLES / "elestrals-sample.txt"

# ----------------------------------------------------------------------------- bundled formats


def test_one_bundled_format_per_game() -> None:
    formats = list_formats()
    assert sorted(f.id for f in formats) == sorted(game_ids())
    for fmt in formats:
        assert fmt.game == fmt.id
        assert fmt.rulebook == f"{fmt.game}.txt"
        assert Path(fmt.path).name == f"{fmt.id}.toml"


@pytest.mark.parametrize("name", ["elekin", "Elekin", "kinbrold", "clash", "elemental_clash", "mystic"])
def test_find_format_by_id_or_game_alias(name: str) -> None:
    assert find_format(name).game in game_ids()


def test_unknown_format_names_the_valid_ones() -> None:
    with pytest.raises(FormatError) as caught:
        find_format("pokemon")
    assert "unknown format 'pokemon'" in caught.value.message
    assert caught.value.hint is not None and "elestrals" in caught.value.hint


def _norm(text: str) -> str:
    text = re.sub(r"[*'\"‘’“”]", "", text)
    return " ".join(text.lower().split())


def _cites(fmt_id: str) -> list[tuple[str, str]]:
    fmt = find_format(fmt_id)
    cites = [(f"sections.{s.id}", s.cite) for s in fmt.sections]
    cites += [(f"rules[{i}] {r.kind}", r.cite) for i, r in enumerate(fmt.rules)]
    if fmt.sideboarding is not None:
        cites.append(("sideboarding", fmt.sideboarding.cite))
    return cites


@requires_rulebooks
@pytest.mark.parametrize("fmt_id", game_ids())
def test_every_section_and_rule_cites_its_rulebook(fmt_id: str) -> None:
    """Each cite names a heading of the rulebook or quotes it (a '...'-separated quote
    may shorten, but at least one fragment is verbatim)."""
    fmt = find_format(fmt_id)
    book_text = (RULEBOOKS / fmt.rulebook).read_text(encoding="utf-8")
    book = _norm(book_text)
    for where, cite in _cites(fmt_id):
        assert cite.strip(), f"{fmt_id} {where} has an empty cite"
        quotes = [part for quote in re.findall(r"'(.+?)'(?=[\s,;)]|$)", cite) for part in quote.split(" ... ")]
        unquoted = re.sub(r"'.+?'(?=[\s,;)]|$)", "", cite)
        references = [part for part in re.split(r"[:(;]| and ", unquoted) if part.strip()]
        grounded = [text for text in quotes + references if len(text.split()) >= 2 and _norm(text) in book]
        assert grounded, f"{fmt_id} {where}: nothing of {cite!r} is in {fmt.rulebook}"
        number = re.match(r"(\d+(?:\.\d+)+)\s", cite)
        if number:  # a numbered rulebook: the section number is a heading
            assert re.search(rf"^{re.escape(number.group(1))}\s", book_text, re.M), f"{where}: no section {number[1]}"


def test_every_rule_kind_is_used_by_some_bundled_format() -> None:
    used = {rule.kind for fmt in list_formats() for rule in fmt.rules}
    assert used == set(RULE_KINDS) - {"banned"}  # no game bans anything yet; house formats do


# ----------------------------------------------------------------------------- broken files


def _broken(tmp_path: Path, text: str, stem: str = "broken") -> FormatError:
    path = tmp_path / f"{stem}.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError) as caught:
        load_format_file(path)
    assert str(path) in caught.value.message, caught.value.message
    return caught.value


BASE = ELESTRALS_TOML.read_text(encoding="utf-8")


def _banned_rule(*cards: str, sections: str = '["main", "side"]', cite: str = "House") -> str:
    return f'\n[[rules]]\nkind = "banned"\nsections = {sections}\ncite = "{cite}"\ncards = [{", ".join(cards)}]\n'


@pytest.mark.parametrize(
    ("edit", "key", "detail"),
    [
        (lambda t: t.replace("min = 40", "min = = 40", 1), None, "not valid TOML"),
        (lambda t: "colour = 'red'\n" + t, "colour", "Extra inputs are not permitted"),
        (lambda t: t.replace("min = 40", "min = 40\nminimum = 3", 1), "sections[0].minimum", "Extra inputs"),
        (lambda t: t.replace("min = 40", 'min = "forty"', 1), "sections[0].min", "valid integer"),
        (lambda t: t.replace("optional = true", 'optional = "perhaps"', 1), "sections[2].optional", "valid boolean"),
        (lambda t: t.replace("limit = 3", 'limit = "three"', 1), "rules[0].limit", "valid integer"),
        (lambda t: t.replace("limit = 3", "limit = 3\nlimt = 2", 1), "rules[0].limt", "Extra inputs"),
        (lambda t: t.replace("limit = 3", "limit = -1", 1), "rules[0].limit", "greater than or equal to 0"),
        (lambda t: t.replace('kind = "copy-limit"', 'kind = "copy-limits"', 1), "rules[0].kind", "unknown rule kind"),
        (lambda t: t.replace('kind = "copy-limit"\n', "", 1), "rules[0]", "missing key 'kind'"),
        (lambda t: t.replace('cite = "Beginning a Game (', 'xcite = "Beginning a Game (', 1), "rules[0]", "cite"),
        (lambda t: t.replace('key = "counts_as"', 'key = "title"', 1), "rules[0].key", "'name' or 'counts_as'"),
        (
            lambda t: t.replace('sections = ["main", "side"]', 'sections = ["main", "sideboard"]', 1),
            "rules[0].sections",
            "names section 'sideboard', which the format lacks",
        ),
        (
            lambda t: t.replace('supply_sections = ["spirit"]', 'supply_sections = ["spirits"]', 1),
            "rules[1].supply_sections",
            "names section 'spirits'",
        ),
        (
            lambda t: t.replace('keep_sizes = ["main", "spirit"]', 'keep_sizes = ["main", "spirt"]', 1),
            "sideboarding.keep_sizes",
            "names section 'spirt'",
        ),
        (lambda t: t.replace('game = "elestrals"', 'game = "pokemon"', 1), "game", "unknown game 'pokemon'"),
        (lambda t: t.replace('name = "Elestrals', 'nam = "Elestrals', 1), "name", "Field required"),
    ],
    ids=[
        "bad-toml",
        "unknown-top-key",
        "unknown-section-key",
        "section-wrong-type",
        "section-wrong-bool",
        "rule-wrong-type",
        "unknown-rule-key",
        "rule-negative-limit",
        "unknown-rule-kind",
        "rule-without-kind",
        "rule-without-cite",
        "rule-bad-literal",
        "rule-missing-section",
        "rule-missing-supply-section",
        "sideboarding-missing-section",
        "unknown-game",
        "missing-name",
    ],
)
def test_broken_format_file_names_file_and_key(tmp_path: Path, edit, key: str | None, detail: str) -> None:
    text = edit(BASE)
    assert text != BASE, "the edit did not apply"
    error = _broken(tmp_path, text)
    if key is not None:
        assert f": {key}" in error.message, error.message
    assert detail in str(error), str(error)


def test_broken_toml_reports_line_and_column(tmp_path: Path) -> None:
    error = _broken(tmp_path, BASE.replace("min = 40", "min = = 40", 1))
    line = line_of(BASE, "min = 40")
    assert f"line {line}" in error.message


def test_unknown_rule_kind_lists_the_known_kinds(tmp_path: Path) -> None:
    error = _broken(tmp_path, BASE.replace('kind = "copy-limit"', 'kind = "max-copies"', 1))
    assert error.hint is not None
    for kind in RULE_KINDS:
        assert kind in error.hint


def test_bad_list_entry_names_its_key(tmp_path: Path) -> None:
    rules = _banned_rule('{ card = "Sluggle", sinse = 2024-01-01 }', sections='["main"]')
    error = _broken(tmp_path, BASE + rules)
    assert ": rules[2].cards[0].sinse:" in error.message


def test_bad_date_names_its_key(tmp_path: Path) -> None:
    rules = _banned_rule('{ card = "Sluggle", since = "soon" }', sections='["main"]')
    error = _broken(tmp_path, BASE + rules)
    assert ": rules[2].cards[0].since:" in error.message


def test_missing_format_file(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="no such format file"):
        find_format(str(tmp_path / "nothing.toml"))


def test_cli_broken_house_format_is_a_usage_error(deckcli, tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(BASE.replace("limit = 3", 'limit = "three"', 1), encoding="utf-8")
    result = deckcli("validate", SAMPLE_ELESTRALS, "--format", path, expect=2)
    assert f"{path}: rules[0].limit" in result.stderr
    result = deckcli("formats", "show", path, expect=2)
    assert f"{path}: rules[0].limit" in result.stderr


# ----------------------------------------------------------------------------- house formats


def _sample_text() -> str:
    return SAMPLE_ELESTRALS.read_text(encoding="utf-8")


def test_house_format_banned_card_and_two_copy_limit(tmp_path: Path, pools) -> None:
    banned = _banned_rule('{ card = "Tornado" }', cite="House rule 2")
    path = house_format(tmp_path, HOUSE_COPY_LIMIT + banned)
    text = _sample_text()
    report = check(pools, "elestrals", text, fmt=str(path))
    assert report.format == "house"
    by_code = {v.code: v for v in report.errors}
    assert sorted(by_code) == ["banned", "copy-limit"]
    assert by_code["copy-limit"].card == "Sluggle"
    assert (by_code["copy-limit"].found, by_code["copy-limit"].allowed) == (3, 2)
    assert by_code["copy-limit"].line == line_of(text, "3 Sluggle")
    assert by_code["copy-limit"].rule == "House rule 1: at most 2 copies of a card, Main and Side combined"
    assert by_code["banned"].card == "Tornado"
    assert by_code["banned"].line == line_of(text, "1 Tornado")
    assert (by_code["banned"].found, by_code["banned"].allowed) == (1, 0)
    # The bundled format allows the same deck.
    assert check(pools, "elestrals", text).valid


def test_house_format_through_the_cli(deckcli, tmp_path: Path) -> None:
    banned = _banned_rule('{ card = "Tornado" }', cite="House rule 2")
    path = house_format(tmp_path, HOUSE_COPY_LIMIT + banned)
    result = deckcli("validate", SAMPLE_ELESTRALS, "--format", path, expect=1)
    assert "Friday Night Elestrals" in result.stdout
    assert "copy-limit [3/2] Sluggle" in result.stdout
    assert "banned [1/0] Tornado is banned" in result.stdout
    data = json.loads(deckcli("validate", SAMPLE_ELESTRALS, "--format", path, "--json", expect=1).stdout)
    assert data["format"] == "house"
    assert sorted(v["code"] for v in data["violations"]) == ["banned", "copy-limit"]
    # A deck legal under the house rules: two of everything at most, no Tornado.
    legal = tmp_path / "legal.txt"
    text = _sample_text().replace("3 Sluggle", "2 Sluggle").replace("1 Moustacean", "2 Moustacean")
    legal.write_text(text.replace("1 Tornado", "2 Majesea").replace("1 Majesea\n", ""), encoding="utf-8")
    result = deckcli("validate", legal, "--format", path)
    assert "LEGAL" in result.stdout


# ----------------------------------------------------------------------------- dated lists

DATED = """
[[rules]]
kind = "banned"
sections = ["main", "side"]
cite = "House ban list, spring season"
cards = [{ card = "Tornado", since = 2024-01-01, until = 2025-01-01 }]

[[rules]]
kind = "restricted"
sections = ["main", "side"]
cite = "House restricted list"
cards = [
  { card = "Sluggle", limit = 1, since = 2024-06-01 },
  { card = "Glauby", limit = 1, until = 2024-03-01 },
]
"""


@pytest.mark.parametrize(
    ("on", "expected"),
    [
        (dt.date(2023, 12, 31), ["restricted:Glauby"]),  # before the ban
        (dt.date(2024, 1, 1), ["banned:Tornado", "restricted:Glauby"]),  # first day: since is inclusive
        (dt.date(2024, 2, 29), ["banned:Tornado", "restricted:Glauby"]),
        (dt.date(2024, 3, 1), ["banned:Tornado"]),  # until is exclusive: Glauby free again
        (dt.date(2024, 6, 1), ["banned:Tornado", "restricted:Sluggle"]),
        (dt.date(2024, 12, 31), ["banned:Tornado", "restricted:Sluggle"]),  # last day of the ban
        (dt.date(2025, 1, 1), ["restricted:Sluggle"]),  # after: the ban has ended
    ],
)
def test_dated_entries_select_the_list_in_force(tmp_path: Path, pools, on: dt.date, expected: list[str]) -> None:
    path = house_format(tmp_path, DATED)
    report = check(pools, "elestrals", _sample_text(), fmt=str(path), on=on)
    assert sorted(f"{v.code}:{v.card}" for v in report.errors) == sorted(expected)


def test_default_date_is_today(tmp_path: Path, pools) -> None:
    from deckcli.decks.text import read_text_deck
    from deckcli.rules import validate

    rules = """
[[rules]]
kind = "banned"
sections = ["main"]
cite = "House"
cards = [{ card = "Tornado", since = 2000-01-01 }, { card = "Sluggle", until = 2000-01-01 }]
"""
    fmt = find_format(str(house_format(tmp_path, rules)))
    report = validate(read_text_deck(_sample_text()), fmt, pools["elestrals"])  # no date: today
    assert only_error(report).card == "Tornado"


@pytest.mark.parametrize(
    ("date", "expect", "banned"),
    [("2023-06-01", 0, False), ("2024-06-01", 1, True), ("2025-06-01", 0, False)],
)
def test_cli_date_option(deckcli, tmp_path: Path, date: str, expect: int, banned: bool) -> None:
    rules = (
        '\n[[rules]]\nkind = "banned"\nsections = ["main", "side"]\ncite = "House"\n'
        'cards = [{ card = "Tornado", since = 2024-01-01, until = 2025-01-01 }]\n'
    )
    path = house_format(tmp_path, rules)
    result = deckcli("validate", SAMPLE_ELESTRALS, "--format", path, "--date", date, "--json", expect=expect)
    data = json.loads(result.stdout)
    assert data["valid"] is not banned
    assert [v["code"] for v in data["violations"] if v["severity"] == "error"] == (["banned"] if banned else [])


@pytest.mark.parametrize("date", ["2024-13-01", "yesterday", "01/06/2024", ""])
def test_cli_bad_date_is_a_usage_error(deckcli, date: str) -> None:
    result = deckcli("validate", SAMPLE_ELESTRALS, "--date", date, expect=2)
    assert "--date" in result.stderr and "YYYY-MM-DD" in result.stderr


# ----------------------------------------------------------------------------- formats list / show / check


def test_formats_list(deckcli) -> None:
    out = deckcli("formats", "list").stdout
    for game in game_ids():
        assert game in out
    data = json.loads(deckcli("formats", "list", "--json").stdout)
    assert [f["id"] for f in data] == sorted(game_ids())
    assert {f["rulebook"] for f in data} == {f"{g}.txt" for g in game_ids()}


@pytest.mark.parametrize("game", game_ids())
def test_formats_show_sections_rules_and_citations(deckcli, game: str) -> None:
    fmt = find_format(game)
    out = deckcli("formats", "show", game).stdout
    flat = " ".join(out.split())
    assert fmt.name in flat
    for section in fmt.sections:
        assert section.title in flat
    for rule in fmt.rules:
        assert rule.kind in flat
    data = json.loads(deckcli("formats", "show", game, "--json").stdout)
    assert data["id"] == game
    assert [s["id"] for s in data["sections"]] == [s.id for s in fmt.sections]
    assert [r["kind"] for r in data["rules"]] == [r.kind for r in fmt.rules]
    assert all(r["cite"] for r in data["rules"]) and all(s["cite"] for s in data["sections"])


def test_formats_show_elekin_restricted_list(deckcli) -> None:
    data = json.loads(deckcli("formats", "show", "elekin", "--json").stdout)
    restricted = next(r for r in data["rules"] if r["kind"] == "restricted")
    assert restricted["cite"].startswith("7.1.2")
    limits = {c["card"]: c["limit"] for c in restricted["cards"]}
    assert limits["Ancient Tide"] == 1 and limits["Galea, The Air Elementalist"] == 1
    assert limits["Veton, The Lightning Dragon"] == 2 and limits["Echo of Destruction"] == 2
    human = " ".join(deckcli("formats", "show", "elekin").stdout.split())
    assert "7.1.2 Card Limitations" in human and "Echo of Destruction ≤2" in human


def test_formats_show_unknown_format(deckcli) -> None:
    result = deckcli("formats", "show", "pokemon", expect=2)
    assert "unknown format 'pokemon'" in result.stderr and "valid formats" in result.stderr


def test_formats_check_elekin_reports_rulebook_names_missing_from_data(deckcli) -> None:
    result = deckcli("formats", "check", "elekin", expect=1)
    out = " ".join(result.stdout.split())
    assert "'Ancient Ember' is not a elekin card — did you mean Ancient Flame" in out
    assert "'Echo of Destruction' is not a elekin card" in out
    assert "2 of" in out and "match no card" in out
    data = json.loads(deckcli("formats", "check", "elekin", "--json", expect=1).stdout)
    missing = {m["card"]: m["suggestions"] for m in data["missing"]}
    assert set(missing) == {"Ancient Ember", "Echo of Destruction"}
    assert missing["Ancient Ember"][0] == "Ancient Flame"


@pytest.mark.parametrize("game", ["elestrals", "elemystic", "aestery", "elemental-clash"])
def test_formats_check_passes(deckcli, game: str) -> None:
    out = deckcli("formats", "check", game).stdout
    assert "✔" in out and "match cards" in out


def test_formats_check_house_format_with_a_typo(deckcli, tmp_path: Path, pools) -> None:
    rules = _banned_rule('{ card = "Tornadoo" }')
    path = house_format(tmp_path, rules)
    out = deckcli("formats", "check", path, expect=1).stdout
    assert "'Tornadoo' is not a elestrals card — did you mean Tornado" in " ".join(out.split())
    assert missing_names(find_format(str(path)), pools["elestrals"])[0][0] == "Tornadoo"


def test_missing_names_elekin(pools) -> None:
    missing = dict(missing_names(find_format("elekin"), pools["elekin"]))
    assert set(missing) == {"Ancient Ember", "Echo of Destruction"}
    assert "Ancient Flame" in missing["Ancient Ember"]


def test_every_elekin_listed_name_but_two_matches_a_card(pools) -> None:
    fmt = find_format("elekin")
    pool = pools["elekin"]
    found = [n for n in fmt.names() if pool.find(n) is not None]
    # "Veton, The Lightning Dragon" finds "Veton | The Lightning Dragon".
    assert pool.find("Veton, The Lightning Dragon").name == "Veton | The Lightning Dragon"
    assert len(found) == len(set(fmt.names())) - 2


def test_every_code_a_format_can_emit_is_documented() -> None:
    readme = (FORMATS_DIR.parent / "README.md").read_text(encoding="utf-8")
    for fmt in list_formats():
        for rule in fmt.rules:
            assert rule.violation_code in CODES, (fmt.id, rule.kind, rule.violation_code)
        for section in fmt.sections:
            assert section.size_code in CODES, (fmt.id, section.id)
    for kind in RULE_KINDS.values():
        assert kind.default_code in CODES, kind
    for code in CODES:
        assert f"`{code}`" in readme, f"violation code {code} is not in README.md"

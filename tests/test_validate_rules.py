# ruff: noqa: F811  (pytest fixtures are imported, then named as parameters)
"""The construction rules of the five games, one test per rule and per boundary.

Decks are built from real card names (the bundled samples, and names looked up in
the store), written as native text and read back, so every line number asserted is
the line of the card in that text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_fixtures import (
    ELEMYSTIC_ELEMENTS,
    Entries,
    card_store,  # noqa: F401  (a fixture)
    check,
    codes,
    deck_text,
    errors,
    line_of,
    only_error,
    pools,  # noqa: F401  (a fixture)
    rules_db,  # noqa: F401  (a fixture)
    sample_entries,
    warnings,
)

from deckcli.cards.pool import CardPool
from deckcli.cards.store import CardStore, StoredCard
from deckcli.decks.model import Deck, DeckEntry
from deckcli.rules import CODES, find_format, validate
from deckcli.rules.report import Report


def _with(entries: Entries, name: str, count: int) -> Entries:
    """``entries`` with ``name`` at ``count`` copies (0 removes it; added at the end if new)."""
    result = [(c, n) for c, n in entries if n != name]
    index = next((i for i, (_, n) in enumerate(entries) if n == name), len(result))
    if count:
        result.insert(index, (count, name))
    return result


def _size(entries: Entries) -> int:
    return sum(c for c, _ in entries)


# ============================================================================ Elestrals

ELESTRALS = sample_entries("elestrals")  # the Majesea Starter Deck: 40 Main, 20 Spirit
EL_MAIN, EL_SPIRIT = ELESTRALS["main"], ELESTRALS["spirit"]
#: Elestrals not in the sample deck, for growing it
EL_EXTRA = ["Aardbud", "Ampup", "Boombatt", "Bunnyx", "Catarant", "Clovie", "Cockaray", "Corvishine"]


def elestrals(main: Entries = EL_MAIN, spirit: Entries = EL_SPIRIT, side: Entries | None = None) -> str:
    sections = [("Main Deck", main), ("Spirit Deck", spirit)]
    if side is not None:
        sections.append(("Side Deck", side))
    return deck_text("elestrals", sections)


def test_elestrals_sample_is_legal(pools) -> None:
    assert _size(EL_MAIN) == 40 and _size(EL_SPIRIT) == 20
    report = check(pools, "elestrals", elestrals())
    assert report.valid and report.violations == []


@pytest.mark.parametrize(("size", "legal"), [(39, False), (40, True), (41, False)])
def test_elestrals_main_exactly_40(pools, size: int, legal: bool) -> None:
    main = _with(EL_MAIN, "Sluggle", 2) if size == 39 else EL_MAIN
    if size == 41:
        main = [*EL_MAIN, (1, "Aardbud")]
    assert _size(main) == size
    report = check(pools, "elestrals", elestrals(main=main))
    if legal:
        assert errors(report) == []
        return
    v = only_error(report)
    assert (v.code, v.section, v.found, v.allowed, v.line) == ("deck-size", "main", size, 40, None)
    assert "exactly 40 required" in v.message and v.rule is not None and "Beginning a Game" in v.rule


@pytest.mark.parametrize(("size", "legal"), [(19, False), (20, True), (21, False)])
def test_elestrals_spirit_deck_exactly_20(pools, size: int, legal: bool) -> None:
    spirit = _with(EL_SPIRIT, "Leviaphin", 12 + size - 20)
    report = check(pools, "elestrals", elestrals(spirit=spirit))
    if legal:
        assert errors(report) == []
        return
    v = only_error(report)
    assert (v.code, v.section, v.found, v.allowed) == ("deck-size", "spirit", size, 20)


def test_elestrals_spirits_unlimited_copies(pools) -> None:
    report = check(pools, "elestrals", elestrals(spirit=[(20, "Leviaphin")]))
    assert errors(report) == []


def test_elestrals_spirits_in_the_side_deck_unlimited_too(pools) -> None:
    report = check(pools, "elestrals", elestrals(side=[(12, "Vipyro")]))
    assert errors(report) == []


@pytest.mark.parametrize(("copies", "legal"), [(3, True), (4, False)])
def test_elestrals_three_copies_by_name(pools, copies: int, legal: bool) -> None:
    # Glauby is a 2-of in the sample; trade one Sluggle for a third and a fourth copy.
    main = _with(_with(EL_MAIN, "Glauby", copies), "Sluggle", 3 - (copies - 2))
    text = elestrals(main=main)
    report = check(pools, "elestrals", text)
    if legal:
        assert errors(report) == []
        return
    v = only_error(report)
    assert (v.code, v.card, v.found, v.allowed) == ("copy-limit", "Glauby", 4, 3)
    assert v.section == "main+side" and v.line == line_of(text, "4 Glauby")


def test_elestrals_copy_limit_counts_main_and_side_combined(pools) -> None:
    text = elestrals(side=[(1, "Sluggle")])  # 3 in Main + 1 in Side
    v = only_error(check(pools, "elestrals", text))
    assert (v.code, v.card, v.found, v.allowed, v.section) == ("copy-limit", "Sluggle", 4, 3, "main+side")
    assert v.line == line_of(text, "3 Sluggle")
    assert "Main Deck + Side Deck" in v.message


def test_elestrals_counts_as_cirrucoon(pools) -> None:
    """Charcoon "always counts as Cirrucoon": 3 Cirrucoon + 1 Charcoon is 4 copies."""
    main = [*_with(_with(EL_MAIN, "Sluggle", 0), "Tornado", 0), (3, "Cirrucoon"), (1, "Charcoon")]
    assert _size(main) == 40
    text = elestrals(main=main)
    v = only_error(check(pools, "elestrals", text))
    assert (v.code, v.card, v.found, v.allowed) == ("copy-limit", "Cirrucoon", 4, 3)
    assert "3 Cirrucoon, 1 Charcoon" in v.message
    assert v.line == line_of(text, "3 Cirrucoon")


def test_elestrals_counts_as_within_the_limit(pools) -> None:
    main = _with(_with(EL_MAIN, "Sluggle", 0), "Glauby", 0)
    main = [*main, (2, "Cirrucoon"), (1, "Charcoon"), (2, "Aardbud")]
    assert _size(main) == 40
    assert errors(check(pools, "elestrals", elestrals(main=main))) == []


def test_elestrals_counts_as_across_main_and_side(pools) -> None:
    main = [*_with(EL_MAIN, "Sluggle", 0), (3, "Cirrucoon")]
    v = only_error(check(pools, "elestrals", elestrals(main=main, side=[(1, "Charcoon")])))
    assert (v.code, v.card, v.found) == ("copy-limit", "Cirrucoon", 4)


@pytest.mark.parametrize(("size", "legal"), [(0, True), (12, True), (13, False)])
def test_elestrals_side_deck_optional_up_to_12(pools, size: int, legal: bool) -> None:
    side = [(2, n) for n in EL_EXTRA[:4]] + [(4, "Vipyro")]  # 12 cards: Elestrals and Spirits
    if size == 13:
        side.append((1, EL_EXTRA[4]))
    if size == 0:
        side = []
    assert _size(side) == size
    report = check(pools, "elestrals", elestrals(side=side if side else None))
    if legal:
        assert errors(report) == []
        return
    v = only_error(report)
    assert (v.code, v.section, v.found, v.allowed) == ("side-size", "side", 13, 12)


def test_elestrals_side_deck_takes_any_type(pools) -> None:
    side = [(1, "Aardbud"), (1, "Aeolus"), (1, "Owlune")]  # Elestral, Rune, Spirit
    assert errors(check(pools, "elestrals", elestrals(side=side))) == []


def test_elestrals_spirit_in_main_is_wrong_section(pools) -> None:
    main = [*_with(EL_MAIN, "Sluggle", 2), (1, "Leviaphin")]
    text = elestrals(main=main)
    v = only_error(check(pools, "elestrals", text))
    assert (v.code, v.section, v.card, v.line) == ("wrong-section", "main", "Leviaphin", line_of(text, "1 Leviaphin"))
    assert "spirit" in v.message and "Main Deck" in v.message


def test_elestrals_elestral_in_spirit_deck_is_wrong_section(pools) -> None:
    spirit = [*_with(EL_SPIRIT, "Leviaphin", 11), (1, "Aardbud")]
    text = elestrals(spirit=spirit)
    v = only_error(check(pools, "elestrals", text))
    assert (v.code, v.section, v.card, v.line) == ("wrong-section", "spirit", "Aardbud", line_of(text, "1 Aardbud"))


def test_elestrals_headerless_spirits_go_to_the_spirit_deck(pools) -> None:
    """Lines before any header are the Main Deck, but a Spirit there can only mean the
    Spirit Deck (the way exported lists without headers read)."""
    text = "Game: elestrals\n" + "\n".join(f"{c} {n}" for c, n in EL_MAIN + EL_SPIRIT) + "\n"
    report = check(pools, "elestrals", text)
    assert errors(report) == []


def test_elestrals_unknown_card_with_suggestions(pools) -> None:
    main = [*_with(EL_MAIN, "Sluggle", 2), (1, "Sluggel")]
    text = elestrals(main=main)
    v = only_error(check(pools, "elestrals", text))
    assert (v.code, v.section, v.card, v.found) == ("unknown-card", "main", "Sluggel", 1)
    assert v.line == line_of(text, "1 Sluggel")
    assert "did you mean Sluggle" in v.message


def test_elestrals_name_spellings_are_normalised(pools) -> None:
    main = [(c, n.upper() if n == "Sluggle" else n) for c, n in EL_MAIN]
    main = [(c, "Shield  of   Achilles" if n == "Shield of Achilles" else n) for c, n in main]
    assert errors(check(pools, "elestrals", elestrals(main=main))) == []


# ============================================================================ Elekin

ELEKIN = sample_entries("elekin")  # the Lightning Structure Deck
EK_MAIN, EK_SHIELDS = ELEKIN["main"], ELEKIN["shields"]
EK_EXTRA = ["Air Bugs", "Kindler", "Cinders", "Flints", "Rammer", "Kinbat", "Chimet", "Pyrusk", "Scirrus", "Dustwing"]
TIER_1, TIER_2, TIER_3 = "Mystic Ward", "Mythical Barrier", "Elemental Shield"


def elekin(main: Entries = EK_MAIN, shields: Entries = EK_SHIELDS, side: Entries | None = None) -> str:
    sections = [("Main Deck", main), ("Shields", shields)]
    if side is not None:
        sections.append(("Side Deck", side))
    return deck_text("elekin", sections)


def _grow(main: Entries, size: int, extra: list[str]) -> Entries:
    """``main`` grown to ``size`` cards with up to three copies of each extra name."""
    result = list(main)
    names = iter(extra)
    while _size(result) < size:
        result.append((min(3, size - _size(result)), next(names)))
    return result


def test_elekin_sample_is_legal(pools) -> None:
    report = check(pools, "elekin", elekin())
    assert report.valid and errors(report) == []
    # The only remarks are data warnings (cards whose source lacks stats).
    assert {v.code for v in report.violations} <= {"incomplete-card", "uncastable"}


@pytest.mark.parametrize(("size", "legal"), [(39, False), (40, True), (41, True), (60, True), (61, False)])
def test_elekin_main_40_to_60(pools, size: int, legal: bool) -> None:
    main = _with(EK_MAIN, "Glint", 2) if size == 39 else _grow(EK_MAIN, size, EK_EXTRA)
    assert _size(main) == size
    report = check(pools, "elekin", elekin(main=main))
    if legal:
        assert errors(report) == []
        return
    v = only_error(report)
    assert (v.code, v.section, v.found) == ("deck-size", "main", size)
    assert v.allowed == (40 if size < 40 else 60)
    assert v.rule is not None and v.rule.startswith("7.1.1")


def test_elekin_shields_do_not_count_toward_main(pools) -> None:
    """40 Main cards + 3 Shields is legal: the Shields are outside the 40."""
    report = check(pools, "elekin", elekin())
    assert all(v.code != "deck-size" for v in report.violations)


def test_elekin_shield_in_main_is_wrong_section(pools) -> None:
    main = [*_with(EK_MAIN, "Glint", 2), (1, "Essence Wall")]
    text = elekin(main=main)
    v = only_error(check(pools, "elekin", text))
    assert (v.code, v.section, v.card) == ("wrong-section", "main", "Essence Wall")
    assert v.line == line_of(text, "1 Essence Wall")


def test_elekin_creature_in_shields_is_wrong_section(pools) -> None:
    text = elekin(shields=[*EK_SHIELDS, (1, "Glint")])
    report = check(pools, "elekin", text)
    by_code = {v.code: v for v in report.errors}
    assert set(by_code) == {"wrong-section", "deck-size"}
    assert by_code["wrong-section"].card == "Glint" and by_code["wrong-section"].section == "shields"
    assert (by_code["deck-size"].found, by_code["deck-size"].allowed) == (4, 3)


@pytest.mark.parametrize("count", [2, 4])
def test_elekin_exactly_three_shields(pools, count: int) -> None:
    shields = [(1, TIER_1), (1, TIER_2)] if count == 2 else [*EK_SHIELDS, (1, "Tempest Barrier")]
    report = check(pools, "elekin", elekin(shields=shields))
    size = [v for v in report.errors if v.code == "deck-size"]
    assert [(v.section, v.found, v.allowed) for v in size] == [("shields", count, 3)]
    tiers = errors(report, "shield-tiers")
    assert len(tiers) == 1
    if count == 2:
        assert (tiers[0].found, tiers[0].allowed, tiers[0].card) == (0, 1, None)
        assert "no card of tier 3" in tiers[0].message
    else:
        assert (tiers[0].found, tiers[0].allowed) == (2, 1) and "tier 3" in tiers[0].message


def test_elekin_shields_one_of_each_tier(pools) -> None:
    text = elekin(shields=[(1, TIER_1), (1, "Essence Wall"), (1, TIER_3)])  # two tier I, no tier II
    report = check(pools, "elekin", text)
    assert codes(report) == ["shield-tiers", "shield-tiers"]
    double, missing = sorted(report.errors, key=lambda v: v.found or 0, reverse=True)
    assert (double.found, double.allowed, double.card, double.line) == (2, 1, TIER_1, line_of(text, f"1 {TIER_1}"))
    assert "Essence Wall" in double.message and "tier 1" in double.message
    assert (missing.found, missing.allowed) == (0, 1) and "tier 2" in missing.message


def test_elekin_three_copies_of_one_shield(pools) -> None:
    report = check(pools, "elekin", elekin(shields=[(3, TIER_1)]))
    assert codes(report) == ["shield-tiers", "shield-tiers", "shield-tiers"]
    assert {v.found for v in report.errors} == {3, 0}


@pytest.mark.parametrize(("copies", "legal"), [(3, True), (4, False)])
def test_elekin_three_copies_by_exact_name(pools, copies: int, legal: bool) -> None:
    main = _with(_with(EK_MAIN, "Swoop", copies), "Lavrok", 2 - (copies - 2))
    text = elekin(main=main)
    report = check(pools, "elekin", text)
    if legal:
        assert errors(report) == []
        return
    v = only_error(report)
    assert (v.code, v.card, v.found, v.allowed, v.section) == ("copy-limit", "Swoop", 4, 3, "main")
    assert v.line == line_of(text, "4 Swoop") and v.rule is not None and v.rule.startswith("7.1.2")


@pytest.mark.parametrize(
    "card",
    ["Ancient Tide", "Ancient Sigil", "Ancient Flame", "Galea | The Air Elementalist", "Osao, The Fire Elementalist"],
)
def test_elekin_restricted_to_one(pools, card: str) -> None:
    one = [*_with(EK_MAIN, "Glint", 2), (1, card)]
    assert errors(check(pools, "elekin", elekin(main=one))) == []
    two = [*_with(EK_MAIN, "Glint", 1), (2, card)]
    text = elekin(main=two)
    v = only_error(check(pools, "elekin", text))
    assert (v.code, v.found, v.allowed, v.section) == ("restricted", 2, 1, "main")
    assert v.line == line_of(text, f"2 {card}") and v.rule is not None and v.rule.startswith("7.1.2")


@pytest.mark.parametrize(("copies", "legal"), [(2, True), (3, False)])
def test_elekin_dragons_two_copies_one_violation(pools, copies: int, legal: bool) -> None:
    """4.1.2 and 7.1.2 both limit Veton to two; three Veton is one violation, not two."""
    main = _with(_with(EK_MAIN, "Veton | The Lightning Dragon", copies), "Swoop", 2 - (copies - 2))
    text = elekin(main=main)
    report = check(pools, "elekin", text)
    if legal:
        assert errors(report) == []
        return
    v = only_error(report)
    assert v.code in ("restricted", "copy-limit")
    assert (v.card, v.found, v.allowed, v.section) == ("Veton | The Lightning Dragon", 3, 2, "main")
    assert v.line == line_of(text, "3 Veton | The Lightning Dragon")


def test_elekin_dragon_limit_of_4_1_2_on_its_own(pools, tmp_path) -> None:
    """The 4.1.2 rule (cards with dragon = true) limits a Dragon even with no restricted list."""
    text = Path(find_format("elekin").path).read_text(encoding="utf-8")
    start = text.index('[[rules]]\nkind = "restricted"')
    end = text.index("[[rules]]", start + 1)
    path = tmp_path / "no-restricted.toml"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    main = _with(_with(EK_MAIN, "Veton | The Lightning Dragon", 3), "Swoop", 1)
    v = only_error(check(pools, "elekin", elekin(main=main), fmt=str(path)))
    assert (v.code, v.found, v.allowed) == ("copy-limit", 3, 2)
    assert v.rule is not None and v.rule.startswith("4.1.2")


@pytest.mark.parametrize(("size", "legal"), [(10, True), (11, False)])
def test_elekin_side_deck_up_to_10_cards_besides_shields(pools, size: int, legal: bool) -> None:
    side = [(3, "Air Bugs"), (3, "Kindler"), (3, "Cinders"), (size - 9, "Flints")]
    side += [(1, "Essence Wall"), (1, "Draconic Shield"), (1, "Titan's Shield")]  # 3 Shields don't count
    report = check(pools, "elekin", elekin(side=side))
    if legal:
        assert errors(report) == []
        return
    v = only_error(report)
    assert (v.code, v.section, v.found, v.allowed) == ("side-size", "side", 11, 10)
    assert v.rule is not None and v.rule.startswith("8.3")


def test_elekin_side_deck_at_most_three_shields(pools) -> None:
    side = [(1, "Essence Wall"), (1, "Draconic Shield"), (1, "Titan's Shield"), (1, "Tempest Barrier")]
    report = check(pools, "elekin", elekin(side=side))
    by_code = sorted((v.code, v.found, v.allowed) for v in report.errors)
    assert by_code == [("shield-tiers", 2, 1), ("side-size", 4, 3)]


def test_elekin_side_deck_shields_one_per_tier(pools) -> None:
    text = elekin(side=[(1, "Essence Wall"), (1, "Oracle's Guard")])
    v = only_error(check(pools, "elekin", text))
    assert (v.code, v.section, v.found, v.allowed) == ("shield-tiers", "side", 2, 1)
    assert v.line == line_of(text, "1 Essence Wall")


def test_elekin_side_deck_copy_limit_on_its_own(pools) -> None:
    text = elekin(side=[(4, "Air Bugs")])
    v = only_error(check(pools, "elekin", text))
    assert (v.code, v.section, v.found, v.allowed) == ("copy-limit", "side", 4, 3)


def test_elekin_main_and_side_over_three_is_a_warning(pools) -> None:
    """7.1.2: "Applies to Main Deck only" (the judge's reading in formats/elekin.toml):
    Main and Side are each legal, their total above three is a warning."""
    report = check(pools, "elekin", elekin(side=[(3, "Glint")]))
    assert report.valid
    w = warnings(report, "combined-copies")
    assert [(v.card, v.found, v.allowed, v.section) for v in w] == [("Glint", 6, 3, "main+side")]


def test_elekin_combined_warning_not_repeated_beside_an_error(pools) -> None:
    report = check(pools, "elekin", elekin(main=_with(_with(EK_MAIN, "Swoop", 4), "Lavrok", 1)))
    assert codes(report) == ["copy-limit"]
    assert warnings(report, "combined-copies") == []


# ============================================================================ Aestery

AESTERY = sample_entries("aestery")  # demo cards: the rulebook names none
AE_HERO, AE_MAIN = AESTERY["hero"], AESTERY["main"]  # Demo Wildfire Twins (red, green); 60 cards


def aestery(main: Entries = AE_MAIN, hero: Entries | None = AE_HERO) -> str:
    sections = [("Hero", hero)] if hero else []
    return deck_text("aestery", [*sections, ("Main Deck", main)])


def test_aestery_sample_is_legal(pools) -> None:
    report = check(pools, "aestery", aestery())
    assert report.valid
    assert {v.code for v in report.violations} == {"demo-card", "provisional-card"}


@pytest.mark.parametrize(("size", "legal", "oversized"), [(59, False, False), (60, True, False), (61, True, True)])
def test_aestery_at_least_60(pools, size: int, legal: bool, oversized: bool) -> None:
    main = _with(AE_MAIN, "Demo Ember Raider", 3) if size == 59 else AE_MAIN
    if size == 61:
        main = [*AE_MAIN, (1, "Demo Iron Bastion")]
    assert _size(main) == size
    report = check(pools, "aestery", aestery(main=main, hero=None))
    assert [v.code for v in warnings(report, "oversized")] == (["oversized"] if oversized else [])
    if legal:
        assert errors(report) == []
        return
    v = only_error(report)
    assert (v.code, v.section, v.found, v.allowed) == ("deck-size", "main", 59, 60)


@pytest.mark.parametrize(("copies", "legal"), [(4, True), (5, False)])
def test_aestery_four_copies(pools, copies: int, legal: bool) -> None:
    main = [*AE_MAIN, (copies - 4, "Demo Ember Raider")] if copies > 4 else AE_MAIN
    text = aestery(main=main, hero=None)
    report = check(pools, "aestery", text)
    if legal:
        assert errors(report) == []
        return
    v = only_error(report)
    assert (v.code, v.card, v.found, v.allowed) == ("copy-limit", "Demo Ember Raider", 5, 4)
    assert v.line == line_of(text, "4 Demo Ember Raider")


def test_aestery_without_hero_any_colours(pools) -> None:
    main = [*AE_MAIN[:-2], (4, "Demo Dark Pact"), (4, "Demo Tide Scholar")]  # black and blue too
    assert errors(check(pools, "aestery", aestery(main=main, hero=None))) == []


def test_aestery_hero_colour_identity(pools) -> None:
    """With Demo Ember Warlord (red), green and red-green cards are outside its colours."""
    text = aestery(hero=[(1, "Demo Ember Warlord")])
    report = check(pools, "aestery", text)
    outside = errors(report, "color-identity")
    assert report.errors == outside
    green = {
        n
        for c, n in AE_MAIN
        if n
        in {
            "Demo Moss Sentinel",
            "Demo Sleeping Oakheart",
            "Demo Root Miner",
            "Demo Grove Caller",
            "Demo Thornback Boar",
            "Demo Wild Growth",
            "Demo Ancient Grove",
            "Demo Wildfire Charger",
        }
    }
    assert {v.card for v in outside} == green
    charger = next(v for v in outside if v.card == "Demo Wildfire Charger")
    assert charger.line == line_of(text, "4 Demo Wildfire Charger") and charger.section == "main"
    assert "red, green" in charger.message and "allows only red" in charger.message


def test_aestery_colourless_cards_fit_every_hero(pools, card_store: CardStore) -> None:
    relics = [
        StoredCard("aestery", f"Test Relic {i}", "story", {"name": f"Test Relic {i}", "type": "story", "colors": []})
        for i in range(1, 9)
    ]
    pool = CardPool("aestery", [*card_store.cards("aestery"), *relics])
    red = [(c, n) for c, n in AE_MAIN if pools["aestery"].find(n).data["colors"] == ["red"]]
    main = red + [(4, relic.name) for relic in relics]
    assert _size(main) == 60
    report = check(pools, "aestery", aestery(main=main, hero=[(1, "Demo Ember Warlord")]), pool=pool)
    assert errors(report) == []
    # Without the Hero's colour, a coloured card is outside; the colourless ones never are.
    report = check(pools, "aestery", aestery(main=main, hero=[(1, "Demo Wildfire Twins")]), pool=pool)
    assert errors(report) == []


def test_aestery_one_hero_at_most(pools) -> None:
    report = check(pools, "aestery", aestery(hero=[(1, "Demo Wildfire Twins"), (1, "Demo Ember Warlord")]))
    size = errors(report, "deck-size")
    assert [(v.section, v.found, v.allowed) for v in size] == [("hero", 2, 1)]


def test_aestery_hero_in_main_is_wrong_section(pools) -> None:
    text = aestery(main=[*AE_MAIN[:-1], (3, AE_MAIN[-1][1]), (1, "Demo Ember Warlord")], hero=None)
    v = only_error(check(pools, "aestery", text))
    assert (v.code, v.card, v.section) == ("wrong-section", "Demo Ember Warlord", "main")


# ============================================================================ Elemental Clash

CLASH = sample_entries("elemental-clash")  # Prisma of the Many Colors (Deck Size 40)
EC_CASTER, EC_MAIN = CLASH["spellcaster"], CLASH["main"]
EC_SIDE: Entries = [(3, "Salamander"), (3, "Negate"), (3, "Repulse"), (1, "Cumulus")]


def clash(main: Entries = EC_MAIN, caster: Entries | None = EC_CASTER, side: Entries | None = None) -> str:
    sections = [("Spellcaster", caster)] if caster else []
    sections.append(("Spellbook", main))
    if side is not None:
        sections.append(("Sideboard", side))
    return deck_text("elemental-clash", sections)


def test_clash_sample_is_legal(pools) -> None:
    report = check(pools, "elemental-clash", clash())
    assert report.valid and {v.code for v in report.violations} == {"provisional-card"}


@pytest.mark.parametrize(("size", "legal"), [(39, False), (40, True), (41, False)])
def test_clash_spellbook_exactly_40(pools, size: int, legal: bool) -> None:
    main = _with(EC_MAIN, "Venus Stone", 2 + size - 40)
    report = check(pools, "elemental-clash", clash(main=main, caster=None))
    if legal:
        assert errors(report) == []
        return
    v = only_error(report)
    assert (v.code, v.section, v.found, v.allowed) == ("deck-size", "main", size, 40)
    assert v.rule is not None and v.rule.startswith("Preparations")


@pytest.mark.parametrize(("size", "legal"), [(None, True), (9, False), (10, True), (11, False)])
def test_clash_sideboard_optional_exactly_10(pools, size: int | None, legal: bool) -> None:
    side = None if size is None else _with(EC_SIDE, "Cumulus", size - 9)
    report = check(pools, "elemental-clash", clash(side=side))
    if legal:
        assert errors(report) == []
        return
    v = only_error(report)
    assert (v.code, v.section, v.found, v.allowed) == ("side-size", "side", size, 10)


@pytest.mark.parametrize(("copies", "legal"), [(3, True), (4, False)])
def test_clash_three_identical_copies_in_the_spellbook(pools, copies: int, legal: bool) -> None:
    main = _with(_with(EC_MAIN, "Dragonslayer", copies), "Venus Stone", 2 - (copies - 2))
    text = clash(main=main)
    report = check(pools, "elemental-clash", text)
    if legal:
        assert errors(report) == []
        return
    v = only_error(report)
    assert (v.code, v.card, v.section, v.found, v.allowed) == ("copy-limit", "Dragonslayer", "main", 4, 3)
    assert v.line == line_of(text, "4 Dragonslayer")
    assert warnings(report, "combined-copies") == []  # the error says it already


def test_clash_three_identical_copies_in_the_sideboard(pools) -> None:
    text = clash(side=[(4, "Negate"), (3, "Repulse"), (3, "Salamander")])
    v = only_error(check(pools, "elemental-clash", text))
    assert (v.code, v.card, v.section, v.found, v.allowed) == ("copy-limit", "Negate", "side", 4, 3)


def test_clash_spellbook_plus_sideboard_over_three_is_a_warning(pools) -> None:
    report = check(pools, "elemental-clash", clash(side=[(3, "Ball Lightning"), *EC_SIDE[1:3], (1, "Cumulus")]))
    assert report.valid
    assert [(v.card, v.found) for v in warnings(report, "combined-copies")] == [("Ball Lightning", 6)]


@pytest.mark.parametrize("stone", ["Venus Stone", "Mars Stone", "Jupiter Stone", "Mercury Stone"])
def test_clash_basic_element_stones_unlimited(pools, stone: str) -> None:
    main = [(c, n) for c, n in EC_MAIN if not n.endswith(" Stone")] + [(7, stone)]
    assert _size(main) == 40
    assert errors(check(pools, "elemental-clash", clash(main=main))) == []


def test_clash_special_element_stones_are_limited(pools) -> None:
    main = _with(_with(EC_MAIN, "Hastestone", 4), "Venus Stone", 1)
    v = only_error(check(pools, "elemental-clash", clash(main=main)))
    assert (v.code, v.card, v.found) == ("copy-limit", "Hastestone", 4)


@pytest.mark.parametrize(("size", "legal"), [(29, False), (30, True), (31, False), (40, False)])
def test_clash_spellcaster_deck_size_caps_the_spellbook(pools, size: int, legal: bool) -> None:
    """Orthar's Deck Size is 30: the Spellbook holds exactly 30 (formats/elemental-clash.toml)."""
    main = _with([(c, n) for c, n in EC_MAIN if not n.endswith(" Stone")], "Powerstone", 0)  # 30 cards
    main = _with(main, "Hastestone", 2) if size == 29 else main
    main = [*main, (size - 30, "Venus Stone")] if size > 30 else main
    assert _size(main) == size
    report = check(pools, "elemental-clash", clash(main=main, caster=[(1, "Orthar of the Flaming Eye")]))
    if legal:
        assert errors(report) == []
        return
    v = only_error(report)
    assert (v.code, v.section, v.found, v.allowed) == ("deck-size", "main", size, 30)


def test_clash_spellcaster_with_deck_size_40(pools) -> None:
    assert errors(check(pools, "elemental-clash", clash(caster=[(1, "Scalden Deathbringer")]))) == []


def test_clash_spellcaster_in_spellbook_is_wrong_section(pools) -> None:
    main = [*_with(EC_MAIN, "Venus Stone", 1), (1, "Orthar of the Flaming Eye")]
    text = clash(main=main, caster=None)
    v = only_error(check(pools, "elemental-clash", text))
    assert (v.code, v.card) == ("wrong-section", "Orthar of the Flaming Eye")
    assert v.line == line_of(text, "1 Orthar of the Flaming Eye")


def test_clash_one_spellcaster_at_most(pools) -> None:
    casters = [(1, "Prisma of the Many Colors"), (1, "Scalden Deathbringer")]
    report = check(pools, "elemental-clash", clash(caster=casters))
    assert [(v.code, v.section, v.found, v.allowed) for v in report.errors] == [("deck-size", "spellcaster", 2, 1)]


# ============================================================================ Elemystic


def elemystic(elements: Entries) -> str:
    return deck_text("elemystic", [("Elements", elements)])


NINE: Entries = [(1, e) for e in ELEMYSTIC_ELEMENTS]


def test_elemystic_the_nine_elements(pools) -> None:
    report = check(pools, "elemystic", elemystic(NINE))
    assert report.valid and errors(report) == []


def test_elemystic_missing_element(pools) -> None:
    report = check(pools, "elemystic", elemystic(NINE[:-1]))
    got = sorted((v.code, v.card or "", v.found, v.allowed) for v in report.errors)
    assert got == [("deck-size", "", 8, 9), ("deck-size", "Lightning", 0, 1)]


def test_elemystic_element_twice(pools) -> None:
    text = elemystic([*NINE, (1, "Fire")])
    report = check(pools, "elemystic", text)
    got = sorted((v.code, v.card or "", v.found, v.allowed) for v in report.errors)
    assert got == [("copy-limit", "Fire", 2, 1), ("deck-size", "", 10, 9)]
    assert next(v for v in report.errors if v.code == "copy-limit").line == line_of(text, "1 Fire")


def test_elemystic_token_is_not_an_element_card(pools) -> None:
    text = elemystic([*NINE[:-1], (1, "Thunder Token")])
    report = check(pools, "elemystic", text)
    wrong = errors(report, "wrong-section")
    assert len(wrong) == 1  # reported once, though two checks reject it
    assert (wrong[0].card, wrong[0].line) == ("Thunder Token", line_of(text, "1 Thunder Token"))
    assert sorted(v.code for v in report.errors) == ["deck-size", "wrong-section"]  # and Lightning is missing


# ============================================================================ every game


@pytest.mark.parametrize(
    ("game", "text", "typo", "meant"),
    [
        ("elestrals", elestrals(main=[*_with(EL_MAIN, "Sluggle", 2), (1, "Majeseaa")]), "Majeseaa", "Majesea"),
        ("elekin", elekin(main=[*_with(EK_MAIN, "Glint", 2), (1, "Glnt")]), "Glnt", "Glint"),
        (
            "aestery",
            aestery(main=[*AE_MAIN[:-1], (3, AE_MAIN[-1][1]), (1, "Demo Ember Raidr")]),
            "Demo Ember Raidr",
            "Demo Ember Raider",
        ),
        (
            "elemental-clash",
            clash(main=[*_with(EC_MAIN, "Venus Stone", 1), (1, "Salamandr")]),
            "Salamandr",
            "Salamander",
        ),
        ("elemystic", elemystic([*NINE[:-1], (1, "Lightnin")]), "Lightnin", "Lightning"),
    ],
)
def test_unknown_card_in_every_game(pools, game: str, text: str, typo: str, meant: str) -> None:
    report = check(pools, game, text)
    unknown = errors(report, "unknown-card")
    assert len(unknown) == 1
    v = unknown[0]
    assert (v.card, v.line, v.found) == (typo, line_of(text, f"1 {typo}"), 1)
    assert f"no {game} card named '{typo}'" in v.message and f"did you mean {meant}" in v.message


@pytest.mark.parametrize(
    ("game", "text", "card", "section"),
    [
        ("elestrals", elestrals(main=[*_with(EL_MAIN, "Sluggle", 2), (1, "Leviaphin")]), "Leviaphin", "main"),
        ("elekin", elekin(main=[*_with(EK_MAIN, "Glint", 2), (1, "Essence Wall")]), "Essence Wall", "main"),
        (
            "aestery",
            aestery(main=[*AE_MAIN[:-1], (3, AE_MAIN[-1][1]), (1, "Demo Ember Warlord")], hero=None),
            "Demo Ember Warlord",
            "main",
        ),
        (
            "elemental-clash",
            clash(main=[*_with(EC_MAIN, "Venus Stone", 1), (1, "Prisma of the Many Colors")], caster=None),
            "Prisma of the Many Colors",
            "main",
        ),
        ("elemystic", elemystic([*NINE[:-1], (1, "Air Token")]), "Air Token", "elements"),
    ],
)
def test_wrong_section_in_every_game(pools, game: str, text: str, card: str, section: str) -> None:
    wrong = errors(check(pools, game, text), "wrong-section")
    assert [(v.card, v.section, v.line) for v in wrong] == [(card, section, line_of(text, f"1 {card}"))]


def test_a_section_the_format_lacks(pools) -> None:
    text = elekin() + "Spirit Deck:\n2 Leviaphin\n"
    report = check(pools, "elekin", text)
    wrong = errors(report, "wrong-section")
    assert [(v.section, v.card, v.line) for v in wrong] == [("spirit", "Leviaphin", line_of(text, "2 Leviaphin"))]
    assert "has no 'spirit' section" in wrong[0].message


def test_elekin_deck_with_many_problems_reports_all(pools) -> None:
    main = _with(_with(EK_MAIN, "Swoop", 4), "Glint", 0)  # 4 Swoop, 37 cards
    main = [*main, (2, "Ancient Tide"), (1, "Essence Wall"), (1, "Glnt")]  # 41 cards in Main
    main = _with(main, "Veton | The Lightning Dragon", 3)
    shields = [(1, TIER_1), (1, "Essence Wall")]
    text = elekin(main=main, shields=shields) + "oops, not a card line\n"
    report = check(pools, "elekin", text)
    got = sorted((v.code, v.card or "", v.found if v.found is not None else -1) for v in report.errors)
    assert got == [
        ("copy-limit", "Swoop", 4),
        ("deck-size", "", 2),  # two Shields
        ("parse-error", "", -1),
        ("restricted", "Ancient Tide", 2),
        ("restricted", "Veton | The Lightning Dragon", 3),
        ("shield-tiers", "", 0),  # no tier II
        ("shield-tiers", "", 0),  # no tier III
        ("shield-tiers", TIER_1, 2),  # two tier I
        ("unknown-card", "Glnt", 1),
        ("wrong-section", "Essence Wall", 1),
    ]
    assert next(v for v in report.errors if v.code == "parse-error").line == line_of(text, "oops, not a card line")


def test_elestrals_deck_with_many_problems_reports_all(pools) -> None:
    main = [*_with(EL_MAIN, "Sluggle", 4), (1, "Leviaphin"), (1, "Sluggel")]  # 43 cards
    spirit = [(19, "Leviaphin")]
    text = elestrals(main=main, spirit=spirit, side=[(13, "Vipyro")])
    report = check(pools, "elestrals", text)
    assert codes(report) == ["copy-limit", "deck-size", "deck-size", "side-size", "unknown-card", "wrong-section"]
    sizes = {v.section: (v.found, v.allowed) for v in errors(report, "deck-size")}
    assert sizes == {"main": (43, 40), "spirit": (19, 20)}


def test_every_code_emitted_is_documented(pools) -> None:
    texts = [
        (
            "elekin",
            elekin(
                main=[*_with(EK_MAIN, "Swoop", 4), (2, "Ancient Tide"), (1, "Glnt"), (1, "Essence Wall")],
                shields=[(1, TIER_1)],
                side=[(3, "Glint"), (9, "Kindler")],
            )
            + "?? ??\n",
        ),
        ("aestery", aestery(hero=[(1, "Demo Ember Warlord")], main=[*AE_MAIN, (1, "Demo Iron Bastion")])),
        ("elestrals", elestrals(main=[*EL_MAIN, (1, "Aardbud")])),
    ]
    seen = {v.code for game, text in texts for v in check(pools, game, text).violations}
    assert seen <= set(CODES)
    assert {
        "copy-limit",
        "restricted",
        "unknown-card",
        "wrong-section",
        "shield-tiers",
        "deck-size",
        "side-size",
        "parse-error",
        "color-identity",
        "oversized",
        "uncastable",
        "demo-card",
    } <= seen


def test_report_json_shape(pools) -> None:
    report = check(pools, "elekin", elekin(main=_with(EK_MAIN, "Swoop", 4)))
    data = report.to_json()
    assert {"deck", "format", "valid", "violations"} <= set(data)
    assert data["valid"] is False and data["format"] == "elekin"
    keys = {"code", "severity", "message", "section", "card", "line", "found", "allowed", "rule"}
    assert all(set(v) == keys for v in data["violations"])


def test_validate_builds_reports_from_deck_objects(pools) -> None:
    deck = Deck(game="elemystic", name="Objects")
    for index, element in enumerate(ELEMYSTIC_ELEMENTS, 1):
        deck.add("elements", DeckEntry(1, element, index))
    report = validate(deck, find_format("elemystic"), pools["elemystic"])
    assert isinstance(report, Report) and report.valid and report.deck == "Objects"

"""Deck breakdowns (deckcli/decks/analysis.py), checked against the bundled sample decks.

Every expected number below is worked out by hand from the card data (card_db/, as
shown by ``deckcli db show``); the arithmetic is in the comments.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from deckcli.cards.pool import CardPool
from deckcli.cards.store import CardStore
from deckcli.decks.analysis import DeckAnalysis, analyze
from deckcli.decks.edit import SectionLayout
from deckcli.decks.io import read_deck_file
from deckcli.decks.text import read_text_deck
from deckcli.rules.formats import find_format

SAMPLES = Path(__file__).resolve().parents[1] / "card_db" / "decks"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CardStore]:
    with CardStore.open(tmp_path_factory.mktemp("analysis-store") / "cards.sqlite") as opened:
        yield opened


def analyze_sample(store: CardStore, game: str) -> DeckAnalysis:
    deck = read_deck_file(SAMPLES / f"{game}-sample.txt")[0]
    fmt = find_format(game)
    return analyze(deck, CardPool.load(store, game), SectionLayout.from_sections(fmt.sections))


def balance(analysis: DeckAnalysis) -> dict[str, tuple[int, int, int]]:
    return {row.element: (row.supply, row.demand, row.cards) for row in analysis.resources.balance}


def test_elestrals_sample(store: CardStore) -> None:
    a = analyze_sample(store, "elestrals")
    assert (a.main_section, a.main_count, a.total) == ("main", 40, 60)
    assert [(s.id, s.title, s.count) for s in a.sections] == [("main", "Main Deck", 40), ("spirit", "Spirit Deck", 20)]
    assert [(g.type, g.count) for g in a.sections[0].groups] == [("elestral", 23), ("rune", 17)]
    # Spirits in a cost, per card: 1 Spirit: Sluggle 3, Smoltuga 2, Foamee 2, Apheros 2, Oystress 2,
    # Moustacean 1, Galaxea 2, Warmite 2, Peliquarius 2, Ambrosia 1, Circle the Sky 1, Poseidon 2,
    # Atlantis 2, Tsunami 2, Tornado 1, Shield of Achilles 2 = 29; 2 Spirits: Glauby, Krakatuga,
    # Nectar of the Gods, Trident of Poseidon, Eruption, 2 each = 10; 3 Spirits: Majesea 1.
    assert a.curve == {1: 29, 2: 10, 3: 1}
    assert a.cost_label == "Spirits"
    assert a.uncosted == 0
    assert a.average_cost == pytest.approx((29 + 20 + 3) / 40)  # 1.3
    # elements: fire = Krakatuga 2 + Warmite 2 + Eruption 2; wind = Peliquarius 2 + Tornado 1;
    # omni = Nectar 2 + Ambrosia 1 + Circle 1 + Shield 2; water = 40 - 2 - 2 - 3 - 6 + 2 (Krakatuga is both)
    assert a.elements == {"water": 27, "fire": 6, "omni": 6, "wind": 3}
    assert a.types == {"elestral": 23, "rune": 17}
    # Spirits: Leviaphin 12 water, Vipyro 5 fire, Lycarus 3 wind.
    # water symbols: Sluggle 3, Glauby 2x2, Majesea 3, Smoltuga 2, Krakatuga 2, Foamee 2, Apheros 2,
    #   Oystress 2, Moustacean 1, Galaxea 2, Poseidon 2, Atlantis 2, Trident 2x2, Tsunami 2 = 33 (27 cards)
    # fire: Krakatuga 2, Warmite 2, Eruption 2x2 = 8 (6 cards); wind: Peliquarius 2, Tornado 1 = 3
    # omni: Nectar 2x2, Ambrosia 1, Circle 1, Shield 2 = 8 (6 cards), no omni Spirit
    assert a.resources.kind == "spirits"
    assert balance(a) == {"water": (12, 33, 27), "fire": (5, 8, 6), "wind": (3, 3, 3), "omni": (0, 8, 6)}
    assert [row.element for row in a.resources.balance][-1] == "omni"
    assert a.unknown == []


def test_elekin_sample(store: CardStore) -> None:
    a = analyze_sample(store, "elekin")
    assert (a.main_count, a.total) == (40, 43)
    assert [(g.type, g.count) for g in a.sections[0].groups] == [("creature", 30), ("rune", 6), ("counter", 4)]
    assert [(s.id, s.count) for s in a.sections] == [("main", 40), ("shields", 3)]
    # creature costs: 0 = Glint 3, Swoop 2, Stawid 3, Pyro Mites 2, Night Vox 2, Ember Flicker 3, Fire Bugs 1
    # 1 = Lavrok 2, Dumoles 2; 2 = Blazorn 1, Skerodact 1; 3 = Archen 3; 4 = Nimbus 2; 5 = Aeris 1; 10 = Veton 2
    assert a.curve == {0: 16, 1: 4, 2: 2, 3: 3, 4: 2, 5: 1, 10: 2}
    assert a.uncosted == 10  # the 6 runes and 4 counters
    assert a.average_cost == pytest.approx((4 + 4 + 9 + 8 + 5 + 20) / 30)
    assert a.elements == {"air": 16, "fire": 16}  # Veton counts for both
    assert a.types == {"creature": 30, "rune": 6, "counter": 4}
    # essence (generation x copies): air = Glint 1x3 + Swoop 2x2 + Stawid 2x3 + Skerodact 1 + Aeris 1
    #   + Nimbus 1x2 = 17; fire = Pyro Mites 1x2 + Night Vox 2x2 + Ember Flicker 2x3 + Blazorn 1 = 13
    # costs (cost x copies): air = Dumoles 1x2 + Skerodact 2 + Aeris 5 + Nimbus 4x2 + Veton 10x2 = 37;
    #   fire = Lavrok 1x2 + Blazorn 2 + Archen 3x3 + Veton 10x2 = 33
    assert a.resources.kind == "essence"
    assert balance(a) == {"air": (17, 37, 16), "fire": (13, 33, 16)}


def test_aestery_sample(store: CardStore) -> None:
    a = analyze_sample(store, "aestery")
    assert [(s.id, s.count) for s in a.sections] == [("hero", 1), ("main", 60)]
    # costs, 4 copies each: 0 = Cinder Scout, Wild Growth; 1 = Ember Raider, Flame Burst, Root Miner;
    # 2 = Bloodfang, Warcamp Forge, Moss Sentinel, Grove Caller; 3 = Blazing Duelist, Sleeping Oakheart,
    # Ancient Grove, Wildfire Charger; 4 = Forge Brute, Thornback Boar
    assert a.curve == {0: 8, 1: 12, 2: 16, 3: 16, 4: 8}
    assert a.average_cost == pytest.approx((12 + 32 + 48 + 32) / 60)
    assert a.elements == {"green": 32, "red": 32}  # 7 cards of each colour + Wildfire Charger (both), x4
    assert a.types == {"fighter": 44, "instant": 8, "story": 8}
    # pitch 1: Ember Raider, Blazing Duelist, Sleeping Oakheart, Grove Caller; pitch 3: Forge Brute,
    # Cinder Scout, Root Miner, Wild Growth; the other 7 cards pitch 2 (x4 copies each)
    r = a.resources
    assert r.kind == "pitch"
    assert r.pitch_distribution == {1: 16, 2: 28, 3: 16}
    assert r.pitch_total == 16 + 56 + 48
    assert r.pitch_average == pytest.approx(2.0)


def test_elemental_clash_sample(store: CardStore) -> None:
    a = analyze_sample(store, "elemental-clash")
    expected_sections = [("spellcaster", "Spellcaster", 1), ("main", "Spellbook", 40)]
    assert [(s.id, s.title, s.count) for s in a.sections] == expected_sections
    # levels: 1 = Ball Lightning 3, Lightning Strike 2, Mist Cloak 2, Mars' Rage 3, Earth Ritual 3;
    # 2 = Dragonslayer 2, Fandi 1, Algorn 1, Greater Catfish 3, Siren's Call 3; 3 = Jupiter-Stormmaster 2, Archdemon 2
    assert a.curve == {1: 13, 2: 10, 3: 4}
    assert a.cost_label == "level"
    assert a.uncosted == 13  # element-stones: 2 + 2 + 1 + 2 + 3 + 3
    assert a.average_cost == pytest.approx((13 + 20 + 12) / 27)
    assert a.types == {"creature": 14, "element-stone": 13, "spell": 13}
    # basic stones: Jupiter (air) 2, Mars (fire) 2, Mercury (water) 1, Venus (earth) 2
    # levels x copies: air = Ball Lightning 3 + Stormmaster 3x2 + Lightning Strike 2 = 11 (7 cards)
    #   fire = Archdemon 3x2 + Fandi 2 + Mars' Rage 3 = 11 (6); earth = Dragonslayer 2x2 + Earth Ritual 3 = 7 (5)
    #   water = Algorn 2 + Catfish 2x3 + Mist Cloak 2 + Siren's Call 2x3 = 16 (9)
    assert a.resources.kind == "stones"
    assert balance(a) == {"water": (1, 16, 9), "air": (2, 11, 7), "fire": (2, 11, 6), "earth": (2, 7, 5)}
    assert a.resources.other_stones == 6  # Hastestone 3, Powerstone 3


def test_elemystic_sample(store: CardStore) -> None:
    a = analyze_sample(store, "elemystic")
    assert (a.main_section, a.main_count) == ("elements", 9)
    assert a.curve == {} and a.average_cost is None
    assert a.types == {"element": 9}
    stats = {
        e.name: (e.strength, e.defense, e.invocation_strength, e.invocation_defense, e.speed)
        for e in a.resources.elements
    }
    assert len(stats) == 9
    assert stats["Fire"] == (3, 0, 4, 0, 6)
    assert stats["Light"] == (1, 2, 2, 3, 2)
    assert stats["Lightning"] == (1, 1, 2, 1, 9)
    assert sorted(e.speed for e in a.resources.elements) == list(range(1, 10))
    provisional = {e.name for e in a.resources.elements if e.provisional}
    assert "Fire" not in provisional and "Earth" in provisional


def test_elemystic_main_header_counts_as_elements(store: CardStore) -> None:
    deck = read_text_deck("Game: elemystic\nMain:\n1 Fire\n1 Light\n")
    a = analyze(deck, CardPool.load(store, "elemystic"), SectionLayout.from_sections(find_format("elemystic").sections))
    assert [(s.id, s.count) for s in a.sections] == [("elements", 2)]
    assert [e.name for e in a.resources.elements] == ["Fire", "Light"]


def test_unknown_cards_are_listed_not_fatal(store: CardStore) -> None:
    deck = read_text_deck("Game: elekin\nMain Deck:\n3 Glint\n2 Skiters\nShields:\n1 Mystic Ward\n")
    a = analyze(deck, CardPool.load(store, "elekin"), SectionLayout.from_sections(find_format("elekin").sections))
    assert [(u.section, u.count, u.name, u.line) for u in a.unknown] == [("main", 2, "Skiters", 4)]
    assert "Skitters" in a.unknown[0].suggestions
    main = a.sections[0]
    assert [(g.type, g.count) for g in main.groups] == [("creature", 3), ("unknown", 2)]
    assert main.groups[1].cards[0].known is False
    assert a.main_count == 5
    assert a.curve == {0: 3}  # only known cards count


def test_header_less_spirits_are_counted_in_the_spirit_deck(store: CardStore) -> None:
    deck = read_text_deck("3 Sluggle\n12 Leviaphin\n")
    a = analyze(deck, CardPool.load(store, "elestrals"), SectionLayout.from_sections(find_format("elestrals").sections))
    assert [(s.id, s.count) for s in a.sections] == [("main", 3), ("spirit", 12)]
    assert balance(a) == {"water": (12, 3, 3)}


def test_without_a_layout_default_titles_are_used(store: CardStore) -> None:
    deck = read_deck_file(SAMPLES / "elemystic-sample.txt")[0]
    a = analyze(deck, CardPool.load(store, "elemystic"))
    assert [(s.id, s.title) for s in a.sections] == [("elements", "Elements")]
    assert a.main_section == "elements"


def test_analysis_is_plain_json(store: CardStore) -> None:
    data = analyze_sample(store, "aestery").to_json()
    text = json.dumps(data)
    back = json.loads(text)
    assert back["resources"]["pitch_distribution"] == {"1": 16, "2": 28, "3": 16}
    assert back["curve"]["2"] == 16
    assert back["sections"][1]["groups"][0]["cards"][0]["name"] == "Demo Ember Raider"

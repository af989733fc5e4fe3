"""The bundled card data (card_db/) and the sample decks."""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import CARD_DB, ELEKIN_GALLERY, ELESTRALS_DATA, requires_realdata

from deckcli.cards.bundled import bundled_sources
from deckcli.cards.importers import load_cards
from deckcli.cards.lookup import NameIndex
from deckcli.cards.names import normalize_name
from deckcli.cards.store import CardStore, StoredCard
from deckcli.games import game_ids

# -- the manifest and the files -----------------------------------------------------


def test_manifest_names_a_source_for_every_game() -> None:
    manifest = tomllib.loads((CARD_DB / "sources.toml").read_text(encoding="utf-8"))
    assert sorted(manifest) == sorted(game_ids())
    sources = bundled_sources()
    for game in game_ids():
        assert sources[game].path.exists(), game
        assert sources[game].origin


@requires_realdata
def test_elestrals_bundled_copy_is_the_api_dump() -> None:
    bundled = CARD_DB / "elestrals" / "data" / "cards"
    names = sorted(p.name for p in bundled.glob("*.json"))
    assert len(names) == 1875
    assert names == sorted(p.name for p in (ELESTRALS_DATA / "cards").glob("*.json"))
    for name in names[::97]:  # spot-check contents
        assert (bundled / name).read_bytes() == (ELESTRALS_DATA / "cards" / name).read_bytes()


def test_elestrals_store_accounts_for_every_printing(store: CardStore) -> None:
    ids = {json.loads(p.read_text(encoding="utf-8"))["id"] for p in (CARD_DB / "elestrals/data/cards").glob("*.json")}
    assert len(ids) == 1875
    printings = [p["source_id"] for card in store.cards("elestrals") for p in card.data["printings"]]
    assert len(printings) == 1875
    assert set(printings) == ids
    assert store.card_count("elestrals") == 436


def test_elekin_store_has_every_gallery_card(store: CardStore) -> None:
    path = ELEKIN_GALLERY if ELEKIN_GALLERY.is_file() else CARD_DB / "elekin" / "new_cards.game_fields.json"
    gallery = json.loads(path.read_text(encoding="utf-8"))["cards"]
    assert len(gallery) == 175
    assert {" ".join(r["name"].split()) for r in gallery} == {c.name for c in store.cards("elekin")}


@pytest.mark.parametrize(("game", "count"), [("aestery", 27), ("elemental-clash", 31), ("elemystic", 13)])
def test_hand_written_files_validate(store: CardStore, game: str, count: int) -> None:
    path = CARD_DB / f"{game}.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["game"] == game
    result = load_cards(game, path)  # raises on any invalid record
    assert result.importer == "canonical-json"
    assert len(result.cards) == count == store.card_count(game)
    for card in result.cards:
        assert card.notes, card.name  # every card says where its facts come from
        # card_db/DATA_NOTES.md: a guessed value makes a card provisional and is listed after GUESSED.
        if not card.demo:
            assert card.provisional == ("GUESSED" in card.notes), card.name
        else:
            assert card.provisional and card.name.startswith("Demo "), card.name


def test_aestery_is_demo_only_and_others_have_no_demo(store: CardStore) -> None:
    assert all(card.demo for card in store.cards("aestery"))
    for game in ("elestrals", "elekin", "elemental-clash", "elemystic"):
        assert not any(card.demo for card in store.cards(game)), game


# -- sample decks ------------------------------------------------------------------


@dataclass
class SampleDeck:
    path: Path
    headers: dict[str, str] = field(default_factory=dict)
    sections: dict[str, list[tuple[int, str]]] = field(default_factory=dict)

    def count(self, section: str) -> int:
        return sum(n for n, _ in self.sections.get(section, []))


#: header lines that name a card rather than describe the deck
CARD_HEADERS = ("Hero", "Spellcaster")


def parse_deck(path: Path) -> SampleDeck:
    """The sample deck format: ``Key: value`` headers, ``Section:`` lines, ``N Name`` entries."""
    deck = SampleDeck(path)
    section: str | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        entry = re.match(r"^(\d+)\s+(.+)$", line)
        if entry:
            assert section is not None, f"{path}:{number}: card before any section"
            deck.sections[section].append((int(entry.group(1)), entry.group(2).strip()))
            continue
        key, _, value = line.partition(":")
        if value.strip():
            deck.headers[key.strip()] = value.strip()
        else:
            section = key.strip()
            deck.sections.setdefault(section, [])
    return deck


DECK_FILES = {game: CARD_DB / "decks" / f"{game}-sample.txt" for game in game_ids()}


@pytest.fixture(scope="module")
def store_cards(seeded_template: Path) -> dict[str, dict[str, StoredCard]]:
    """Per game: display name -> card, from a read-only view of the seeded store."""
    with CardStore.open(seeded_template, seed=False) as store:
        return {game: {card.name: card for card in store.cards(game)} for game in game_ids()}


def _resolve(deck: SampleDeck, cards: dict[str, StoredCard], game: str) -> dict[str, list[tuple[int, StoredCard]]]:
    index = NameIndex(game, [(normalize_name(name), name) for name in cards])
    resolved: dict[str, list[tuple[int, StoredCard]]] = {}
    missing = []
    for section, entries in deck.sections.items():
        for copies, name in entries:
            found = index.exact(name)
            if found is None:
                missing.append(f"{section}: {name} (did you mean {index.suggest(name)})")
            else:
                resolved.setdefault(section, []).append((copies, cards[found]))
    for header in CARD_HEADERS:
        if header in deck.headers:
            found = index.exact(deck.headers[header])
            if found is None:
                missing.append(f"{header}: {deck.headers[header]}")
            else:
                resolved[header] = [(1, cards[found])]
    assert not missing, f"{deck.path}: cards not in the store: {missing}"
    return resolved


def _copies(entries: list[tuple[int, StoredCard]]) -> Counter[str]:
    counter: Counter[str] = Counter()
    for copies, card in entries:
        counter[card.counts_as or card.name] += copies
    return counter


def test_a_sample_deck_per_game() -> None:
    assert sorted(p.name for p in (CARD_DB / "decks").glob("*.txt")) == sorted(p.name for p in DECK_FILES.values())
    for game, path in DECK_FILES.items():
        deck = parse_deck(path)
        assert deck.headers["Game"] == game
        assert deck.headers.get("Name")
        assert sum(deck.count(s) for s in deck.sections) > 0


@pytest.mark.parametrize("game", game_ids())
def test_every_sample_deck_card_is_in_the_store(game: str, store_cards: dict[str, dict[str, StoredCard]]) -> None:
    resolved = _resolve(parse_deck(DECK_FILES[game]), store_cards[game], game)
    assert resolved


def test_elestrals_sample_is_legal(store_cards: dict[str, dict[str, StoredCard]]) -> None:
    # Rulebook: a Spirit Deck of exactly 20 Spirits; a Main Deck of exactly 40, up to 3 copies.
    deck = _resolve(parse_deck(DECK_FILES["elestrals"]), store_cards["elestrals"], "elestrals")
    main, spirits = deck["Main Deck"], deck["Spirit Deck"]
    assert sum(n for n, _ in main) == 40
    assert max(_copies(main).values()) <= 3
    assert all(card.type in ("elestral", "rune") for _, card in main)
    assert sum(n for n, _ in spirits) == 20
    assert all(card.type == "spirit" for _, card in spirits)


def test_elekin_sample_is_legal(store_cards: dict[str, dict[str, StoredCard]]) -> None:
    # Rulebook 1.2.1 and the publisher's deck rules: 40-60 cards, up to 3 copies, at least
    # 15 creatures, at most 4 legendary cards, three Shields one of each tier.
    deck = _resolve(parse_deck(DECK_FILES["elekin"]), store_cards["elekin"], "elekin")
    main, shields = deck["Main Deck"], deck["Shields"]
    assert 40 <= sum(n for n, _ in main) <= 60
    assert max(_copies(main).values()) <= 3
    assert sum(n for n, card in main if card.type == "creature") >= 15
    assert sum(n for n, card in main if card.data.get("rarity") == "L") <= 4
    assert all(card.type != "shield" for _, card in main)
    assert sorted(card.data["tier"] for n, card in shields for _ in range(n)) == [1, 2, 3]


def test_aestery_sample_is_legal(store_cards: dict[str, dict[str, StoredCard]]) -> None:
    # Rules page: at least 60 cards, up to 4 copies; with a Hero, only the Hero's colours.
    deck = _resolve(parse_deck(DECK_FILES["aestery"]), store_cards["aestery"], "aestery")
    main = deck["Main Deck"]
    ((_, hero),) = deck["Hero"]
    assert hero.type == "hero"
    assert sum(n for n, _ in main) >= 60
    assert max(_copies(main).values()) <= 4
    allowed = set(hero.data.get("colors", []))
    for _, card in main:
        assert card.type != "hero"
        assert set(card.data.get("colors", [])) <= allowed, card.name


def test_elemental_clash_sample_is_legal(store_cards: dict[str, dict[str, StoredCard]]) -> None:
    # Rulebook: a Spellbook of exactly 40, at most 3 copies except Basic Element-Stones;
    # the Spellcaster stays outside the Spellbook and caps its size.
    deck = _resolve(parse_deck(DECK_FILES["elemental-clash"]), store_cards["elemental-clash"], "elemental-clash")
    book = deck["Spellbook"]
    ((_, caster),) = deck["Spellcaster"]
    assert caster.type == "spellcaster"
    assert sum(n for n, _ in book) == 40 <= caster.data["deck_size"]
    for name, copies in _copies([(n, c) for n, c in book if not c.data.get("basic")]).items():
        assert copies <= 3, name
    assert all(card.type != "spellcaster" for _, card in book)


def test_elemystic_sample_is_the_nine_elements(store_cards: dict[str, dict[str, StoredCard]]) -> None:
    deck = _resolve(parse_deck(DECK_FILES["elemystic"]), store_cards["elemystic"], "elemystic")
    elements = deck["Elements"]
    assert all(n == 1 and card.type == "element" for n, card in elements)
    assert {card.name for _, card in elements} == {
        c.name for c in store_cards["elemystic"].values() if c.type == "element"
    }
    assert len(elements) == 9


def _as_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def test_seeding_equals_importing_the_bundled_sources(store: CardStore) -> None:
    """The first-use fill is exactly what importing each bundled source gives."""
    for game, source in bundled_sources().items():
        result = load_cards(game, source.path, source.importer)
        stored = {c.name: c.data for c in store.cards(game)}
        assert len(result.cards) == len(stored), game
        for card in result.cards[:: max(1, len(result.cards) // 25)]:
            expected = card.model_dump(mode="json", exclude_defaults=True)
            assert _as_json({k: v for k, v in stored[card.name].items() if k in expected}) == _as_json(expected)

"""Name normalisation and "did you mean" suggestions."""

from __future__ import annotations

import json
import random
import unicodedata
from pathlib import Path
from typing import Literal

import pytest
from conftest import CliInvoker
from hypothesis import example, given, settings
from hypothesis import strategies as st

from deckcli.cards import lookup
from deckcli.cards.lookup import NameIndex
from deckcli.cards.names import base_name, clean_display_name, initials, normalize_name
from deckcli.cards.store import CardStore
from deckcli.errors import CardNotFoundError

# -- normalisation -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("spelling", "stored"),
    [
        ("Veton, The Lightning Dragon", "Veton | The Lightning Dragon"),
        ("Veton - The Lightning Dragon", "Veton | The Lightning Dragon"),
        ("veton|the lightning dragon", "Veton | The Lightning Dragon"),
        ("  VETON   |  THE  LIGHTNING\tDRAGON ", "Veton | The Lightning Dragon"),
        ("Gorgon's Gaze", "Gorgon’s Gaze"),
        ("Gorgon`s Gaze", "Gorgon’s Gaze"),
        ("Gorgon\u2018s Gaze", "Gorgon’s Gaze"),
        ("Morphrost | Abominable Form", "Morphrost - Abominable Form"),
        ("Morphrost \u2013 Abominable Form", "Morphrost - Abominable Form"),
        ("Algorn | Wizard Adept", "Algorn, Wizard Adept"),
        ("Pok\u0065\u0301mon Trainer", "Pok\u00e9mon Trainer"),  # NFD vs NFC
        ("POK\u00c9MON TRAINER", "Pok\u0065\u0301mon Trainer"),
        ("Stra\u00dfe", "STRASSE"),  # full case folding
        ("Don\u2019t Poke the Bear!", "Don't Poke the Bear!"),
        ("Mist\u00a0Cloak", "Mist Cloak"),  # no-break space
    ],
)
def test_equivalent_spellings_normalise_equal(spelling: str, stored: str) -> None:
    assert normalize_name(spelling) == normalize_name(stored)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Jupiter-Stormmaster", "Jupiter Stormmaster"),  # an unspaced hyphen is part of a word
        ("Veton", "Veton | The Lightning Dragon"),
        ("Mars' Rage", "Mars Rage"),
        ("Skitters", "Skiters"),
    ],
)
def test_different_names_stay_different(first: str, second: str) -> None:
    assert normalize_name(first) != normalize_name(second)


def test_normal_form_shape() -> None:
    assert normalize_name("Veton, The Lightning Dragon") == "veton | the lightning dragon"
    assert base_name("Veton, The Lightning Dragon") == "veton"
    assert base_name("Skitters") == "skitters"
    assert initials("Hammer of Hephaestus") == "hoh"
    assert clean_display_name("  Glint \n ") == "Glint"
    assert clean_display_name("Pok\u0065\u0301mon") == "Pok\u00e9mon"


# Words as players type them: letters (some accented), digits, apostrophes of all kinds.
_WORD = st.text(
    alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789éÉßüÜñ'’"),
    min_size=1,
    max_size=10,
).filter(lambda w: any(c.isalnum() for c in w))
_SEPARATORS = [" | ", ", ", " - ", " |", ",", "  -  ", " \u2013 ", "|"]


@settings(max_examples=300, deadline=None)
@given(st.text())
@example("ß\u0301")  # casefold decomposes: 'ss\u0301' must be recomposed ('sś')
@example("\u1e9e\u0301")
@example("\u03aa\u0301")
@example("a , , b")
@example(" |x| ")
@example("\u00b4")
def test_normalisation_is_idempotent(text: str) -> None:
    once = normalize_name(text)
    assert normalize_name(once) == once


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(_WORD, min_size=1, max_size=4),
    title=st.lists(_WORD, min_size=0, max_size=3),
    separator=st.sampled_from(_SEPARATORS),
    data=st.data(),
)
def test_equivalent_spellings_property(words: list[str], title: list[str], separator: str, data: st.DataObject) -> None:
    """A name and any respelling (case, NFC/NFD, quotes, spaces, separator) normalise alike."""
    printed = " ".join(words) + (" | " + " ".join(title) if title else "")
    case = data.draw(st.sampled_from([str.lower, str.upper, str.title, str.swapcase, lambda s: s]))
    form: Literal["NFC", "NFD", "NFKC", "NFKD"] = data.draw(st.sampled_from(["NFC", "NFD", "NFKC", "NFKD"]))
    quote = data.draw(st.sampled_from(["'", "’", "‘", "`"]))
    gap = data.draw(st.sampled_from([" ", "  ", "\t", " \u00a0"]))
    typed = gap.join(words)
    if title:
        typed += separator + gap.join(title)
    typed = unicodedata.normalize(form, case(typed).replace("'", quote).replace("’", quote))
    typed = data.draw(st.sampled_from(["", " ", "  "])) + typed + data.draw(st.sampled_from(["", " ", "\n"]))
    assert normalize_name(typed) == normalize_name(printed)


# -- exact lookup and suggestions on the real names --------------------------------


@pytest.fixture
def elekin_index(store: CardStore) -> NameIndex:
    return NameIndex("elekin", store.names("elekin"))


@pytest.fixture
def elestrals_index(store: CardStore) -> NameIndex:
    return NameIndex("elestrals", store.names("elestrals"))


def test_exact_lookup_uses_the_normal_form(elekin_index: NameIndex, elestrals_index: NameIndex) -> None:
    assert elekin_index.exact("Veton, The Lightning Dragon") == "Veton | The Lightning Dragon"
    assert elekin_index.exact("veton - the lightning dragon") == "Veton | The Lightning Dragon"
    assert elestrals_index.exact("Gorgon's Gaze") == "Gorgon’s Gaze"
    assert elestrals_index.exact("MORPHROST, ABOMINABLE FORM") == "Morphrost - Abominable Form"
    assert "glint" in elekin_index
    assert elekin_index.exact("Veton") is None
    assert len(elekin_index) == 175


@pytest.mark.parametrize(
    ("game", "typed", "meant"),
    [
        ("elekin", "Veton", "Veton | The Lightning Dragon"),
        ("elekin", "diamoria", "Diamoria | The Crystal Dragon"),
        ("elekin", "Skiters", "Skitters"),
        ("elekin", "Lightning Dragon", "Veton | The Lightning Dragon"),
        ("elestrals", "HoH", "Hammer of Hephaestus"),
        ("elestrals", "H.o.H.", "Hammer of Hephaestus"),
        ("elestrals", "Gorgons Gaze", "Gorgon’s Gaze"),
        ("elestrals", "Morphrost", "Morphrost - Abominable Form"),
        ("elestrals", "Posiedon", "Poseidon"),
    ],
)
def test_suggestions_find_abbreviations_and_typos(store: CardStore, game: str, typed: str, meant: str) -> None:
    index = NameIndex(game, store.names(game))
    suggestions = index.suggest(typed)
    assert suggestions[0] == meant, suggestions
    assert len(suggestions) <= 3
    assert len(set(suggestions)) == len(suggestions)


def test_suggestions_are_capped_and_empty_for_nonsense(elekin_index: NameIndex) -> None:
    assert len(elekin_index.suggest("a")) <= 3
    assert len(elekin_index.suggest("dragon", limit=2)) == 2
    assert elekin_index.suggest("") == []
    assert elekin_index.suggest("qqqqxxxxzzzz") == []


def test_resolve_raises_with_suggestions(elekin_index: NameIndex) -> None:
    assert elekin_index.resolve("veton, the lightning dragon") == "Veton | The Lightning Dragon"
    with pytest.raises(CardNotFoundError) as info:
        elekin_index.resolve("Skiters")
    assert info.value.suggestions[0] == "Skitters"
    assert info.value.hint is not None and "did you mean: Skitters" in info.value.hint


def _synthetic_names(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    syllables = ["bra", "cor", "dun", "fel", "gri", "hal", "jor", "kel", "mur", "nax", "pil", "quo", "rud", "sav"]
    titles = ["Warden", "of the Deep", "Storm Caller", "Iron Guard", "the Elder", "Flame Keeper"]
    names: set[str] = set()
    while len(names) < count:
        name = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))).capitalize()
        if rng.random() < 0.4:
            name += " | " + rng.choice(titles)
        names.add(name)
    return sorted(names)


def test_large_index_keeps_suggestion_quality(store: CardStore) -> None:
    """Past FULL_SCAN_LIMIT names the cheap pre-filter must not lose the good matches."""
    real = store.names("elestrals") + store.names("elekin")
    synthetic = [(normalize_name(n), n) for n in _synthetic_names(lookup.FULL_SCAN_LIMIT * 2)]
    index = NameIndex("mixed", real + synthetic)
    assert len(index) > lookup.FULL_SCAN_LIMIT
    assert index.suggest("Veton")[0] == "Veton | The Lightning Dragon"
    assert index.suggest("HoH")[0] == "Hammer of Hephaestus"
    assert index.suggest("Skiters")[0] == "Skitters"
    assert index.suggest("Hamer of Hefaestus")[0] == "Hammer of Hephaestus"
    assert index.suggest("Posiedon")[0] == "Poseidon"
    assert index.exact("gorgon's gaze") == "Gorgon’s Gaze"


# -- through the CLI ---------------------------------------------------------------


def test_show_accepts_any_equivalent_spelling(cli: CliInvoker) -> None:
    for spelling in ("Veton, The Lightning Dragon", "VETON - the lightning dragon", "veton|the lightning dragon"):
        data = json.loads(cli("db", "show", "elekin", spelling, "--json").stdout)
        assert data["name"] == "Veton | The Lightning Dragon"
    assert json.loads(cli("db", "show", "elestrals", "Gorgon's Gaze", "--json").stdout)["name"] == "Gorgon’s Gaze"


def test_show_matches_nfd_and_nfc(cli: CliInvoker, tmp_path: Path) -> None:
    source = tmp_path / "accents.json"
    nfc = "Pok\u00e9mon Tr\u00e4iner"
    source.write_text(json.dumps([{"name": nfc, "type": "creature"}], ensure_ascii=False), encoding="utf-8")
    cli("db", "import", "elekin", str(source))
    nfd = unicodedata.normalize("NFD", nfc)
    assert nfd != nfc
    assert json.loads(cli("db", "show", "elekin", nfd, "--json").stdout)["name"] == nfc


def test_show_unknown_name_suggests(cli: CliInvoker) -> None:
    result = cli("db", "show", "elekin", "Veton", expect=2)
    assert "no elekin card named 'Veton'" in result.stderr
    assert "did you mean: Veton | The Lightning Dragon" in result.stderr
    result = cli("db", "show", "elestrals", "HoH", expect=2)
    assert "did you mean: Hammer of Hephaestus" in result.stderr
    assert result.stdout == ""

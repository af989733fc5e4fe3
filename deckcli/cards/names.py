"""Card-name normalisation.

Two spellings of a name are the same card when their normal forms are equal. The
normal form ignores case, Unicode composition, curly versus straight quotes, runs of
white space, and treats the title separators ``|``, ``,`` and `` - `` alike, so
"Veton, The Lightning Dragon" finds "Veton | The Lightning Dragon" and
"Gorgon's Gaze" finds "Gorgon’s Gaze".
"""

from __future__ import annotations

import re
import unicodedata

TITLE_SEPARATOR = " | "

_QUOTES = str.maketrans(
    {
        "\u2018": "'",  # left single quotation mark
        "\u2019": "'",  # right single quotation mark
        "\u201a": "'",
        "\u201b": "'",
        "\u02bc": "'",  # modifier letter apostrophe
        "\u2032": "'",  # prime
        "`": "'",
        "\u00b4": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2033": '"',
        "\u2013": "-",  # en dash
        "\u2014": "-",  # em dash
        "\u2212": "-",
        "\u00a0": " ",
    }
)
# "|" and "," always separate; a hyphen only when spaced, so "Jupiter-Stormmaster" stays one word.
_SEPARATOR = re.compile(r"\s*[|,]\s*|\s+-\s+")
_SPACES = re.compile(r"\s+")
# Abbreviations printed names and decklists disagree on ("Mt. Olympus" / "Mount Olympus").
_ABBREVIATIONS = ((re.compile(r"\bmt\.?(?= )"), "mount"), (re.compile(r" & "), " and "))


def normalize_name(name: str) -> str:
    """The normal form under which two spellings of a card name compare equal."""
    text = unicodedata.normalize("NFKC", name).translate(_QUOTES).casefold()
    # casefold can undo composition ("ß\u0301" -> "ss\u0301"): recompose so the form is stable.
    text = unicodedata.normalize("NFKC", text)
    # Separators first, then spaces and edges, so that a second pass changes nothing.
    text = _SPACES.sub(" ", _SEPARATOR.sub(TITLE_SEPARATOR, text)).strip()
    for pattern, replacement in _ABBREVIATIONS:
        text = pattern.sub(replacement, text)
    return text


def base_name(name: str) -> str:
    """The part of a (normalised or printed) name before its title, e.g. 'veton'."""
    return normalize_name(name).split(TITLE_SEPARATOR, 1)[0]


def initials(name: str) -> str:
    """Initials of a name's words, the usual abbreviation players write ('hoh')."""
    words = re.findall(r"[0-9a-z]+", normalize_name(name))
    return "".join(word[0] for word in words)


def clean_display_name(name: str) -> str:
    """A printed name tidied for display: single spaces, no stray edges."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", name)).strip()

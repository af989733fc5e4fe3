"""Canonical card models, one pydantic model per game.

Every importer maps its source onto these models; the store keeps the validated
records as JSON. Field names are documented in ``card_db/README.md``. Models are only
needed to *validate* cards, so this module is imported on the import path and never on
the read path (``deckcli db show`` reads stored JSON without pydantic).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

ElestralsElement = Literal["fire", "water", "earth", "thunder", "wind", "frost", "lunar", "solar", "omni", "rainbow"]
ElekinElement = Literal["air", "water", "earth", "fire"]
AesteryColor = Literal["red", "green", "purple", "silver", "black", "white", "blue"]
ClashElement = Literal["earth", "air", "fire", "water", "neutral"]

NonNegative = Annotated[int, Field(ge=0)]


class Printing(BaseModel):
    """One physical printing of a card: where it was printed and under which number."""

    model_config = ConfigDict(extra="forbid")

    set: str | None = Field(None, description="Set or product the printing belongs to.")
    number: str | None = Field(None, description="Collector number printed on the card, e.g. 'SD01-16'.")
    rarity: str | None = Field(None, description="Rarity of this printing.")
    source_id: str | None = Field(None, description="Identifier of the printing in its source data.")
    released: str | None = Field(None, description="Release date (ISO) of the printing's set, if known.")
    differs: bool = Field(
        False, description="True when this printing's stats or text differ from the card's kept values."
    )


class CardBase(BaseModel):
    """Fields every game shares."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    game: ClassVar[str] = ""

    name: str = Field(..., min_length=1, description="Full printed name, title included.")
    type: str = Field(..., description="Card type; each game restricts the allowed values.")
    text: str = Field("", description="Rules text (abilities, effects) as printed.")
    keywords: list[str] = Field(default_factory=list, description="Keywords the card has, e.g. 'Pierce'.")
    set: str | None = Field(None, description="Set of the kept (newest) printing.")
    number: str | None = Field(None, description="Collector number of the kept printing.")
    rarity: str | None = Field(None, description="Rarity of the kept printing.")
    counts_as: str | None = Field(
        None, description="The card counts as this name for copy limits ('always counts as X')."
    )
    demo: bool = Field(False, description="A made-up card shipped so that sample decks are complete.")
    provisional: bool = Field(
        False, description="Some values are not printed in any rulebook or source and are guesses."
    )
    incomplete: bool = Field(False, description="The source lacks stats the game needs (kept, but marked).")
    printings: list[Printing] = Field(default_factory=list, description="Every known printing.")
    notes: str = Field("", description="Where the data came from or what is uncertain about it.")

    @field_validator("keywords")
    @classmethod
    def _strip_keywords(cls, keywords: list[str]) -> list[str]:
        return [k.strip() for k in keywords if k.strip()]


class ElestralsCard(CardBase):
    """An Elestrals card: an Elestral, a Spirit or a Rune."""

    game: ClassVar[str] = "elestrals"

    type: Literal["elestral", "spirit", "rune"] = Field(..., description="elestral, spirit or rune.")
    subtype: Literal["invoke", "counter", "artifact", "divine", "stadium"] | None = Field(
        None, description="Rune subtype; None for Elestrals and Spirits."
    )
    cost: list[ElestralsElement] = Field(
        default_factory=list, description="Spirits needed to cast, one entry per Spirit; 'omni' = any."
    )
    element: ElestralsElement | None = Field(None, description="Element a Spirit provides.")
    elements: list[ElestralsElement] = Field(default_factory=list, description="Elemental types of the card.")
    attack: NonNegative | None = Field(None, description="Printed attack (Elestrals only).")
    defense: NonNegative | None = Field(None, description="Printed defense (Elestrals only).")
    subclasses: list[str] = Field(default_factory=list, description="Subclasses, e.g. 'dragon', 'ethereal'.")
    base_name: str | None = Field(None, description="Name without its title, e.g. 'Morphrost'.")
    title: str | None = Field(None, description="Title part of the name, e.g. 'Lycan Form'.")


class ElekinCard(CardBase):
    """An Elekin card: a Creature, Rune, Counter or Shield."""

    game: ClassVar[str] = "elekin"

    type: Literal["creature", "rune", "counter", "shield"] = Field(..., description="Card type.")
    elements: list[ElekinElement] = Field(
        default_factory=list, description="One element, or two for a Dragon (rulebook 4.1.2)."
    )
    cost: NonNegative | None = Field(None, description="Essence needed to summon or cast.")
    strength: NonNegative | None = Field(None, description="Creature strength.")
    agility: NonNegative | None = Field(None, description="Creature agility.")
    generation: NonNegative | None = Field(None, description="Essence the creature generates each turn.")
    tier: Literal[1, 2, 3] | None = Field(None, description="Shield tier (I, II or III).")
    rune_kind: Literal["normal", "equipment", "instant"] | None = Field(None, description="Rune kind.")
    dragon: bool = Field(False, description="True for the six Dragons (two elements, no generation).")


class AesteryCard(CardBase):
    """An Aestery TCG card: a Fighter, Story, Instant or Hero."""

    game: ClassVar[str] = "aestery"

    type: Literal["fighter", "story", "instant", "hero"] = Field(..., description="Card type.")
    colors: list[AesteryColor] = Field(default_factory=list, description="Colours; empty = colourless.")
    cost: NonNegative | None = Field(None, description="Aether cost to play.")
    pitch: Literal[1, 2, 3] | None = Field(None, description="Aether produced when pitched (1-3).")
    power: NonNegative | None = Field(None, description="Fighter power.")
    defense: NonNegative | None = Field(None, description="Fighter defense.")
    experience: NonNegative | None = Field(None, description="Starting experience counters (Heroes).")


class ElementalClashCard(CardBase):
    """An Elemental Clash card: a Creature, Spell, Element-Stone or Spellcaster."""

    game: ClassVar[str] = "elemental-clash"

    type: Literal["creature", "spell", "element-stone", "spellcaster"] = Field(..., description="Card type.")
    element: ClashElement | None = Field(None, description="Element; element-stones are 'neutral'.")
    produces: ClashElement | None = Field(None, description="Energy an element-stone produces.")
    level: Annotated[int, Field(ge=0, le=9)] | None = Field(None, description="Level (1-3 usually).")
    attack: NonNegative | None = Field(None, description="Creature ATK.")
    defense: NonNegative | None = Field(None, description="Creature DEF.")
    creature_type: str | None = Field(None, description="Creature type, e.g. 'Dragon'.")
    spell_kind: Literal["normal", "flash", "permanent"] | None = Field(None, description="Spell subtype.")
    basic: bool = Field(False, description="A basic element-stone (unlimited copies).")
    hand_size: NonNegative | None = Field(None, description="Spellcaster: opening hand and hand limit.")
    draw: NonNegative | None = Field(None, description="Spellcaster: cards drawn in the Draw-Phase.")
    deck_size: NonNegative | None = Field(None, description="Spellcaster: maximum Spellbook size.")


class ElemysticCard(CardBase):
    """An Elemystic component: one of the nine elements, or a token."""

    game: ClassVar[str] = "elemystic"

    type: Literal["element", "token"] = Field(..., description="element or token.")
    strength: int | None = Field(None, description="Strength (top-left value).")
    defense: int | None = Field(None, description="Defense (top-right value).")
    invocation_strength: int | None = Field(None, description="Strength added only when in front.")
    invocation_defense: int | None = Field(None, description="Defense added only when in front.")
    speed: int | None = Field(None, description="Speed; the higher column attacks first.")


CARD_MODELS: dict[str, type[CardBase]] = {
    model.game: model for model in (ElestralsCard, ElekinCard, AesteryCard, ElementalClashCard, ElemysticCard)
}


def card_model(game_id: str) -> type[CardBase]:
    """The pydantic model that validates cards of ``game_id``."""
    return CARD_MODELS[game_id]

"""Formats as data: ``formats/*.toml`` loaded into strict models, and the registry.

A format names the game whose cards it uses, its sections (sizes, allowed types,
header aliases) and its rules (kinds from :mod:`deckcli.rules.kinds`). A broken file
gives an error naming the file and the key. ``find_format`` takes a format id (the
file's stem), a game id or alias, or the path of a house-format file.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from deckcli.errors import DeckcliError
from deckcli.resources import data_dir
from deckcli.rules.kinds import RULE_KINDS, RuleBase


class FormatError(DeckcliError):
    """A format file that cannot be loaded, or a format name that matches nothing."""


class SectionSpec(BaseModel):
    """One section of a deck: its size, the card types it takes, its header words."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(..., description="Section id: main, spirit, shields, side, hero, spellcaster, elements.")
    title: str = Field(..., description="Printed header, e.g. 'Spirit Deck'.")
    aliases: list[str] = Field(default_factory=list, description="Header words that name this section.")
    types: list[str] | None = Field(None, description="Card types allowed here; None = any.")
    min: int | None = Field(None, ge=0, description="Fewest cards (when the section is used).")
    max: int | None = Field(None, ge=0, description="Most cards.")
    optional: bool = Field(False, description="An absent or empty section is legal.")
    size_code: str = Field("deck-size", description="Violation code for a size problem.")
    warn_above: int | None = Field(None, ge=0, description="Warn (legal but risky) above this many cards.")
    cite: str = Field(..., description="Rulebook section the sizes come from.")

    @field_validator("aliases")
    @classmethod
    def _lower(cls, aliases: list[str]) -> list[str]:
        return [" ".join(a.lower().split()) for a in aliases]


class SideboardSpec(BaseModel):
    """How a sideboarded deck may differ from the registered one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pool: list[str] = Field(..., description="Sections cards may move between.")
    keep_sizes: list[str] = Field(default_factory=list, description="Sections whose size may not change.")
    cite: str


class Format(BaseModel):
    """A deck construction format."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field("", description="The format's id: its file's stem.")
    game: str = Field(..., description="Game whose cards the format uses.")
    name: str
    rulebook: str = Field("", description="Rulebook file the citations refer to.")
    sections: list[SectionSpec]
    rules: list[RuleBase] = Field(default_factory=list)
    sideboarding: SideboardSpec | None = None
    path: str = ""

    def section(self, section_id: str) -> SectionSpec | None:
        """The section with ``section_id``."""
        return next((s for s in self.sections if s.id == section_id), None)

    def titles(self) -> dict[str, str]:
        """Section id -> printed title."""
        return {s.id: s.title for s in self.sections}

    def names(self) -> list[str]:
        """Every card name any rule mentions."""
        return [name for rule in self.rules for name in rule.names()]


def _key_path(loc: tuple[Any, ...]) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def _parse_rules(raw_rules: Any, where: str) -> list[RuleBase]:
    if not isinstance(raw_rules, list):
        raise FormatError(f"{where}: key 'rules' must be a list of [[rules]] tables")
    rules: list[RuleBase] = []
    for index, raw in enumerate(raw_rules):
        if not isinstance(raw, dict) or "kind" not in raw:
            raise FormatError(f"{where}: rules[{index}]: missing key 'kind'")
        kind = RULE_KINDS.get(str(raw["kind"]))
        if kind is None:
            valid = ", ".join(sorted(RULE_KINDS))
            raise FormatError(
                f"{where}: rules[{index}].kind: unknown rule kind '{raw['kind']}'", hint=f"known kinds: {valid}"
            )
        try:
            rules.append(kind.model_validate(raw))
        except ValidationError as exc:
            error = exc.errors()[0]
            key = _key_path(("rules", index, *error["loc"]))
            raise FormatError(f"{where}: {key}: {error['msg']}") from exc
    return rules


def load_format_file(path: Path) -> Format:
    """Load and check one format file."""
    where = str(path)
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FormatError(f"no such format file: {where}") from None
    except OSError as exc:
        raise FormatError(f"cannot read format file {where}: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"{where}: not valid TOML ({exc})") from exc
    rules = _parse_rules(table.pop("rules", []), where)
    try:
        fmt = Format.model_validate({**table, "id": table.get("id", path.stem), "path": where})
    except ValidationError as exc:
        error = exc.errors()[0]
        raise FormatError(f"{where}: {_key_path(error['loc'])}: {error['msg']}") from exc
    from deckcli.games import find_game

    try:
        game_id = find_game(fmt.game).id
    except DeckcliError as exc:
        raise FormatError(f"{where}: game: {exc.message}", hint=exc.hint) from exc
    ids = [s.id for s in fmt.sections]
    named: list[tuple[str, Any]] = [
        (f"rules[{index}].{name}", getattr(rule, name))
        for index, rule in enumerate(rules)
        for name in type(rule).model_fields
        if name == "target" or name.endswith(("section", "sections"))
    ]
    if fmt.sideboarding is not None:
        sideboarding = fmt.sideboarding
        named += [("sideboarding.pool", sideboarding.pool), ("sideboarding.keep_sizes", sideboarding.keep_sizes)]
    for key, value in named:
        for section in value if isinstance(value, list) else [value] if value else []:
            if section not in ids:
                raise FormatError(
                    f"{where}: {key}: names section '{section}', which the format lacks",
                    hint=f"its sections: {', '.join(ids)}",
                )
    return fmt.model_copy(update={"rules": rules, "game": game_id})


def formats_dir() -> Path:
    """The folder of bundled format files."""
    return data_dir("formats")


_loaded: dict[str, Format] = {}


def list_formats() -> list[Format]:
    """Every bundled format."""
    return [find_format(path.stem) for path in sorted(formats_dir().glob("*.toml"))]


def find_format(name: str) -> Format:
    """A format by id, game id/alias, or path to a ``.toml`` file."""
    if name in _loaded:
        return _loaded[name]
    candidate = Path(name)
    if candidate.suffix.lower() == ".toml":
        fmt = load_format_file(candidate)
    else:
        path = formats_dir() / f"{name.strip().lower()}.toml"
        if not path.exists():
            from deckcli.games import find_game

            try:
                path = formats_dir() / f"{find_game(name).id}.toml"
            except DeckcliError:
                valid = ", ".join(p.stem for p in sorted(formats_dir().glob("*.toml")))
                raise FormatError(f"unknown format '{name}'", hint=f"valid formats: {valid}") from None
        fmt = load_format_file(path)
    _loaded[name] = fmt
    return fmt

"""Domain exceptions. The CLI maps each to a message and an exit code; no traceback."""

from __future__ import annotations


class DeckcliError(Exception):
    """Base of every error deckcli reports to a user."""

    #: process exit code the CLI uses for this error
    exit_code: int = 2

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if self.hint is None else f"{self.message}\n{self.hint}"


class UnknownGameError(DeckcliError):
    """A game id or alias that is not registered."""


class StoreError(DeckcliError):
    """The card store file is missing, corrupt, foreign or too new."""


class ImportRecordError(DeckcliError):
    """A source record failed validation; the whole import is rejected."""

    def __init__(
        self,
        source: str,
        record: str,
        field: str | None,
        expected: str,
        found: object,
    ) -> None:
        where = f"{source}: record {record}"
        if field:
            where += f", field '{field}'"
        super().__init__(f"{where}: expected {expected}, found {found!r}")
        self.source = source
        self.record = record
        self.field = field
        self.expected = expected
        self.found = found


class SourceError(DeckcliError):
    """A source cannot be read: missing file, unknown format, HTTP failure, bad body."""


class CardNotFoundError(DeckcliError):
    """A card name that matches nothing; carries "did you mean" suggestions."""

    def __init__(self, game_id: str, name: str, suggestions: list[str]) -> None:
        message = f"no {game_id} card named '{name}'"
        hint = f"did you mean: {', '.join(suggestions)}?" if suggestions else None
        super().__init__(message, hint=hint)
        self.game_id = game_id
        self.name = name
        self.suggestions = suggestions

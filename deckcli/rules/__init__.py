"""Formats and validation: ``formats/*.toml`` rules applied to decks."""

from deckcli.rules.formats import Format, FormatError, find_format, list_formats
from deckcli.rules.report import CODES, Report, Violation
from deckcli.rules.validate import validate, validate_against

__all__ = [
    "CODES",
    "Format",
    "FormatError",
    "Report",
    "Violation",
    "find_format",
    "list_formats",
    "validate",
    "validate_against",
]

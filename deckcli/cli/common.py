"""What every CLI sub-app shares: error mapping, consoles, opening the store.

Exit codes: 0 success, 1 a checked thing is not legal (validation), 2 usage or input
error (bad file, unknown name or game), 70 an internal error (a bug: the message asks
for a report; ``DECKCLI_DEBUG=1`` shows the traceback), 130 interrupted.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from typer.core import TyperGroup

from deckcli.errors import DeckcliError

if TYPE_CHECKING:
    from rich.console import Console

    from deckcli.cards.store import CardStore
    from deckcli.games import Game

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130


def _console(stderr: bool) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=False)


_consoles: dict[bool, Console] = {}


def console(stderr: bool = False) -> Console:
    """The shared rich console for stdout (or stderr)."""
    if stderr not in _consoles:
        _consoles[stderr] = _console(stderr)
    return _consoles[stderr]


def print_error(message: str, hint: str | None = None) -> None:
    """An error line on stderr, with an optional hint line."""
    err = console(stderr=True)
    err.print(f"[bold red]error:[/] {_escape(message)}")
    if hint:
        err.print(f"[yellow]hint:[/] {_escape(hint)}")


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def fail(message: str, hint: str | None = None, code: int = EXIT_USAGE) -> NoReturn:
    """Report an error and stop with ``code``."""
    print_error(message, hint)
    raise typer.Exit(code)


class DeckcliGroup(TyperGroup):
    """A command group that turns domain errors into messages and exit codes."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except DeckcliError as exc:
            print_error(exc.message, exc.hint)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            print_error("interrupted")
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except (typer.Exit, typer.Abort, typer.TyperException):
            # Typer >= 0.20 vendors click: its Exit/usage errors are not click's classes.
            raise
        except BrokenPipeError:
            # The reader went away (e.g. `| head`); nothing more to say.
            sys.stderr.close()
            raise typer.Exit(EXIT_OK) from None
        except Exception as exc:
            # Usage errors and the like are typer's (its bundled click) to handle.
            if type(exc).__module__.startswith(("typer", "click")):
                raise
            if os.environ.get("DECKCLI_DEBUG"):
                raise
            print_error(
                f"internal error: {type(exc).__name__}: {exc}",
                "this is a bug in deckcli; rerun with DECKCLI_DEBUG=1 for the traceback and report it",
            )
            raise typer.Exit(EXIT_INTERNAL) from None


def new_app(help_text: str) -> typer.Typer:
    """A sub-app with deckcli's conventions."""
    return typer.Typer(
        cls=DeckcliGroup,
        help=help_text,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        # Plain click help: rich-formatted help costs ~75 ms of imports at every start.
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )


def db_path(ctx: typer.Context) -> Path | None:
    """The ``--db`` path chosen on the command line, if any."""
    root = ctx.find_root()
    obj = root.obj if isinstance(root.obj, dict) else {}
    value = obj.get("db")
    return Path(value) if value else None


def open_store(ctx: typer.Context) -> CardStore:
    """Open the card store chosen by ``--db`` / ``$DECKCLI_DB`` / the default."""
    from deckcli.cards.store import CardStore

    store = CardStore.open(db_path(ctx))
    ctx.call_on_close(store.close)
    return store


def game_arg(name: str) -> Game:
    """Resolve a GAME argument; unknown names list the valid ids."""
    from deckcli.games import find_game

    return find_game(name)


def print_json(value: Any) -> None:
    """Write ``value`` as indented JSON to stdout."""
    import json

    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")

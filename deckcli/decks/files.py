"""Reading and writing decklist files safely.

Reading keeps what a rewrite needs to give the file back as it was: the encoding
(UTF-8, with or without a byte-order mark, or Windows-1252 for old exports).

Writing is atomic: the new content goes to a temporary file in the same folder, is
flushed and fsynced, and then replaces the target with ``os.replace``. A crash or an
error at any point leaves either the old file or the new one, never half of either, and
never a stray temporary file. Without ``force`` an existing file is never replaced, even
one another process creates at the same moment (the temporary file is hard-linked into
place, which fails if the name is taken).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from deckcli.errors import DeckcliError

_BOM = "\ufeff"


class DeckFileError(DeckcliError):
    """A decklist file that cannot be read at all (missing, unreadable, not text)."""


class DeckFileExistsError(DeckFileError):
    """The target file exists and overwriting it was not asked for."""


@dataclass(frozen=True)
class TextFile:
    """The decoded text of a file and how to encode it back."""

    text: str
    encoding: str = "utf-8"
    #: the file started with a UTF-8 byte-order mark
    bom: bool = False

    def encode(self, text: str) -> bytes:
        """``text`` encoded the way this file was (UTF-8 if the old encoding cannot hold it)."""
        try:
            data = text.encode(self.encoding)
        except UnicodeEncodeError:
            data = text.encode("utf-8")
        return b"\xef\xbb\xbf" + data if self.bom else data


def read_text_file(path: Path | str) -> TextFile:
    """The text of ``path`` (UTF-16 with a BOM, UTF-8, else Windows-1252); raises :class:`DeckFileError`."""
    file = Path(path)
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise DeckFileError(f"no such decklist file: {file}") from None
    except IsADirectoryError:
        raise DeckFileError(f"{file} is a folder, not a decklist file") from None
    except OSError as exc:
        raise DeckFileError(f"cannot read {file}: {exc.strerror or exc}") from exc
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        # Windows "Unicode" text (Notepad): UTF-16 with a byte-order mark, which the codec keeps.
        try:
            return TextFile(data.decode("utf-16"), "utf-16")
        except UnicodeDecodeError as exc:
            raise DeckFileError(f"{file} is not a text decklist (bad UTF-16 at byte {exc.start})") from exc
    if b"\x00" in data:
        raise DeckFileError(f"{file} is not a text decklist (it holds NUL bytes: a binary file?)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            return TextFile(data.decode("cp1252"), "cp1252")
        except UnicodeDecodeError as exc:
            raise DeckFileError(f"{file} is not a text decklist (undecodable byte {exc.start})") from exc
    if text.startswith(_BOM):
        return TextFile(text[1:], "utf-8", bom=True)
    return TextFile(text)


def _new_file_mode() -> int:
    """The permission bits a plain ``open(path, "w")`` would give a new file."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _fsync_folder(folder: Path) -> None:
    """Make a rename durable (best effort: not every platform can open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_bytes_atomic(path: Path | str, data: bytes, *, force: bool = False) -> None:
    """Write ``data`` to ``path`` atomically; an existing file needs ``force``.

    Raises :class:`DeckFileExistsError` when ``path`` exists and ``force`` is false, and
    :class:`DeckFileError` when the file cannot be written. The file's permission bits
    are kept when it is replaced.
    """
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise DeckFileError(f"{target} is a folder, not a decklist file")
    if not force and target.exists():
        raise DeckFileExistsError(f"{target} already exists", hint="pass --force to overwrite it")
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mode = _new_file_mode()
    try:
        fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except FileNotFoundError:
        raise DeckFileError(f"cannot write {target}: folder {folder} does not exist") from None
    except OSError as exc:
        raise DeckFileError(f"cannot write {target}: {exc.strerror or exc}") from exc
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        if force:
            os.replace(temp, target)
        else:
            _link_new(temp, target)
        _fsync_folder(folder)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(exc, DeckcliError) or not isinstance(exc, OSError):
            raise
        raise DeckFileError(f"cannot write {target}: {exc.strerror or exc}") from exc


def _link_new(temp: Path, target: Path) -> None:
    """Put ``temp`` at ``target`` only if ``target`` does not exist (then drop ``temp``)."""
    try:
        os.link(temp, target)
    except FileExistsError:
        raise DeckFileExistsError(f"{target} already exists", hint="pass --force to overwrite it") from None
    except OSError:
        # No hard links here (some network and FAT file systems): check, then rename.
        if target.exists():
            raise DeckFileExistsError(f"{target} already exists", hint="pass --force to overwrite it") from None
        os.replace(temp, target)
        return
    temp.unlink()


def write_text_atomic(path: Path | str, text: str, force: bool = False, *, like: TextFile | None = None) -> None:
    """Write ``text`` to ``path`` atomically (UTF-8, or encoded ``like`` a file read before).

    An existing file is replaced only with ``force``; see :func:`write_bytes_atomic`.
    """
    data = like.encode(text) if like is not None else text.encode("utf-8")
    write_bytes_atomic(path, data, force=force)

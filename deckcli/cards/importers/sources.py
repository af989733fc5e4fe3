"""Reading an import source: a file, a folder or an http(s) URL.

A source is read into a :class:`Source`: its label (path or URL), its kind (``json``
or ``csv``) and its parsed content. Importers then decide whether they understand it.
Nothing here knows any game.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from deckcli.errors import SourceError

#: largest body accepted from a URL, in bytes
URL_SIZE_CAP = 64 * 1024 * 1024
#: (connect, read) time-outs for URL imports, in seconds
URL_TIMEOUTS = (5.0, 30.0)


@dataclass
class Source:
    """Parsed content of an import source."""

    label: str
    kind: Literal["json", "csv"]
    #: JSON: the parsed document; a folder gives a list of ``(file label, document)``
    document: Any = None
    #: CSV: the rows as dicts with their line numbers
    rows: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    #: side data found next to the cards (e.g. Elestrals ``sets/``), by name
    side_data: dict[str, Any] = field(default_factory=dict)
    #: True when ``document`` is a list of (file label, document) pairs from a folder
    from_folder: bool = False


def _parse_json(text: str, label: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SourceError(f"{label}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc


def _parse_csv(text: str, label: str) -> list[tuple[int, dict[str, str]]]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    if not reader.fieldnames:
        raise SourceError(f"{label}: CSV file has no header row")
    rows: list[tuple[int, dict[str, str]]] = []
    try:
        for row in reader:
            if None in row:
                raise SourceError(
                    f"{label}: line {reader.line_num}: more values than the {len(reader.fieldnames)} header columns"
                )
            if any((value or "").strip() for value in row.values()):
                rows.append((reader.line_num, {k.strip(): (v or "") for k, v in row.items()}))
    except csv.Error as exc:
        raise SourceError(f"{label}: line {reader.line_num}: malformed CSV ({exc})") from exc
    return rows


def _decode(data: bytes, label: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError(f"{label}: not UTF-8 text (byte {exc.start})") from exc


def _read_file(path: Path) -> Source:
    label = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read {label}: {exc.strerror or exc}") from exc
    text = _decode(data, label)
    del data  # the bytes are not needed once decoded (large files: halves the peak)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return Source(label, "csv", rows=_parse_csv(text, label))
    if suffix == ".json" or text.lstrip()[:1] in ("[", "{"):
        return Source(label, "json", document=_parse_json(text, label))
    raise SourceError(
        f"{label}: unknown source format", hint="expected a .json or .csv file, or a folder of .json files"
    )


def _json_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"), key=lambda p: _natural_key(p.name))


def _natural_key(name: str) -> list[Any]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _read_folder(folder: Path) -> Source:
    """A folder of JSON files, one record (or array) per file.

    The Elestrals API dump layout is understood: given the dump's ``data/`` folder (or
    its parent), the cards come from ``cards/`` and set release dates from ``sets/``.
    """
    root = folder
    if (folder / "data" / "cards").is_dir():
        root = folder / "data"
    cards_dir = root / "cards" if (root / "cards").is_dir() else root
    files = _json_files(cards_dir)
    if not files:
        raise SourceError(f"{folder}: folder holds no .json files", hint="expected one JSON file per card")
    documents: list[tuple[str, Any]] = []
    for path in files:
        label = str(path)
        try:
            text = _decode(path.read_bytes(), label)
        except OSError as exc:
            raise SourceError(f"cannot read {label}: {exc.strerror or exc}") from exc
        documents.append((path.name, _parse_json(text, label)))
    side: dict[str, Any] = {}
    if cards_dir != root and (root / "sets").is_dir():
        side["sets"] = [_parse_json(_decode(p.read_bytes(), str(p)), str(p)) for p in _json_files(root / "sets")]
    return Source(str(folder), "json", document=documents, side_data=side, from_folder=True)


def _read_url(url: str) -> Source:
    import requests  # heavy import, only for URL sources

    try:
        with requests.get(url, timeout=URL_TIMEOUTS, stream=True) as response:
            if response.status_code >= 400:
                raise SourceError(f"{url}: HTTP {response.status_code} {response.reason}")
            declared = response.headers.get("Content-Length")
            if declared and declared.isdigit() and int(declared) > URL_SIZE_CAP:
                raise SourceError(f"{url}: body of {int(declared):,} bytes is over the {URL_SIZE_CAP:,}-byte cap")
            chunks: list[bytes] = []
            size = 0
            for chunk in response.iter_content(chunk_size=65536):
                size += len(chunk)
                if size > URL_SIZE_CAP:
                    raise SourceError(f"{url}: body is over the {URL_SIZE_CAP:,}-byte cap")
                chunks.append(chunk)
            content_type = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
    except requests.exceptions.ConnectTimeout as exc:
        raise SourceError(f"{url}: connection timed out after {URL_TIMEOUTS[0]:g} s") from exc
    except requests.exceptions.ReadTimeout as exc:
        raise SourceError(f"{url}: no data for {URL_TIMEOUTS[1]:g} s (read time-out)") from exc
    except requests.exceptions.ConnectionError as exc:
        # A time-out while reading the body (not the headers) reaches us as a
        # ConnectionError wrapping urllib3's ReadTimeoutError.
        from urllib3.exceptions import ReadTimeoutError

        if any(isinstance(arg, ReadTimeoutError) for arg in exc.args):
            raise SourceError(f"{url}: no data for {URL_TIMEOUTS[1]:g} s (read time-out)") from exc
        raise SourceError(f"{url}: cannot connect ({exc.__class__.__name__})") from exc
    except requests.exceptions.RequestException as exc:
        raise SourceError(f"{url}: request failed ({exc})") from exc
    text = _decode(b"".join(chunks), url)
    path = url.split("?", 1)[0].lower()
    if content_type in ("text/csv", "application/csv") or path.endswith(".csv"):
        return Source(url, "csv", rows=_parse_csv(text, url))
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        kind = content_type or "unknown content type"
        raise SourceError(
            f"{url}: body is not JSON ({kind}; line {exc.lineno}, column {exc.colno}: {exc.msg})",
            hint="URL imports take a JSON document or a CSV file",
        ) from exc
    return Source(url, "json", document=document)


def read_source(source: str | Path) -> Source:
    """Read a file, a folder or an http(s) URL into a :class:`Source`."""
    text = str(source)
    if re.match(r"^https?://", text, re.IGNORECASE):
        return _read_url(text)
    path = Path(text).expanduser()
    if path.is_dir():
        return _read_folder(path)
    if not path.exists():
        raise SourceError(f"no such file or folder: {text}")
    return _read_file(path)

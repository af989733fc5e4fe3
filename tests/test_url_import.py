"""URL imports against a real HTTP server on 127.0.0.1 (no mocks of requests)."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import ELEKIN_GALLERY, CliInvoker, requires_realdata, store_dump

from deckcli.cards.importers import load_cards, sources
from deckcli.errors import SourceError

CARDS = [
    {"name": "Url Wisp", "type": "creature", "elements": ["air"], "cost": 1},
    {"name": "Url Ward", "type": "shield", "tier": 1},
]
CSV = "name,type,elements\nUrl Csv One,creature,water;earth\nUrl Csv Two,rune,\n"
#: seconds a slow handler stalls; the tests set the read time-out well below it
STALL = 1.5


class _Handler(BaseHTTPRequestHandler):
    """Fixed routes; /slow-* stall longer than the tests' read time-out."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _send(self, status: int, body: bytes, content_type: str, *, length: bool = True) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        # The client may give up (time-out, size cap) while we write: expected.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self._route()

    def _route(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/cards.json":
            self._send(200, json.dumps({"game": "elekin", "cards": CARDS}).encode(), "application/json")
        elif path == "/cards.csv":
            self._send(200, CSV.encode(), "text/csv; charset=utf-8")
        elif path == "/export":  # CSV recognised by its content type alone
            self._send(200, CSV.encode(), "text/csv")
        elif path == "/gallery":
            self._send(200, self.server.gallery_bytes, "application/json")  # type: ignore[attr-defined]
        elif path == "/bad-record.json":
            body = json.dumps([*CARDS, {"name": "Url Bad", "type": "creature", "cost": -1}]).encode()
            self._send(200, body, "application/json")
        elif path == "/page.html":
            self._send(200, b"<!doctype html><html><body>Cards!</body></html>", "text/html")
        elif path == "/error":
            self._send(500, b"oops", "text/plain")
        elif path == "/big":
            self._send(200, b"[" + b" " * 50_000 + b"]", "application/json")
        elif path == "/big-chunked":  # no Content-Length: the cap must hold while reading
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b"[")
            for _ in range(40):
                self.wfile.write(b" " * 4096)
            self.wfile.write(b"]")
        elif path == "/slow-headers":
            time.sleep(STALL)
            self._send(200, b"[]", "application/json")
        elif path == "/slow-body":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b"[")
            self.wfile.flush()
            time.sleep(STALL)
            self.wfile.write(b"]" + b" " * 98)
        else:
            self._send(404, b"not here", "text/plain")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    httpd.gallery_bytes = ELEKIN_GALLERY.read_bytes() if ELEKIN_GALLERY.is_file() else b"{}"  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    port = httpd.server_address[1]
    yield f"http://127.0.0.1:{port}"
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


def test_json_url(server: str) -> None:
    result = load_cards("elekin", f"{server}/cards.json")
    assert result.source == f"{server}/cards.json"
    assert result.importer == "canonical-json"
    assert [c.name for c in result.cards] == ["Url Wisp", "Url Ward"]


@pytest.mark.parametrize("path", ["/cards.csv", "/export"])
def test_csv_url(server: str, path: str) -> None:
    result = load_cards("elekin", f"{server}{path}")
    assert result.importer == "canonical-csv"
    assert [c.name for c in result.cards] == ["Url Csv One", "Url Csv Two"]
    assert result.cards[0].model_dump()["elements"] == ["water", "earth"]


@requires_realdata
def test_gallery_url(server: str) -> None:
    result = load_cards("elekin", f"{server}/gallery")
    assert result.importer == "elekin-gallery"
    assert len(result.cards) == 175


def test_cli_url_import(cli: CliInvoker, server: str) -> None:
    result = cli("db", "import", "elekin", f"{server}/cards.json")
    assert f"Imported 2 elekin cards from {server}/cards.json" in result.stdout
    shown = json.loads(cli("db", "show", "elekin", "url wisp", "--json").stdout)
    assert shown["elements"] == ["air"]
    games = {row["id"]: row for row in json.loads(cli("games", "--json").stdout)}
    assert games["elekin"]["sources"][-1] == f"{server}/cards.json"


@pytest.mark.parametrize(
    ("path", "fragments"),
    [
        ("/missing.json", ["HTTP 404", "Not Found"]),
        ("/error", ["HTTP 500"]),
        ("/page.html", ["body is not JSON", "text/html", "line 1, column 1"]),
    ],
)
def test_http_errors_and_non_json(server: str, path: str, fragments: list[str]) -> None:
    with pytest.raises(SourceError) as info:
        load_cards("elekin", f"{server}{path}")
    message = str(info.value)
    assert message.startswith(f"{server}{path}: ")
    for fragment in fragments:
        assert fragment in message, message


@pytest.mark.parametrize("path", ["/big", "/big-chunked"])
def test_size_cap(server: str, path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sources, "URL_SIZE_CAP", 10_000)
    with pytest.raises(SourceError, match="over the 10,000-byte cap"):
        load_cards("elekin", f"{server}{path}")
    monkeypatch.setattr(sources, "URL_SIZE_CAP", 1_000_000)
    assert load_cards("elekin", f"{server}{path}").cards == []


@pytest.mark.parametrize("path", ["/slow-headers", "/slow-body"])
def test_read_timeout(server: str, path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sources, "URL_TIMEOUTS", (2.0, 0.3))
    started = time.monotonic()
    with pytest.raises(SourceError) as info:
        load_cards("elekin", f"{server}{path}")
    elapsed = time.monotonic() - started
    assert "read time-out" in str(info.value)
    assert "0.3 s" in str(info.value)
    assert elapsed < STALL  # gave up before the server answered


@pytest.fixture
def unanswered_port() -> Iterator[int]:
    """A listening port whose accept queue is full: new connections hang in SYN_SENT."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    fillers = []
    for _ in range(3):
        filler = socket.socket()
        filler.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            filler.connect(("127.0.0.1", port))
        fillers.append(filler)
    time.sleep(0.05)
    yield port
    for sock in [*fillers, listener]:
        sock.close()


def test_connect_timeout(unanswered_port: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sources, "URL_TIMEOUTS", (0.3, 5.0))
    started = time.monotonic()
    with pytest.raises(SourceError, match=r"connection timed out after 0\.3 s"):
        load_cards("elekin", f"http://127.0.0.1:{unanswered_port}/cards.json")
    assert time.monotonic() - started < 3.0


def test_connection_refused() -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(SourceError, match="cannot connect"):
        load_cards("elekin", f"http://127.0.0.1:{port}/cards.json")


def test_failed_url_imports_leave_store_unchanged(
    cli: CliInvoker, seeded_db: Path, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sources, "URL_TIMEOUTS", (2.0, 0.3))
    monkeypatch.setattr(sources, "URL_SIZE_CAP", 10_000)
    before = store_dump(seeded_db)
    expected = {
        "/missing.json": "HTTP 404",
        "/error": "HTTP 500",
        "/page.html": "not JSON",
        "/big": "cap",
        "/slow-body": "read time-out",
        "/bad-record.json": "record 3, field 'cost'",
    }
    for path, fragment in expected.items():
        for extra in ([], ["--replace"]):
            result = cli("db", "import", "elekin", f"{server}{path}", *extra, expect=2)
            assert fragment in result.stderr, (path, result.stderr)
            assert store_dump(seeded_db) == before

"""Pinned downloads: a verified cache, a refused altered file, and a useful offline error."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from liveqa_inspect.sources import LIVEQA_QUESTIONS, DataError, cache_dir, fetch, sha256_of


class _QuietHandler(SimpleHTTPRequestHandler):
    hits: list[str] = []

    def log_message(self, *_: object) -> None:
        pass

    def do_GET(self) -> None:
        self.hits.append(self.path)
        super().do_GET()


@pytest.fixture
def file_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """Serves tmp_path/served over HTTP on 127.0.0.1, as the pinned host would."""
    root = tmp_path / "served"
    root.mkdir()
    _QuietHandler.hits = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", root
    finally:
        server.shutdown()
        server.server_close()


def _publish(root: Path, content: bytes) -> None:
    target = root / LIVEQA_QUESTIONS.repo / LIVEQA_QUESTIONS.commit / LIVEQA_QUESTIONS.path
    target.parent.mkdir(parents=True)
    target.write_bytes(content)


def test_download_is_verified_cached_and_reused(
    file_server: tuple[str, Path], liveqa_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LIVEQA_DATA")
    host, root = file_server
    _publish(root, (liveqa_data_dir / LIVEQA_QUESTIONS.filename).read_bytes())
    asset = replace(LIVEQA_QUESTIONS, host=host)
    first = fetch(asset)
    assert first.is_relative_to(cache_dir())
    assert sha256_of(first) == LIVEQA_QUESTIONS.sha256
    assert fetch(asset) == first
    assert len(_QuietHandler.hits) == 1


def test_an_altered_download_is_refused_and_not_kept(
    file_server: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LIVEQA_DATA")
    host, root = file_server
    _publish(root, b"<Root/>")
    asset = replace(LIVEQA_QUESTIONS, host=host)
    with pytest.raises(DataError) as error:
        fetch(asset)
    message = str(error.value)
    assert LIVEQA_QUESTIONS.sha256 in message
    assert hashlib.sha256(b"<Root/>").hexdigest() in message
    assert not any(cache_dir().rglob(LIVEQA_QUESTIONS.filename))


def test_offline_with_no_cache_names_url_cache_and_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LIVEQA_DATA")
    # Port 9 (discard) has no listener here: the connection is refused, as offline.
    asset = replace(LIVEQA_QUESTIONS, host="http://127.0.0.1:9")
    with pytest.raises(DataError) as error:
        fetch(asset)
    message = str(error.value)
    assert asset.url in message
    assert str(cache_dir()) in message
    assert "LIVEQA_DATA=" in message


def test_local_override_must_exist(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="does not exist"):
        fetch(LIVEQA_QUESTIONS, tmp_path)

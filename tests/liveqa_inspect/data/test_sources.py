"""Pinned downloads: a verified cache, a refused altered file, and a useful offline error."""

from __future__ import annotations

import hashlib
import io
import threading
import tracemalloc
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from rich.console import Console

from liveqa_inspect.data import sources
from liveqa_inspect.data.lines import read_jsonl, read_lines
from liveqa_inspect.data.sources import (
    LIVEQA_QUESTIONS,
    cache_dir,
    cached_path,
    fetch,
    location,
)
from liveqa_inspect.errors import ArgumentError, DataError
from liveqa_inspect.tasks.live_qa.dataset import live_qa_dataset


def sha256(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


class _QuietHandler(SimpleHTTPRequestHandler):
    hits: list[str] = []
    failures: list[int] = []
    """Statuses to answer with, one a request, before serving files."""

    def log_message(self, *_: object) -> None:
        pass

    def do_GET(self) -> None:
        self.hits.append(self.path)
        if self.failures:
            self.send_error(self.failures.pop(0))
            return
        super().do_GET()


@pytest.fixture
def file_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """Serves tmp_path/served over HTTP on 127.0.0.1, as the pinned host would."""
    root = tmp_path / "served"
    root.mkdir()
    _QuietHandler.hits = []
    _QuietHandler.failures = []
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
    assert first.path.is_relative_to(cache_dir())
    assert sha256(first.content) == sha256(first.path.read_bytes()) == LIVEQA_QUESTIONS.sha256
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
    assert not cache_dir().exists()


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every HTTP request the downloader tries to send, refused or not."""
    tried: list[str] = []
    send = httpx.HTTPTransport.handle_request

    def counted(self: httpx.HTTPTransport, request: httpx.Request) -> httpx.Response:
        tried.append(str(request.url))
        return send(self, request)

    monkeypatch.setattr(httpx.HTTPTransport, "handle_request", counted)
    return tried


def test_offline_with_no_cache_fails_at_once_and_names_url_cache_and_fix(
    monkeypatch: pytest.MonkeyPatch, connections: list[str]
) -> None:
    monkeypatch.delenv("LIVEQA_DATA")
    # Port 9 (discard) has no listener here: the connection is refused, as offline.
    asset = replace(LIVEQA_QUESTIONS, host="http://127.0.0.1:9")
    with pytest.raises(DataError) as error:
        fetch(asset)
    # Refused is not retried: waiting cannot bring the network back.
    assert connections == [asset.url]
    message = str(error.value)
    assert asset.url in message
    assert asset.filename in message
    assert str(cached_path(asset)) in message
    assert "LIVEQA_DATA=" in message
    assert "-T data=" in message
    assert not cache_dir().exists()


def test_a_transient_failure_is_retried(
    file_server: tuple[str, Path], liveqa_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LIVEQA_DATA")
    host, root = file_server
    _publish(root, (liveqa_data_dir / LIVEQA_QUESTIONS.filename).read_bytes())
    _QuietHandler.failures = [503]
    assert sha256(fetch(replace(LIVEQA_QUESTIONS, host=host)).content) == LIVEQA_QUESTIONS.sha256
    assert len(_QuietHandler.hits) == 2


@pytest.mark.slow
def test_transient_failures_end_after_inspects_retries_with_the_last_status(
    file_server: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inspect's `download` tries 5 times, its waits growing from about 1 s to 8 s."""
    monkeypatch.delenv("LIVEQA_DATA")
    host, _ = file_server
    _QuietHandler.failures = [503] * 10
    with pytest.raises(DataError, match="HTTP 503 Service Unavailable"):
        fetch(replace(LIVEQA_QUESTIONS, host=host))
    assert len(_QuietHandler.hits) == 5
    assert not cache_dir().exists()


def test_a_missing_file_is_not_retried(
    file_server: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LIVEQA_DATA")
    host, _ = file_server
    with pytest.raises(DataError, match="HTTP 404 "):
        fetch(replace(LIVEQA_QUESTIONS, host=host))
    assert len(_QuietHandler.hits) == 1
    assert not cache_dir().exists()


def test_a_tampered_cached_file_is_named_with_both_digests(
    monkeypatch: pytest.MonkeyPatch, connections: list[str]
) -> None:
    monkeypatch.delenv("LIVEQA_DATA")
    cached = cached_path(LIVEQA_QUESTIONS)
    cached.parent.mkdir(parents=True)
    cached.write_bytes(b"<Root/>")
    with pytest.raises(DataError) as error:
        fetch(LIVEQA_QUESTIONS)
    message = str(error.value)
    assert f"The cached file at {cached} exists but does not match the pinned sha256" in message
    assert LIVEQA_QUESTIONS.sha256 in message
    assert hashlib.sha256(b"<Root/>").hexdigest() in message
    assert "Delete it to download it again" in message
    assert "LIVEQA_DATA=" in message
    assert connections == []
    assert cached.read_bytes() == b"<Root/>"


def test_location_names_the_copy_read(liveqa_data_dir: Path) -> None:
    local = liveqa_data_dir / LIVEQA_QUESTIONS.filename
    assert location(LIVEQA_QUESTIONS, local) == str(local)
    assert location(LIVEQA_QUESTIONS, cached_path(LIVEQA_QUESTIONS)) == LIVEQA_QUESTIONS.url


def test_errors_are_inspect_prerequisites_printed_verbatim() -> None:
    """Inspect's CLI prints a prerequisite's message as rich markup, without a traceback; that it
    takes these errors for prerequisites is shown through the command (test_errors_cli)."""
    error = DataError("runs/[draft]/judgments.jsonl line 2: bad.")
    assert isinstance(error, RuntimeError)
    assert str(error) == "runs/[draft]/judgments.jsonl line 2: bad."
    console = Console(file=io.StringIO(), width=200)
    console.print(error.message)
    assert console.file.getvalue() == "ERROR: runs/[draft]/judgments.jsonl line 2: bad.\n"
    assert isinstance(ArgumentError("x"), ValueError)


def test_read_lines_drops_a_bom_and_names_the_overlong_line(tmp_path: Path) -> None:
    path = tmp_path / "lines.txt"
    path.write_bytes(b"\xef\xbb\xbffirst\r\n\nthird\n" + b"x" * 10 + b"\n")
    assert list(read_lines(path, max_bytes=10)) == [
        (1, "first"),
        (2, ""),
        (3, "third"),
        (4, "x" * 10),
    ]
    path.write_bytes(b"ok\n" + b"x" * 11 + b"\n")
    with pytest.raises(DataError, match="line 2 is longer than 10 bytes"):
        list(read_lines(path, max_bytes=10))


def test_a_huge_line_is_refused_without_holding_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    with path.open("wb") as f:
        f.write(b'{"a": 1}\n{"a": "')
        for _ in range(50):
            f.write(b"x" * 2**20)
        f.write(b'"}\n')
    tracemalloc.start()
    try:
        with pytest.raises(DataError, match="line 2 is longer than 200000 bytes"):
            list(read_jsonl(path, max_line_bytes=200_000))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000


def test_read_jsonl_reads_a_bom_and_keeps_overlong_integers_for_the_field_check(
    tmp_path: Path,
) -> None:
    path = tmp_path / "values.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"a": 1}\n{"a": ' + b"7" * 5000 + b"}\n")
    [(first_line, first), (second_line, second)] = read_jsonl(path)
    assert (first_line, first, second_line) == (1, {"a": 1}, 2)
    assert repr(second["a"]) == "an integer of 5000 digits"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="line 1: not valid JSON \\(nested too deeply\\)"):
        list(read_jsonl(path))


def test_local_override_must_exist(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="does not exist"):
        fetch(LIVEQA_QUESTIONS, tmp_path)


def test_a_cache_folder_under_a_regular_file_gives_the_one_line_error(
    file_server: tuple[str, Path],
    liveqa_data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """No cleanup (of a partial file, of the folders made) fails in its turn and masks the
    error that says how to fix it."""
    monkeypatch.delenv("LIVEQA_DATA")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("LIVEQA_INSPECT_CACHE_DIR", str(blocker / "cache"))
    host, root = file_server
    _publish(root, (liveqa_data_dir / LIVEQA_QUESTIONS.filename).read_bytes())
    asset = replace(LIVEQA_QUESTIONS, host=host)
    with pytest.raises(DataError) as error:
        fetch(asset)
    message = str(error.value)
    assert message.startswith(f"Could not save {asset.filename} at {cached_path(asset)}")
    assert "Set LIVEQA_INSPECT_CACHE_DIR to a writable folder" in message


def test_the_bytes_verified_are_the_bytes_parsed(
    tmp_path: Path, liveqa_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file replaced between the digest and the parse (a sync job, a shared folder) is never
    read: the questions come from the bytes that matched the digest."""
    folder = tmp_path / "shared"
    folder.mkdir()
    local = folder / LIVEQA_QUESTIONS.filename
    local.write_bytes((liveqa_data_dir / LIVEQA_QUESTIONS.filename).read_bytes())
    replaced = (
        '<Root><NLM-QUESTION qid="TQ1"><Original-Question><MESSAGE>m</MESSAGE>'
        "</Original-Question><NLM-Summary>REPLACED</NLM-Summary><ReferenceAnswers>"
        '<ReferenceAnswer aid="1"><ANSWER>a</ANSWER></ReferenceAnswer></ReferenceAnswers>'
        "</NLM-QUESTION></Root>"
    )
    digest = hashlib.sha256

    class ReplacedOnceHashed:
        """sha256, with the file swapped on disk the moment its digest is known."""

        def __init__(self, data: bytes = b"") -> None:
            self.inner = digest(data)

        def update(self, data: bytes) -> None:
            self.inner.update(data)

        def hexdigest(self) -> str:
            local.write_text(replaced, encoding="utf-8")
            return self.inner.hexdigest()

    monkeypatch.setattr(sources.hashlib, "sha256", ReplacedOnceHashed)
    samples = list(live_qa_dataset(data=str(folder)))
    assert local.read_text(encoding="utf-8") == replaced
    assert len(samples) == 104
    assert "REPLACED" not in {str(sample.input) for sample in samples}

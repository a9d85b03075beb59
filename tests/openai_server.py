"""A tiny OpenAI-compatible HTTP server for tests (stdlib only, 127.0.0.1, a free port).

Why: the judge and the solver go through Inspect's real `openai` / `openai-api` providers, so
tests that stop at `mockllm` never exercise request building, response parsing, usage or retries.

- `POST /v1/chat/completions` (`gpt-4o-2024-05-13`, `openai-api/local/<name>`), as SSE when the
  request streams (Inspect streams only for `on_stream=`, `stream_idle_timeout` or `-M streaming`).
- `POST /v1/responses` (`openai/` o-series and gpt-5 names): a Response; a streamed request gets
  a 400 naming `param="stream"`, which the provider retries unstreamed. Reasoning names first
  send a one-off probe (`input="Please say 'hello, world'"`): one request more.

- The batch API as the `openai/` provider uses it for a model whose config has `batch`:
  `POST /v1/files` (a JSONL of requests), `POST /v1/batches` (each line answered at once, as a
  request of its own would be: recorded, faults included), `GET /v1/batches/<id>` (completed)
  and `GET /v1/files/<id>/content` (the results). `batches` keeps each batch as sent back.

Usage is always sent, so Inspect never needs tiktoken (which downloads its encoding): the words of
all message text in, the reply's words out (and again as `reasoning_tokens`, within the output,
when a Responses request carries `reasoning`). The openai SDK retries 429/5xx/drops twice after
our `retry-after-ms` (`-M max_retries=N`); then Inspect after 3-6 s (`--max-retries 0`: never).
"""

from __future__ import annotations

import email.parser
import email.policy
import itertools
import json
import random
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

Responder = Callable[[list[dict], str], str]
"""Reply text from (messages as sent, in chat-completions shape, model name)."""

CHAT, RESPONSES = "/v1/chat/completions", "/v1/responses"
FILES, BATCHES = "/v1/files", "/v1/batches"


@dataclass
class Faults:
    """Injected misbehaviour, so tests can prove that Inspect's retries and error paths cope.

    Random faults: one `random.Random(seed)` draw per request, in arrival order (the same every run
    for a sequential client), at most `max_consecutive` in a row (so retrying gets through)."""

    latency: float = 0.0  # seconds slept before each reply, error replies and drops too
    error_rate: float = 0.0  # share of requests answered 429 or 500, alternately
    drop_rate: float = 0.0  # share of requests whose connection is closed unanswered
    seed: int = 0
    max_consecutive: int = 2  # the openai SDK's default of 2 internal retries
    retry_after_ms: int | None = 10  # on 429/5xx, so the SDK's retry waits this, not ~1 s
    always: dict[str, int] = field(default_factory=dict)
    """Model name as sent (`judge` for `openai-api/local/judge`) -> the HTTP status all its
    requests get; no random draw is taken for them, so other models see the same faults."""

    def __post_init__(self) -> None:
        rates = (self.error_rate, self.drop_rate)
        if min(rates) < 0 or sum(rates) > 1 or self.max_consecutive < 0:
            raise ValueError(f"need rates >= 0 summing to <= 1, max_consecutive >= 0: {self}")
        if bad := {model: s for model, s in self.always.items() if not 400 <= s < 600}:
            raise ValueError(f"Faults.always statuses must be 4xx or 5xx, got {bad}")


@dataclass
class RequestRecord:
    """One request as the server saw it; `status` is None when the connection was dropped."""

    path: str
    model: str
    messages: list[dict]
    status: int | None
    reply: str | None
    body: dict[str, Any] = field(default_factory=dict)  # as sent: the generate config, too
    at: float = field(default_factory=time.monotonic)  # when recorded, after the latency


@dataclass
class Reply:
    """What the handler writes: JSON, or SSE when `stream`; `last` shuts the server down after."""

    status: int
    payload: dict[str, Any] | bytes  # bytes: a file's content, as stored
    headers: dict[str, str] = field(default_factory=dict)
    stream: bool = False
    last: bool = False


def words(text: str) -> int:
    """The server's token count: whitespace-separated words (documented, deterministic)."""
    return len(text.split())


def _text_of(content: Any) -> str:
    """Message content (a string or a list of parts) as plain text."""
    if isinstance(content, list):
        return "\n".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return content if isinstance(content, str) else ""


def _messages(path: str, body: dict[str, Any]) -> list[dict] | None:
    """The request's messages in chat shape, so one Responder fits both APIs; None: no route."""
    if path == CHAT:
        return [m for m in body.get("messages", []) if isinstance(m, dict)]
    if path != RESPONSES:
        return None
    items = body.get("input")  # Inspect sends no `instructions`, only input items (or a string)
    items = [{"role": "user", "content": items}] if isinstance(items, str) else items
    return [
        {"role": item["role"], "content": _text_of(item.get("content"))}
        for item in (items if isinstance(items, list) else [])
        if isinstance(item, dict) and "role" in item
    ]


def _chat_completion(n: int, model: str, reply: str, prompt: int) -> dict[str, Any]:
    message, out = {"role": "assistant", "content": reply}, words(reply)
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": out, "total_tokens": prompt + out},
    }


def _response(n: int, model: str, reply: str, prompt: int, reasoning: bool) -> dict[str, Any]:
    thought = words(reply) if reasoning else 0
    output = words(reply) + thought
    usage = {"input_tokens": prompt, "output_tokens": output, "total_tokens": prompt + output}
    text = {"type": "output_text", "text": reply, "annotations": []}
    message = {"type": "message", "id": f"msg_{n}", "role": "assistant", "content": [text]}
    return {
        "id": f"resp_{n}",
        "object": "response",
        "created_at": int(time.time()),
        "model": model,
        "status": "completed",
        "output": [{**message, "status": "completed"}],
        "usage": {
            **usage,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": thought},
        },
    }


def _sse(completion: dict[str, Any]) -> bytes:
    """A finished chat completion as SSE chunks: content, stop, usage, [DONE]."""
    base = {**completion, "object": "chat.completion.chunk", "usage": None}  # as OpenAI streams
    delta = completion["choices"][0]["message"]
    chunks = [
        {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        {**base, "choices": [], "usage": completion["usage"]},
    ]
    return b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in chunks) + b"data: [DONE]\n\n"


class OpenAIServer(AbstractContextManager["OpenAIServer"]):
    """The server, in a background thread; a context manager. `responder` may be replaced mid-run.

    Bounded so a broken test cannot leave it running: after `max_requests` requests or `lifetime`
    seconds it answers 503 and shuts down. `backlog` (socketserver's is 5) keeps many clients
    connecting at once from SYN drops, whose 1 s + 3 s resends look like Inspect's retry backoff.
    """

    def __init__(
        self,
        responder: Responder,
        faults: Faults | None = None,
        max_requests: int = 10_000,
        lifetime: float = 600.0,
        backlog: int = 5,
    ) -> None:
        self.responder = responder
        self.faults = faults or Faults()
        self.max_requests = max_requests
        self.requests: list[RequestRecord] = []  # appended from handler threads (atomic)
        self._lock = threading.Lock()
        self._rng = random.Random(self.faults.seed)
        self._consecutive = self._received = 0
        self._errors, self._ids = itertools.count(), itertools.count(1)
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self._deadline = time.monotonic() + lifetime
        options = {"daemon_threads": True, "request_queue_size": backlog, "owner": self}
        httpd_type = type("HTTPServer", (ThreadingHTTPServer,), options)  # set before listen()
        self._httpd = httpd_type(("127.0.0.1", 0), _Handler)
        self.base_url = f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"
        serve = partial(self._httpd.serve_forever, poll_interval=0.05)  # quick to shut down
        self._thread = threading.Thread(target=serve, daemon=True)
        self._thread.start()
        self.closed = threading.Event()
        """Set once the listening socket is closed: from then on a connection is refused."""
        self._timer = threading.Timer(lifetime, self.close)
        self._timer.daemon = True
        self._timer.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop serving (idempotent; safe from any thread except a request handler's own)."""
        self._timer.cancel()
        self._httpd.shutdown()
        self._httpd.server_close()
        self.closed.set()

    def count(self, predicate: Callable[[RequestRecord], bool] | None = None) -> int:
        """Number of requests received (matching `predicate` if given)."""
        return sum(1 for r in list(self.requests) if predicate is None or predicate(r))

    def env(self) -> dict[str, str]:
        """Env vars that point both `openai/<name>` and `openai-api/local/<name>` here, and the
        evaluated model too as `--model-base-url` does: Inspect makes that model once a process
        for its name, arguments and base URL, not the environment, so an `inspect eval` run in
        the tests' process after one against another server would call that server."""
        names = ("OPENAI_BASE_URL", "OPENAI_API_KEY", "LOCAL_BASE_URL", "LOCAL_API_KEY")
        found = dict(zip(names, [self.base_url, "test"] * 2, strict=True))
        return {**found, "INSPECT_EVAL_MODEL_BASE_URL": self.base_url}

    def handle(self, path: str, body: dict[str, Any]) -> Reply | None:
        """Record one POST and decide its reply; None: drop the connection unanswered."""
        model = str(body.get("model", ""))
        messages = _messages(path, body)
        if messages is None:
            return self._error(RequestRecord(path, model, [], 404, None, body), f"no route {path}")
        fault = self._fault(model)
        time.sleep(self.faults.latency)
        record = partial(RequestRecord, path, model, messages, body=body)
        if fault == "drop":
            self.requests.append(record(None, None))
            return None
        if fault == "over":
            return self._error(record(503, None), "test server budget exhausted", last=True)
        if fault is not None:
            return self._error(record(fault, None), f"HTTP {fault} for {model} (test server)")
        if body.get("stream") and path == RESPONSES:
            return self._error(record(400, None), "no streamed /v1/responses", param="stream")
        try:
            reply = self.responder(messages, model)
        except Exception as ex:  # a broken responder is a test bug: surface it as a 400
            return self._error(record(400, None), f"responder raised {ex!r}")
        self.requests.append(record(200, reply))
        prompt, n = sum(words(_text_of(m.get("content"))) for m in messages), next(self._ids)
        if path == RESPONSES:
            return Reply(200, _response(n, model, reply, prompt, "reasoning" in body))
        stream = bool(body.get("stream"))
        return Reply(200, _chat_completion(n, model, reply, prompt), stream=stream)

    def upload(self, data: bytes, content_type: str) -> Reply:
        """`POST /v1/files`: the multipart form's `file` part, stored under a new id."""
        form = f"Content-Type: {content_type}\r\n\r\n".encode() + data
        parts = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(form).iter_parts()
        [content] = [
            p.get_payload(decode=True)
            for p in parts
            if p.get_param("name", header="content-disposition") == "file"
        ]
        return Reply(200, self._store(content, "batch"))

    def create_batch(self, body: dict[str, Any]) -> Reply:
        """`POST /v1/batches`: every request of the input file answered now, the batch completed."""
        lines = [json.loads(line) for line in self.files[body["input_file_id"]].splitlines()]
        results = [self._batched(line) for line in lines]
        failed = sum(result["error"] is not None for result in results)
        output = b"".join(json.dumps(result).encode() + b"\n" for result in results)
        batch = {
            "id": f"batch_{next(self._ids)}",
            "object": "batch",
            "endpoint": body["endpoint"],
            "input_file_id": body["input_file_id"],
            "completion_window": body["completion_window"],
            "status": "completed",
            "output_file_id": self._store(output, "batch_output")["id"],
            "created_at": int(time.time()),
            "request_counts": {
                "total": len(lines),
                "completed": len(lines) - failed,
                "failed": failed,
            },
        }
        self.batches[batch["id"]] = batch
        return Reply(200, batch)

    def _batched(self, line: dict[str, Any]) -> dict[str, Any]:
        """A batch line's result: its request answered as if sent alone, an error as the API
        writes one (in the line, not as the HTTP status)."""
        reply = self.handle(line["url"], line["body"])
        result: dict[str, Any] = {"custom_id": line["custom_id"], "response": None, "error": None}
        if reply is not None and reply.status == 200:
            result["response"] = {"status_code": 200, "body": reply.payload}
        else:
            status = reply.status if reply else 500
            result["error"] = {"code": status, "message": f"HTTP {status} (test server)"}
        return result

    def get(self, path: str) -> Reply:
        """`GET /v1/batches/<id>` and `GET /v1/files/<id>/content`."""
        parts = path.removeprefix("/v1/").split("/")
        if parts[0] == "batches" and len(parts) == 2 and parts[1] in self.batches:
            return Reply(200, self.batches[parts[1]])
        if parts[0] == "files" and parts[2:] == ["content"] and parts[1] in self.files:
            return Reply(200, self.files[parts[1]])
        return Reply(
            404, {"error": {"message": f"no route GET {path}", "type": "invalid_request_error"}}
        )

    def _store(self, content: bytes, purpose: str) -> dict[str, Any]:
        """A file kept under a new id, described as the files API describes it."""
        file_id = f"file-{next(self._ids)}"
        self.files[file_id] = content
        return {
            "id": file_id,
            "object": "file",
            "bytes": len(content),
            "filename": "batch.jsonl",
            "created_at": int(time.time()),
            "purpose": purpose,
            "status": "processed",
        }

    def _fault(self, model: str) -> int | Literal["drop", "over"] | None:
        """This request's fault (an HTTP status, a drop, over budget) or None, in arrival order."""
        f = self.faults
        with self._lock:
            self._received += 1
            if self._received > self.max_requests or time.monotonic() > self._deadline:
                return "over"
            if model in f.always:
                return f.always[model]
            draw = self._rng.random()
            faulted = draw < f.error_rate + f.drop_rate and self._consecutive < f.max_consecutive
            self._consecutive = self._consecutive + 1 if faulted else 0
            if not faulted:
                return None
            return "drop" if draw >= f.error_rate else 429 if next(self._errors) % 2 == 0 else 500

    def _error(self, record: RequestRecord, text: str, last: bool = False, **extra: Any) -> Reply:
        """Record an error reply, shaped as the openai SDK parses errors (`param` included)."""
        self.requests.append(record)
        status = record.status or 500
        retry = (status == 429 or status >= 500) and self.faults.retry_after_ms is not None
        headers = {"retry-after-ms": str(self.faults.retry_after_ms)} if retry else {}
        if status == 503:  # the server is going away (or says so): don't hammer it
            headers = {"x-should-retry": "false"}
        kind = "server_error" if status >= 500 else "invalid_request_error"
        error = {"message": text, "type": kind, **extra}
        return Reply(status, {"error": error}, headers, last=last)


class _Handler(BaseHTTPRequestHandler):
    # keep-alive like the real API: httpx reuses the connection, so a drop is a retried error
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean

    def do_GET(self) -> None:
        server: OpenAIServer = self.server.owner  # type: ignore[attr-defined]
        self._write(server.get(self.path.split("?")[0].rstrip("/")))

    def do_POST(self) -> None:
        server: OpenAIServer = self.server.owner  # type: ignore[attr-defined]
        data = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        path = self.path.split("?")[0].rstrip("/")
        if path == FILES:
            self._write(server.upload(data, self.headers.get("Content-Type", "")))
            return
        try:
            body = json.loads(data or b"{}")
        except ValueError:  # not JSON (or not UTF-8): the route still answers
            body = {}
        body = body if isinstance(body, dict) else {}
        self._write(server.create_batch(body) if path == BATCHES else server.handle(path, body))

    def _write(self, reply: Reply | None) -> None:
        server: OpenAIServer = self.server.owner  # type: ignore[attr-defined]
        if reply is None:  # a dropped connection
            self.close_connection = True
            return
        if isinstance(reply.payload, bytes):
            data, kind = reply.payload, "application/octet-stream"
        elif reply.stream:
            data, kind = _sse(reply.payload), "text/event-stream"
        else:
            data, kind = json.dumps(reply.payload).encode(), "application/json"
        self.send_response(reply.status)
        headers = {"Content-Type": kind, "Content-Length": str(len(data)), **reply.headers}
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        if reply.last:
            self.close_connection = True
            threading.Thread(target=server.close, daemon=True).start()

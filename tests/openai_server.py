"""A tiny OpenAI-compatible HTTP server for tests (stdlib only).

Why: the judge and the solver go through Inspect's real `openai` / `openai-api` providers in
production, so tests that stop at `mockllm` never exercise request building, response parsing,
usage accounting or Inspect's retry logic. This server lets a test run the real provider code
against a scripted, local, offline endpoint, optionally with injected latency, HTTP errors and
dropped connections.

Endpoints (all under `/v1`):

- `POST /v1/chat/completions`: what both providers use for e.g. `gpt-4o-2024-05-13`.
- `POST /v1/responses`: what `openai/` uses by default for o-series, codex and gpt-5 model
  names (or with `-M responses_api=true`); a minimal non-streaming Response object is returned.
- `GET /v1/models`: lists the model names seen so far (plus `test-model`).

Inspect streams only when asked (`on_stream=` / `stream_idle_timeout`, or `-M streaming=true`
for `openai`, `-M stream=true` for `openai-api`). Streamed chat completions are answered as SSE
(one content chunk, a stop chunk, a usage chunk, `[DONE]`). Streamed `/v1/responses` requests get
a 400 naming `param="stream"`, which the `openai` provider answers by retrying unstreamed.

Token usage is always included so Inspect never needs tiktoken (which would download its
encoding over the network): prompt tokens are the whitespace-separated word count of all
message text sent, completion tokens the word count of the reply.

Gotcha: for reasoning-capable names on the Responses API (o-series, gpt-5) the `openai`
provider first sends a one-off probe (`input="Please say 'hello, world'"`, with `reasoning`) per
model instance, so request counts are one higher; `gpt-4o-2024-05-13` sends no probe.

Retries: the openai SDK itself retries 429/5xx/dropped connections twice (`max_retries`, a model
arg: `-M max_retries=N`), honouring the `retry-after-ms` header sent here; only then does
Inspect's own loop retry, with a 3-6 s first backoff (see `fast_retries`).

Usage:

    with OpenAIServer(lambda messages, model: "yes") as server:
        for key, value in server.env().items():
            monkeypatch.setenv(key, value)
        ...  # inspect eval ... --model openai/gpt-4o-2024-05-13 (or openai-api/local/judge)
        assert server.count() == 1
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Responder = Callable[[list[dict], str], str]
"""Reply text from (messages as sent, in chat-completions shape, model name)."""


@dataclass
class Faults:
    """Injected misbehaviour, so tests can prove that Inspect's retries cope with it.

    Decisions are drawn from `random.Random(seed)` under a lock, one draw per request in arrival
    order, so a sequential client sees the same fault sequence on every run regardless of thread
    scheduling. At most `max_consecutive` requests in a row are faulted, so a client retrying
    at least that many times always gets through (the openai SDK alone retries twice by default).
    """

    latency: float = 0.0
    """Seconds slept before each reply (including error replies)."""
    error_rate: float = 0.0
    """Share of requests answered with an HTTP error, alternating 429 and 500."""
    drop_rate: float = 0.0
    """Share of requests whose connection is closed without any reply."""
    seed: int = 0
    max_consecutive: int = 2
    """Cap on faults in a row; matches the openai SDK's default of 2 internal retries."""
    retry_after_ms: int | None = 10
    """Sent as `retry-after-ms` on 429/500 so the SDK's own retry waits this long, not ~0.5-1 s."""

    def __post_init__(self) -> None:
        if not (0.0 <= self.error_rate and 0.0 <= self.drop_rate):
            raise ValueError("fault rates must be >= 0")
        if self.error_rate + self.drop_rate > 1.0:
            raise ValueError("error_rate + drop_rate must be <= 1")
        if self.max_consecutive < 0:
            raise ValueError("max_consecutive must be >= 0")


@dataclass
class RequestRecord:
    """One request as the server saw it; `status` is None when the connection was dropped."""

    path: str
    model: str
    messages: list[dict]
    status: int | None
    reply: str | None
    body: dict[str, Any] = field(default_factory=dict)
    at: float = field(default_factory=time.monotonic)
    """`time.monotonic()` when recorded, to check retry spacing and latency."""


def words(text: str) -> int:
    """The server's token count: whitespace-separated words (documented, deterministic)."""
    return len(text.split())


def _text_of(content: Any) -> str:
    """Flatten chat/responses message content (a string or a list of parts) to plain text."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
        return "\n".join(parts)
    return ""


def _responses_messages(body: dict[str, Any]) -> list[dict]:
    """Convert a Responses API request to chat-completions messages, so one Responder fits both."""
    messages: list[dict] = []
    if isinstance(body.get("instructions"), str):
        messages.append({"role": "system", "content": body["instructions"]})
    items = body.get("input")
    if isinstance(items, str):
        messages.append({"role": "user", "content": items})
    elif isinstance(items, list):
        for item in items:
            if isinstance(item, dict) and "role" in item:
                messages.append({"role": item["role"], "content": _text_of(item.get("content"))})
    return messages


class OpenAIServer:
    """OpenAI-compatible server on 127.0.0.1 (free port) in a background thread.

    Bounded so a broken test cannot leave it running: after `max_requests` requests or
    `lifetime` seconds it answers 503 and shuts itself down. Use as a context manager.
    `port=0` (the default) binds a free port; the CLI passes a fixed one. `backlog` raises the
    listen queue above socketserver's 5 for runs with many concurrent connections.
    """

    def __init__(
        self,
        responder: Responder,
        faults: Faults | None = None,
        max_requests: int = 10_000,
        lifetime: float = 600.0,
        port: int = 0,
        backlog: int | None = None,
    ) -> None:
        self.responder = responder
        self.faults = faults or Faults()
        self.max_requests = max_requests
        self.lifetime = lifetime
        self.requests: list[RequestRecord] = []
        self._lock = threading.Lock()
        self._rng = random.Random(self.faults.seed)
        self._consecutive = 0
        self._errors = itertools.count()
        self._ids = itertools.count(1)
        self._received = 0
        self._deadline = time.monotonic() + lifetime
        self._stopped = threading.Event()
        self._httpd = ThreadingHTTPServer(
            ("127.0.0.1", port), _make_handler(self), bind_and_activate=False
        )
        if backlog is not None:
            # socketserver's listen backlog is 5: with more clients connecting at once, the
            # kernel drops their SYNs and each retransmits 1 s, then 3 s later, which looks
            # exactly like Inspect's own 3-6 s retry backoff in timings.
            self._httpd.request_queue_size = backlog
        try:
            self._httpd.server_bind()
            self._httpd.server_activate()
        except BaseException:
            self._httpd.server_close()
            raise
        self._httpd.daemon_threads = True
        self.port: int = self._httpd.server_address[1]
        self.base_url: str = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        self._timer = threading.Timer(lifetime, self.close)
        self._timer.daemon = True
        self._timer.start()

    def __enter__(self) -> OpenAIServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop serving (idempotent; safe from any thread except a request handler's own)."""
        with self._lock:
            if self._stopped.is_set():
                return
            self._stopped.set()
        self._timer.cancel()
        self._httpd.shutdown()
        self._httpd.server_close()

    def count(self, predicate: Callable[[RequestRecord], bool] | None = None) -> int:
        """Number of requests received (matching `predicate` if given)."""
        with self._lock:
            records = list(self.requests)
        return sum(1 for r in records if predicate is None or predicate(r))

    def env(self) -> dict[str, str]:
        """Env vars that point both `openai/<name>` and `openai-api/local/<name>` here."""
        return {
            "OPENAI_BASE_URL": self.base_url,
            "OPENAI_API_KEY": "test",
            "LOCAL_BASE_URL": self.base_url,
            "LOCAL_API_KEY": "test",
        }

    # -- used by the handler -------------------------------------------------------------

    def _record(self, record: RequestRecord) -> None:
        with self._lock:
            self.requests.append(record)

    def _admit(self) -> str:
        """Decide this request's fate under the lock: 'ok', 'error', 'drop' or 'over'."""
        with self._lock:
            self._received += 1
            if self._received > self.max_requests or time.monotonic() > self._deadline:
                return "over"
            draw = self._rng.random()
            f = self.faults
            decision = (
                "error"
                if draw < f.error_rate
                else "drop"
                if draw < f.error_rate + f.drop_rate
                else "ok"
            )
            if decision != "ok" and self._consecutive >= f.max_consecutive:
                decision = "ok"
            self._consecutive = self._consecutive + 1 if decision != "ok" else 0
            return decision

    def _next_error_status(self) -> int:
        return 429 if next(self._errors) % 2 == 0 else 500

    def _next_id(self) -> int:
        return next(self._ids)


def _usage(messages: list[dict], reply: str) -> tuple[int, int]:
    prompt = sum(words(_text_of(m.get("content"))) for m in messages)
    return prompt, words(reply)


def _make_handler(server: OpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        # HTTP/1.1 keep-alive, like the real API: httpx reuses connections, so a dropped
        # connection is seen as "server disconnected" (APIConnectionError), which is retried.
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output clean

        def _send(self, status: int, payload: dict, headers: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def _send_stream(self, completion: dict[str, Any]) -> None:
            """Replay a finished chat completion as SSE chunks (content, stop, usage, [DONE])."""
            base = {k: completion[k] for k in ("id", "created", "model")}
            base["object"] = "chat.completion.chunk"
            content = completion["choices"][0]["message"]["content"]
            chunks = [
                {
                    **base,
                    "choices": [
                        {
                            "index": 0,
                            "delta": {"role": "assistant", "content": content},
                            "finish_reason": None,
                        }
                    ],
                },
                {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
                {**base, "choices": [], "usage": completion["usage"]},
            ]
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")  # no Content-Length: end of body = close
            self.end_headers()
            for chunk in chunks:
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.write(b"data: [DONE]\n\n")
            self.close_connection = True

        def _error(self, status: int, message: str, kind: str, **extra: Any) -> None:
            headers: dict[str, str] = {}
            if status in (429, 500) and server.faults.retry_after_ms is not None:
                headers["retry-after-ms"] = str(server.faults.retry_after_ms)
            if status == 503:
                headers["x-should-retry"] = "false"  # the server is going away; don't hammer it
            self._send(status, {"error": {"message": message, "type": kind, **extra}}, headers)

        def _read_body(self) -> dict[str, Any]:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                return {}
            return body if isinstance(body, dict) else {}

        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/v1/models":
                with server._lock:
                    names = {"test-model", *(r.model for r in server.requests if r.model)}
                data = [{"id": n, "object": "model", "owned_by": "test"} for n in sorted(names)]
                self._send(200, {"object": "list", "data": data})
            else:
                self._error(404, f"no route {self.path}", "invalid_request_error")

        def do_POST(self) -> None:
            body = self._read_body()
            path = self.path.split("?")[0].rstrip("/")
            model = str(body.get("model", ""))
            if path == "/v1/chat/completions":
                messages = [m for m in body.get("messages", []) if isinstance(m, dict)]
            elif path == "/v1/responses":
                messages = _responses_messages(body)
            else:
                server._record(RequestRecord(path, model, [], 404, None, body))
                self._error(404, f"no route {path}", "invalid_request_error")
                return

            decision = server._admit()
            if server.faults.latency:
                time.sleep(server.faults.latency)
            if decision == "over":
                server._record(RequestRecord(path, model, messages, 503, None, body))
                self._error(503, "test server request/lifetime budget exhausted", "server_error")
                self.close_connection = True
                threading.Thread(target=server.close, daemon=True).start()
                return
            if decision == "drop":
                server._record(RequestRecord(path, model, messages, None, None, body))
                self.close_connection = True
                return
            if decision == "error":
                status = server._next_error_status()
                server._record(RequestRecord(path, model, messages, status, None, body))
                if status == 429:
                    self._error(
                        429,
                        "Rate limit reached (test server)",
                        "rate_limit_error",
                        code="rate_limit_exceeded",
                    )
                else:
                    self._error(500, "Internal error (test server)", "server_error")
                return
            if body.get("stream") and path != "/v1/chat/completions":
                server._record(RequestRecord(path, model, messages, 400, None, body))
                self._error(
                    400,
                    "streaming /v1/responses is not supported by the test server",
                    "invalid_request_error",
                    param="stream",
                    code="unsupported_value",
                )
                return

            try:
                reply = server.responder(messages, model)
            except Exception as ex:  # a broken responder is a test bug: surface it as a 400
                server._record(RequestRecord(path, model, messages, 400, None, body))
                self._error(400, f"responder raised {ex!r}", "invalid_request_error")
                return
            prompt, completion = _usage(messages, reply)
            n = server._next_id()
            if path == "/v1/chat/completions":
                payload: dict[str, Any] = {
                    "id": f"chatcmpl-{n}",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": model,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": reply},
                            "finish_reason": "stop",
                            "logprobs": None,
                        }
                    ],
                    "usage": {
                        "prompt_tokens": prompt,
                        "completion_tokens": completion,
                        "total_tokens": prompt + completion,
                    },
                }
                if body.get("stream"):
                    server._record(RequestRecord(path, model, messages, 200, reply, body))
                    self._send_stream(payload)
                    return
            else:
                payload = {
                    "id": f"resp_{n}",
                    "object": "response",
                    "created_at": int(time.time()),
                    "model": model,
                    "status": "completed",
                    "error": None,
                    "incomplete_details": None,
                    "parallel_tool_calls": True,
                    "tool_choice": "auto",
                    "tools": [],
                    "output": [
                        {
                            "type": "message",
                            "id": f"msg_{n}",
                            "status": "completed",
                            "role": "assistant",
                            "content": [{"type": "output_text", "text": reply, "annotations": []}],
                        }
                    ],
                    "usage": {
                        "input_tokens": prompt,
                        "output_tokens": completion,
                        "total_tokens": prompt + completion,
                        "input_tokens_details": {"cached_tokens": 0},
                        "output_tokens_details": {"reasoning_tokens": 0},
                    },
                }
            server._record(RequestRecord(path, model, messages, 200, reply, body))
            self._send(200, payload)

    return Handler


def fast_retries(model: Any, wait: float = 0.0) -> Any:
    """Make Inspect's own retry backoff `wait` seconds instead of 3-6 s doubling; returns `model`.

    Inspect retries with `tenacity.wait_exponential_jitter(initial=3, jitter=3)` unless the
    provider overrides `ModelAPI.retry_wait()`; there is no config knob for it, so in-process
    tests override that method on the model's provider instance. (Subprocess runs cannot do
    this; rely on the openai SDK's own retries, which honour `retry-after-ms`, raising them
    with `-M max_retries=N` if `Faults.max_consecutive` > 2.)
    """
    from tenacity import wait_fixed  # lazy: keep the server itself stdlib-only

    model.api.retry_wait = lambda: wait_fixed(wait)
    return model


def echo(messages: list[dict], model: str) -> str:
    """Default CLI responder: the text of the last message."""
    return _text_of(messages[-1].get("content")) if messages else ""


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve an echo OpenAI-compatible API.")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=3600.0)
    args = parser.parse_args()
    server = OpenAIServer(echo, lifetime=args.lifetime, port=args.port)
    print(f"serving on {server.base_url}", flush=True)
    try:
        server._thread.join()
    except KeyboardInterrupt:
        server.close()


if __name__ == "__main__":
    main()

"""The llama.cpp servers this process starts: one per model file, stopped when the process exits.

Inspect's helpers for the servers its vLLM and SGLang providers start (`inspect_ai._util.
local_server`) are private and send the server's output to the logger; here it goes to a file,
so an error can quote the server's last lines, and readiness is awaited on 127.0.0.1 with a
timeout that names the file. The subject and the judge on the same file share one server: a
llama.cpp server answers one request at a time, so a second one would only split the cores.
"""

from __future__ import annotations

import atexit
import logging
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import anyio.lowlevel
import httpx

from liveqa_inspect.errors import LiveQAError
from liveqa_inspect.providers.model_files import ModelFile

logger = logging.getLogger(__name__)

HOST = "127.0.0.1"
DEFAULT_OPTIONS = {"n_ctx": 8192}
"""Room for the longest judge prompt (a question, all its references and a 512-token answer, about
4,000 tokens) with the verdict: llama-cpp-python's own default is 2,048, and 0 (the model's
trained context) can ask for a 128k-token cache on a large model."""
START_TIMEOUT = 300.0
"""Seconds to wait for a server to load its model: a 98 MB file takes one or two, a 10 GB one
on a slow disk can take minutes. `-M start_timeout=...` changes it."""
TAIL_LINES = 20
STOP_SECONDS = 10.0


class ServerStartError(LiveQAError, RuntimeError):
    """The server exited, or did not answer in time, before the run began."""


class ServerDiedError(RuntimeError):
    """The server stopped during the run; the message names it and how to finish the run."""


@dataclass
class LocalServer:
    model: ModelFile
    port: int
    log_path: Path
    process: subprocess.Popen[bytes]
    options: dict[str, object] = field(default_factory=dict)
    _turn: tuple[anyio.lowlevel.EventLoopToken, anyio.Lock] | None = field(
        default=None, init=False, repr=False
    )

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/v1"

    def alive(self) -> bool:
        return self.process.poll() is None

    def turn(self) -> anyio.Lock:
        """Held for each request, so requests reach the server one at a time and in order.

        The server answers them one by one anyway; sent at once, they would wait in its queue,
        where a slow machine runs them into the client's timeout, and a judge prompt would rarely
        follow the one it shares its question and references with, which llama.cpp evaluates
        only once when they follow each other. A lock belongs to one event loop, and each
        `eval()` runs its own.
        """
        loop = anyio.lowlevel.current_token()
        if self._turn is None or self._turn[0] != loop:
            self._turn = (loop, anyio.Lock())
        return self._turn[1]

    def tail(self) -> str:
        try:
            with self.log_path.open(encoding="utf-8", errors="replace") as log:
                return "".join(deque(log, maxlen=TAIL_LINES)).rstrip()
        except OSError:
            return "(its log file is gone)"

    def describe(self) -> str:
        return (
            f"The llama.cpp server for {self.model.name} (sha256 {self.model.sha256[:12]}, "
            f"{HOST}:{self.port}, pid {self.process.pid})"
        )

    def died(self) -> ServerDiedError:
        return ServerDiedError(
            f"{self.describe()} stopped during the run (exit code "
            f"{self.process.poll()}). Finish the run with `inspect eval-retry` on this log, "
            f"which starts a new server. The server's last lines ({self.log_path}):\n{self.tail()}"
        )

    def stop(self) -> None:
        """Stop the server; its log is removed unless it had died, when an error may cite it."""
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.log_path.unlink(missing_ok=True)


_servers: dict[Path, LocalServer] = {}
_lock = threading.Lock()


def server_for(model: ModelFile, options: dict[str, object], start_timeout: float) -> LocalServer:
    """The running server for this file, started if there is none (or it died).

    The first model to start a file's server sets its options (`-M` applies to the evaluated
    model only, so a judge role on the same file shares that model's server and options); a later
    model asking for other values is told they are not applied.
    """
    with _lock:
        server = _servers.get(model.path)
        if server is None or not server.alive():
            server = start(model, {**DEFAULT_OPTIONS, **options}, start_timeout)
            _servers[model.path] = server
        elif ignored := {k: v for k, v in options.items() if server.options.get(k) != v}:
            logger.warning(
                f"{server.describe()} is already running with {server.options}; "
                f"{ignored} not applied."
            )
        return server


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def start(model: ModelFile, options: dict[str, object], start_timeout: float) -> LocalServer:
    port = free_port()
    flags = [part for name, value in options.items() for part in (f"--{name}", str(value))]
    command = [
        sys.executable, "-m", "liveqa_inspect.providers.serve", str(os.getpid()),
        "--model", str(model.path), "--host", HOST, "--port", str(port), *flags,
    ]  # fmt: skip
    handle, name = tempfile.mkstemp(prefix=f"llama-server-{port}-", suffix=".log")
    with os.fdopen(handle, "wb") as log:
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
        )
    server = LocalServer(model, port, Path(name), process, options)
    wait_ready(server, start_timeout)
    return server


def wait_ready(server: LocalServer, timeout: float) -> None:
    """Poll the server's model list until it answers, it exits, or `timeout` passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not server.alive():
            raise ServerStartError(
                f"{server.describe()} exited while starting (exit code "
                f"{server.process.poll()}). Its last lines:\n{server.tail()}"
            )
        try:
            if httpx.get(f"{server.url}/models", timeout=2.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    tail = server.tail()
    server.stop()
    raise ServerStartError(
        f"{server.describe()} did not answer within {timeout:g} s (raise it with "
        f"-M start_timeout=...). Its last lines:\n{tail}"
    )


@atexit.register
def stop_all() -> None:
    with _lock:
        for server in _servers.values():
            server.stop()
        _servers.clear()

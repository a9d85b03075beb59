"""The llama.cpp servers this process starts: one per model file, stopped when the process exits.

Not Inspect's (private) `local_server` helpers, which send the server's output to the logger: here
it goes to a file an error can quote. The subject and the judge on one file share its server: a
llama.cpp server answers one request at a time, so a second one would only split the cores.
"""

from __future__ import annotations

import atexit
import contextlib
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
from importlib.util import find_spec
from pathlib import Path

import anyio
import anyio.lowlevel
import httpx

from liveqa_inspect.arguments import positive_number
from liveqa_inspect.errors import ArgumentError, LiveQAError
from liveqa_inspect.providers.model_files import ModelFile

logger = logging.getLogger(__name__)

HOST = "127.0.0.1"
DEFAULT_OPTIONS = {"n_ctx": 8192}
"""Room for the longest judge prompt and its verdict: llama-cpp-python's default is 2,048, and 0
(the model's trained context) can ask for a 128k-token cache on a large model."""
START_TIMEOUT = 300.0  # seconds to load the model: a large file on a slow disk takes minutes


@dataclass
class LocalServer:
    model: ModelFile
    port: int
    log_path: Path
    process: subprocess.Popen[bytes]
    options: dict[str, object] = field(default_factory=dict)
    _turn: tuple[object, anyio.Lock] | None = field(default=None, init=False, repr=False)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/v1"

    def alive(self) -> bool:
        return self.process.poll() is None

    def turn(self) -> anyio.Lock:
        """Held for each request: queued in the server, requests run into the client's timeout and
        lose the order that lets llama.cpp read a shared prompt start once. One lock a loop, as
        each `eval()` runs its own."""
        loop = anyio.lowlevel.current_token()
        if self._turn is None or self._turn[0] != loop:
            self._turn = (loop, anyio.Lock())
        return self._turn[1]

    def tail(self) -> str:
        try:
            with self.log_path.open(encoding="utf-8", errors="replace") as log:
                return "".join(deque(log, maxlen=20)).rstrip()
        except OSError:
            return "(its log file is gone)"

    def describe(self) -> str:
        return (
            f"The llama.cpp server for {self.model.name} (sha256 {self.model.sha256[:12]}, "
            f"{HOST}:{self.port}, pid {self.process.pid})"
        )

    def died(self) -> RuntimeError:
        return RuntimeError(
            f"{self.describe()} stopped during the run (exit code {self.process.poll()}). Finish "
            "the run with `inspect eval-retry` on this log, which starts a new server. The "
            f"server's last lines ({self.log_path}):\n{self.tail()}"
        )

    def stop(self) -> None:
        """Stop the server; its log is removed unless it had died, when an error may cite it."""
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(10.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.log_path.unlink(missing_ok=True)


_servers: dict[ModelFile, LocalServer] = {}
_lock = threading.Lock()


def server_for(model: ModelFile, options: dict[str, object], start_timeout: float) -> LocalServer:
    """The running server for this file as it is now (a changed file gets its own), started if
    there is none or it died. The first model to start it sets its options."""
    positive_number("start_timeout", start_timeout)
    if ours := sorted({"model", "host", "port"} & options.keys()):
        raise ArgumentError(
            f"-M {ours[0]} is set by gguf/ itself, which serves the named file on a free port of "
            f"{HOST}. To use a server of your own, start it and pass --model-base-url."
        )
    with _lock:
        server = _servers.get(model)
        if server is None or not server.alive():
            server = _servers[model] = start(model, {**DEFAULT_OPTIONS, **options}, start_timeout)
        elif ignored := {k: v for k, v in options.items() if server.options.get(k) != v}:
            logger.warning(
                f"{server.describe()} is already running with {server.options}; "
                f"{ignored} not applied."
            )
        return server


def start(model: ModelFile, options: dict[str, object], timeout: float) -> LocalServer:
    """Started and polled until it answers, exits or `timeout` passes; stopped unless it answers."""
    if find_spec("llama_cpp") is None:
        raise LiveQAError(
            "gguf/ runs the model on llama-cpp-python's server, which is not installed: install "
            'the package\'s `local` extra, pip install -e ".[local]" (docs/local-models.md).'
        )
    with socket.socket() as probe:  # a free port
        probe.bind((HOST, 0))
        port = int(probe.getsockname()[1])
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
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not server.alive():
                raise LiveQAError(
                    f"{server.describe()} exited while starting (exit code {process.poll()}). "
                    f"Its last lines:\n{server.tail()}"
                )
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{server.url}/models", timeout=2.0).status_code == 200:
                    return server
            time.sleep(0.25)
        raise LiveQAError(
            f"{server.describe()} did not answer within {timeout:g} s (raise it with "
            f"-M start_timeout=...). Its last lines:\n{server.tail()}"
        )
    except BaseException:
        server.stop()
        raise


@atexit.register
def stop_all() -> None:
    with _lock:
        for server in _servers.values():
            server.stop()
        _servers.clear()

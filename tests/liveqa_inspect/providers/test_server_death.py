"""A local server that dies mid-run: the error names it, and `inspect eval-retry` finishes the run.

Through the real command, as a user meets it: the server a `python -m inspect_ai eval` process
started is killed from outside once it has answered a request, the way an out-of-memory kill or
a crash would end it. The retry runs in this process (tests/commands.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from liveqa_inspect.judging.scale import LIVEQA_SCALE
from liveqa_inspect.providers.server import stop_all
from tests.commands import inspect_eval_logs
from tests.liveqa_inspect.providers.local import SMOLLM2, needs_llama_cpp, server_of

pytestmark = [pytest.mark.slow, needs_llama_cpp]

QUESTIONS = "TQ33,TQ71"
RUN = (
    "eval liveqa_inspect/live_qa --model gguf/smollm2 --model-role grader=gguf/smollm2 "
    f"--sample-id {QUESTIONS} --max-tokens 16 -T reference_metrics=false --display plain "
    "-M n_threads_batch=1"  # see test_local_runs.one_prompt_thread
).split()
ANSWERED = '"POST /v1/chat/completions HTTP/1.1" 200'
"""The server's access log line for a request it answered."""
WAIT = 240.0

T = TypeVar("T")


def eventually(check: Callable[[], T | None], what: str) -> T:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if (found := check()) is not None:
            return found
        time.sleep(0.2)
    raise AssertionError(f"no {what} within {WAIT:g} s")


def answered(server: int) -> int:
    """How many requests the server has answered, from its log (its standard output)."""
    log = Path(os.readlink(f"/proc/{server}/fd/1"))
    return log.read_text(encoding="utf-8", errors="replace").count(ANSWERED)


def test_a_server_dying_mid_run_is_named_and_eval_retry_finishes_the_run(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    run = subprocess.Popen(
        [sys.executable, "-m", "inspect_ai", *RUN, "--log-dir", str(logs)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "COLUMNS": "1000"},  # the warning on one line
    )
    try:
        server = eventually(lambda: server_of(run.pid), "llama.cpp server")
        eventually(lambda: answered(server) or None, "answered request")
        os.kill(server, signal.SIGKILL)
        output, _ = run.communicate(timeout=WAIT)
    finally:
        run.kill()
    assert "SmolLM2-135M (gguf/smollm2) has 135M parameters" in output
    assert "carry no meaning" in output and "not a measurement" in output
    [failed] = [read_eval_log(info.name) for info in list_eval_logs(str(logs))]
    assert failed.status == "error" and failed.error is not None
    message = failed.error.message
    assert f"The llama.cpp server for {SMOLLM2}" in message, message
    assert f"pid {server})" in message and "stopped during the run (exit code -9)" in message
    assert "Finish the run with `inspect eval-retry`" in message

    stop_all()  # as in a new process, the retry starts a server of its own
    try:
        retry, [retried] = inspect_eval_logs("eval-retry", str(failed.location), log_dir=logs)
    finally:
        stop_all()  # which the command stops as it exits
    assert retried.status == "success", (retried.error, retry.stdout[-2000:])
    assert retried.samples is not None
    assert sorted(s.id for s in retried.samples) == QUESTIONS.split(",")
    assert {s.scores["live_qa_scorer"].value for s in retried.samples} <= set(LIVEQA_SCALE.levels)

"""`inspect eval-retry` of a `gguf/` judge's log after its file changed: the log ends with samples
judged by two files, and the run says so in one line with both digests.

The evaluated model's server is the suite's scripted OpenAI-compatible one, started in place of
llama.cpp's: what is checked is what the provider records and says, not what a model answers.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.event import ModelEvent
from inspect_ai.log import write_eval_log
from inspect_ai.model import get_model

from liveqa_inspect import live_qa_judge
from liveqa_inspect.providers import server
from liveqa_inspect.providers.server import ModelFile
from tests.commands import inspect_eval_logs
from tests.helpers import QUIET, verdict
from tests.openai_server import OpenAIServer

KEPT, REDONE = "TQ93-L623", "TQ93-L622"


@pytest.fixture
def scripted_llama(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    with OpenAIServer(lambda messages, model: verdict("0.3")) as fake:
        port = int(fake.base_url.rsplit(":", 1)[1].split("/")[0])

        def start(model: ModelFile, options: dict, start_timeout: float) -> server.LocalServer:
            idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
            return server.LocalServer(model, port, tmp_path / "server.log", idle, options)

        monkeypatch.setattr(server, "start", start)
        yield
        server.stop_all()


def test_a_retry_on_a_changed_file_names_both_digests(scripted_llama: None, tmp_path: Path) -> None:
    weights = tmp_path / "judge.gguf"
    weights.write_bytes(b"GGUF before")
    logs = tmp_path / "logs"
    # Not memoized: the retry makes its model anew, as a new process would.
    judge = get_model(f"gguf/{weights}", memoize=False)
    [log] = eval(live_qa_judge(), model=judge, sample_id=[KEPT, REDONE], log_dir=str(logs), **QUIET)
    assert log.status == "success" and log.samples is not None, log.error
    log.samples = [s for s in log.samples if s.id == KEPT]  # as if stopped after one answer
    log.status = "error"
    write_eval_log(log, log.location)
    server.stop_all()
    weights.write_bytes(b"GGUF after")

    ran, [retried] = inspect_eval_logs(
        "eval-retry",
        log.location,
        log_dir=logs,
        env={"COLUMNS": "1000"},  # the warning on one line
    )

    assert retried.status == "success" and retried.samples is not None, retried.error
    recorded = {
        sample.id: event.output.metadata["model_sha256"]  # type: ignore[index]
        for sample in retried.samples
        for event in sample.events
        if isinstance(event, ModelEvent)
    }
    before, after = (hashlib.sha256(b"GGUF " + w).hexdigest() for w in (b"before", b"after"))
    assert recorded == {KEPT: before, REDONE: after}
    [said] = [line for line in ran.output.splitlines() if "WARNING" in line]
    assert f"gguf/{weights} ran on 2 different files in this log (" in said
    assert f"sha256 {before} in 1 of 2 samples" in said and f"sha256 {after} in 1 of 2" in said

"""A `gguf/` model that cannot run is refused before the run, in one line, and nothing is left
running: a server nobody runs, bad server options, llama-cpp-python missing."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from inspect_ai.model import get_model

from liveqa_inspect.errors import LiveQAError
from liveqa_inspect.providers import server
from tests.commands import inspect_eval_logs
from tests.liveqa_inspect.providers.local import server_of

CLOSED = "http://127.0.0.1:9/v1"
"""Port 9 (discard): nobody listens there."""
BASE_URL = f'{{base_url: "{CLOSED}"}}'


@pytest.fixture
def weights(tmp_path: Path) -> Path:
    """A GGUF file no server is ever started on: every case here is refused before."""
    path = tmp_path / "tiny.gguf"
    path.write_bytes(b"GGUFweights")
    return path


def refused(model: str, **args: object) -> str:
    started, running = dict(server._servers), server_of(os.getpid())
    with pytest.raises(LiveQAError) as error:
        get_model(model, memoize=False, **args)
    assert server._servers == started
    assert server_of(os.getpid()) == running  # none started (an earlier test's may still run)
    return str(error.value)


def test_a_server_nobody_runs_is_named_before_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Was retried until the run was killed, or "Connection error." after two minutes."""
    assert refused("gguf/their-model", base_url=CLOSED).startswith(f"No server answers at {CLOSED}")
    monkeypatch.setenv("GGUF_BASE_URL", CLOSED)
    assert f"No server answers at {CLOSED}" in refused("gguf/their-model")
    assert "No server answers at gpu-box:8080/v1" in refused("gguf/m", base_url="gpu-box:8080/v1")


def test_bad_server_options_are_refused_before_a_server_starts(weights: Path) -> None:
    """`start_timeout=abc` was a TypeError with the server left running; `port=N` had the server
    listen on N while the provider waited on another port."""
    model = f"gguf/{weights}"
    assert refused(model, start_timeout="abc") == (
        "start_timeout must be a positive number; got 'abc'."
    )
    assert "start_timeout must be a positive number; got 0." == refused(model, start_timeout=0)
    assert refused(model, port=8080).startswith("-M port is set by gguf/ itself")


def test_without_llama_cpp_python_the_error_says_to_install_the_local_extra(
    weights: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was the server's 15-line traceback."""
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # as if not installed
    message = refused(f"gguf/{weights}")
    assert "llama-cpp-python's server, which is not installed" in message
    assert 'pip install -e ".[local]"' in message and "\n" not in message


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--model", "gguf/their-model", "--model-base-url", CLOSED], f"at {CLOSED}"),
        (
            [
                "--model",
                "mockllm/model",
                "--model-role",
                f"grader={{model: gguf/their-model, model_args: {BASE_URL}}}",
            ],
            f"at {CLOSED}",
        ),
        (["--model", "gguf/{weights}", "-M", "start_timeout=abc"], "got 'abc'"),
        (["--model", "gguf/{weights}", "-M", "port=8080"], "-M port is set by gguf/"),
    ],
    ids=["model_under_test", "judge", "start_timeout", "port"],
)
def test_through_the_command_each_is_one_line_and_no_log(
    args: list[str], expected: str, weights: Path, tmp_path: Path
) -> None:
    args = [arg.replace("{weights}", str(weights)) for arg in args]
    running = server_of(os.getpid())  # an earlier test's server may still run
    ran, logs = inspect_eval_logs(
        "eval",
        "liveqa_inspect/live_qa",
        "--limit",
        "1",
        "--display",
        "none",
        *args,
        log_dir=tmp_path / "logs",
    )
    assert ran.returncode == 1, ran.output
    assert "Traceback" not in ran.output and expected in ran.output
    assert len(ran.output.strip().splitlines()) == 1, ran.output
    assert logs == []
    assert server_of(os.getpid()) == running

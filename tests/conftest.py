"""Each test gets its own caches and logs, and reads the upstream data the way the package does.

The upstream files are never committed: a run uses LIVEQA_DATA and EXPERTQA_DATA when set, else
the package's own verified download into its cache. Where neither gives them, the run stops
before any test, once, naming the files and how to supply them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelAPI

from tests.commands import start_as_the_inspect_command
from tests.helpers import QUIET, Humans, expert_qa_data, human_levels, liveqa_data, scripted_model
from tests.upstream import upstream_folders

LONGEST = (
    "tests/liveqa_inspect/providers/test_local_runs.py",
    "tests/liveqa_inspect/providers/test_server_death.py",
)
"""The files that run longest (the real model's): started first, see below."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The real-model files, then the other slow tests, then the fast ones: xdist hands out whole
    files in this order (`--dist loadfile --no-loadscope-reorder`), and a long file started last
    would leave the other worker idle while it runs."""
    items.sort(key=lambda item: (item.nodeid.split("::")[0] not in LONGEST, not slow(item)))


def slow(item: pytest.Item) -> bool:
    return item.get_closest_marker("slow") is not None


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Before any test, and before xdist starts its workers (which inherit the variables set
    here), point LIVEQA_DATA and EXPERTQA_DATA at verified copies."""
    if not hasattr(session.config, "workerinput"):
        os.environ.update(upstream_folders())


@pytest.fixture(scope="session")
def liveqa_data_dir() -> Path:
    return liveqa_data()


@pytest.fixture(scope="session")
def humans(liveqa_data_dir: Path) -> Humans:
    """The human level of each judged (question, answer), read once a session: the NIST files
    are read from the data folder itself, so no cache or environment is involved."""
    return human_levels(liveqa_data_dir)


def isolate(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    """No cached judge reply or download leaks between tests."""
    monkeypatch.setenv("INSPECT_LOG_DIR", str(root / "logs"))
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(root / "inspect-cache"))
    monkeypatch.setenv("LIVEQA_INSPECT_CACHE_DIR", str(root / "liveqa-cache"))
    monkeypatch.setenv("LIVEQA_DATA", str(liveqa_data()))
    monkeypatch.setenv("EXPERTQA_DATA", str(expert_qa_data()))


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


@pytest.fixture(scope="module")
def module_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The same isolation for a module-scoped fixture, which is set up before any test's own."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        isolate(monkeypatch, tmp_path_factory.mktemp("module"))
        yield


@pytest.fixture(scope="session", autouse=True)
def _process_start(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Before any test, what a test's run depends on and Inspect sets once a process: the
    exception hook `inspect` installs, for the commands run in this process (tests/commands.py),
    and the display every eval here goes through, the quiet `log` one (QUIET), chosen by the
    first eval, which a command's `--display` would otherwise choose."""
    start_as_the_inspect_command()
    task = Task(dataset=[Sample(input="-")], solver=[])
    logs = str(tmp_path_factory.mktemp("start"))
    [log] = eval(task, model=scripted_model(lambda *_: ""), log_dir=logs, **QUIET)
    assert log.status == "success", log.error


async def _words(_self: ModelAPI, text: str) -> int:
    return len(text.split())


@pytest.fixture
def words_as_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Token counts without a tokenizer, for pytest_inspect_evals' metric helpers: they evaluate
    mockllm's default output, which has no usage, so Inspect counts the prompt's tokens with
    tiktoken, whose encoding is a download. The test's own scripted models carry usage
    (helpers.output)."""
    monkeypatch.setattr(ModelAPI, "count_text_tokens", _words)

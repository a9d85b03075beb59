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

from liveqa_inspect.data.sources import (
    EXPERT_QA_DATA_ENV,
    EXPERT_QA_FILES,
    LIVEQA_DATA_ENV,
    LIVEQA_JUDGMENTS,
    LIVEQA_QUESTIONS,
    Asset,
    cache_dir,
    fetch,
)
from liveqa_inspect.errors import DataError
from tests.helpers import Humans, expert_qa_data, human_levels, liveqa_data

UPSTREAM: tuple[Asset, ...] = (LIVEQA_QUESTIONS, LIVEQA_JUDGMENTS, *EXPERT_QA_FILES.values())
"""Every pinned file some test reads."""


def upstream_folders() -> dict[str, str]:
    """The folder of each data variable's verified files, fetched as a task fetches them; a
    usage error, which pytest prints once as the run's only output, when some are missing."""
    folders: dict[str, str] = {}
    failed: list[tuple[Asset, DataError]] = []
    for asset in UPSTREAM:
        try:
            folders[asset.env_var] = str(fetch(asset).path.parent)
        except DataError as error:
            failed.append((asset, error))
    if failed:
        wanted = {
            env: ", ".join(a.filename for a in UPSTREAM if a.env_var == env)
            for env in (LIVEQA_DATA_ENV, EXPERT_QA_DATA_ENV)
        }
        raise pytest.UsageError(
            "The tests need the upstream data files, and "
            f"{', '.join(asset.filename for asset, _ in failed)} could be neither read nor "
            f"downloaded. Set {LIVEQA_DATA_ENV}=<folder holding {wanted[LIVEQA_DATA_ENV]}> and "
            f"{EXPERT_QA_DATA_ENV}=<folder holding {wanted[EXPERT_QA_DATA_ENV]}>, or run once "
            f"online so they are downloaded, verified, into {cache_dir()}. First reason: "
            f"{failed[0][1]}"
        )
    return folders


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


async def _words(_self: object, text: str) -> int:
    return len(text.split())


def isolate(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    """No cached judge reply or download leaks between tests, and nothing is fetched: mockllm
    outputs made without usage (pytest_inspect_evals') would fetch a tokenizer."""
    monkeypatch.setenv("INSPECT_LOG_DIR", str(root / "logs"))
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(root / "inspect-cache"))
    monkeypatch.setenv("LIVEQA_INSPECT_CACHE_DIR", str(root / "liveqa-cache"))
    monkeypatch.setenv("LIVEQA_DATA", str(liveqa_data()))
    monkeypatch.setenv("EXPERTQA_DATA", str(expert_qa_data()))
    monkeypatch.setattr("inspect_ai.model._providers.mockllm.MockLLM.count_text_tokens", _words)


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


@pytest.fixture(scope="module")
def module_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The same isolation for a module-scoped fixture, which is set up before any test's own."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        isolate(monkeypatch, tmp_path_factory.mktemp("module"))
        yield

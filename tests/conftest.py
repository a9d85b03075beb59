"""Each test gets its own caches and logs, and reads the upstream data from ../shared/data."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import Humans, expert_qa_data, human_levels, liveqa_data


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

"""Each test gets its own caches and logs, and reads the upstream data from ../shared/data."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import expert_qa_data, liveqa_data


@pytest.fixture(scope="session")
def liveqa_data_dir() -> Path:
    return liveqa_data()


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No cached judge reply or download leaks between tests."""
    monkeypatch.setenv("INSPECT_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect-cache"))
    monkeypatch.setenv("LIVEQA_INSPECT_CACHE_DIR", str(tmp_path / "liveqa-cache"))
    monkeypatch.setenv("LIVEQA_DATA", str(liveqa_data()))
    monkeypatch.setenv("EXPERTQA_DATA", str(expert_qa_data()))


@pytest.fixture(autouse=True)
def _offline_token_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mockllm outputs made without usage (pytest_inspect_evals') would fetch a tokenizer."""

    async def words(_self: object, text: str) -> int:
        return len(text.split())

    monkeypatch.setattr("inspect_ai.model._providers.mockllm.MockLLM.count_text_tokens", words)

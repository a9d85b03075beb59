"""Tests read the upstream data from ../shared/data (never committed), or where the env says."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture(scope="session")
def liveqa_data_dir() -> Path:
    return Path(os.environ.get("LIVEQA_DATA") or SHARED_DATA / "liveqa")


@pytest.fixture(autouse=True)
def _isolated_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, liveqa_data_dir: Path
) -> None:
    """Each test gets its own Inspect cache and logs: no cached judge reply leaks between tests."""
    monkeypatch.setenv("INSPECT_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect-cache"))
    monkeypatch.setenv("LIVEQA_INSPECT_CACHE_DIR", str(tmp_path / "liveqa-cache"))
    monkeypatch.setenv("LIVEQA_DATA", str(liveqa_data_dir))
    monkeypatch.setenv(
        "EXPERTQA_DATA", os.environ.get("EXPERTQA_DATA") or str(SHARED_DATA / "expertqa")
    )


@pytest.fixture(autouse=True)
def _offline_token_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mockllm outputs made without usage (pytest_inspect_evals') would fetch a tokenizer."""

    async def words(_self: object, text: str) -> int:
        return len(text.split())

    monkeypatch.setattr("inspect_ai.model._providers.mockllm.MockLLM.count_text_tokens", words)

"""The suite's own data check (conftest.py): the upstream files are had the way the package has
them, and a clone without them gets one message, not a hundred failing tests."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from liveqa_inspect.data.sources import LIVEQA_DATA_ENV, LIVEQA_QUESTIONS, cached_path
from tests.commands import Ran, process
from tests.helpers import expert_qa_data, liveqa_data
from tests.upstream import UPSTREAM

ROOT = Path(__file__).resolve().parents[1]
A_SMALL_TEST = (
    "tests/liveqa_inspect/tasks/live_qa/test_dataset.py"
    "::test_one_sample_a_question_with_every_reference"
)


def suite(env: dict[str, str | None]) -> Ran:
    """The suite on one small test, a real pytest process with this environment and `env` over
    it."""
    args = ["-q", "-n", "0", "-p", "no:cacheprovider", A_SMALL_TEST]
    return process([sys.executable, "-m", "pytest", *args], env, ROOT, timeout=300)


def only_line(result: Ran) -> str:
    [line] = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    return line


@pytest.mark.slow
def test_missing_files_stop_the_run_once_naming_them_and_how_to_supply_them(
    tmp_path: Path,
) -> None:
    empty = str(tmp_path / "empty")
    result = suite({"LIVEQA_DATA": empty, "EXPERTQA_DATA": empty})
    assert result.returncode == pytest.ExitCode.USAGE_ERROR
    line = only_line(result)
    every = ", ".join(asset.filename for asset in UPSTREAM)
    assert line.startswith(f"ERROR: The tests need the upstream data files, and {every} could")
    assert f"Set LIVEQA_DATA=<folder holding {LIVEQA_QUESTIONS.filename}, " in line
    assert "EXPERTQA_DATA=<folder holding domain_test.jsonl, " in line


@pytest.mark.slow
def test_offline_with_no_copy_the_run_stops_once(tmp_path: Path) -> None:
    """No variable set, nothing in the cache, and no network (a proxy that refuses): the
    download fails at once and says so, in the one message."""
    dead = "http://127.0.0.1:9"
    result = suite(
        {
            "LIVEQA_DATA": None,
            "EXPERTQA_DATA": None,
            "LIVEQA_INSPECT_CACHE_DIR": str(tmp_path / "cache"),
            "HTTPS_PROXY": dead,
            "HTTP_PROXY": dead,
            "ALL_PROXY": dead,
            "NO_PROXY": None,
        }
    )
    assert result.returncode == pytest.ExitCode.USAGE_ERROR
    line = only_line(result)
    assert f"downloaded, verified, into {tmp_path / 'cache'}" in line
    assert f"First reason: Could not download {LIVEQA_QUESTIONS.filename}" in line


@pytest.mark.slow
def test_a_verified_copy_in_the_package_cache_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No variable set: the tests read the package's own verified cache, as a task would."""
    monkeypatch.setenv("LIVEQA_INSPECT_CACHE_DIR", str(tmp_path / "cache"))  # the child's too
    for asset in UPSTREAM:
        folder = liveqa_data() if asset.env_var == LIVEQA_DATA_ENV else expert_qa_data()
        cached_path(asset).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(folder / asset.filename, cached_path(asset))
    result = suite({"LIVEQA_DATA": None, "EXPERTQA_DATA": None})
    assert result.returncode == 0, result.stdout + result.stderr
    assert " passed" in result.stdout

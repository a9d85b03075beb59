"""Installed beside another eval, the package's entry point (which every `inspect` command loads)
leaves that eval's runs as Inspect left them (issue 42): its exception hook, its registry but for
our own tasks and `gguf/`, and the scorers its logs re-grade with. Real processes: what a start
installs is only seen in a fresh interpreter."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from liveqa_inspect import TASKS
from tests.commands import process

pytestmark = pytest.mark.slow

OTHER_TASK = """
from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState


@scorer(metrics=[mean()])
def verdicts() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=0.25)

    return score


@task
def other() -> Task:
    return Task(dataset=[Sample(input="x", target="x", id=1)], solver=[], scorer=verdicts())
"""
"""Another package's shape: a task file whose scorer has the name of one of ours."""

WITHOUT_US = (
    "import inspect_ai._util.entrypoints as points; points._inspect_ai_eps_loaded_all = True"
)
"""Inspect's entry points marked loaded before its command starts: ours (the environment's only
one) is never imported."""

COMMAND = """
import atexit, json, os, sys
{prelude}
from inspect_ai._cli.main import main


@atexit.register
def said():
    from inspect_ai._util.registry import _registry

    hook = f"{{sys.excepthook.__module__}}.{{sys.excepthook.__qualname__}}"
    with open(os.environ["PROBE"], "w") as f:
        json.dump({{"hook": hook, "keys": sorted(_registry)}}, f)


main()
"""
"""`inspect ARGS`, saying at exit the exception hook and the registry's keys it ended with."""


def inspect_other(folder: Path, prelude: str, *args: str) -> dict[str, object]:
    probe = folder / "probe.json"
    code = COMMAND.format(prelude=prelude)
    ran = process([sys.executable, "-c", code, *args], {"PROBE": str(probe)}, cwd=folder)
    assert ran.returncode == 0, ran.output[-3000:]
    return json.loads(probe.read_text(encoding="utf-8"))


@pytest.fixture
def other_package(tmp_path: Path) -> Path:
    (tmp_path / "other.py").write_text(OTHER_TASK, encoding="utf-8")
    return tmp_path


def test_another_eval_s_run_keeps_inspect_s_exception_hook_and_registry(
    other_package: Path,
) -> None:
    args = ("eval", "other.py", "--model", "mockllm/model", "--display", "none")
    with_us = inspect_other(other_package, "", *args, "--log-dir", "with")
    without = inspect_other(other_package, WITHOUT_US, *args, "--log-dir", "without")
    inspects = "inspect_ai._util.error.exception_hook.<locals>.handler"
    assert with_us["hook"] == without["hook"] == inspects
    added = set(with_us["keys"]) - set(without["keys"])  # type: ignore[arg-type]
    assert set(without["keys"]) <= set(with_us["keys"])  # type: ignore[arg-type]
    assert added == {
        *(f"task:liveqa_inspect/{task}" for task in TASKS),
        "modelapi:liveqa_inspect/gguf",
    }


def test_another_eval_s_log_re_grades_with_its_own_scorer_of_our_scorer_s_name(
    other_package: Path,
) -> None:
    """`inspect score LOG` finds the log's `verdicts` in its task file, not ours."""
    run = ("eval", "other.py", "--model", "mockllm/model", "--display", "none", "--log-dir", "a")
    inspect_other(other_package, "", *run)
    [log] = list_eval_logs(str(other_package / "a"))
    again = ("score", log.name, "--action", "overwrite", "--output-file", "b.eval")
    inspect_other(other_package, "", *again, "--display", "none")
    regraded = read_eval_log(str(other_package / "b.eval"))
    assert regraded.status == "success" and regraded.results is not None
    [verdicts] = regraded.results.scores
    assert (verdicts.name, verdicts.metrics["mean"].value) == ("verdicts", 0.25)

"""A run of ours that cannot start fails as a task that cannot be built does (issue 42): no sample
run, one line saying what to do, exit status 1, with `--display none` too. Each case is a real
`python -m inspect_ai` process, as a script or a CI job runs it; the logs a retry starts from are
made in this process."""

from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log
from inspect_ai.model import GenerateConfig

from liveqa_inspect import live_qa, live_qa_judge
from liveqa_inspect.default_judge import DEFAULT_JUDGE
from tests.commands import Ran, process
from tests.helpers import QUIET, scripted_model, verdict

pytestmark = pytest.mark.slow

NO_KEY = {"OPENAI_API_KEY": None, "OPENAI_BASE_URL": None}
QUESTIONS = [
    {"id": "bp-1", "question": "Is high blood pressure dangerous?", "references": ["Yes."]},
    {"id": "cs-2", "question": "Are cold sores contagious?", "references": ["Yes, very."]},
    {"id": "fv-3", "question": "When should a fever be seen?", "references": ["After 3 days."]},
]
GRADES = [
    {"question_id": "TQ2", "answer": "It contains no gluten.", "grade": 4},
    {"question_id": "TQ3", "answer": "Ask your doctor.", "grade": 1},
    {"question_id": "TQ4", "answer": "Drink water and rest.", "grade": 3},
]


@dataclass
class Case:
    args: list[str]
    said: str
    """What the one line says (the start of it)."""
    env: dict[str, str | None] = field(default_factory=dict)
    display: list[str] = field(default_factory=lambda: ["--display", "none"])
    first: EvalLog | None = None
    """The log an eval-retry retries."""


@dataclass
class Refused:
    case: Case
    ran: Ran
    logs: list[EvalLog]


def failing_on(text: str, reply: str):  # type: ignore[no-untyped-def]
    def script(prompt: str, _: GenerateConfig) -> str:
        if text in prompt:
            raise RuntimeError("scripted failure")
        return reply

    return script


def own_set_changed(root: Path) -> Case:
    path = root / "ours.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    judge = scripted_model(lambda *_: verdict("1"), "judge")
    [first] = eval(
        live_qa(data=str(path), reference_metrics=False),
        model=scripted_model(failing_on("fever", "An answer.")),
        model_roles={"grader": judge},
        log_dir=str(root / "logs"),
        max_samples=1,
        **QUIET,
    )
    path.write_text(path.read_text(encoding="utf-8").replace("After 3 days.", "Rest."), "utf-8")
    return Case(["eval-retry", first.location], "ours.jsonl has changed", first=first)


def judgments_changed(root: Path) -> Case:
    path = root / "judgments.jsonl"
    path.write_text("".join(json.dumps(g) + "\n" for g in GRADES), encoding="utf-8")
    [first] = eval(
        live_qa_judge(judgments=str(path)),
        model=scripted_model(failing_on("Drink water", verdict("1"))),
        log_dir=str(root / "logs"),
        max_samples=1,
        **QUIET,
    )
    path.write_text(path.read_text(encoding="utf-8").replace('"grade": 3', '"grade": 2'), "utf-8")
    return Case(["eval-retry", first.location], "judgments.jsonl has changed", first=first)


def bad_own_set(root: Path) -> Path:
    path = root / "bad.jsonl"
    lines = [QUESTIONS[0], {"id": "x-2", "question": " ", "references": ["Yes."]}]
    path.write_text("".join(json.dumps(q) + "\n" for q in lines), encoding="utf-8")
    return path


def cases(root: Path) -> dict[str, Case]:
    live = ["eval", "liveqa_inspect/live_qa", "--model", "mockllm/model"]
    default_judge = f"The default judge {DEFAULT_JUDGE} cannot be made ("
    return {
        "default_judge_no_key": Case(live, default_judge, NO_KEY),
        "default_judge_no_key_default_display": Case(live, default_judge, NO_KEY, display=[]),
        "bound_judge_not_made": Case(
            [*live, "--model-role", f"grader=gguf/{root / 'missing.gguf'}"],
            f"gguf/{root / 'missing.gguf'}: no such file.",
        ),
        "bad_own_set": Case(
            [*live, "-T", f"data={bad_own_set(root)}"],
            f"{root / 'bad.jsonl'} line 2: the question is missing or empty.",
        ),
        "misspelt_argument": Case(
            [*live, "-T", "questions=original"],
            "live_qa takes no argument 'questions' (did you mean 'question'?); it takes question, "
            "data, judge_cache, reference_metrics, panel.",
        ),
        "own_set_changed": own_set_changed(root / "own_set"),
        "judgments_changed": judgments_changed(root / "judgments"),
    }


def refused(name: str, case: Case, root: Path) -> Refused:
    logs = root / name / "logs"
    env = {"INSPECT_LOG_DIR": str(logs), "COLUMNS": "1000", **case.env}
    command = [
        sys.executable,
        "-m",
        "inspect_ai",
        *case.args,
        *case.display,
        "--log-dir",
        str(logs),
    ]
    ran = process(command, env, timeout=300)
    written = (
        [read_eval_log(info.name) for info in list_eval_logs(str(logs))] if logs.exists() else []
    )
    return Refused(case, ran, written)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, module_env: None) -> dict[str, Refused]:
    root = tmp_path_factory.mktemp("refused")
    for folder in ("own_set", "judgments"):
        (root / folder).mkdir()
    made = cases(root)
    with ThreadPoolExecutor(max_workers=3) as pool:
        done = {name: pool.submit(refused, name, case, root) for name, case in made.items()}
        return {name: future.result() for name, future in done.items()}


@pytest.mark.parametrize(
    "name",
    [
        "default_judge_no_key",
        "default_judge_no_key_default_display",
        "bound_judge_not_made",
        "bad_own_set",
        "misspelt_argument",
        "own_set_changed",
        "judgments_changed",
    ],
)
def test_a_run_that_cannot_start_exits_1_with_one_line_and_runs_no_sample(
    runs: dict[str, Refused], name: str
) -> None:
    run = runs[name]
    lines = [line for line in run.ran.output.splitlines() if line.strip()]
    assert run.ran.returncode == 1, run.ran.output
    assert len(lines) == 1 and lines[0].startswith(f"ERROR: {run.case.said}"), run.ran.output
    if run.case.display:  # --display none: said on stderr, as Inspect says its own errors
        assert not run.ran.stdout.strip()
    first = run.case.first
    if first is None:
        assert run.logs == []  # stopped before the eval's log was started
    else:  # the retry's log holds the first run's samples, as they were: it ran none
        [retry] = run.logs
        assert retry.status == "error" and retry.samples is not None
        assert first.samples is not None
        assert [(s.id, s.error) for s in retry.samples] == [(s.id, s.error) for s in first.samples]


def test_a_scored_run_without_the_default_judge_s_key_names_the_three_ways_on(
    runs: dict[str, Refused],
) -> None:
    said = runs["default_judge_no_key"].ran.stderr
    assert "No OPENAI_API_KEY" in said
    assert "Set its key, or bind another judge with --model-role grader=MODEL" in said
    assert "or generate without judging (--no-score) and grade later with `inspect score`" in said

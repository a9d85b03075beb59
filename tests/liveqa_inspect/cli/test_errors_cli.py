"""The errors a user trips on, through the real `inspect eval`: one short message, no traceback.

Each case is one `python -m inspect_ai eval` with mockllm (no key, no network). They run two at a
time, as each spends most of its five seconds importing Inspect.
"""

from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs

from liveqa_inspect.data.sources import LIVEQA_QUESTIONS, cache_dir, cached_path
from tests.helpers import inspect_cli

pytestmark = pytest.mark.slow

MAX_LINES = 15
"""A message and its blank lines; today's tracebacks ran to 220-275 lines."""

REFUSED = "http://127.0.0.1:9"
"""A proxy nobody listens on: the download fails as offline, even on a machine with network."""


@dataclass
class Case:
    task: str
    args: list[str]
    expected: list[str]
    env: dict[str, str | None] = field(default_factory=dict)
    """Set for the run; None unsets the variable."""
    display: list[str] = field(default_factory=lambda: ["--display", "none"])
    cached: bytes | None = None
    """Put in the run's cache as the questions file, before the run."""


@dataclass
class Run:
    case: Case
    home: Path
    result: subprocess.CompletedProcess[str]

    @property
    def output(self) -> str:
        return self.result.stdout + self.result.stderr


def _cases(root: Path, data: Path) -> dict[str, Case]:
    altered = root / "altered"
    altered.mkdir()
    (altered / LIVEQA_QUESTIONS.filename).write_text("<Root/>", encoding="utf-8")
    grades = root / "grades.jsonl"
    grades.write_text(
        '{"question_id": "TQ1", "answer": "Rest.", "grade": 3}\n'
        '{"question_id": "TQ2", "answer": "Fluids.", "grade": ' + "4" * 5000 + "}\n",
        encoding="utf-8",
    )
    offline = {"LIVEQA_DATA": None, "HTTPS_PROXY": REFUSED, "HTTP_PROXY": REFUSED, "NO_PROXY": None}
    return {
        "unknown_question": Case(
            "live_qa",
            ["-T", "question=bogus"],
            ["question must be one of summary, paraphrase, original; got 'bogus'"],
        ),
        "unknown_question_default_display": Case(
            "live_qa",
            ["-T", "question=bogus"],
            ["question must be one of summary, paraphrase, original; got 'bogus'"],
            display=[],
        ),
        "not_a_flag": Case(
            "live_qa",
            ["-T", "reference_metrics=maybe"],
            ["reference_metrics must be true or false; got 'maybe'"],
        ),
        "missing_data_argument": Case(
            "live_qa",
            ["-T", f"data={root / 'nonexistent'}"],
            [f"{root / 'nonexistent'} does not exist", "LIVEQA_DATA", LIVEQA_QUESTIONS.url],
        ),
        "altered_local_copy": Case(
            "live_qa",
            [],
            [f"{altered / LIVEQA_QUESTIONS.filename} is not the pinned", LIVEQA_QUESTIONS.sha256],
            env={"LIVEQA_DATA": str(altered)},
        ),
        "offline_without_cache": Case(
            "live_qa",
            [],
            [
                f"Could not download {LIVEQA_QUESTIONS.filename} from {LIVEQA_QUESTIONS.url}",
                "LIVEQA_DATA=<folder holding it>",
                "-T data=<folder>",
            ],
            env=offline,
        ),
        "tampered_cache": Case(
            "live_qa",
            [],
            ["exists but does not match the pinned sha256", LIVEQA_QUESTIONS.sha256, "Delete it"],
            env=offline,
            cached=b"tampered",
        ),
        "unknown_expert_field": Case(
            "expert_qa",
            ["-T", "field=Alchemy"],
            ["unknown field ['Alchemy']; this file has: Anthropology;", "Healthcare / Medicine"],
        ),
        "unknown_perturbation": Case(
            "live_qa_judge_robustness",
            ["-T", "perturbations=padding,typo"],
            ["perturbations must be one or more of padding, authority, formatting, grader_note"],
        ),
        "perturbations_not_names": Case(
            "live_qa_judge_robustness",
            ["-T", "perturbations=true"],
            ["perturbations must be one or more of padding, authority", "; got True."],
        ),
        "overlong_grade": Case(
            "live_qa_judge",
            ["-T", f"judgments={grades}", "-T", f"data={data}"],
            [
                f"{grades} line 2: field 'grade' must be an integer 1-4, "
                "got an integer of 5000 digits"
            ],
        ),
    }


def _run(name: str, case: Case, root: Path) -> Run:
    home = root / name
    cache = home / "cache"
    home.mkdir()
    if case.cached is not None:
        _questions_in(cache).parent.mkdir(parents=True)
        _questions_in(cache).write_bytes(case.cached)
    env = {
        "INSPECT_CACHE_DIR": str(home / "inspect-cache"),
        "LIVEQA_INSPECT_CACHE_DIR": str(cache),
        **case.env,
    }
    result, _ = inspect_cli(
        "eval", f"liveqa_inspect/{case.task}", "--model", "mockllm/model",
        *case.display, *case.args,
        log_dir=home / "logs", env=env, timeout=60,
    )  # fmt: skip
    return Run(case, home, result)


def _questions_in(cache: Path) -> Path:
    return cache / cached_path(LIVEQA_QUESTIONS).relative_to(cache_dir())


@pytest.fixture(scope="module")
def runs(
    tmp_path_factory: pytest.TempPathFactory, liveqa_data_dir: Path, module_env: None
) -> dict[str, Run]:
    root = tmp_path_factory.mktemp("errors_cli")
    cases = _cases(root, liveqa_data_dir)
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(_run, name, case, root) for name, case in cases.items()}
        return {name: future.result() for name, future in futures.items()}


CASE_NAMES = [
    "unknown_question",
    "unknown_question_default_display",
    "not_a_flag",
    "missing_data_argument",
    "altered_local_copy",
    "offline_without_cache",
    "tampered_cache",
    "unknown_expert_field",
    "unknown_perturbation",
    "perturbations_not_names",
    "overlong_grade",
]


@pytest.mark.parametrize("name", CASE_NAMES)
def test_one_short_message_and_no_traceback(runs: dict[str, Run], name: str) -> None:
    run = runs[name]
    # Inspect exits 1 on an error raised while the task is built, before any log is started.
    assert run.result.returncode == 1, run.output
    assert "Traceback" not in run.output
    assert len(run.output.splitlines()) < MAX_LINES, run.output
    assert "ERROR: " in run.output
    for text in run.case.expected:
        assert text in run.output
    assert not list_eval_logs(str(run.home / "logs"))


def test_display_none_reports_on_stderr_and_the_default_display_on_stdout(
    runs: dict[str, Run],
) -> None:

    quiet, shown = runs["unknown_question"].result, runs["unknown_question_default_display"].result
    assert "got 'bogus'" in quiet.stderr and not quiet.stdout.strip()
    assert "got 'bogus'" in shown.stdout and not shown.stderr.strip()


def test_offline_creates_no_folders_and_names_where_to_put_the_file(runs: dict[str, Run]) -> None:
    run = runs["offline_without_cache"]
    cache = run.home / "cache"
    assert str(_questions_in(cache)) in run.output
    assert not cache.exists()

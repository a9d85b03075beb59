"""The errors a user trips on, through `inspect eval`: one short message, no traceback.

Each case is one `inspect eval` with mockllm (no key, no network), run in this process as the
command runs it (tests/commands.py). Where the message goes, with and without `--display none`,
rests on the exception hooks a fresh command starts with, so that is also checked with real
`python -m inspect_ai` processes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs

from liveqa_inspect.data.sources import LIVEQA_QUESTIONS, cache_dir, cached_path
from tests.commands import Ran, inspect_eval_logs

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
    result: Ran

    @property
    def output(self) -> str:
        return self.result.output


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
        "data_error_default_display": Case(
            "live_qa",
            ["-T", f"data={root / '[draft]'}"],
            [f"{root / '[draft]'} does not exist"],  # the brackets are not read as markup
            env={"COLUMNS": "1000"},  # the message on one line
            display=[],
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


def _run(name: str, case: Case, root: Path, fresh: bool = False) -> Run:
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
    result, _ = inspect_eval_logs(
        "eval",
        f"liveqa_inspect/{case.task}",
        "--model",
        "mockllm/model",
        *case.display,
        *case.args,
        log_dir=home / "logs",
        env=env,
        fresh=fresh,
        timeout=60,
    )
    return Run(case, home, result)


def _questions_in(cache: Path) -> Path:
    return cache / cached_path(LIVEQA_QUESTIONS).relative_to(cache_dir())


@pytest.fixture(scope="module")
def runs(
    tmp_path_factory: pytest.TempPathFactory, liveqa_data_dir: Path, module_env: None
) -> dict[str, Run]:
    root = tmp_path_factory.mktemp("errors_cli")
    cases = _cases(root, liveqa_data_dir)
    return {name: _run(name, case, root) for name, case in cases.items()}


CASE_NAMES = [
    "unknown_question",
    "unknown_question_default_display",
    "not_a_flag",
    "missing_data_argument",
    "data_error_default_display",
    "altered_local_copy",
    "offline_without_cache",
    "tampered_cache",
    "unknown_expert_field",
    "unknown_perturbation",
    "perturbations_not_names",
    "overlong_grade",
]


def one_short_message(run: Run) -> None:
    # Inspect exits 1 on an error raised while the task is built, before any log is started.
    assert run.result.returncode == 1, run.output
    assert "Traceback" not in run.output
    assert len(run.output.splitlines()) < MAX_LINES, run.output
    assert "ERROR: " in run.output
    for text in run.case.expected:
        assert text in run.output
    assert not list_eval_logs(str(run.home / "logs"))


def on_stderr_or_stdout(quiet: Ran, shown: Ran) -> None:
    assert "got 'bogus'" in quiet.stderr and not quiet.stdout.strip()
    assert "got 'bogus'" in shown.stdout and not shown.stderr.strip()


@pytest.mark.parametrize("name", CASE_NAMES)
def test_one_short_message_and_no_traceback(runs: dict[str, Run], name: str) -> None:
    one_short_message(runs[name])


def test_display_none_reports_on_stderr_and_the_default_display_on_stdout(
    runs: dict[str, Run],
) -> None:
    on_stderr_or_stdout(
        runs["unknown_question"].result, runs["unknown_question_default_display"].result
    )


@pytest.mark.slow
def test_a_fresh_command_reports_as_the_run_in_this_process(
    runs: dict[str, Run], tmp_path: Path, liveqa_data_dir: Path
) -> None:
    """Real `python -m inspect_ai` processes, which start with the interpreter's own exception
    hook, print what the runs in this process printed, on the same streams."""
    cases = _cases(tmp_path, liveqa_data_dir)
    names = ("unknown_question", "unknown_question_default_display")
    quiet, shown = (_run(name, cases[name], tmp_path, fresh=True) for name in names)
    for name, fresh in zip(names, (quiet, shown), strict=True):
        one_short_message(fresh)
        assert fresh.result == runs[name].result
    on_stderr_or_stdout(quiet.result, shown.result)


def test_offline_creates_no_folders_and_names_where_to_put_the_file(runs: dict[str, Run]) -> None:
    run = runs["offline_without_cache"]
    cache = run.home / "cache"
    assert str(_questions_in(cache)) in run.output
    assert not cache.exists()

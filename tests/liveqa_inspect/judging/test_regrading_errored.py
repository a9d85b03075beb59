"""A sample whose answer failed stays errored and unscored when the answers are graded later
(`--no-score`, then `score()` or `inspect score`): the report's counts and headline are the
direct run's, for every scorer the log names (issue 35, seam 1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval, score
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
from inspect_ai.model import GenerateConfig

from liveqa_inspect import live_qa
from liveqa_inspect.judging.verdicts import verdicts
from liveqa_inspect.tasks.live_qa.task import live_qa_scorer
from tests.commands import inspect_eval_logs
from tests.helpers import (
    LEVELS_BY_ANSWER,
    QUIET,
    judge_script,
    report,
    scripted_model,
    subject_script,
    verdict,
)
from tests.openai_server import OpenAIServer

COUNTS = "samples: 2 scored, 0 unscored, 1 errored, 0 missing"
MEAN = (0.7 + 0.3) / 2  # TQ2 and TQ3; TQ1 (Noonan) errored
FAILED = "Noonan"  # TQ1's question


def failing_subject(prompt: str, config: GenerateConfig) -> str:
    if FAILED in prompt:
        raise RuntimeError("The subject's API failed.")
    return subject_script(prompt, config)


def run(scored: bool) -> EvalLog:
    grader = {"grader": scripted_model(judge_script, "judge")} if scored else None
    [log] = eval(
        live_qa(reference_metrics=False),
        model=scripted_model(failing_subject, "subject"),
        model_roles=grader,
        limit=3,
        fail_on_error=False,
        score=scored,
        **QUIET,
    )
    assert log.status == "success", log.error
    return log


def figures(log: EvalLog) -> dict[str, dict[str, float]]:
    assert log.results is not None
    return {s.name: {k: m.value for k, m in s.metrics.items()} for s in log.results.scores}


def headline_and_counts(printed: str) -> list[str]:
    return [line for line in printed.splitlines() if line.startswith(("samples:", "judge:"))]


def test_an_errored_sample_stays_errored_and_unscored_when_re_graded(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    direct = run(scored=True)
    scorers = [
        live_qa_scorer(),
        verdicts(judge="live_qa_scorer", levels=[0.0, 0.3, 0.7, 1.0]),
    ]
    judge = {"grader": scripted_model(judge_script, "judge")}
    regraded = score(run(scored=False), scorers, model_roles=judge, action="overwrite")
    assert regraded.samples is not None
    [errored] = [s for s in regraded.samples if s.error is not None]
    assert not errored.scores  # neither the judge's scorer nor verdicts scored it
    assert figures(regraded) == figures(direct)
    assert figures(regraded)["live_qa_scorer"]["mean"] == pytest.approx(MEAN)
    assert figures(regraded)["verdicts"]["scored"] == 2

    printed = []
    for name, log in (("direct", direct), ("regraded", regraded)):
        write_eval_log(log, path := str(tmp_path / f"{name}.eval"))
        printed.append(report(capsys, path))
    assert COUNTS in printed[1]
    assert headline_and_counts(printed[1]) == headline_and_counts(printed[0])
    mean_rows = [p.split("The judge's mean level")[1].splitlines()[:6] for p in printed]
    assert mean_rows[0] == mean_rows[1]


# -- through `inspect eval` and `inspect score`, in this process, against the local server ------


def answer_or_grade(messages: list[dict], model: str) -> str:
    """The subject fails on TQ1 (the server answers a responder's error with a 400, which Inspect
    does not retry); the judge grades as `judge_script`."""
    prompt = "\n".join(str(m.get("content", "")) for m in messages)
    if "<answer>" in prompt:
        answer = prompt.split("<answer>\n", 1)[1].split("\n</answer>", 1)[0]
        return verdict(LEVELS_BY_ANSWER.get(answer, "0"))
    if FAILED in prompt:
        raise RuntimeError("The subject's API failed.")
    return subject_script(prompt, GenerateConfig())


@pytest.mark.slow
def test_inspect_score_leaves_an_errored_sample_errored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    subject = "--model openai-api/local/subject --limit 3 --no-fail-on-error --display none"
    run_args = ("eval", "liveqa_inspect/live_qa", *subject.split())
    grader = ("--model-role", "grader=openai-api/local/judge")
    with OpenAIServer(answer_or_grade) as server:
        env = server.env()
        _, [direct] = inspect_eval_logs(*run_args, *grader, log_dir=tmp_path / "direct", env=env)
        _, [answers] = inspect_eval_logs(*run_args, "--no-score", log_dir=tmp_path / "a", env=env)
        graded = tmp_path / "graded.eval"
        output = ("--output-file", str(graded), "--display", "none")
        ran, _ = inspect_eval_logs(
            "score", answers.location, *grader, *output, log_dir=tmp_path / "a", env=env
        )
        assert ran.returncode == 0, ran.output[-3000:]
    assert direct.status == answers.status == "success"
    graded_log = read_eval_log(str(graded))
    assert figures(graded_log) == figures(direct)  # HELM's reference metrics' too
    assert {"live_qa_scorer", "verdicts", "rouge_l"} <= set(figures(direct))
    printed = [report(capsys, str(path)) for path in (tmp_path / "direct", graded)]
    assert COUNTS in printed[0]
    assert headline_and_counts(printed[1]) == headline_and_counts(printed[0])
    mean_rows = [p.split("The judge's mean level")[1].splitlines()[:6] for p in printed]
    assert mean_rows[0] == mean_rows[1]

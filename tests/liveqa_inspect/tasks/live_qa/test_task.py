"""The live_qa task through Inspect's eval(), with scripted models for the subject and the judge."""

from __future__ import annotations

import logging
import math

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, Model

from liveqa_inspect import live_qa
from liveqa_inspect.data.sources import LIVEQA_QUESTIONS
from liveqa_inspect.default_judge import DEFAULT_JUDGE
from liveqa_inspect.judging.grade import JUDGE_ATTEMPTS
from liveqa_inspect.judging.prompts import LIVEQA_JUDGE
from liveqa_inspect.tasks.live_qa.task import INSTRUCTION
from tests.helpers import QUIET, figures, judge_script, scripted_model, subject_script, verdict


def run(subject: Model, judge: Model | None, limit: int = 4, **args: object) -> EvalLog:
    roles = {"grader": judge} if judge is not None else {}
    [log] = eval(live_qa(**args), model=subject, model_roles=roles, limit=limit, **QUIET)
    return log


def test_scores_metrics_headline_and_provenance() -> None:
    judge = scripted_model(judge_script, "judge")
    log = run(scripted_model(subject_script), judge)
    assert log.status == "success"
    values = {s.id: s.scores["live_qa_scorer"].value for s in log.samples}
    assert values == {"TQ1": 1.0, "TQ2": 0.7, "TQ3": 0.3, "TQ4": 0.0}
    m = figures(log, "live_qa_scorer")
    # At most 12 figures, named so a terminal or Inspect View can show them all.
    assert set(m) == {
        "mean",
        "stderr",
        "ci_low",
        "ci_high",
        "share_0",
        "share_0.3",
        "share_0.7",
        "share_1",
    }
    assert m["mean"] == pytest.approx(0.5)
    sd = math.sqrt(sum((v - 0.5) ** 2 for v in values.values()) / 3)
    assert m["stderr"] == pytest.approx(sd / 2)
    assert m["share_1"] == m["share_0.7"] == m["share_0.3"] == m["share_0"] == 0.25
    assert 0.0 <= m["ci_low"] < 0.5 < m["ci_high"] <= 1.0
    assert log.eval.headline_metric is not None
    assert (log.eval.headline_metric.scorer, log.eval.headline_metric.metric) == (
        "live_qa_scorer",
        "mean",
    )
    meta = log.eval.metadata
    assert meta["judge_default"] == DEFAULT_JUDGE
    assert meta["judge_prompt"] == LIVEQA_JUDGE.provenance()
    assert meta["data"][LIVEQA_QUESTIONS.filename]["sha256"] == LIVEQA_QUESTIONS.sha256
    assert meta["data_license"] == "CC BY 4.0"
    assert log.eval.task_version == "4-D"


def test_inspect_view_leads_with_the_judge_s_level_on_the_whole_scale() -> None:
    log = run(scripted_model(subject_script), scripted_model(judge_script, "judge"), limit=1)
    assert log.eval.viewer is not None and log.eval.viewer.task_samples_view is not None
    view = log.eval.viewer.task_samples_view
    assert [c.id for c in view.columns or [] if c.visible][:3] == [
        "sampleId",
        "epoch",
        "score__live_qa_scorer__live_qa_scorer",
    ]
    assert view.score_labels == {"live_qa_scorer": "judge level"}
    colours = view.score_color_scales["live_qa_scorer"]  # type: ignore[index]
    assert (colours.palette, colours.min, colours.max) == ("good-high", 0.0, 1.0)


def test_every_score_says_who_graded_it_and_why() -> None:
    judge = scripted_model(judge_script, "judge")
    log = run(scripted_model(subject_script), judge, limit=1)
    score = log.samples[0].scores["live_qa_scorer"]
    assert score.explanation == "Graded ANSWER-ONE."
    assert score.answer == "ANSWER-ONE"
    assert score.metadata["judge"]["models"] == ["mockllm/judge"]
    assert score.metadata["prompt"]["version"] == LIVEQA_JUDGE.version
    [juror] = score.metadata["jurors"]
    assert juror["model"] == "mockllm/judge"
    assert juror["level"] == 1.0
    assert juror["attempts"] == 1
    # The raw reply is stored once, with the juror that gave it.
    assert juror["replies"] == [verdict("1", "Graded ANSWER-ONE.")]
    assert "judge_reply" not in score.metadata and "level" not in score.metadata
    assert juror["config"]["temperature"] == 0 and "max_tokens" not in juror["config"]


def test_subject_gets_the_instruction_and_helm_settings() -> None:
    subject = scripted_model(subject_script)
    run(subject, scripted_model(judge_script, "judge"), limit=1)
    prompt, config = subject.calls[0]
    assert prompt.startswith(INSTRUCTION + "\n\n")
    assert prompt.endswith("between Noonan syndrome and polycystic renal disease?")
    assert config.temperature == 0 and config.max_tokens == 512


def test_judge_sees_every_reference_with_our_defaults_when_nothing_is_set() -> None:
    judge = scripted_model(judge_script, "judge")
    run(scripted_model(subject_script), judge, limit=1)
    [(prompt, config)] = judge.calls
    for n in (1, 2, 3):
        assert f'<reference n="{n}">' in prompt
    assert '<reference n="4">' not in prompt
    assert (config.temperature, config.max_tokens, config.seed) == (0, None, 42)
    assert config.max_retries == 5


def test_the_judge_role_s_own_settings_win() -> None:
    """`--model-role 'grader={model: X, max_tokens: 4000, temperature: 0.5, seed: 7}'`."""
    judge = scripted_model(
        judge_script, "judge", max_tokens=4000, temperature=0.5, seed=7, max_retries=9
    )
    log = run(scripted_model(subject_script), judge, limit=1)
    [(_, config)] = judge.calls
    assert (config.temperature, config.max_tokens, config.seed, config.max_retries) == (
        0.5,
        4000,
        7,
        9,
    )
    recorded = log.samples[0].scores["live_qa_scorer"].metadata["jurors"][0]["config"]
    assert (recorded["temperature"], recorded["max_tokens"], recorded["seed"]) == (0.5, 4000, 7)


def test_a_reasoning_judge_is_not_given_our_token_cap_or_temperature() -> None:
    judge = scripted_model(judge_script, "judge", reasoning_effort="high")
    run(scripted_model(subject_script), judge, limit=1)
    [(_, config)] = judge.calls
    assert config.max_tokens is None and config.temperature is None
    assert config.reasoning_effort == "high" and config.seed == 42


def test_unreadable_verdict_is_retried_then_unscored_never_zero() -> None:
    judge = scripted_model(lambda *_: "I think it is quite good.", "judge")
    log = run(scripted_model(subject_script), judge, limit=2)
    assert log.status == "success"
    score = log.samples[0].scores["live_qa_scorer"]
    assert math.isnan(score.value)
    assert score.reason == "grader_failed"
    [juror] = score.metadata["jurors"]
    assert juror["attempts"] == JUDGE_ATTEMPTS and juror["level"] is None
    assert juror["replies"] == ["I think it is quite good."] * JUDGE_ATTEMPTS
    assert "I think it is quite good." in score.explanation
    assert len(judge.calls) == 2 * JUDGE_ATTEMPTS
    assert len({config.seed for _, config in judge.calls}) == JUDGE_ATTEMPTS
    assert log.results.scores[0].unscored_samples == 2
    assert log.results.scores[0].scored_samples == 0


@pytest.mark.parametrize(
    "reply",
    [
        "<score>0</score> (write it as, e.g., <score>0.7</score>)",  # two levels: neither read
        "<score>" * 150_000 + "1",  # about 1 MB of unclosed tags: no verdict, read linearly
        "<score>1 <score>0.3</score>",  # a tag left open: where its level ends is unknown
    ],
    ids=["conflicting_tags", "one_megabyte_unclosed", "tag_left_open"],
)
@pytest.mark.timeout(60, method="thread")
def test_a_reply_that_says_two_things_or_nothing_is_unscored_with_its_replies(reply: str) -> None:
    judge = scripted_model(lambda *_: reply, "judge")
    log = run(scripted_model(subject_script), judge, limit=1)
    assert log.status == "success", log.error
    score = log.samples[0].scores["live_qa_scorer"]
    assert math.isnan(score.value) and score.reason == "grader_failed"
    [juror] = score.metadata["jurors"]
    assert juror["replies"] == [reply] * JUDGE_ATTEMPTS and juror["level"] is None


def test_a_retry_with_a_new_seed_can_recover_even_from_the_user_s_seed() -> None:
    def flaky(prompt: str, config: GenerateConfig) -> str:
        return "<score>maybe</score>" if config.seed == 7 else judge_script(prompt, config)

    judge = scripted_model(flaky, "judge", seed=7)
    log = run(scripted_model(subject_script), judge, limit=1)
    score = log.samples[0].scores["live_qa_scorer"]
    assert score.value == 1.0
    [juror] = score.metadata["jurors"]
    assert juror["attempts"] == 2
    assert juror["replies"][0] == "<score>maybe</score>"
    assert [config.seed for _, config in judge.calls] == [7, 8]


def test_empty_answer_scores_zero_without_a_judge_call() -> None:
    judge = scripted_model(judge_script, "judge")
    log = run(scripted_model(lambda *_: "   "), judge, limit=2)
    for sample in log.samples:
        score = sample.scores["live_qa_scorer"]
        assert score.value == 0.0
        assert score.reason == "no_response"
    assert judge.calls == []


def test_judge_api_failure_raises_naming_the_judge() -> None:
    def broken(*_: object) -> str:
        raise RuntimeError("judge service unavailable")

    log = run(scripted_model(subject_script), scripted_model(broken, "judge"), limit=1)
    assert log.status == "error"
    assert "The judge mockllm/judge failed" in str(log.error)
    assert "judge service unavailable" in str(log.error)


def test_self_judging_is_warned_once(caplog: pytest.LogCaptureFixture) -> None:
    def both_roles(prompt: str, config: GenerateConfig) -> str:
        is_judge = "<answer>" in prompt
        return judge_script(prompt, config) if is_judge else subject_script(prompt, config)

    both = scripted_model(both_roles, "same")
    with caplog.at_level(logging.WARNING):
        log = run(both, both, limit=3)
    assert log.samples[0].scores["live_qa_scorer"].value == 1.0
    assert caplog.text.count("is the model under test") == 1
    with caplog.at_level(logging.WARNING):
        run(both, both, limit=2)  # a second run in the same process is warned too
    assert caplog.text.count("is the model under test") == 2


def test_reference_metrics_are_reported_beside_the_judge_and_can_be_turned_off() -> None:
    judge = scripted_model(judge_script, "judge")
    log = run(scripted_model(subject_script), judge, limit=2)
    names = [score.name for score in log.results.scores]
    assert names[:2] == ["live_qa_scorer", "verdicts"]
    assert {"exact_match", "rouge_l", "bleu_4", "f1_score"} <= set(names)
    rouge = next(s for s in log.results.scores if s.name == "rouge_l")
    assert 0.0 <= rouge.metrics["mean"].value < 0.1
    overlap = log.samples[0].scores["reference_overlap"]
    assert "rouge_l" in overlap.explanation and "best of 3 references" in overlap.explanation
    off = run(scripted_model(subject_script), judge, limit=2, reference_metrics=False)
    assert [score.name for score in off.results.scores] == ["live_qa_scorer", "verdicts"]


def test_a_bad_panel_argument_is_refused() -> None:
    with pytest.raises(ValueError, match="panel must be one of mean, median, majority"):
        live_qa(panel="vote")  # type: ignore[arg-type]


def test_one_version_in_the_package_the_log_and_eval_yaml() -> None:
    from importlib.metadata import version
    from importlib.resources import files

    import yaml

    from liveqa_inspect._version import EVAL_VERSION, __version__

    register = yaml.safe_load(files("liveqa_inspect").joinpath("eval.yaml").read_text("utf-8"))
    assert register["version"] == EVAL_VERSION == "4-D"
    assert version("liveqa-inspect") == __version__ == "4.3"
    assert live_qa().version == EVAL_VERSION

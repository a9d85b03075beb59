"""The live_qa task through Inspect's eval(), with scripted models for the subject and the judge."""

from __future__ import annotations

import logging
import math

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, Model

from liveqa_inspect import live_qa
from liveqa_inspect.judge import DEFAULT_JUDGE, JUDGE_ATTEMPTS
from liveqa_inspect.prompts import INSTRUCTION, LIVEQA_JUDGE
from liveqa_inspect.sources import LIVEQA_QUESTIONS
from tests.scripted import scripted_model, verdict

# Subject answers keyed on the question; the judge grades keyed on the answer it is shown.
ANSWERS = {
    "Noonan": "ANSWER-ONE",
    "Zolmitriptan": "ANSWER-SEVEN",
    "amphetamine": "ANSWER-THREE",
    "cold sores": "",
}
LEVELS = {"ANSWER-ONE": "1", "ANSWER-SEVEN": "0.70", "ANSWER-THREE": "0.3"}


def subject_script(prompt: str, _: GenerateConfig) -> str:
    return next((a for key, a in ANSWERS.items() if key in prompt), "ANSWER-ZERO")


def judge_script(prompt: str, _: GenerateConfig) -> str:
    answer = prompt.split("<answer>\n", 1)[1].split("\n</answer>", 1)[0]
    return verdict(LEVELS.get(answer, "0"), f"Graded {answer}.")


def run(subject: Model, judge: Model | None, limit: int = 4, **args: object) -> EvalLog:
    roles = {"grader": judge} if judge is not None else {}
    [log] = eval(
        live_qa(**args), model=subject, model_roles=roles, limit=limit, display="none"
    )
    return log


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return {name: m.value for name, m in log.results.scores[0].metrics.items()}


def test_scores_metrics_and_provenance() -> None:
    judge = scripted_model(judge_script, "judge")
    log = run(scripted_model(subject_script), judge)
    assert log.status == "success"
    values = {s.id: s.scores["live_qa_scorer"].value for s in log.samples}
    assert values == {"TQ1": 1.0, "TQ2": 0.7, "TQ3": 0.3, "TQ4": 0.0}
    m = metrics(log)
    assert m["mean"] == pytest.approx(0.5)
    sd = math.sqrt(sum((v - 0.5) ** 2 for v in values.values()) / 3)
    assert m["stderr"] == pytest.approx(sd / 2)
    assert m["share_1"] == m["share_0.7"] == m["share_0.3"] == m["share_0"] == 0.25
    assert 0.0 <= m["ci_low"] < 0.5 < m["ci_high"] <= 1.0
    assert m["focus_category/Problem"] == pytest.approx(0.5)
    assert m["n/focus_category/Problem"] == 2
    assert m["n/focus_category/DrugSupplement"] == 2
    assert m["question_type/INGREDIENT"] == pytest.approx(0.5)
    meta = log.eval.metadata
    assert meta["judge_default"] == DEFAULT_JUDGE
    assert meta["judge_prompt"] == LIVEQA_JUDGE.provenance()
    assert meta["data"][LIVEQA_QUESTIONS.filename]["sha256"] == LIVEQA_QUESTIONS.sha256
    assert log.eval.task_version == "1.0.0"


def test_every_score_says_who_graded_it_and_why() -> None:
    judge = scripted_model(judge_script, "judge")
    log = run(scripted_model(subject_script), judge, limit=1)
    score = log.samples[0].scores["live_qa_scorer"]
    assert score.explanation == "Graded ANSWER-ONE."
    assert score.answer == "ANSWER-ONE"
    assert score.metadata["judge_model"] == "mockllm/judge"
    assert score.metadata["level"] == 1.0
    assert score.metadata["attempts"] == 1
    assert score.metadata["prompt_version"] == LIVEQA_JUDGE.version
    assert score.metadata["judge_reply"] == verdict("1", "Graded ANSWER-ONE.")


def test_subject_gets_the_instruction_and_helm_settings() -> None:
    subject = scripted_model(subject_script)
    log = run(subject, scripted_model(judge_script, "judge"), limit=1)
    prompt, config = subject.calls[0]
    assert prompt.startswith(INSTRUCTION + "\n\n")
    assert prompt.endswith("between Noonan syndrome and polycystic renal disease?")
    assert config.temperature == 0 and config.max_tokens == 512
    assert log.eval.config is not None


def test_judge_sees_every_reference_with_helm_judge_settings() -> None:
    judge = scripted_model(judge_script, "judge")
    run(scripted_model(subject_script), judge, limit=1)
    [(prompt, config)] = judge.calls
    for n in (1, 2, 3):
        assert f'<reference n="{n}">' in prompt
    assert '<reference n="4">' not in prompt
    assert config.temperature == 0 and config.max_tokens == 256 and config.seed == 42


def test_unreadable_verdict_is_retried_then_unscored_never_zero() -> None:
    judge = scripted_model(lambda *_: "I think it is quite good.", "judge")
    log = run(scripted_model(subject_script), judge, limit=2)
    assert log.status == "success"
    score = log.samples[0].scores["live_qa_scorer"]
    assert math.isnan(score.value)
    assert score.reason == "grader_failed"
    assert score.metadata["attempts"] == JUDGE_ATTEMPTS
    assert score.metadata["judge_replies"] == ["I think it is quite good."] * JUDGE_ATTEMPTS
    assert "I think it is quite good." in score.explanation
    assert len(judge.calls) == 2 * JUDGE_ATTEMPTS
    assert len({config.seed for _, config in judge.calls}) == JUDGE_ATTEMPTS
    assert log.results.scores[0].unscored_samples == 2
    assert log.results.scores[0].scored_samples == 0


def test_a_retry_with_a_new_seed_can_recover() -> None:
    def flaky(prompt: str, config: GenerateConfig) -> str:
        return "<score>maybe</score>" if config.seed == 42 else judge_script(prompt, config)

    log = run(scripted_model(subject_script), scripted_model(flaky, "judge"), limit=1)
    score = log.samples[0].scores["live_qa_scorer"]
    assert score.value == 1.0
    assert score.metadata["attempts"] == 2
    assert score.metadata["judge_replies"][0] == "<score>maybe</score>"


def test_empty_answer_scores_zero_without_a_judge_call() -> None:
    judge = scripted_model(judge_script, "judge")
    log = run(scripted_model(lambda *_: "   "), judge, limit=2)
    for sample in log.samples:
        score = sample.scores["live_qa_scorer"]
        assert score.value == 0.0
        assert score.reason == "no_response"
    assert judge.calls == []


def test_judge_api_failure_raises_instead_of_scoring() -> None:
    def broken(*_: object) -> str:
        raise RuntimeError("judge service unavailable")

    log = run(scripted_model(subject_script), scripted_model(broken, "judge"), limit=1)
    assert log.status == "error"
    assert "judge service unavailable" in str(log.error)


def test_self_judging_is_warned(caplog: pytest.LogCaptureFixture) -> None:
    def both_roles(prompt: str, config: GenerateConfig) -> str:
        is_judge = "<answer>" in prompt
        return judge_script(prompt, config) if is_judge else subject_script(prompt, config)

    both = scripted_model(both_roles, "same")
    with caplog.at_level(logging.WARNING):
        log = run(both, both, limit=1)
    assert log.samples[0].scores["live_qa_scorer"].value == 1.0
    assert "is the model under test" in caplog.text


def test_reference_metrics_are_reported_beside_the_judge_and_can_be_turned_off() -> None:
    judge = scripted_model(judge_script, "judge")
    log = run(scripted_model(subject_script), judge, limit=2)
    names = [score.name for score in log.results.scores]
    assert names[0] == "live_qa_scorer"
    assert {"exact_match", "rouge_l", "bleu_4", "f1_score"} <= set(names)
    rouge = next(s for s in log.results.scores if s.name == "rouge_l")
    assert 0.0 <= rouge.metrics["mean"].value < 0.1
    off = run(scripted_model(subject_script), judge, limit=2, reference_metrics=False)
    assert [score.name for score in off.results.scores] == ["live_qa_scorer"]

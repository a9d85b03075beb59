"""expert_qa through eval(): the same judge path as live_qa, with an expert rubric and field."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from inspect_ai import eval
from inspect_ai.model import GenerateConfig

from liveqa_inspect import expert_qa, expert_qa_claims
from liveqa_inspect.errors import ArgumentError
from liveqa_inspect.judging.prompts import EXPERT_QA_JUDGE
from tests.helpers import QUIET, scripted_model, verdict


def test_expert_qa_scorer_through_eval() -> None:
    def subject(prompt: str, _: GenerateConfig) -> str:
        return "A long answer."

    def judge(prompt: str, _: GenerateConfig) -> str:
        return verdict("1" if "an expert in Business" in prompt else "0.3")

    grader = scripted_model(judge, "judge")
    model = scripted_model(subject)
    [log] = eval(expert_qa(), model=model, model_roles={"grader": grader}, limit=3, **QUIET)
    assert log.status == "success", log.error
    prompt, config = model.calls[0]
    assert prompt.startswith("Please answer the following question from an expert in Business.")
    assert config.max_tokens == 2048
    judge_prompt = grader.calls[0][0]
    assert judge_prompt.startswith(EXPERT_QA_JUDGE.template.split("{field}")[0])
    metrics = log.results.scores[0].metrics
    fields = [s.metadata["field"] for s in log.samples]
    expected = [1.0 if f == "Business" else 0.3 for f in fields]
    assert metrics["mean"].value == pytest.approx(sum(expected) / 3)
    assert not any("/" in name for name in metrics)  # per-field rows are the report's
    score = log.samples[0].scores["expert_qa_scorer"]
    assert score.metadata["prompt"]["name"] == "expert_qa"
    assert log.eval.metadata["data_license"] == "MIT"


@pytest.mark.parametrize("task", [expert_qa, expert_qa_claims])
@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ({"split": "bogus"}, "split must be 'domain' or 'random', got 'bogus'."),
        ({"subset": "val"}, "subset must be 'test' or 'validation', got 'val'."),
    ],
)
def test_a_bad_split_or_subset_is_refused_in_words(
    task: Callable[..., object], argument: dict[str, str], message: str
) -> None:
    """Not as the KeyError of the data file looked up for the log's provenance."""
    with pytest.raises(ArgumentError) as refused:
        task(**argument)
    assert str(refused.value) == message

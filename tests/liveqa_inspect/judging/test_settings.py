"""The judge's generation defaults starve no judge, whatever its provider."""

from __future__ import annotations

from inspect_ai import eval
from inspect_ai.model import GenerateConfig

from liveqa_inspect import live_qa_judge
from tests.helpers import QUIET, scripted_model, verdict

THOUGHTS = 600
"""Words a judge that thinks by default writes before its verdict: more than HELM's 256 tokens."""


def thinking_judge(_: str, config: GenerateConfig) -> str:
    """A judge (no OpenAI provider, no reasoning option set) that thinks at length first, and whose
    reply is cut at `max_tokens` words as a real provider cuts it."""
    words = ["thinking"] * THOUGHTS + verdict("1").split(" ")
    return " ".join(words[: config.max_tokens] if config.max_tokens else words)


def test_a_judge_that_thinks_by_default_is_not_starved() -> None:
    judge = scripted_model(thinking_judge, "thinker")
    [log] = eval(live_qa_judge(), model=judge, limit=2, **QUIET)
    assert log.status == "success", log.error
    scores = [sample.scores["judge_agreement_scorer"] for sample in log.samples]
    assert [score.value for score in scores] == [1.0, 1.0]
    assert all(config.max_tokens is None for _, config in judge.calls)


def test_a_cap_the_user_sets_is_kept() -> None:
    judge = scripted_model(thinking_judge, "thinker", max_tokens=2000)
    [log] = eval(live_qa_judge(), model=judge, limit=1, **QUIET)
    assert {config.max_tokens for _, config in judge.calls} == {2000}
    assert log.samples[0].scores["judge_agreement_scorer"].value == 1.0

"""Epochs and the judge cache: each epoch asks anew, a re-score or re-run asks nothing."""

from __future__ import annotations

import pytest
from inspect_ai import score
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Score
from pytest_inspect_evals.metrics import assert_agreeing_epochs_change_nothing, run_metrics

from liveqa_inspect.judging.reducer import judge_epochs
from liveqa_inspect.judging.verdicts import verdict_figures
from liveqa_inspect.tasks.live_qa.task import live_qa_scorer
from tests.helpers import (
    between,
    figures,
    judge_script,
    run_judge,
    run_live_qa,
    scripted_model,
    verdict,
)

pytestmark = pytest.mark.usefixtures("words_as_tokens")  # for pytest_inspect_evals


def test_each_epoch_asks_the_judge_anew_and_keeps_its_level() -> None:
    judge = scripted_model(judge_script, "judge")
    log = run_live_qa(grader=judge, limit=2, epochs=3)
    assert len(judge.calls) == 2 * 3
    # The seed moves with the epoch, so a judge sampled above temperature 0 draws anew.
    assert sorted({config.seed for _, config in judge.calls}) == [42, 45, 48]
    assert log.samples is not None and len(log.samples) == 6
    assert figures(log, "live_qa_scorer")["mean"] == pytest.approx((1.0 + 0.7) / 2)


def test_epoch_agreement_is_one_for_a_deterministic_judge_and_less_for_a_noisy_one() -> None:
    def noisy(prompt: str, config: GenerateConfig) -> str:
        # Seeds 42, 45, 48 in epochs 1-3: answers from TQ1 flip in epoch 2, the rest never.
        flips = config.seed == 45 and between(prompt, "answer").startswith("Noonan")
        return verdict("1" if flips else "0")

    steady = run_judge(lambda *_: verdict("0.3"), "steady", limit=6, epochs=3)
    assert figures(steady, "verdicts")["epoch_agreement"] == 1.0
    log = run_judge(noisy, "noisy", limit=6, epochs=3)
    assert log.samples is not None
    flipping = {s.id for s in log.samples if str(s.metadata["answer"]).startswith("Noonan")}
    assert 0 < len(flipping) < 6
    m = figures(log, "verdicts")
    assert m["epoch_agreement"] == pytest.approx(1 - len(flipping) / 6)


def test_rescoring_with_the_same_judge_makes_no_judge_call() -> None:
    judge = scripted_model(judge_script, "judge")
    log = run_live_qa(grader=judge, limit=3, epochs=2)
    calls = len(judge.calls)
    assert calls == 3 * 2
    again = score(log, live_qa_scorer(), model_roles={"grader": judge}, action="overwrite")
    assert len(judge.calls) == calls
    assert again.samples is not None and log.samples is not None
    assert [s.scores["live_qa_scorer"].value for s in again.samples] == [
        s.scores["live_qa_scorer"].value for s in log.samples
    ]


def test_a_rerun_replays_a_retried_verdict_from_the_cache() -> None:
    """A first reply unreadable and its retry read: the re-run sends nothing, same levels."""

    def flaky(prompt: str, config: GenerateConfig) -> str:
        return "<score>maybe</score>" if config.seed == 42 else judge_script(prompt, config)

    judge = scripted_model(flaky, "judge")

    def run() -> list[float]:
        log = run_live_qa(grader=judge, limit=3)
        assert log.samples is not None
        return [float(s.scores["live_qa_scorer"].value) for s in log.samples]

    first = run()
    assert len(judge.calls) == 3 * 2
    assert run() == first == [1.0, 0.7, 0.3]
    assert len(judge.calls) == 3 * 2


def test_the_cache_key_follows_the_config_sent() -> None:
    """The same judge with the same settings replays; other settings are asked anew."""
    first = scripted_model(judge_script, "judge", max_tokens=400)
    run_live_qa(grader=first, limit=2)
    same = scripted_model(judge_script, "judge", max_tokens=400)
    run_live_qa(grader=same, limit=2)
    other = scripted_model(judge_script, "judge", max_tokens=500, temperature=0.5)
    run_live_qa(grader=other, limit=2)
    assert (len(first.calls), len(same.calls), len(other.calls)) == (2, 0, 2)
    assert {(c.max_tokens, c.temperature) for _, c in other.calls} == {(500, 0.5)}


def epoch_score(level: float | None) -> Score:
    """One epoch's verdicts score: the judge's level, or None where it gave none."""
    return Score(
        value=0.0 if level is None else 1.0,
        metadata={"level": level, "levels": [0.0, 0.3, 0.7, 1.0], "jurors": []},
    )


def test_epoch_figures_through_the_epoch_reducer() -> None:
    """Epoch agreement over the samples read in every epoch; unread epochs of the others."""
    assert_agreeing_epochs_change_nothing(
        [verdict_figures()], [epoch_score(1.0), epoch_score(None)]
    )
    epochs = [[1.0, 1.0], [0.3, 0.7], [0.0, None], [None, None]]
    values = run_metrics(
        [verdict_figures()],
        [[epoch_score(e) for e in sample] for sample in epochs],
        reducer=judge_epochs(),
    )
    assert values["epoch_agreement"] == 0.5  # the unread epoch leaves its sample out
    assert values["unread_epochs"] == 1  # the last sample, unread throughout, is unscored
    assert (values["scored"], values["unscored"]) == (3, 1)
    one = run_metrics([verdict_figures()], [[epoch_score(1.0)], [epoch_score(None)]])
    assert one == {"scored": 1, "unscored": 1, "unscored/no_reason_recorded": 1}


def test_one_epoch_s_score_is_its_own_reduction() -> None:
    """Inspect reduces every score again at each progress refresh: one epoch costs nothing."""
    score = Score(value=0.7, metadata={"jurors": [{"model": "m", "level": 0.7}]})
    assert judge_epochs()([score]) is score

"""The verdicts scorer: what the judge could not grade, and a panel's jurors over every sample.

Scripted jurors disagree on known answers, so every expected figure below is worked out by hand
from the table of verdicts, not computed by the code under test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, Model

from tests.helpers import (
    between,
    figures,
    judgments_file,
    report,
    run_judge,
    scripted_model,
    verdict,
)

# Four judged answers: (answer, NIST-scale grade: 4 is level 1, 1 is level 0).
GRADED = [("Answer one.", 4), ("Answer two.", 1), ("Answer three.", 4), ("Answer four.", 4)]


def graded(folder: Path) -> str:
    """The answers as a user's judgments file, one LiveQA question each."""
    lines = [
        json.dumps({"question_id": f"TQ{n}", "answer": answer, "grade": grade})
        for n, (answer, grade) in enumerate(GRADED, start=1)
    ]
    return str(judgments_file(folder, *lines))


def juror(name: str, *levels: str) -> Model:
    """A juror giving GRADED's answers these levels, in order."""
    said = {answer: level for (answer, _), level in zip(GRADED, levels, strict=True)}
    return scripted_model(lambda prompt, _: verdict(said[between(prompt, "answer")]), name)


def test_a_majority_panel_s_jurors_are_measured_on_every_answer(tmp_path: Path) -> None:
    """Two jurors agree on answers one and two and split on three and four, where the majority
    panel gives no level. Their figures come from all four answers: over the two the panel
    scored they would agree perfectly (alpha 1, kappa 1 each)."""
    jurors = [juror("a", "1", "0", "1", "1"), juror("b", "1", "0", "0", "0")]
    log = run_judge(
        lambda *_: verdict("0.3"),
        limit=4,
        grader=jurors,
        panel="majority",
        judgments=graded(tmp_path),
    )
    panel = figures(log, "judge_agreement_scorer")
    assert (panel["exact_agreement"], panel["kappa_quadratic"]) == (1.0, 1.0)  # over 2 answers
    assert log.results is not None and log.results.scores[0].unscored_samples == 2
    m = figures(log, "verdicts")
    assert (m["scored"], m["unscored"], m["unscored/no_majority"]) == (2, 2, 2)
    # Humans 1, 0, 1, 1 (places 3, 0, 3, 3). Juror a says 1, 0, 1, 1: perfect.
    assert m["juror/mockllm/a/mean"] == 0.75
    assert (m["juror/mockllm/a/exact_agreement"], m["juror/mockllm/a/kappa_quadratic"]) == (1, 1)
    # Juror b says 1, 0, 0, 0: exact on 2 of 4. Quadratic kappa, weights (i - j)^2 / 9:
    # observed disagreement (1 + 1) / 4 = 1/2; chance p_h(0) q_b(3) + p_h(3) q_b(0) =
    # 1/4 * 1/4 + 3/4 * 3/4 = 10/16; kappa = 1 - (1/2) / (10/16) = 0.2.
    assert m["juror/mockllm/b/mean"] == 0.25
    assert m["juror/mockllm/b/exact_agreement"] == 0.5
    assert m["juror/mockllm/b/kappa_quadratic"] == pytest.approx(0.2)
    # Alpha over the 8 verdicts (four 1s, four 0s; binary, so ordinal = nominal): the coincidence
    # matrix has 4 disagreeing ordered pairs, so D_o = 4/8 and D_e = 2 * 4 * 4 / (8 * 7) = 4/7;
    # alpha = 1 - (1/2) / (4/7) = 1/8.
    assert m["krippendorff_alpha"] == pytest.approx(1 / 8)


def epoch_judge(prompt: str, config: GenerateConfig) -> str:
    """Seeds 42-44 are epoch 1's attempts, 45-47 epoch 2's, 48-50 epoch 3's; "?" is unreadable
    and asked again, so an epoch whose every attempt says "?" gives no level."""
    epoch = (config.seed - 42) // 3  # type: ignore[operator]
    level = {
        "Answer one.": ("1", "?", "1"),  # epoch 2 unread: level 1
        "Answer two.": ("0", "0.3", "?"),  # epoch 3 unread: level 0.15, halfway from 0 to 0.3
        "Answer three.": ("?", "?", "?"),  # no epoch read: unscored
        "Answer four.": ("0.7", "0.7", "0.7"),
    }[between(prompt, "answer")][epoch]
    return "?" if level == "?" else verdict(level)


def epoch_log(folder: Path) -> EvalLog:
    return run_judge(epoch_judge, limit=4, epochs=3, judgments=graded(folder))


@pytest.mark.slow  # runs for long: a few evals and many bootstraps
def test_unread_epochs_are_counted_and_left_out_of_their_sample_s_mean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = epoch_log(tmp_path)
    m = figures(log, "verdicts")
    assert (m["scored"], m["unscored"], m["unscored/grader_failed"]) == (3, 1, 1)
    assert m["unread_epochs"] == 2  # answer one's epoch 2 and answer two's epoch 3
    assert m["epoch_agreement"] == 1.0  # only answer four is read in every epoch: 0.7 each time
    assert log.reductions is not None
    [reduced] = [r for r in log.reductions if r.scorer == "judge_agreement_scorer"]
    levels = {s.sample_id: s.value for s in reduced.samples}
    assert levels["TQ1-L1"] == 1.0 and levels["TQ2-L2"] == 0.15 and levels["TQ4-L4"] == 0.7
    # Judge 1, 0.15, 0.7 against humans 1, 0, 1. The 0.15, halfway, counts at 0, the lower level.
    agreement = figures(log, "judge_agreement_scorer")
    assert agreement["exact_agreement"] == pytest.approx((1 + 1 + 0) / 3)
    assert agreement["within_one"] == 1.0
    assert (agreement["human_0/judge_0"], agreement["human_0/judge_0.3"]) == (1, 0)
    assert agreement["human_1/judge_0.7"] == agreement["human_1/judge_1"] == 1
    # Kappa on places (levels 0, 0.3, 0.7, 1 at 0..3): judge 3, 0.5, 2 against human 3, 0, 3.
    # Observed: (0 + 0.25 + 1) / 3 = 5/12; chance: var 19/18 + var 2 + (11/6 - 2)^2 = 111/36.
    assert agreement["kappa_quadratic"] == pytest.approx(1 - 15 / 111)
    assert agreement["mae"] == pytest.approx(0.15) and agreement["bias"] == pytest.approx(-0.05)
    # The report states the counts and the reducer's rule.
    out = report(capsys, log.location, "--out", str(tmp_path))
    assert "answers: 3 scored, 1 unscored (grader_failed 1), 0 errored, 0 missing" in out
    assert (
        "epochs left out of their sample's mean: 2 unreadable (a sample's level is the mean of "
        "its epochs with a readable level; it is unscored when no epoch has one)"
    ) in out

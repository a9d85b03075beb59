"""A level between two levels: one rule, tested at the midpoints of every scale.

A two-juror mean or median, or an epoch mean, can fall between levels. Kappa takes each value's
place on the scale as it is; figures that need a level count a value at its nearest level, and a
value exactly halfway at the lower one. Every expected figure is worked out by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai.model import Model
from pytest_inspect_evals.metrics import run_metrics

from liveqa_inspect.judging.reducer import judge_epochs
from liveqa_inspect.judging.scale import CLAIM_CORRECTNESS_SCALE, CLAIM_SUPPORT_SCALE
from liveqa_inspect.stats.agreement import agreement, confusion
from liveqa_inspect.tasks.expert_qa.claims_metrics import wrong_claim_detection
from tests.helpers import (
    between,
    figures,
    human_metadata,
    judgments_file,
    report,
    run_judge,
    run_live_qa,
    scripted_model,
    section,
    verdict,
)

pytestmark = pytest.mark.usefixtures("words_as_tokens")  # for pytest_inspect_evals

# (answer, NIST grade, juror 1's level, juror 2's level): a two-juror panel halfway between levels.
HALFWAY = [
    ("Answer one.", 1, "0", "0.3"),  # 0.15 against human 0
    ("Answer two.", 4, "0.7", "1"),  # 0.85 against human 1
    ("Answer three.", 2, "0.3", "0.7"),  # 0.5 against human 0.3
    ("Answer four.", 3, "0.3", "0.7"),  # 0.5 against human 0.7
]


def juror(index: int) -> Model:
    said = {row[0]: row[2 + index] for row in HALFWAY}
    return scripted_model(lambda prompt, _: verdict(said[between(prompt, "answer")]), f"j{index}")


@pytest.mark.parametrize("panel", ["mean", "median"])
def test_a_two_juror_panel_halfway_between_levels(
    tmp_path: Path, panel: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        json.dumps({"question_id": f"TQ{n}", "answer": answer, "grade": grade})
        for n, (answer, grade, _, _) in enumerate(HALFWAY, start=1)
    ]
    log = run_judge(
        lambda *_: verdict("0"),
        limit=4,
        grader=[juror(0), juror(1)],
        panel=panel,
        judgments=str(judgments_file(tmp_path, *lines)),
    )
    m = figures(log, "judge_agreement_scorer")
    # Each answer is halfway between the human's level and the next, up or down: it counts at the
    # lower level, so exact where the human's is the lower one (0.15 and the first 0.5).
    assert m["exact_agreement"] == 0.5
    assert m["within_one"] == 1.0
    cells = {"human_0/judge_0", "human_1/judge_0.7", "human_0.3/judge_0.3", "human_0.7/judge_0.3"}
    assert {key for key, value in m.items() if value == 1 and key.startswith("human_")} == cells
    assert sum(value for key, value in m.items() if key.startswith("human_")) == 4
    # Places: judge 0.5, 2.5, 1.5, 1.5 against human 0, 3, 1, 2. Observed 0.25; chance: judge
    # variance 0.5 + human variance 1.25 + (1.5 - 1.5)^2 = 1.75; kappa 1 - 0.25 / 1.75 = 6/7.
    assert m["kappa_quadratic"] == pytest.approx(6 / 7)
    assert m["mae"] == pytest.approx((0.15 + 0.15 + 0.2 + 0.2) / 4)
    # The report prints the log's counts, and says how a level between levels counts.
    out = report(capsys, log.location, "--out", str(tmp_path))
    assert section(out, "Confusion matrix") == [
        ["0", "1", "0", "0", "0", "1"],
        ["0.3", "0", "1", "0", "0", "1"],
        ["0.7", "0", "1", "0", "0", "1"],
        ["1", "0", "0", "1", "0", "1"],
    ]
    assert "counts in the column of its nearest level, the lower one if halfway" in out


@pytest.mark.parametrize("panel", ["mean", "median"])
def test_level_shares_of_a_panel_between_levels_add_up_to_one(panel: str) -> None:
    """live_qa's shares: 0.5 (jurors 0.3 and 0.7) falls in share_0.3, the lower level."""
    said = {"ANSWER-ONE": "1", "ANSWER-SEVEN": "0.3", "ANSWER-THREE": "0", "ANSWER-ZERO": "0.7"}
    other = {"ANSWER-ONE": "1", "ANSWER-SEVEN": "0.7", "ANSWER-THREE": "0.3", "ANSWER-ZERO": "1"}
    jurors = [
        scripted_model(lambda prompt, _, s=levels: verdict(s[between(prompt, "answer")]), name)
        for name, levels in (("one", said), ("other", other))
    ]
    m = figures(run_live_qa(grader=jurors, limit=4, panel=panel), "live_qa_scorer")
    # Levels 1, 0.5, 0.15, 0.85: at 1, 0.3, 0 and 0.7.
    assert m["share_1"] == m["share_0.7"] == m["share_0.3"] == m["share_0"] == 0.25


def by_epochs(epochs: list[list[float]], human: list[float], levels: list[float]) -> dict:
    """Figures of scores whose epochs average to a half-step, through the real epoch reducer."""
    metrics = [agreement(levels), confusion(levels)]
    if levels == list(CLAIM_CORRECTNESS_SCALE.levels):
        metrics.append(wrong_claim_detection())
    return run_metrics(metrics, epochs, metadata=human_metadata(human), reducer=judge_epochs())


def test_half_steps_on_the_five_level_claims_scale() -> None:
    levels = list(CLAIM_CORRECTNESS_SCALE.levels)
    m = by_epochs([[1, 2], [2, 3], [3, 4], [4, 5]], [1, 2, 4, 5], levels)  # 1.5, 2.5, 3.5, 4.5
    assert m["exact_agreement"] == 0.5  # at 1, 2, 3 and 4
    assert {key for key, value in m.items() if value == 1 and key.startswith("human_")} == {
        "human_1/judge_1",
        "human_2/judge_2",
        "human_4/judge_3",
        "human_5/judge_4",
    }
    # Places: judge 0.5, 1.5, 2.5, 3.5 against human 0, 1, 3, 4: observed 0.25, chance
    # 1.25 + 2.5 + 0 = 3.75, kappa 1 - 1/15.
    assert m["kappa_quadratic"] == pytest.approx(14 / 15)
    # Wrong claims (expert 1 or 2) are the first two; 1.5 and 2.5 (at 1 and 2) are flagged:
    # 2 hits of 2 flags and 2 wrong claims.
    assert m["incorrect_precision"] == 1.0
    assert m["incorrect_recall"] == 1.0
    assert m["incorrect_f1"] == 1.0


def test_half_steps_on_the_three_level_support_scale() -> None:
    levels = list(CLAIM_SUPPORT_SCALE.levels)
    m = by_epochs([[1, 2], [2, 3]], [1, 3], levels)  # 1.5 against 1, 2.5 against 3
    assert m["exact_agreement"] == 0.5  # at 1 and 2
    assert m["human_1/judge_1"] == m["human_3/judge_2"] == 1
    assert m["human_1/judge_2"] == m["human_3/judge_3"] == 0
    # Places: judge 0.5, 1.5 against human 0, 2: observed 0.25, chance 0.25 + 1 + 0 = 1.25.
    assert m["kappa_quadratic"] == pytest.approx(0.8)

"""Claims metrics on hand-checked cases, run through Inspect's real epoch reducer."""

from __future__ import annotations

import math
from pathlib import Path
from string import Formatter

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from pytest_inspect_evals.metrics import run_metrics

from liveqa_inspect.judging.prompts import CLAIM_CORRECTNESS_JUDGE, CLAIM_SUPPORT_JUDGE, JudgePrompt
from liveqa_inspect.stats.agreement import reference_spearman
from liveqa_inspect.stats.names import (
    INCORRECT_AUROC,
    INCORRECT_F1,
    INCORRECT_PRECISION,
    INCORRECT_RECALL,
)
from liveqa_inspect.tasks.expert_qa.claims_metrics import majority_share, wrong_claim_detection
from liveqa_inspect.tasks.expert_qa.claims_task import claim_passage_overlap, passage_overlap
from tests.helpers import QUIET, human_metadata

pytestmark = pytest.mark.usefixtures("words_as_tokens")  # for pytest_inspect_evals

HUMAN = [5.0, 4.0, 3.0, 2.0, 1.0, 5.0, 2.0, 4.0, 1.0, 3.0]


def detect(judge: list[list[float]], human: list[float]) -> dict[str, float]:
    values = run_metrics([wrong_claim_detection()], judge, metadata=human_metadata(human))
    return {key: float(value) for key, value in values.items()}  # type: ignore[arg-type]


def test_oracle_judge_finds_every_wrong_claim() -> None:
    values = detect([[h] for h in HUMAN], HUMAN)
    assert values == {
        INCORRECT_PRECISION: 1.0,
        INCORRECT_RECALL: 1.0,
        INCORRECT_F1: 1.0,
        INCORRECT_AUROC: 1.0,
    }


def test_constant_judges_rank_at_chance() -> None:
    lenient = detect([[5.0] for _ in HUMAN], HUMAN)
    assert lenient[INCORRECT_AUROC] == 0.5
    assert math.isnan(lenient[INCORRECT_PRECISION])  # nothing flagged
    assert lenient[INCORRECT_RECALL] == 0.0 and lenient[INCORRECT_F1] == 0.0
    strict = detect([[1.0] for _ in HUMAN], HUMAN)
    assert strict[INCORRECT_AUROC] == 0.5
    # Everything flagged: 4 of the 10 claims are wrong.
    assert strict[INCORRECT_PRECISION] == pytest.approx(0.4)
    assert strict[INCORRECT_RECALL] == 1.0
    assert strict[INCORRECT_F1] == pytest.approx(2 * 4 / (10 + 4))


def test_hand_checked_judge() -> None:
    human = [5.0, 5.0, 4.0, 2.0, 1.0, 3.0]
    judge = [5.0, 2.0, 4.0, 3.0, 1.0, 2.0]
    # Wrong: claims 3 and 4. Flagged (<= 2): claims 1, 4 and 5. One hit (claim 4).
    # AUROC: the wrong claims' ratings (3, 1) against the others' (5, 2, 4, 2): a wrong claim
    # rated lower counts 1, a tie 0.5: 3 beats 5 and 4 (2 of 4), 1 beats all 4: 6 / 8.
    assert detect([[j] for j in judge], human) == {
        INCORRECT_PRECISION: pytest.approx(1 / 3),
        INCORRECT_RECALL: 0.5,
        INCORRECT_F1: pytest.approx(2 * 1 / (3 + 2)),
        INCORRECT_AUROC: 0.75,
    }


def test_epoch_means_are_flagged_at_their_nearest_level_and_halfway_at_the_lower() -> None:
    # Means 2.5 (halfway between 2 and 3: at 2, flagged), 2.75 (nearer 3: not), 3 and 5.
    values = detect([[2, 3], [3, 2.5], [3, 3], [5, 5]], [2.0, 1.0, 5.0, 4.0])
    assert values[INCORRECT_PRECISION] == 1.0  # the one flag is on a wrong claim
    assert values[INCORRECT_RECALL] == 0.5  # 1 of 2 wrong claims
    assert values[INCORRECT_AUROC] == 1.0  # the wrong claims' means 2.5, 2.75 rank lowest


def test_without_wrong_claims_detection_is_undefined() -> None:
    values = detect([[2.0], [5.0], [4.0]], [5.0, 4.0, 3.0])
    assert values[INCORRECT_PRECISION] == 0.0
    assert all(math.isnan(values[k]) for k in (INCORRECT_RECALL, INCORRECT_F1, INCORRECT_AUROC))


def test_every_claim_wrong_leaves_auroc_undefined() -> None:
    values = detect([[1.0], [4.0]], [1.0, 2.0])
    assert values[INCORRECT_RECALL] == 0.5
    assert math.isnan(values[INCORRECT_AUROC])


def test_majority_share_is_the_commonest_expert_level() -> None:
    human = [5.0, 5.0, 5.0, 4.0, 1.0]
    values = run_metrics([majority_share()], [[3.0] for _ in human], metadata=human_metadata(human))
    assert values["majority_share"] == pytest.approx(0.6)


def test_rouge_l_spearman_hand_checked() -> None:
    # Ranks of the overlaps 1, 3, 2, 4; of the levels 1.5, 3.5, 1.5, 3.5. Centred: (-1.5, .5,
    # -.5, 1.5) and (-1, 1, -1, 1): rho = 4 / sqrt(5 * 4) = 2 / sqrt(5).
    values = run_metrics(
        [reference_spearman()],
        [[{"rouge_l": v}] for v in (0.1, 0.5, 0.3, 0.9)],
        metadata=human_metadata([2.0, 3.0, 2.0, 3.0]),
    )
    assert values["rouge_l_spearman_rho"] == pytest.approx(2 / math.sqrt(5))
    flat = run_metrics(
        [reference_spearman()], [[{"rouge_l": 0.2}]] * 2, metadata=human_metadata([2.0, 3.0])
    )
    assert math.isnan(float(flat["rouge_l_spearman_rho"]))  # type: ignore[arg-type]


def test_passage_overlap_is_the_best_passage() -> None:
    claim = "the cat on the mat"
    # Against "the cat sat on the mat": LCS 5 of 5 and 6 tokens, F = 10/11; the other shares none.
    assert passage_overlap(claim, ["dogs bark loudly", "the cat sat on the mat"]) == pytest.approx(
        10 / 11
    )
    assert passage_overlap(claim, ["dogs bark loudly"]) == 0.0


def test_claim_passage_overlap_scorer_through_eval(tmp_path: Path) -> None:
    cases = [
        ("the cat on the mat", ["the cat sat on the mat", "dogs"], 3.0),
        ("dogs bark", ["cats purr quietly"], 2.0),
        ("rain falls in spring", ["rain falls in spring and autumn"], 3.0),
    ]
    dataset = MemoryDataset(
        [
            Sample(id=k, input=claim, metadata={"claim": claim, "passages": p, "human_level": h})
            for k, (claim, p, h) in enumerate(cases)
        ]
    )
    task = Task(dataset=dataset, solver=[], scorer=claim_passage_overlap())
    [log] = eval(task, model="mockllm/model", log_dir=str(tmp_path), **QUIET)
    assert log.status == "success", log.error
    assert log.samples is not None and log.results is not None
    values = [s.scores["claim_passage_overlap"].value["rouge_l"] for s in log.samples]  # type: ignore[index]
    # The third claim is 4 of the passage's 6 tokens, all in order: F = 2 * (2/3) / (1 + 2/3).
    assert values == pytest.approx([10 / 11, 0.0, 0.8])
    # Overlaps rank 3, 1, 2; levels 2.5, 1, 2.5. Centred (1, -1, 0) and (0.5, -1, 0.5):
    # rho = 1.5 / sqrt(2 * 1.5) = sqrt(3) / 2.
    metric = log.results.scores[0].metrics["rouge_l_spearman_rho"]
    assert metric.value == pytest.approx(math.sqrt(3) / 2)


@pytest.mark.parametrize(
    ("prompt", "fields", "levels"),
    [
        (CLAIM_CORRECTNESS_JUDGE, {"field", "question", "answer", "claim"}, (1, 2, 3, 4, 5)),
        (CLAIM_SUPPORT_JUDGE, {"claim", "passages"}, (1, 2, 3)),
    ],
)
def test_claim_prompts_name_the_fields_their_scorer_fills(
    prompt: JudgePrompt, fields: set[str], levels: tuple[int, ...]
) -> None:
    """The judge prompts these metrics read: their placeholders and scale (prompts.py)."""
    names = {name for _, name, _, _ in Formatter().parse(prompt.template) if name is not None}
    assert names == fields
    assert prompt.scale.levels == tuple(float(level) for level in levels)
    assert prompt.scale.read("2") == 2.0 and prompt.scale.read("0") is None
    assert prompt.template.rstrip().endswith("</score>")
    assert prompt.name.startswith("expert_qa_claims_") and prompt.version == "1"

"""expert_qa_claims' metrics beyond agreement: how well a correctness judge finds the claims experts
found wrong, and `majority_share`, the exact agreement of the best constant judge (most claims are
Definitely correct), the floor a judge's exact agreement must beat."""

import math

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from liveqa_inspect.judging.scale import CLAIM_CORRECTNESS_SCALE
from liveqa_inspect.stats.levels import level_index
from liveqa_inspect.stats.names import DETECTION_FIGURES
from liveqa_inspect.stats.values import human_levels, score_values

WRONG_AT_MOST = 2.0
"""Expert levels of a wrong claim: Likely incorrect (2) and Definitely incorrect (1); a judge
level that counts at one of them flags the claim."""

_CORRECTNESS = np.asarray(CLAIM_CORRECTNESS_SCALE.levels)


def detection(judge: np.ndarray, human: np.ndarray) -> dict[str, float]:
    """Recall, F1 and AUROC are NaN without a wrong claim, precision when nothing is flagged, AUROC
    also when every claim is wrong. F1 is 2TP / (2TP + FP + FN), so 0 when nothing is flagged."""
    wrong = human <= WRONG_AT_MOST
    flagged = _CORRECTNESS[level_index(judge, _CORRECTNESS)] <= WRONG_AT_MOST
    hits = float((wrong & flagged).sum())
    precision = hits / flagged.sum() if flagged.any() else math.nan
    recall = f1 = auroc = math.nan
    if wrong.any():
        recall, f1 = hits / wrong.sum(), 2 * hits / (flagged.sum() + wrong.sum())
    if wrong.any() and not wrong.all():
        from sklearn.metrics import roc_auc_score

        # A low rating says "wrong": rank by the negated rating.
        auroc = roc_auc_score(wrong, -judge)
    return dict(zip(DETECTION_FIGURES, map(float, (precision, recall, f1, auroc)), strict=True))


@metric
def wrong_claim_detection() -> Metric:
    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return detection(score_values(scores), human_levels(scores))

    return compute


def majority(human: np.ndarray) -> float:
    if not len(human):
        return math.nan
    return float(np.unique(human, return_counts=True)[1].max() / len(human))


@metric
def majority_share() -> Metric:
    def compute(scores: list[SampleScore]) -> float:
        return majority(human_levels(scores))

    return compute

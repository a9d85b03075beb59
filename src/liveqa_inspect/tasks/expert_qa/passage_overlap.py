"""A judge-free score of a claim, its best ROUGE-L against its own evidence passages: its rank
correlation with the experts' support label (`rouge_l_spearman_rho`) is a support judge's floor."""

from __future__ import annotations

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from liveqa_inspect.overlap import worker
from liveqa_inspect.stats.agreement import reference_spearman


def passage_overlap(claim: str, passages: list[str]) -> float:
    if not passages:
        raise ValueError("claim_passage_overlap needs a sample with at least one passage")
    from liveqa_inspect.overlap.text_overlap import rouge_l  # loaded when the worker starts

    return max(rouge_l(passage, claim) for passage in passages)


@scorer(metrics=[reference_spearman()])
def claim_passage_overlap() -> Scorer:
    """Score a support sample by its claim's best ROUGE-L against its passages; no model asked."""
    worker.started()

    async def score(state: TaskState, target: Target) -> Score:
        claim = state.metadata["claim"]
        overlap = await worker.run(passage_overlap, claim, state.metadata["passages"])
        return Score(value={"rouge_l": overlap}, answer=claim)

    return score

"""expert_qa_claims: a judge's claim-level verdicts against ExpertQA's experts."""

from inspect_ai import Task
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from liveqa_inspect.arguments import Aspect, Split, Subset, true_or_false
from liveqa_inspect.data.sources import EXPERT_QA_FILES
from liveqa_inspect.judging.errored import unless_errored
from liveqa_inspect.judging.panel import PanelRule
from liveqa_inspect.judging.prompts import CLAIM_CORRECTNESS_JUDGE, CLAIM_SUPPORT_JUDGE
from liveqa_inspect.judging.scorer import agreement_metrics, grading_scorer
from liveqa_inspect.judging.solvers import given_answer
from liveqa_inspect.judging.task import judged_task
from liveqa_inspect.overlap import worker
from liveqa_inspect.stats.agreement import reference_spearman
from liveqa_inspect.tasks.expert_qa.claims_metrics import majority_share, wrong_claim_detection
from liveqa_inspect.tasks.expert_qa.dataset import expert_qa_claims_dataset

CORRECTNESS = list(CLAIM_CORRECTNESS_JUDGE.scale.levels)


def correctness_fields(state: TaskState, _: Target) -> dict[str, str | list[str]]:
    return {key: str(state.metadata[key]) for key in ("field", "question", "answer", "claim")}


def support_fields(state: TaskState, _: Target) -> dict[str, str | list[str]]:
    return {"claim": str(state.metadata["claim"]), "passages": list(state.metadata["passages"])}


@scorer(metrics=[*agreement_metrics(CORRECTNESS), wrong_claim_detection(), majority_share()])
def claim_correctness_scorer(cache: bool = True, panel: PanelRule = "mean") -> Scorer:
    """The judge's 1-5 correctness rating of an expert-labelled ExpertQA claim."""
    return grading_scorer(CLAIM_CORRECTNESS_JUDGE, correctness_fields, None, cache, panel)


@scorer(metrics=agreement_metrics(list(CLAIM_SUPPORT_JUDGE.scale.levels)))
def claim_support_scorer(cache: bool = True, panel: PanelRule = "mean") -> Scorer:
    """The judge's 1-3 rating of how far a claim's passages support it."""
    return grading_scorer(CLAIM_SUPPORT_JUDGE, support_fields, None, cache, panel)


def passage_overlap(claim: str, passages: list[str]) -> float:
    from liveqa_inspect.overlap.text_overlap import rouge_l  # loaded when the worker starts

    return max(rouge_l(passage, claim) for passage in passages)


@scorer(metrics=[reference_spearman()])
def claim_passage_overlap() -> Scorer:
    """A judge-free score of a claim, its best ROUGE-L against its own evidence passages: its rank
    correlation with the experts' support label (`rouge_l_spearman_rho`) is a support judge's
    floor. No model is asked."""
    worker.started()

    @unless_errored
    async def score(state: TaskState, target: Target) -> Score:
        claim = state.metadata["claim"]
        overlap = await worker.run(passage_overlap, claim, state.metadata["passages"])
        return Score(value={"rouge_l": overlap}, answer=claim)

    return score


def build(
    aspect: Aspect,
    split: Split,
    subset: Subset,
    field: str | list[str] | None,
    data: str | None,
    judge_cache: bool,
    panel: PanelRule,
) -> Task:
    """The task `liveqa_inspect.expert_qa_claims` builds (its arguments: liveqa_inspect.py)."""
    correctness = aspect == "correctness"
    grader = claim_correctness_scorer if correctness else claim_support_scorer
    judge = grader(cache=judge_cache, panel=panel)  # refuses a bad panel first
    true_or_false(judge_cache=judge_cache)
    # The data first: its loader refuses a bad split or subset in words, not as a missing key,
    # and a bad argument stops the run before the passage overlap starts its worker process.
    dataset = expert_qa_claims_dataset(aspect, split, subset, field, data)
    return judged_task(
        judge,
        CLAIM_CORRECTNESS_JUDGE if correctness else CLAIM_SUPPORT_JUDGE,
        [EXPERT_QA_FILES[(split, subset)]],
        measures_judge=True,
        dataset=dataset,
        other_scorers=[] if correctness else [claim_passage_overlap()],
        solver=given_answer("claim"),
    )

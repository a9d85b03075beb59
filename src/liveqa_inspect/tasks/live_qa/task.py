"""live_qa: the model under test answers the 104 questions; the pinned judge grades them."""

from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Scorer, scorer
from inspect_ai.solver import generate, prompt_template

from liveqa_inspect.arguments import true_or_false
from liveqa_inspect.data.own_set_retry import data_tags
from liveqa_inspect.default_judge import DEFAULT_JUDGE
from liveqa_inspect.judging.panel import PanelRule
from liveqa_inspect.judging.prompts import LIVEQA_JUDGE
from liveqa_inspect.judging.scorer import answer_fields, grading_scorer
from liveqa_inspect.judging.task import judged_task
from liveqa_inspect.overlap.reference import reference_overlap
from liveqa_inspect.tasks.live_qa.dataset import QuestionField, question_set
from liveqa_inspect.tasks.live_qa.metrics import judge_metrics

INSTRUCTION = "Please answer the following consumer health question."
"""The fixed zero-shot instruction of the LiveQA Medical task (as in HELM's live_qa)."""

SOLVER_TEMPLATE = INSTRUCTION + "\n\n{prompt}"
SUBJECT_CONFIG = GenerateConfig(temperature=0.0, max_tokens=512)
"""HELM's settings for the model under test; Inspect's --temperature and --max-tokens override."""


@scorer(metrics=judge_metrics(list(LIVEQA_JUDGE.scale.levels)))
def live_qa_scorer(cache: bool = True, panel: PanelRule = "mean") -> Scorer:
    """The pinned judge's level on the four LiveQA levels (0, 0.3, 0.7, 1)."""
    return grading_scorer(LIVEQA_JUDGE, answer_fields, DEFAULT_JUDGE, cache, panel)


@task
def live_qa(
    question: QuestionField = "summary",
    data: str | None = None,
    judge_cache: bool = True,
    reference_metrics: bool = True,
    panel: PanelRule = "mean",
) -> Task:
    """TREC-2017 LiveQA Medical: 104 consumer health questions, graded by a pinned judge.

    Args:
        question: Which wording to ask: "summary" (NLM summary, as HELM), "paraphrase"
            (NIST paraphrase) or "original" (the consumer's own subject and message).
        data: A folder holding the upstream XML, or the file itself, instead of the download;
            or a .jsonl or .csv file of your own questions (docs/own-questions.md).
        judge_cache: Cache judge replies, so re-scoring with the same judge costs nothing.
        reference_metrics: Also report HELM's reference-overlap metrics (ROUGE-L, BLEU, F1,
            exact match) next to the judge score.
        panel: How the levels of a judge panel (the grader role bound to several models)
            combine: "mean", "median" or "majority".
    """
    judge = live_qa_scorer(cache=judge_cache, panel=panel)  # refuses a bad panel first
    true_or_false(judge_cache=judge_cache, reference_metrics=reference_metrics)
    # The data first: a bad argument then stops the run before the reference scorer starts its
    # worker process.
    dataset, source = question_set(question, Path(data) if data else None)
    return judged_task(
        judge,
        LIVEQA_JUDGE,
        [source],
        measures_judge=False,
        dataset=dataset,
        other_scorers=[reference_overlap()] if reference_metrics else [],
        solver=[prompt_template(SOLVER_TEMPLATE), generate()],
        config=SUBJECT_CONFIG,
        tags=data_tags(source),
    )

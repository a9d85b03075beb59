"""live_qa: the model under test answers the 104 questions; the pinned judge grades them."""

from pathlib import Path

from inspect_ai import Task
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Scorer, scorer
from inspect_ai.solver import generate, prompt_template

from liveqa_inspect.arguments import QuestionField, true_or_false
from liveqa_inspect.data.own_set_retry import data_tags
from liveqa_inspect.default_judge import DEFAULT_JUDGE
from liveqa_inspect.judging.panel import PanelRule
from liveqa_inspect.judging.prompts import LIVEQA_JUDGE
from liveqa_inspect.judging.scorer import answer_fields, grading_scorer
from liveqa_inspect.judging.task import judged_task
from liveqa_inspect.overlap.reference import reference_overlap
from liveqa_inspect.tasks.live_qa.dataset import question_set
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


def build(
    question: QuestionField,
    data: str | None,
    judge_cache: bool,
    reference_metrics: bool,
    panel: PanelRule,
) -> Task:
    """The task `liveqa_inspect.live_qa` builds (its arguments: liveqa_inspect.py)."""
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

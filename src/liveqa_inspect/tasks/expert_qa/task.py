"""expert_qa: ExpertQA's long-form questions, graded by the same pinned judge as live_qa with a
rubric worded for experts of the question's field."""

from inspect_ai import Task
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Scorer, Target, scorer
from inspect_ai.solver import TaskState, generate, prompt_template

from liveqa_inspect.arguments import Split, Subset, true_or_false
from liveqa_inspect.data.sources import EXPERT_QA_FILES
from liveqa_inspect.default_judge import DEFAULT_JUDGE
from liveqa_inspect.judging.panel import PanelRule
from liveqa_inspect.judging.prompts import EXPERT_QA_JUDGE
from liveqa_inspect.judging.scorer import answer_fields, grading_scorer
from liveqa_inspect.judging.task import judged_task
from liveqa_inspect.tasks.expert_qa.dataset import expert_qa_dataset
from liveqa_inspect.tasks.live_qa.metrics import judge_metrics

EXPERT_CONFIG = GenerateConfig(temperature=0.0, max_tokens=2048)
"""Room for long-form answers: the expert references run to 433 words, and models write more."""

EXPERT_TEMPLATE = (
    "Please answer the following question from an expert in {field}. Give a complete, precise, "
    "long-form answer.\n\n{prompt}"
)
"""ExpertQA's authors also told their systems the question's field; `field` is sample metadata."""


def expert_fields(state: TaskState, target: Target) -> dict[str, str | list[str]]:
    return {**answer_fields(state, target), "field": str(state.metadata["field"])}


@scorer(metrics=judge_metrics(list(EXPERT_QA_JUDGE.scale.levels)))
def expert_qa_scorer(cache: bool = True, panel: PanelRule = "mean") -> Scorer:
    """The pinned judge on ExpertQA, with a rubric worded for experts of the question's field."""
    return grading_scorer(EXPERT_QA_JUDGE, expert_fields, DEFAULT_JUDGE, cache, panel)


def build(
    split: Split,
    subset: Subset,
    field: str | list[str] | None,
    question_type: str | list[str] | None,
    data: str | None,
    judge_cache: bool,
    panel: PanelRule,
) -> Task:
    """The task `liveqa_inspect.expert_qa` builds (its arguments: liveqa_inspect.py)."""
    judge = expert_qa_scorer(cache=judge_cache, panel=panel)  # refuses a bad panel first
    true_or_false(judge_cache=judge_cache)
    # The data first: its loader refuses a bad split or subset in words, not as a missing key.
    dataset = expert_qa_dataset(split, subset, field, question_type, data)
    return judged_task(
        judge,
        EXPERT_QA_JUDGE,
        [EXPERT_QA_FILES[(split, subset)]],
        measures_judge=False,
        dataset=dataset,
        solver=[prompt_template(EXPERT_TEMPLATE), generate()],
        config=EXPERT_CONFIG,
    )

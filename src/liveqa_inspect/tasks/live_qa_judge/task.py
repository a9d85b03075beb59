"""live_qa_judge: a judge graded against the NIST assessors on their judged answers."""

from inspect_ai import Task
from inspect_ai.scorer import Scorer, scorer

from liveqa_inspect.arguments import QuestionField, true_or_false
from liveqa_inspect.data.own_set_retry import data_tags
from liveqa_inspect.data.sources import LIVEQA_QUESTIONS
from liveqa_inspect.judging.panel import PanelRule
from liveqa_inspect.judging.prompts import LIVEQA_JUDGE
from liveqa_inspect.judging.scorer import agreement_metrics, answer_fields, grading_scorer
from liveqa_inspect.judging.solvers import given_answer
from liveqa_inspect.judging.task import judged_task
from liveqa_inspect.overlap.reference import reference_floor
from liveqa_inspect.tasks.live_qa_judge.dataset import judgments_source, live_qa_judge_dataset


@scorer(metrics=agreement_metrics(list(LIVEQA_JUDGE.scale.levels)))
def judge_agreement_scorer(cache: bool = True, panel: PanelRule = "mean") -> Scorer:
    """The judge's level for a human-judged answer, on live_qa's very prompt."""
    return grading_scorer(LIVEQA_JUDGE, answer_fields, None, cache, panel)


def build(
    question: QuestionField,
    data: str | None,
    judgments: str | None,
    include_junk: bool,
    judge_cache: bool,
    panel: PanelRule,
) -> Task:
    """The task `liveqa_inspect.live_qa_judge` builds (its arguments: liveqa_inspect.py)."""
    judge = judge_agreement_scorer(cache=judge_cache, panel=panel)  # refuses a bad panel first
    true_or_false(include_junk=include_junk, judge_cache=judge_cache)
    # The data first: a bad argument then stops the run before the floor starts its worker.
    dataset = live_qa_judge_dataset(question, data, judgments, include_junk)
    source = judgments_source(judgments)
    return judged_task(
        judge,
        LIVEQA_JUDGE,
        [LIVEQA_QUESTIONS, source],
        measures_judge=True,
        dataset=dataset,
        other_scorers=[reference_floor()],
        solver=given_answer(),
        tags=data_tags(source),
        # No task config: it would read as the user's own (--max-tokens, ...) and cap a reasoning
        # judge at 256 tokens; the judge's defaults fill only what the user left unset.
    )

"""live_qa_judge: a judge graded against the NIST assessors on their judged answers."""

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer, scorer

from liveqa_inspect.arguments import true_or_false
from liveqa_inspect.data.sources import LIVEQA_JUDGMENTS, LIVEQA_QUESTIONS
from liveqa_inspect.judging.panel import PanelRule
from liveqa_inspect.judging.prompts import LIVEQA_JUDGE
from liveqa_inspect.judging.scorer import agreement_metrics, answer_fields, grading_scorer
from liveqa_inspect.judging.solvers import given_answer
from liveqa_inspect.judging.task import judged_task
from liveqa_inspect.overlap.reference import reference_floor
from liveqa_inspect.tasks.live_qa.dataset import QuestionField
from liveqa_inspect.tasks.live_qa_judge.dataset import live_qa_judge_dataset


@scorer(metrics=agreement_metrics(list(LIVEQA_JUDGE.scale.levels)))
def judge_agreement_scorer(cache: bool = True, panel: PanelRule = "mean") -> Scorer:
    """The judge's level for a human-judged answer, on live_qa's very prompt."""
    return grading_scorer(LIVEQA_JUDGE, answer_fields, None, cache, panel)


@task
def live_qa_judge(
    question: QuestionField = "summary",
    data: str | None = None,
    judgments: str | None = None,
    include_junk: bool = True,
    judge_cache: bool = True,
    panel: PanelRule = "mean",
) -> Task:
    """A judge against the NIST assessors: the grader role if bound, else the evaluated model.

    Args:
        question: The question wording the judge sees, as in live_qa.
        data: A folder holding the upstream XML and NIST judgments, instead of the downloads.
        judgments: A JSONL file of your own human judgments (question_id, answer, grade 1-4) to
            use instead of NIST's.
        include_junk: Keep the answers NIST marked junk (grade -2), at the lowest level.
        judge_cache: Cache the judge's replies.
        panel: How the levels of a judge panel combine: "mean", "median" or "majority".
    """
    judge = judge_agreement_scorer(cache=judge_cache, panel=panel)  # refuses a bad panel first
    true_or_false(include_junk=include_junk, judge_cache=judge_cache)
    # The data first: a bad argument then stops the run before the floor starts its worker.
    dataset = live_qa_judge_dataset(question, data, judgments, include_junk)
    return judged_task(
        judge,
        LIVEQA_JUDGE,
        [LIVEQA_QUESTIONS, LIVEQA_JUDGMENTS],
        measures_judge=True,
        dataset=dataset,
        other_scorers=[reference_floor()],
        solver=given_answer(),
        # No task config: it would read as the user's own (--max-tokens, ...) and cap a reasoning
        # judge at 256 tokens; the judge's defaults fill only what the user left unset.
    )

"""The tasks as Inspect registers them: their arguments and what each does. Inspect imports this
module (through the entry point) at every start of every command, for every eval installed beside
this one, so it imports nothing else of the package: each task is built, when it is, by its
folder's `task.py` (`TASKS`), as Inspect's own providers import their client when one is made."""

from importlib import import_module
from typing import Any

from inspect_ai import Task, task
from inspect_ai.util import registry_info

from liveqa_inspect import tasks
from liveqa_inspect._inspect_private import say_under_display_none
from liveqa_inspect.arguments import (
    PER_GRADE,
    SEED,
    Aspect,
    Part,
    QuestionField,
    Split,
    Subset,
    only_its_own,
    parameters,
)
from liveqa_inspect.errors import LiveQAError
from liveqa_inspect.judging.panel import PanelRule


def built(task: Any, others: dict[str, Any], **arguments: Any) -> Task:
    """`task` built by its folder, after refusing an argument no task of ours takes (`others`,
    which Inspect would drop with a warning). A run of ours starts here: our errors are set up to
    be said under `--display none` too, and the checks before the run learn the name Inspect
    gave the task (without the package where this file is run as a task file)."""
    from liveqa_inspect.judging.preflight import expect

    say_under_display_none(LiveQAError)
    siblings = {name for sibling in tasks.TASKS for name in parameters(globals()[sibling])}
    only_its_own(task, others, siblings)
    module = import_module(f"{tasks.__name__}.{tasks.TASKS[task.__name__][0]}")
    made: Task = module.build(**arguments)
    expect(registry_info(task).name, made)
    return made


@task
def live_qa(
    question: QuestionField = "summary",
    data: str | None = None,
    judge_cache: bool = True,
    reference_metrics: bool = True,
    panel: PanelRule = "mean",
    **others: Any,
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
        **others: None: a name the task does not take is refused, not dropped.
    """
    return built(
        live_qa,
        others,
        question=question,
        data=data,
        judge_cache=judge_cache,
        reference_metrics=reference_metrics,
        panel=panel,
    )


@task
def live_qa_judge(
    question: QuestionField = "summary",
    data: str | None = None,
    judgments: str | None = None,
    include_junk: bool = True,
    judge_cache: bool = True,
    panel: PanelRule = "mean",
    **others: Any,
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
        **others: None: a name the task does not take is refused, not dropped.
    """
    return built(
        live_qa_judge,
        others,
        question=question,
        data=data,
        judgments=judgments,
        include_junk=include_junk,
        judge_cache=judge_cache,
        panel=panel,
    )


@task
def live_qa_contamination(part: Part = "question", data: str | None = None, **others: Any) -> Task:
    """Whether the model completes LiveQA texts better when told they come from the test set.

    Args:
        part: "question" (each consumer's own words, public mainly through this test set) or
            "reference" (each expert reference answer, copied from public health websites).
        data: A folder holding the upstream XML, or the file itself, instead of the download;
            or a .jsonl or .csv file of your own questions (docs/own-questions.md).
        **others: None: a name the task does not take is refused, not dropped.
    """
    return built(live_qa_contamination, others, part=part, data=data)


@task
def live_qa_judge_robustness(
    perturbations: str | list[str] | None = None,
    per_grade: int = PER_GRADE,
    seed: int = SEED,
    question: QuestionField = "summary",
    data: str | None = None,
    judgments: str | None = None,
    judge_cache: bool = True,
    panel: PanelRule = "mean",
    **others: Any,
) -> Task:
    """A judge's verdicts on human-judged answers as given and perturbed: the grader role if
    bound, else the evaluated model.

    Args:
        perturbations: One or more of padding, authority, formatting, grader_note,
            reference_order (should not move the level), truncation, swap (should lower it);
            all of them by default.
        per_grade: How many answers of each human grade to draw (all of a grade with fewer).
        seed: Draws the answers and every choice the perturbations make.
        question: The question wording the judge sees, as in live_qa.
        data: A folder holding the upstream XML and NIST judgments, instead of the downloads.
        judgments: A JSONL file of your own human judgments (question_id, answer, grade 1-4) to
            use instead of NIST's.
        judge_cache: Cache the judge's replies.
        panel: How the levels of a judge panel combine: "mean", "median" or "majority".
        **others: None: a name the task does not take is refused, not dropped.
    """
    return built(
        live_qa_judge_robustness,
        others,
        perturbations=perturbations,
        per_grade=per_grade,
        seed=seed,
        question=question,
        data=data,
        judgments=judgments,
        judge_cache=judge_cache,
        panel=panel,
    )


@task
def expert_qa(
    split: Split = "domain",
    subset: Subset = "test",
    field: str | list[str] | None = None,
    question_type: str | list[str] | None = None,
    data: str | None = None,
    judge_cache: bool = True,
    panel: PanelRule = "mean",
    **others: Any,
) -> Task:
    """ExpertQA long-form questions from experts of 32 fields, graded by the same pinned judge.

    Args:
        split: "domain" (questions sampled per field) or "random" (sampled at random).
        subset: "test" or "validation".
        field: One or more fields to keep, e.g. "Healthcare / Medicine".
        question_type: One or more ExpertQA question types; a question with several is kept
            if any matches.
        data: A folder holding the upstream JSONL files, instead of the downloads.
        judge_cache: Cache judge replies, so re-scoring with the same judge costs nothing.
        panel: How the levels of a judge panel combine: "mean", "median" or "majority".
        **others: None: a name the task does not take is refused, not dropped.
    """
    return built(
        expert_qa,
        others,
        split=split,
        subset=subset,
        field=field,
        question_type=question_type,
        data=data,
        judge_cache=judge_cache,
        panel=panel,
    )


@task
def expert_qa_claims(
    aspect: Aspect = "correctness",
    split: Split = "domain",
    subset: Subset = "test",
    field: str | list[str] | None = None,
    data: str | None = None,
    judge_cache: bool = True,
    panel: PanelRule = "mean",
    **others: Any,
) -> Task:
    """A judge's claim-level verdicts against ExpertQA's domain experts.

    Args:
        aspect: "correctness" (rate each claim 1-5, ExpertQA's scale) or "support" (rate 1-3
            how far the claim's evidence passages support it).
        split: "domain" or "random", as for expert_qa.
        subset: "test" or "validation".
        field: One or more fields to keep, e.g. "Healthcare / Medicine".
        data: A folder holding the upstream JSONL files, instead of the downloads.
        judge_cache: Cache the judge's replies.
        panel: How the levels of a judge panel combine: "mean", "median" or "majority".
        **others: None: a name the task does not take is refused, not dropped.
    """
    return built(
        expert_qa_claims,
        others,
        aspect=aspect,
        split=split,
        subset=subset,
        field=field,
        data=data,
        judge_cache=judge_cache,
        panel=panel,
    )

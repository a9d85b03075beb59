"""live_qa_judge_robustness: does a judge's verdict move when an answer changes in ways that
should not matter, and when it changes in ways that should? Every version is graded on live_qa's
prompt; a score holds a level per version, so the headline and epoch reducer are its own."""

import math

from inspect_ai import Task
from inspect_ai.scorer import Score, Scorer, ScoreReducer, Target, score_reducer, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import collect

from liveqa_inspect.arguments import QuestionField, one_or_more, true_or_false, whole_number
from liveqa_inspect.data.own_set_retry import data_tags
from liveqa_inspect.data.sources import LIVEQA_QUESTIONS
from liveqa_inspect.judging.panel import PanelRule
from liveqa_inspect.judging.prompts import LIVEQA_JUDGE
from liveqa_inspect.judging.reducer import judge_epochs
from liveqa_inspect.judging.scorer import Ask, answer_fields, grading_scorer
from liveqa_inspect.judging.solvers import given_answer
from liveqa_inspect.judging.task import judged_task
from liveqa_inspect.stats.names import ROBUSTNESS
from liveqa_inspect.stats.values import to_float
from liveqa_inspect.tasks.live_qa_judge.dataset import judgments_source
from liveqa_inspect.tasks.robustness import dataset
from liveqa_inspect.tasks.robustness.metrics import robustness

_SHARED = ("judge", "prompt")  # every version's alike: once, at the metadata's top


@scorer(metrics=[robustness(list(LIVEQA_JUDGE.scale.levels))])
def judge_robustness_scorer(cache: bool = True, panel: PanelRule = "mean") -> Scorer:
    """The judge's level for a human-judged answer and for each of its perturbed versions."""
    return grading_scorer(LIVEQA_JUDGE, answer_fields, None, cache, panel, graded=each_version)


async def each_version(ask: Ask, state: TaskState, target: Target) -> Score:
    """Every version asked at once; the Score holds a level a version and, once at its top, the
    settings every version shares."""
    base = answer_fields(state, target)
    shown = {dataset.ORIGINAL: base}
    for name, version in state.metadata["versions"].items():
        order = version.get("reference_order", range(len(base["references"])))
        references = [base["references"][i] for i in order]
        shown[name] = {**base, "answer": version["answer"], "references": references}
    asks = [ask(fields, str(fields["answer"])) for fields in shown.values()]
    graded = dict(zip(shown, await collect(*asks), strict=True))
    levels = {name: to_float(score.value) for name, score in graded.items()}
    said = {n: "unreadable" if math.isnan(v) else f"{v:g}" for n, v in levels.items()}
    lines = [f"{n} ({said[n]}): {score.explanation}" for n, score in graded.items()]
    lines += [f"{n} not applied: {why}." for n, why in state.metadata["skipped"].items()]
    first = graded[dataset.ORIGINAL].metadata or {}
    return Score(
        value=levels,
        answer=graded[dataset.ORIGINAL].answer,
        reason=graded[dataset.ORIGINAL].reason,
        explanation="\n\n".join(lines),  # after the human's level (grading_scorer)
        metadata={
            **{key: first[key] for key in _SHARED},
            "perturbation_texts": dataset.TEXTS.provenance(),
            "versions": {
                name: {k: v for k, v in (score.metadata or {}).items() if k not in _SHARED}
                for name, score in graded.items()
            },
        },
    )


@score_reducer(name="robustness_epochs")
def robustness_epochs() -> ScoreReducer:
    """`judge_epochs` for each version, so each level is a mean over the epochs that read it."""
    per_version = judge_epochs()

    def version(score: Score, name: str) -> Score:
        assert isinstance(score.value, dict) and isinstance(score.metadata, dict)
        return Score(value=score.value[name], metadata=score.metadata["versions"][name])

    def reduce(scores: list[Score]) -> Score:
        first = scores[0]
        assert isinstance(first.value, dict) and isinstance(first.metadata, dict)
        reduced = {name: per_version([version(s, name) for s in scores]) for name in first.value}
        return Score(
            value={name: to_float(score.value) for name, score in reduced.items()},
            answer=first.answer,
            explanation=first.explanation,
            metadata={**first.metadata, "versions": {n: s.metadata for n, s in reduced.items()}},
        )

    return reduce


def build(
    perturbations: str | list[str] | None,
    per_grade: int,
    seed: int,
    question: QuestionField,
    data: str | None,
    judgments: str | None,
    judge_cache: bool,
    panel: PanelRule,
) -> Task:
    """The task `liveqa_inspect.live_qa_judge_robustness` builds (its arguments:
    liveqa_inspect.py)."""
    judge = judge_robustness_scorer(cache=judge_cache, panel=panel)  # checks the panel first
    true_or_false(judge_cache=judge_cache)
    whole_number("per_grade", per_grade, least=1)
    whole_number("seed", seed, least=0)
    asked = [*dataset.PERTURBATIONS] if perturbations is None else perturbations
    names = one_or_more("perturbations", asked, dataset.PERTURBATIONS)  # in their order
    answers = dataset.robustness_dataset(names, per_grade, seed, question, data, judgments)
    source = judgments_source(judgments)
    return judged_task(
        judge,
        LIVEQA_JUDGE,
        [LIVEQA_QUESTIONS, source],
        measures_judge=True,
        versions=[dataset.ORIGINAL, *names],
        reducer=robustness_epochs(),
        headline=ROBUSTNESS,
        metadata={"perturbation_texts": dataset.TEXTS.provenance()},
        dataset=answers,
        solver=given_answer(),
        tags=data_tags(source),
        # No task config, for live_qa_judge's reason (it would read as the user's own).
    )

"""The scorer of live_qa_judge_robustness. Every version goes through `grade`, the one judging
path, with live_qa's prompt: the judge is measured on exactly the prompt it grades with, and
panels, retries, the cache, the seeds and the reading of verdicts are every other task's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from inspect_ai.scorer import Score, Scorer, ScoreReducer, Target, score_reducer, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import collect

from liveqa_inspect.judging.grade import grade
from liveqa_inspect.judging.panel import Panel, check_panel
from liveqa_inspect.judging.prompts import LIVEQA_JUDGE, LIVEQA_SCALE
from liveqa_inspect.judging.scorer import answer_fields, human_note
from liveqa_inspect.judging.solvers import jurors
from liveqa_inspect.judging.task import judge_epochs
from liveqa_inspect.stats.values import to_float
from liveqa_inspect.tasks.robustness.metrics import robustness
from liveqa_inspect.tasks.robustness.perturbations import ORIGINAL, TEXTS

_SHARED = ("judge_models", "panel", "prompt")
"""What every version's grading records alike: kept once, at the top of the score's metadata."""


def explain(state: TaskState, graded: Mapping[str, Score]) -> str:
    lines = [human_note(state)]
    for name, score in graded.items():
        level = to_float(score.value)
        shown = "unreadable" if math.isnan(level) else f"{level:g}"
        lines.append(f"{name} ({shown}): {score.explanation}")
    skipped = state.metadata.get("skipped") or {}
    lines += [f"{name} not applied: {why}." for name, why in skipped.items()]
    return "\n\n".join(lines)


@scorer(metrics=[robustness(list(LIVEQA_SCALE.levels))])
def judge_robustness_scorer(cache: bool = True, panel: Panel = "mean") -> Scorer:
    """The judge's level for a human-judged answer and for each of its perturbed versions: the
    grader role if bound, else the model under evaluation."""
    check_panel(panel)

    async def score(state: TaskState, target: Target) -> Score:
        judges, base = jurors(None), answer_fields(state, target)
        shown = {ORIGINAL: base}
        for name, version in state.metadata["versions"].items():
            order = version.get("reference_order", range(len(base["references"])))
            references = [base["references"][i] for i in order]
            shown[name] = {**base, "answer": version["answer"], "references": references}
        asks = [grade(judges, LIVEQA_JUDGE, fields, answer=str(fields["answer"]), panel=panel,
                      cache=cache, epoch=state.epoch) for fields in shown.values()]  # fmt: skip
        graded = dict(zip(shown, await collect(*asks), strict=True))
        first = graded[ORIGINAL].metadata or {}
        return Score(
            value={name: to_float(score.value) for name, score in graded.items()},
            answer=graded[ORIGINAL].answer,
            reason=graded[ORIGINAL].reason,
            explanation=explain(state, graded),
            metadata={
                **{key: first[key] for key in _SHARED},
                "perturbation_texts": TEXTS.provenance(),
                "versions": {
                    name: {k: v for k, v in (score.metadata or {}).items() if k not in _SHARED}
                    for name, score in graded.items()
                },
            },
        )

    return score


@score_reducer(name="robustness_epochs")
def robustness_epochs() -> ScoreReducer:
    """`judge_epochs` for each version, so a version's level and each juror's are their means
    over the epochs that read them, as in a judged score."""
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

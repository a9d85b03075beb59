"""The judged tasks' wiring: provenance, View's layout, the setup, scorers and epoch reducer."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from inspect_ai import Epochs, Task
from inspect_ai import viewer as view
from inspect_ai.log import HeadlineMetric
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Score, Scorer, ScoreReducer, mean_score, score_reducer
from inspect_ai.util import registry_info

from liveqa_inspect._version import EVAL_VERSION
from liveqa_inspect.data.sources import Asset
from liveqa_inspect.judging.grade import DEFAULT_JUDGE, JUDGE_DEFAULTS, JUDGE_ROLE
from liveqa_inspect.judging.panel import LEVEL_DIGITS
from liveqa_inspect.judging.prompts import JudgePrompt, Scale
from liveqa_inspect.judging.solvers import check_roles, judges_ready
from liveqa_inspect.judging.verdicts import verdicts
from liveqa_inspect.runtime import settle
from liveqa_inspect.stats.names import KAPPA, MEAN
from liveqa_inspect.stats.values import to_float

SUBJECT_CONFIG = GenerateConfig(temperature=0.0, max_tokens=512)
"""HELM's settings for the model under test; Inspect's --temperature and --max-tokens override."""


@score_reducer(name="judge_epochs")
def judge_epochs() -> ScoreReducer:
    """Inspect's mean over epochs (an unread epoch left out, as Inspect leaves out an unscored
    one), keeping what Inspect's reducers drop: each epoch's level (`epoch_levels`, NaN where
    unread), each juror's mean over the epochs it gave a verdict in, and, for a sample read in no
    epoch, the first epoch's reason (Inspect keeps a reason only where every epoch's agrees).
    One epoch's score is its own reduction: Inspect reduces every scorer's scores again at each
    progress refresh, so it is returned as it is."""
    reduce_mean = mean_score()

    def reduce(scores: list[Score]) -> Score:
        if len(scores) == 1:
            return scores[0]
        reduced = reduce_mean(scores)
        first = scores[0].metadata or {}
        if "jurors" not in first or isinstance(scores[0].value, dict):
            return reduced
        reduced.value = round(to_float(reduced.value), LEVEL_DIGITS)
        rosters = [s.metadata["jurors"] for s in scores if s.metadata and s.metadata["jurors"]]
        jurors = []
        for index, juror in enumerate(first["jurors"]):
            given = [float(r[index]["level"]) for r in rosters if r[index]["level"] is not None]
            level = round(float(np.mean(given)), LEVEL_DIGITS) if given else None
            jurors.append({**juror, "level": level})
        # The judge's score holds its level as its value, the verdicts score in its metadata.
        said = [(s.metadata or {}).get("level", s.value) for s in scores]
        levels = [math.nan if level is None else to_float(level) for level in said]
        if all(math.isnan(level) for level in levels):
            reduced.reason = scores[0].reason
        reduced.metadata = {**first, "jurors": jurors, "epoch_levels": levels}
        return reduced

    return reduce


def data_provenance(*assets: Asset) -> dict[str, Any]:
    """The pinned files a log's items come from: every task records them, and the report knows
    this package's logs by them (report/loading.py)."""
    return {
        "data": {asset.filename: asset.provenance() for asset in assets},
        "data_license": ", ".join(sorted({asset.license for asset in assets})),
    }


def provenance(
    prompt: JudgePrompt, measures_judge: bool, default: str | None, *assets: Asset
) -> dict[str, Any]:
    """What reproducing a log's grading needs beyond each score's judge and settings; the scale and
    whether it measures a judge, which the report reads rather than infers."""
    return {
        "measures_judge": measures_judge,
        "scale": list(prompt.scale.levels),
        "judge_role": JUDGE_ROLE,
        "judge_default": default or "the model under evaluation",
        "judge_defaults": JUDGE_DEFAULTS.model_dump(exclude_none=True),
        "judge_prompt": prompt.provenance(),
        **data_provenance(*assets),
    }


def viewer(
    scorer: str, scale: Scale, grades_a_model: bool, versions: Sequence[str]
) -> view.ViewerConfig:
    """The judge's level first (each version's side by side), coloured over the rubric's whole
    scale so that a level looks the same in every log: neutral for a judge's rating of a
    human-graded item (no better if high)."""
    palette = "good-high" if grades_a_model else "neutral"
    colours = view.ScoreColorScale(palette=palette, min=min(scale.levels), max=max(scale.levels))
    column = view.TaskSamplesColumn
    scores = [column.score(scorer, version) for version in versions] or [column.score(scorer)]
    columns = [column(id="sampleId"), column(id="epoch"), *scores, column(id="input")]
    columns.append(column(id="answer", visible=False) if versions else column(id="answer"))
    samples = view.TaskSamplesView(
        name="versions" if versions else "judged",
        columns=columns if versions else [*columns, column(id="target", visible=False)],
        compact_scores=True if versions else None,
        score_labels=None if versions else {scorer: "judge level"},
        score_color_scales=dict.fromkeys(versions or [scorer], colours),
    )
    grid = view.SampleScoreView(default="grid")
    return view.ViewerConfig(task_samples_view=samples, sample_score_view=grid)


def scorer_name(scorer: Scorer) -> str:
    """Read off the scorer, so renaming it moves the headline and View's column with it."""
    return registry_info(scorer).name.split("/")[-1]


def judged_task(
    judge: Scorer,
    prompt: JudgePrompt,
    assets: Sequence[Asset],
    *,
    measures_judge: bool,
    other_scorers: Sequence[Scorer] = (),
    versions: Sequence[str] = (),
    reducer: ScoreReducer | None = None,
    headline: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    **task: Any,
) -> Task:
    """`measures_judge`: the judge (the grader role if bound, else the evaluated model) is
    measured against humans, with kappa as the headline, rather than grading a model (no model
    is called before the judge then, so nothing waits for `judges_ready`). A role no task reads
    is refused here where Inspect's CLI binds the roles before making the task, else as each
    sample starts (`judges_ready`) or is judged (judging/scorer.py's `judges`). `versions`: a
    score holds a level for each version of the answer (robustness), so no `verdicts` scorer,
    which reads one; `reducer`, `headline` and `metadata` (beside the provenance) are its own."""
    check_roles()
    default = None if measures_judge else DEFAULT_JUDGE
    name = scorer_name(judge)
    one_level = [] if versions else [verdicts(judge=name, levels=list(prompt.scale.levels))]
    headline = headline or (KAPPA if measures_judge else MEAN)
    settle()
    return Task(
        setup=None if default is None else judges_ready(default),
        epochs=Epochs(1, reducer or judge_epochs()),
        version=EVAL_VERSION,
        scorer=[judge, *one_level, *other_scorers],
        headline_metric=HeadlineMetric(scorer=name, metric=headline),
        viewer=viewer(name, prompt.scale, not measures_judge, versions),
        metadata=provenance(prompt, measures_judge, default, *assets) | dict(metadata or {}),
        **task,
    )

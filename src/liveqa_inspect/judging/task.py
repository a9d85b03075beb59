"""What every task shares: argument checks, provenance, View's layout and the judged-task wiring."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspect_ai import Epochs, Task
from inspect_ai.log import HeadlineMetric
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Scorer
from inspect_ai.util import registry_info
from inspect_ai.viewer import (
    SampleScoreView,
    ScoreColorScale,
    TaskSamplesColumn,
    TaskSamplesView,
    ViewerConfig,
)

from liveqa_inspect._version import EVAL_VERSION
from liveqa_inspect.data.sources import Asset
from liveqa_inspect.judging.epochs import judge_epochs
from liveqa_inspect.judging.prompts import JudgePrompt, Scale
from liveqa_inspect.judging.settings import DEFAULT_JUDGE, JUDGE_DEFAULTS, JUDGE_ROLE
from liveqa_inspect.judging.solvers import default_judge_made_early, judges_ready
from liveqa_inspect.judging.verdicts import verdicts
from liveqa_inspect.stats.names import KAPPA, MEAN

SUBJECT_CONFIG = GenerateConfig(temperature=0.0, max_tokens=512)
"""HELM's settings for the model under test; Inspect's --temperature and --max-tokens override."""


def data_provenance(*assets: Asset) -> dict[str, Any]:
    """The pinned files a log's items come from: every task records them, and the report knows
    this package's logs by them (report/refusals.py)."""
    return {
        "data": {asset.filename: asset.provenance() for asset in assets},
        "data_license": ", ".join(sorted({asset.license for asset in assets})),
    }


def provenance(
    prompt: JudgePrompt, measures_judge: bool, default: str | None, *assets: Asset
) -> dict[str, Any]:
    """What a reader needs to reproduce a log's grading besides each score's judge and settings:
    where the judge came from when no grader role was bound, the prompt and the data; and the
    scale and whether the log measures a judge, so that the report reads them, not infers them."""
    return {
        "measures_judge": measures_judge,
        "scale": list(prompt.scale.levels),
        "judge_role": JUDGE_ROLE,
        "judge_default": default or "the model under evaluation",
        "judge_defaults": JUDGE_DEFAULTS.model_dump(exclude_none=True),
        "judge_prompt": prompt.provenance(),
        **data_provenance(*assets),
    }


def viewer(scorer: str, scale: Scale, grades_a_model: bool) -> ViewerConfig:
    """Inspect View leads with the judge's level, coloured over the rubric's whole scale so that a
    level looks the same in every log: red to green for a model's level, neutral for a judge's
    rating of a human-graded item (no better for being high)."""
    palette = "good-high" if grades_a_model else "neutral"
    colours = ScoreColorScale(palette=palette, min=min(scale.levels), max=max(scale.levels))
    columns = [TaskSamplesColumn(id=name) for name in ("sampleId", "epoch")]
    columns += [TaskSamplesColumn.score(scorer), TaskSamplesColumn(id="input")]
    columns += [TaskSamplesColumn(id="answer"), TaskSamplesColumn(id="target", visible=False)]
    samples = TaskSamplesView(
        name="judged", columns=columns, score_labels={scorer: "judge level"},
        score_color_scales={scorer: colours},
    )  # fmt: skip
    grid = SampleScoreView(default="grid")
    return ViewerConfig(task_samples_view=samples, sample_score_view=grid)


def scorer_name(scorer: Scorer) -> str:
    """The name Inspect gives a scorer in the log, read off the scorer itself: renaming a scorer
    moves the headline and View's column with it instead of leaving them pointing at nothing."""
    return registry_info(scorer).name.split("/")[-1]


def judged_task(
    judge: Scorer, prompt: JudgePrompt, assets: Sequence[Asset], *, measures_judge: bool,
    other_scorers: Sequence[Scorer] = (), **task: Any,
) -> Task:  # fmt: skip
    """`measures_judge`: the task measures the judge against humans (the judge is the grader role
    if bound, else the model under evaluation) instead of grading a model with the pinned judge;
    its headline is then kappa, not the mean level."""
    default = None if measures_judge else DEFAULT_JUDGE
    name = scorer_name(judge)
    default_judge_made_early(default)
    return Task(
        setup=judges_ready(default),
        epochs=Epochs(1, judge_epochs()),
        version=EVAL_VERSION,
        scorer=[judge, verdicts(judge=name, levels=list(prompt.scale.levels)), *other_scorers],
        headline_metric=HeadlineMetric(scorer=name, metric=KAPPA if measures_judge else MEAN),
        viewer=viewer(name, prompt.scale, grades_a_model=not measures_judge),
        metadata=provenance(prompt, measures_judge, default, *assets),
        **task,
    )

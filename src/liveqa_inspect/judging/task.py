"""The judged tasks' wiring: the setup, scorers, reducer, headline, viewer and provenance."""

from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai import Epochs, Task
from inspect_ai.log import HeadlineMetric
from inspect_ai.scorer import Scorer, ScoreReducer
from inspect_ai.util import registry_info

from liveqa_inspect._version import EVAL_VERSION
from liveqa_inspect.data.sources import Asset
from liveqa_inspect.default_judge import DEFAULT_JUDGE
from liveqa_inspect.judging.preflight import judged
from liveqa_inspect.judging.prompts import JudgePrompt
from liveqa_inspect.judging.provenance import provenance
from liveqa_inspect.judging.reducer import judge_epochs
from liveqa_inspect.judging.verdicts import verdicts
from liveqa_inspect.judging.viewer import viewer
from liveqa_inspect.runtime import settle
from liveqa_inspect.stats.names import KAPPA, MEAN


def scorer_name(scorer: Scorer) -> str:
    """Read off the scorer, so renaming it moves the headline and View's column with it."""
    return registry_info(scorer).name.split("/")[-1]


def judged_task(
    judge_scorer: Scorer,
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
    """`measures_judge`: the judge (the grader role if bound, else the evaluated model) is measured
    against humans, kappa the headline, rather than grading a model with the pinned default judge
    where no grader is bound; either is checked as the run starts (preflight.py). `versions`: a
    score holds a level for each version of the answer (robustness), so no `verdicts` scorer,
    which reads one; `reducer`, `headline` and `metadata` (beside provenance): its own."""
    default = None if measures_judge else DEFAULT_JUDGE
    name = scorer_name(judge_scorer)
    one_level = [] if versions else [verdicts(judge=name, levels=list(prompt.scale.levels))]
    headline = headline or (KAPPA if measures_judge else MEAN)
    settle()
    made = Task(
        epochs=Epochs(1, reducer or judge_epochs()),
        version=EVAL_VERSION,
        scorer=[judge_scorer, *one_level, *other_scorers],
        headline_metric=HeadlineMetric(scorer=name, metric=headline),
        viewer=viewer(name, prompt.scale, not measures_judge, versions),
        metadata=provenance(prompt, measures_judge, default, *assets) | dict(metadata or {}),
        **task,
    )
    judged(made, default)
    return made

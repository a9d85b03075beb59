"""The scores a log's metrics were computed from, rebuilt from its reductions, and what its
samples say beside them: why some went unscored, who graded, with which prompt."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from inspect_ai.log import EvalLog
from inspect_ai.scorer import SampleScore

from liveqa_inspect.report.loaded import Judge, LoadedLog, SampleId
from liveqa_inspect.report.refusals import ReportError
from liveqa_inspect.stats.values import to_float
from liveqa_inspect.versioned import label

Tally = tuple[Counter[str], Counter[str], tuple[Judge, ...], str]
"""Why ids went unscored, the epochs left out, the judges and the prompts' label."""


def rebuild(path: Path, log: EvalLog, task: str, section: ModuleType) -> LoadedLog:
    """The log as its section reads it: each scorer's reduced scores as Inspect handed them to
    its metrics, and each sample id's headline value."""
    assert log.samples
    metadata = {sample.id: sample.metadata or {} for sample in log.samples}
    reductions = {
        r.scorer: [
            SampleScore(score=s, sample_id=s.sample_id, sample_metadata=metadata.get(s.sample_id))
            for s in r.samples
        ]
        for r in log.reductions or []
    }
    # The scorer whose figures the report is about: the one the task's headline names.
    headline = log.eval.headline_metric
    name = headline.scorer if headline else None
    scorer = next((found for found in reductions if name in (None, found)), None)
    if scorer is None:
        raise ReportError(f"{path} has no results of its headline scorer {name}")
    key = getattr(section, "HEADLINE", None) or (headline.metric if headline else None)

    def value(given: Any) -> float:
        return to_float(given[key] if isinstance(given, dict) else given)

    values = {
        s.sample_id: value(s.score.value) for s in reductions[scorer] if s.sample_id in metadata
    }
    tallied = tally(log, scorer, values, value)
    return LoadedLog(path, log, task, section, scorer, values, metadata, *tallied, reductions)


def tally(
    log: EvalLog, scorer: str, values: dict[SampleId, float], value: Callable[[Any], float]
) -> Tally:
    """Why ids went unscored (each id's first unscored epoch: the reducer keeps no reason), and
    the epochs of scored ids left out of their mean; who graded, with which prompt."""
    reasons: dict[SampleId, str] = {}
    left_out: Counter[str] = Counter()
    judges: dict[Judge, None] = {}
    prompts: dict[str, None] = {}
    for sample in log.samples or []:
        score, mean = (sample.scores or {}).get(scorer), values.get(sample.id)
        if mean is not None and (score is None or math.isnan(value(score.value))):
            if not math.isnan(mean):
                left_out["errored" if score is None else "unreadable"] += 1
            elif score is not None:
                reasons.setdefault(sample.id, score.reason or "no reason recorded")
        meta = (score.metadata if score is not None else None) or {}
        if meta.get("judge_models"):
            judges[meta.get("panel"), tuple(str(model) for model in meta["judge_models"])] = None
        if isinstance(meta.get("prompt"), dict):
            prompts[label(meta["prompt"])] = None
    prompt_label = ", ".join(prompts) or "unrecorded"
    return Counter(reasons.values()), left_out, tuple(judges), prompt_label

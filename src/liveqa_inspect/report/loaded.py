"""A finished log as every report section reads it, and its model calls (report/loading.py reads
it once)."""

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

from inspect_ai.event import ModelEvent, SpanBeginEvent
from inspect_ai.log import EvalLog
from inspect_ai.model import ModelUsage
from inspect_ai.scorer import SampleScore

from liveqa_inspect.providers.gguf import MODEL_FILE
from liveqa_inspect.stats.names import VERDICTS

SampleId = int | str
Judge = tuple[str | None, tuple[str, ...]]
"""A panel's rule (None for one model) and its models."""
SCORER_SPAN = "scorer"
"""The type of the span Inspect opens around each scorer, named after it."""


@dataclass(frozen=True)
class Call:
    """One model event: `usage` is the call's own, also for a reply read from the cache."""

    role: str | None
    model: str
    usage: ModelUsage
    cached: bool
    judging: bool
    """Made while the log's headline scorer ran: the judge's call (a juror's, in a panel)."""
    served: str
    """The model file a local provider answered from (its output's metadata), else empty."""


def read_calls(log: EvalLog, scorer: str) -> list[Call]:
    """Each model event, `judging` where a span of `scorer` holds it (a span begins after its
    parent's, so one pass over the events knows every span inside the scorer's)."""
    found = []
    for sample in log.samples or []:
        in_scorer: set[str] = set()
        for event in sample.events:
            if isinstance(event, SpanBeginEvent):
                scoring = event.type == SCORER_SPAN and event.name == scorer
                if scoring or event.parent_id in in_scorer:
                    in_scorer.add(event.id)
            elif isinstance(event, ModelEvent):
                usage, cached = event.output.usage or ModelUsage(), event.cache == "read"
                judging, output = event.span_id in in_scorer, event.output.metadata or {}
                served = str(output.get(MODEL_FILE, ""))
                found.append(Call(event.role, event.model, usage, cached, judging, served))
    return found


def judge_name(judge: Judge) -> str:
    """A model, or a panel as `mean of a+b`: the rule makes the panel's figures what they are."""
    rule, models = judge
    return "+".join(models) if rule is None or len(models) < 2 else f"{rule} of {'+'.join(models)}"


@dataclass(frozen=True)
class LoadedLog:
    """One finished log as the report reads it; docs/report.md says what each count counts."""

    path: Path
    log: EvalLog
    task: str
    section: ModuleType = field(repr=False)
    """The report section reading the task's logs (report/sections.py)."""
    scorer: str
    values: dict[SampleId, float]
    """Each sample id's reduced headline value, as the metrics saw it; NaN where unscored."""
    metadata: dict[SampleId, dict[str, Any]]
    reasons: Counter[str]
    """Why the unscored sample ids went unscored: one count per id."""
    left_out: Counter[str]
    """Epochs of scored samples left out of their mean: `unreadable` (no verdict) or `errored`."""
    judges: tuple[Judge, ...]
    prompt_label: str
    reductions: dict[str, list[SampleScore]] = field(repr=False)
    """Each scorer's reduced scores (a reduced score is a Score with its sample id)."""

    @property
    def kind(self) -> str:
        return str(self.section.KIND)

    @property
    def scored(self) -> int:
        return sum(not math.isnan(value) for value in self.values.values())

    @property
    def unscored(self) -> int:
        return len(self.values) - self.scored

    @property
    def scale(self) -> list[float]:
        return [float(level) for level in self.log.eval.metadata["scale"]]

    @property
    def between_levels(self) -> bool:
        """Whether a scored value falls between levels: a table counting levels then says how."""
        scored = [value for value in self.values.values() if not math.isnan(value)]
        return any(min(abs(value - level) for level in self.scale) > 1e-9 for value in scored)

    @property
    def model(self) -> str:
        return self.log.eval.model

    @property
    def judge_label(self) -> str:
        return " | ".join(judge_name(judge) for judge in self.judges) or self.model

    @property
    def epochs(self) -> int:
        return max(1, self.log.eval.config.epochs or 1)

    def scores(self, scorer: str | None = None) -> list[SampleScore]:
        """A scorer's reduced scores (the headline's unless named) as Inspect hands them to its
        metrics (without a float NaN), for the metrics' own functions to compute figures from."""
        found = self.reductions[scorer or self.scorer]
        return [s for s in found if not (isinstance(v := s.score.value, float) and math.isnan(v))]

    @property
    def verdicts(self) -> list[SampleScore]:
        return self.scores(VERDICTS) if VERDICTS in self.reductions else []

    @cached_property
    def calls(self) -> list[Call]:
        """Its model calls, read once for all that reads them (report/cost.py, counts.py)."""
        return read_calls(self.log, self.scorer)

    @property
    def errored(self) -> int:
        """Ids without a reduced score: a run with `fail_on_error` off succeeds with them."""
        return len(self.metadata.keys() - self.values.keys())

    @property
    def missing(self) -> int:
        """Planned but not in the log: Inspect plans the dataset's samples times the epochs."""
        planned = (self.log.results.total_samples if self.log.results else 0) // self.epochs
        return max(0, planned - len(self.metadata))

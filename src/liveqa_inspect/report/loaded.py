"""A finished log as every report section reads it: its rows of the table of graded answers
(report/graded.py), who judged (the judge record its scores hold) and what its data were."""

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_ai.log import EvalLog
from inspect_ai.scorer import SampleScore

from liveqa_inspect.data.own_set import OwnSet
from liveqa_inspect.judging.record import JudgeRecord
from liveqa_inspect.report.graded import Call, Grading, Item
from liveqa_inspect.stats.names import VERDICTS

if TYPE_CHECKING:
    from liveqa_inspect.report.sections import Section


@dataclass(frozen=True)
class LoadedLog:
    """One finished log as the report reads it; docs/report.md says what each count counts."""

    path: Path
    log: EvalLog = field(repr=False)
    task: str
    section: "Section" = field(repr=False)
    scorer: str
    question_set: str
    """The sha256 of the file its questions come from (an own set's, or the pinned file's)."""
    judges: tuple[JudgeRecord, ...]
    """Who judged, as its scores record it: one judge, unless re-graded in part by another."""
    prompt_label: str
    items: list[Item] = field(repr=False)
    gradings: list[Grading] = field(repr=False)

    @property
    def kind(self) -> str:
        return self.section.kind

    def count(self, status: str) -> int:
        return sum(item.status == status for item in self.items)

    @property
    def scored(self) -> int:
        return self.count("scored")

    @property
    def unscored(self) -> int:
        return self.count("unscored")

    @property
    def errored(self) -> int:
        """Answers without a reduced score: a run with `fail_on_error` off succeeds with them."""
        return self.count("errored")

    @property
    def missing(self) -> int:
        """Planned but not in the log: Inspect plans the dataset's samples times the epochs."""
        planned = (self.log.results.total_samples if self.log.results else 0) // self.epochs
        return max(0, planned - len(self.items))

    @property
    def reasons(self) -> Counter[str]:
        """Why the unscored answers went unscored: one count an answer."""
        return Counter(item.reason for item in self.items if item.status == "unscored")

    @property
    def left_out(self) -> Counter[str]:
        """Epochs of scored answers left out of their mean: `unreadable` or `errored`."""
        scored = {item.sample for item in self.items if item.status == "scored"}
        return Counter(
            "unreadable" if grading.status == "unscored" else "errored"
            for grading in self.gradings
            if grading.sample in scored and grading.status != "scored"
        )

    @property
    def scale(self) -> list[float]:
        return [float(level) for level in self.log.eval.metadata["scale"]]

    @property
    def between_levels(self) -> bool:
        """Whether a scored value falls between levels: a table counting levels then says how."""
        scored = [item.value for item in self.items if item.status == "scored"]
        return any(min(abs(value - level) for level in self.scale) > 1e-9 for value in scored)

    @property
    def model(self) -> str:
        return self.log.eval.model

    @property
    def judge_label(self) -> str:
        return " | ".join(judge.name for judge in self.judges) or self.model

    @property
    def epochs(self) -> int:
        return max(1, self.log.eval.config.epochs or 1)

    @property
    def own_set(self) -> OwnSet | None:
        return OwnSet.of_log(self.log.eval.metadata)

    @property
    def humans(self) -> str:
        """Whose levels its judge is measured against: the section's (NIST's assessors, ExpertQA's
        experts), or a team's own judgments file (`-T judgments=`)."""
        own = {str(item.metadata.get("judgments_source", "nist")) for item in self.items}
        own.discard("nist")
        if not own:
            return self.section.humans[0] if self.section.humans else ""
        return f"own judgments {Path(min(own)).name}"

    @property
    def data(self) -> dict[str, Any]:
        return dict((self.log.eval.metadata or {}).get("data") or {})

    def scores(self, scorer: str | None = None) -> list[SampleScore]:
        """A scorer's reduced scores (the headline's unless named) as Inspect hands them to its
        metrics (without a float NaN), for the metrics' own functions to compute figures from."""
        name = scorer or self.scorer
        found = [item.scores[name] for item in self.items if name in item.scores]
        return [s for s in found if not (isinstance(v := s.score.value, float) and math.isnan(v))]

    def scored_items(self) -> list[Item]:
        return [item for item in self.items if item.status == "scored"]

    @property
    def verdicts(self) -> list[SampleScore]:
        return self.scores(VERDICTS) if any(VERDICTS in i.scores for i in self.items) else []

    @cached_property
    def calls(self) -> list[Call]:
        return [call for grading in self.gradings for call in grading.calls]

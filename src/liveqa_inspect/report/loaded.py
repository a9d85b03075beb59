"""A finished log as every report section reads it: its rows of the table of graded answers
(report/graded.py), who judged (the judge record its scores hold), what its data were, and what a
report says beside its figures: what they rest on and the caveats its run printed. And the typed
section of its task: the command hands the registry in (report/cli.py), so the frame names no task;
a section is imported when a log of its task is read."""

import importlib
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args

from inspect_ai.log import EvalLog
from inspect_ai.scorer import SampleScore

from liveqa_inspect.caveats import grades_itself, is_smollm2_135m, too_small
from liveqa_inspect.data.own_set import OwnSet
from liveqa_inspect.judging.record import JudgeRecord
from liveqa_inspect.report.graded import Call, Grading, Item, Status
from liveqa_inspect.stats.names import VERDICTS

if TYPE_CHECKING:
    from liveqa_inspect.report.card import Judges, Part
    from liveqa_inspect.report.plots import Chart
    from liveqa_inspect.report.tables import Block

ITEMS = "questions or items (-T question=, aspect=, split=, subset=)"
Logs = Sequence["LoadedLog"]
Report = tuple[list["Block"], list["Chart"]]
Compared = tuple[list[str], list[str]]  # the row labels and notes of a section's own comparison


@dataclass(frozen=True)
class Section:
    """A task's report section: what is particular to its logs."""

    kind: Literal["model", "judge", "robustness", "contamination"]
    """Logs of two kinds share no table; a judge task's (`judge`, `robustness`) measure judges."""
    noun: str  # what its counts count
    setting: Callable[["LoadedLog"], str]  # what its items were (wording, split, aspect, part)
    report: Callable[[Logs], Report]  # of one log, or of several side by side
    humans: tuple[str, str] | None = None  # whom its judge is measured against (noun, title)
    rated: bool = True  # its logs record a rating scale (a probe's figures are overlaps)
    items: str = ITEMS  # the name of its `setting` where a comparison's warning names it
    headline: str | None = None  # the key of a multi-figure value the counts read
    settings: Callable[["LoadedLog"], dict[str, str]] = lambda _: {}  # beyond the frame's
    compared: Callable[[Logs], Compared | None] = lambda _: None  # one model, two wordings
    card: Callable[["Judges", Sequence[str], Logs], list["Part"]] | None = None
    """Its columns of the judge card (report/card.py), over one group of its logs that measures
    judges, by their rows' names, given the rows that are reference judges."""
    groups: Mapping[str, str] = field(default_factory=dict)  # metadata key: its table's title

    @property
    def judged(self) -> bool:
        """Its logs measure judges against humans: the card's rows are their judges."""
        return self.humans is not None


class Sections(dict[str, str]):
    """Each task's section by the module under `tasks/` holding its `SECTION`, in registry order."""

    def of(self, task: str) -> Section:
        return importlib.import_module(f"liveqa_inspect.tasks.{self[task]}").SECTION


@dataclass(frozen=True)
class LoadedLog:
    """One finished log as the report reads it; docs/report.md says what each count counts."""

    path: Path
    log: EvalLog = field(repr=False)
    task: str
    section: Section = field(repr=False)
    scorer: str
    question_set: str  # the sha256 of its questions' file (an own set's, or the pinned file's)
    judges: tuple[JudgeRecord, ...]  # as its scores record them: one, unless re-graded in part
    prompt_label: str
    items: list[Item] = field(repr=False)
    gradings: list[Grading] = field(repr=False)

    @cached_property
    def counts(self) -> dict[str, int]:
        """The answers of each status (errored: without a reduced score, as a run with
        `fail_on_error` off leaves them), then those planned (samples times epochs) but missing."""
        found = Counter(item.status for item in self.items)
        planned = (self.log.results.total_samples if self.log.results else 0) // self.epochs
        missing = max(0, planned - len(self.items))
        return {status: found[status] for status in get_args(Status)} | {"missing": missing}

    @property
    def scored(self) -> int:
        return self.counts["scored"]

    @property
    def left_out(self) -> Counter[str]:
        """Epochs of scored answers left out of their mean: `unreadable` or `errored`."""
        scored = {item.sample for item in self.scored_items()}
        left = [g.status for g in self.gradings if g.sample in scored and g.status != "scored"]
        return Counter("unreadable" if status == "unscored" else "errored" for status in left)

    def count_lines(self) -> list[str]:
        """What its figures rest on (a judge that often fails to answer can look good on the few
        it grades): its answers counted, then the epochs left out of their mean."""
        why = Counter(item.reason for item in self.items if item.status == "unscored")
        reasons = ", ".join(f"{reason} {n}" for reason, n in why.most_common())
        scored, unscored, errored, missing = self.counts.values()
        why = f" ({reasons})" if reasons else ""
        counted = f"{scored} scored, {unscored} unscored{why}, {errored} errored, {missing} missing"
        lines = [f"{self.section.noun}: {counted}"]
        if left_out := self.left_out:
            causes = " and ".join(f"{n} {cause}" for cause, n in sorted(left_out.items()))
            lines.append(
                f"epochs left out of their sample's mean: {causes} (a sample's level is the mean "
                "of its epochs with a readable level; it is unscored when no epoch has one)"
            )
        return lines

    def caveats(self) -> list[str]:
        """The caveats its run printed (caveats.py), without which a pasted figure reads as a
        measurement: a model log graded by its own model, each SmolLM2-135M file served."""
        own = self.section.kind == "model" and any(self.model in j.models for j in self.judges)
        found = [grades_itself(self.model)] if own else []
        served = {call.model: call.served for call in self.calls}
        return found + [too_small(model) for model, file in served.items() if is_smollm2_135m(file)]

    @property
    def scale(self) -> list[float]:
        return [float(level) for level in self.log.eval.metadata["scale"]]

    @property
    def between_levels(self) -> bool:
        """Whether a scored value falls between levels: a table counting levels then says how."""
        scored = [item.value for item in self.scored_items()]
        return any(min(abs(value - level) for level in self.scale) > 1e-9 for value in scored)

    @property
    def model(self) -> str:
        return self.log.eval.model

    @property
    def judge_label(self) -> str:
        return " | ".join(judge.name for judge in self.judges) or self.model

    @cached_property
    def judge_settings(self) -> dict[str, str]:
        """The settings that change its judge's verdicts, as its scores record them."""
        return {k: v for judge in self.judges for k, v in judge.shown_settings().items()}

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
        own = {str(item.metadata.get("judgments_source", "nist")) for item in self.items} - {"nist"}
        if own:
            return f"own judgments {Path(min(own)).name}"
        return self.section.humans[0] if self.section.humans else ""

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
        return self.scores(VERDICTS)

    @cached_property
    def calls(self) -> list[Call]:
        return [call for grading in self.gradings for call in grading.calls]

"""Read a log once into what every report section needs, and refuse the logs it cannot describe."""

from __future__ import annotations

import importlib
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.scorer import SampleScore

from liveqa_inspect import TASKS
from liveqa_inspect.report.refusals import ReportError, refusal, refuse_mixed
from liveqa_inspect.stats.names import VERDICTS
from liveqa_inspect.stats.values import to_float
from liveqa_inspect.tasks.robustness.perturbations import ORIGINAL
from liveqa_inspect.versioned import label

Kind = Literal["model", "judge", "contamination", "robustness"]
SampleId = int | str


def section(task: str) -> ModuleType:
    """The report section that reads a task's logs (the registry, `liveqa_inspect.TASKS`): its
    `KIND` and its `report(logs)`."""
    return importlib.import_module(f"liveqa_inspect.tasks.{TASKS[task][1]}")


@dataclass(frozen=True)
class LoadedLog:
    """One finished log as the report reads it; docs/report.md says what each count counts."""

    path: Path
    log: EvalLog
    task: str
    kind: Kind
    scorer: str
    values: dict[SampleId, float]
    """Each sample id's reduced headline value, as the metrics saw it; NaN where unscored."""
    metadata: dict[SampleId, dict[str, Any]]
    reasons: Counter[str]
    """Why the unscored sample ids went unscored: one count per id."""
    errored: int
    missing: int
    left_out: Counter[str]
    """Epochs of scored samples left out of their mean: `unreadable` (no verdict) or `errored`."""
    judges: tuple[tuple[str, ...], ...]
    """Each distinct set of judge models over the log's scores, in order of first use."""
    prompts: tuple[str, ...]
    """Each distinct judge prompt the scores record, as `versioned.label` names it."""
    _scores: dict[str, list[SampleScore]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def scored(self) -> int:
        return sum(not math.isnan(value) for value in self.values.values())

    @property
    def unscored(self) -> int:
        return len(self.values) - self.scored

    @property
    def scale(self) -> list[float]:
        """The rating scale the task recorded (`load` refuses a log without one)."""
        return [float(level) for level in self.log.eval.metadata["scale"]]

    @property
    def between_levels(self) -> bool:
        """Whether a scored value falls between levels: a table counting levels then says how."""
        return any(
            min(abs(value - level) for level in self.scale) > 1e-9
            for value in self.values.values()
            if not math.isnan(value)
        )

    @property
    def model(self) -> str:
        return self.log.eval.model

    @property
    def judge_label(self) -> str:
        """The judge as a table names it: its model, or a panel's models joined by `+`."""
        return " | ".join("+".join(models) for models in self.judges) or self.model

    @property
    def prompt_label(self) -> str:
        return ", ".join(self.prompts) or "unrecorded"

    @property
    def epochs(self) -> int:
        return self.log.eval.config.epochs or 1

    def scores(self, scorer: str | None = None, unscored: bool = False) -> list[SampleScore]:
        """A scorer's reduced scores (the headline scorer's unless named) as Inspect hands them
        to its metrics: in the log's order, each with its sample's metadata, the unscored left
        out. The report computes every figure from these with the metrics' own functions, so a
        figure it prints is the log's, and one the log does not hold is computed alike."""
        name = scorer or self.scorer
        if name not in self._scores:  # read once: every table of a report asks again
            meta: dict[Any, Any] = self.metadata
            self._scores[name] = [
                # A reduced score is a Score (EvalSampleScore adds its sample id).
                SampleScore(score=s, sample_id=s.sample_id, sample_metadata=meta.get(s.sample_id))
                for s in reduced(self.log, name)
            ]
        found = self._scores[name]
        # Inspect leaves out of a scorer's metrics exactly the scores whose value is a float NaN.
        unread = [isinstance(s.score.value, float) and math.isnan(s.score.value) for s in found]
        return [s for s, nan in zip(found, unread, strict=True) if unscored or not nan]

    def has_scorer(self, name: str) -> bool:
        return any(s.name == name for s in (self.log.results.scores if self.log.results else []))

    @property
    def verdicts(self) -> list[SampleScore]:
        """The `verdicts` scorer's scores (every sample the judge saw); empty without it."""
        return self.scores(VERDICTS) if self.has_scorer(VERDICTS) else []

    def counts(self, noun: str) -> list[str]:
        """A judge that often fails to answer, or a run whose samples often fail, can look good
        on the few it grades: the counts belong beside the figures."""
        reasons = ", ".join(f"{reason} {n}" for reason, n in self.reasons.most_common())
        lines = [
            f"{noun}: {self.scored} scored, {self.unscored} unscored"
            + (f" ({reasons})" if reasons else "")
            + f", {self.errored} errored, {self.missing} missing"
        ]
        if self.left_out:
            causes = " and ".join(f"{n} {cause}" for cause, n in sorted(self.left_out.items()))
            lines.append(
                f"epochs left out of their sample's mean: {causes} (a sample's level is the mean "
                "of its epochs with a readable level; it is unscored when no epoch has one)"
            )
        return lines


def reduced(log: EvalLog, scorer: str) -> list[Any]:
    """A scorer's reduced scores: what its metrics were computed on."""
    found = next((r for r in log.reductions or [] if r.scorer == scorer), None)
    if found is None:
        raise ReportError(f"{log.location} holds no reduced scores of {scorer}")
    return found.samples


def headline_value(log: EvalLog, value: Any) -> float:
    """A score's value as a float; of a value of several figures (live_qa_contamination's), the
    one the headline metric names; of a level for each version of an answer
    (live_qa_judge_robustness's), the original's."""
    if isinstance(value, dict) and ORIGINAL in value:
        value = value[ORIGINAL]
    elif isinstance(value, dict) and log.eval.headline_metric is not None:
        value = value[log.eval.headline_metric.metric]
    return to_float(value)


def coverage(
    log: EvalLog, scorer: str, values: dict[SampleId, float]
) -> tuple[Counter[str], int, int, Counter[str]]:
    """Why ids went unscored (each id's first unscored epoch: the reducer keeps no reason), the
    errored and missing ids, and the epochs of scored ids left out of their mean: a run with
    `fail_on_error` off succeeds with samples that errored, which have no score. Inspect plans
    `total_samples` as the dataset's samples times the epochs."""
    reasons: dict[SampleId, str] = {}
    left_out: Counter[str] = Counter()
    for sample in log.samples or []:
        score, value = (sample.scores or {}).get(scorer), values.get(sample.id)
        unread = score is None or math.isnan(headline_value(log, score.value))
        if value is None:  # errored: no reduced score
            continue
        if math.isnan(value):
            if score is not None and unread:
                reasons.setdefault(sample.id, score.reason or "no reason recorded")
        elif unread:
            left_out["errored" if score is None else "unreadable"] += 1
    ids = {sample.id for sample in log.samples or []}
    epochs = max(1, log.eval.config.epochs or 1)
    planned = (log.results.total_samples if log.results else 0) // epochs
    return Counter(reasons.values()), len(ids - values.keys()), max(0, planned - len(ids)), left_out


def judge_identity(
    log: EvalLog, scorer: str
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Who graded the log's scores and with which prompt, as each score's metadata records it."""
    judges: dict[tuple[str, ...], None] = {}
    prompts: dict[str, None] = {}
    for sample in log.samples or []:
        score = (sample.scores or {}).get(scorer)
        meta = (score.metadata if score is not None else None) or {}
        if meta.get("judge_models"):
            judges[tuple(str(model) for model in meta["judge_models"])] = None
        if isinstance(meta.get("prompt"), dict):
            prompts[label(meta["prompt"])] = None
    return tuple(judges), tuple(prompts)


def load(path: str | Path) -> LoadedLog:
    """Read one log, refusing any whose figures would not mean what the report prints."""
    path = Path(path)
    try:
        log = read_eval_log(str(path))
    except Exception as error:  # missing file, not a zip, not an Inspect log: one message
        raise ReportError(f"cannot read {path} as an Inspect log: {error}") from error
    task = log.eval.task.rsplit("/", 1)[-1]  # a log names it `liveqa_inspect/<task>`
    if task not in TASKS:
        known = ", ".join(TASKS)
        raise ReportError(f"{path} is a log of task '{task}': this report reads only {known} logs")
    kind: Kind = section(task).KIND
    if (why := refusal(log, path, task, kind)) is not None:
        raise ReportError(why)
    assert log.results is not None and log.samples
    # The scorer whose figures the report is about: the one the task's headline names.
    name = log.eval.headline_metric.scorer if log.eval.headline_metric else None
    scorer = next((s.name for s in log.results.scores if name in (None, s.name)), None)
    if scorer is None:
        raise ReportError(f"{path} has no results of its headline scorer {name}")
    metadata: dict[SampleId, dict[str, Any]] = {}
    for sample in log.samples:
        metadata.setdefault(sample.id, sample.metadata or {})
    if kind in ("judge", "robustness") and any("human_level" not in m for m in metadata.values()):
        raise ReportError(f"{path}: a sample has no human_level in its metadata")
    values = {
        s.sample_id: headline_value(log, s.value)
        for s in reduced(log, scorer)
        if s.sample_id in metadata
    }
    reasons, errored, missing, left_out = coverage(log, scorer, values)
    judges, prompts = judge_identity(log, scorer)
    return LoadedLog(
        path, log, task, kind, scorer, values, metadata, reasons, errored, missing, left_out,
        judges, prompts,
    )  # fmt: skip


def load_all(paths: Sequence[str | Path]) -> list[LoadedLog]:
    """Every log once, all of one kind (`refuse_mixed`)."""
    logs = [load(path) for path in paths]
    refuse_mixed(logs)
    return logs

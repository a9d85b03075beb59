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
from liveqa_inspect.data.own_set import OwnSet
from liveqa_inspect.stats.names import VERDICTS
from liveqa_inspect.stats.values import to_float
from liveqa_inspect.versioned import label

Kind = Literal["model", "judge", "contamination", "robustness"]
SampleId = int | str
JUDGE_KINDS = ("judge", "robustness")
"""The kinds of log that measure a judge against human levels."""
Judge = tuple[str | None, tuple[str, ...]]
"""A panel's rule (None for one model) and its models."""
PACKAGE = "liveqa_inspect"
PROVENANCE_KEYS = ("data", "data_license")  # judging/task.data_provenance's, in every task's log


class ReportError(Exception):
    """A log this report cannot describe; the message, for the command line, says why and what
    to do (docs/report.md, Errors)."""


def section(task: str) -> ModuleType:
    """A task's report section (`TASKS`): `KIND`, `report(logs)`; optionally `HEADLINE` (the key of
    a multi-figure value the counts read), `settings(log)`, the settings beyond the frame's, and
    `card(logs, references)`, its columns of the judge card (report/card.py)."""
    return importlib.import_module(f"liveqa_inspect.tasks.{TASKS[task][1]}")


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
    kind: Kind
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

    @property
    def errored(self) -> int:
        """Ids without a reduced score: a run with `fail_on_error` off succeeds with them."""
        return len(self.metadata.keys() - self.values.keys())

    @property
    def missing(self) -> int:
        """Planned but not in the log: Inspect plans the dataset's samples times the epochs."""
        planned = (self.log.results.total_samples if self.log.results else 0) // self.epochs
        return max(0, planned - len(self.metadata))

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


def refuse(log: EvalLog, path: Path, task: str, kind: Kind) -> None:
    # This package wrote the log: its task's registry name says so, or (a task run from its
    # file) the eval's metadata carries the provenance every task records.
    named = (log.eval.task_registry_name or log.eval.task).startswith(f"{PACKAGE}/")
    if not named and not all(key in (log.eval.metadata or {}) for key in PROVENANCE_KEYS):
        raise ReportError(
            f"{path} is a log of a task named '{task}' that {PACKAGE} did not write (task "
            f"'{log.eval.task_registry_name or log.eval.task}', without {PACKAGE}'s provenance "
            "in its metadata): its figures would not mean what this report prints"
        )
    if log.status != "success":
        raise ReportError(
            f"{path} has status '{log.status}', not 'success': figures of an unfinished or "
            "failed run cover only some samples, so they are not reported (finish it with "
            "`inspect eval-retry`)"
        )
    if kind != "contamination" and not isinstance((log.eval.metadata or {}).get("scale"), list):
        raise ReportError(
            f"{path} records no rating scale: it was written before version 3-A of this "
            "package; re-run it, or re-score it with `inspect score`"
        )
    failed = [s.error for s in log.samples or [] if s.error is not None]
    if failed and len(failed) == len(log.samples or []):
        raise ReportError(
            f"{path}: all {len(failed)} of its samples errored, so nothing was scored (the "
            f"first: {failed[0].message.splitlines()[0]}); fix the cause and re-run them with "
            "`inspect eval-retry`"
        )
    if log.results is None or not log.samples:
        raise ReportError(
            f"{path} holds no results or no samples: the report needs both (do not run with "
            "--no-log-samples)"
        )


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
    reads = section(task)
    refuse(log, path, task, reads.KIND)
    assert log.samples
    metadata = {sample.id: sample.metadata or {} for sample in log.samples}
    if reads.KIND in JUDGE_KINDS and any("human_level" not in m for m in metadata.values()):
        raise ReportError(f"{path}: a sample has no human_level in its metadata")
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
    key = getattr(reads, "HEADLINE", None) or (headline.metric if headline else None)

    def value(given: Any) -> float:
        return to_float(given[key] if isinstance(given, dict) else given)

    values = {
        s.sample_id: value(s.score.value) for s in reductions[scorer] if s.sample_id in metadata
    }
    # Why ids went unscored (each id's first unscored epoch: the reducer keeps no reason), and
    # the epochs of scored ids left out of their mean; who graded, with which prompt.
    reasons: dict[SampleId, str] = {}
    left_out: Counter[str] = Counter()
    judges: dict[Judge, None] = {}
    prompts: dict[str, None] = {}
    for sample in log.samples:
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
    return LoadedLog(
        path, log, task, reads.KIND, scorer, values, metadata, Counter(reasons.values()),
        left_out, tuple(judges), ", ".join(prompts) or "unrecorded", reductions,
    )  # fmt: skip


def load_all(paths: Sequence[str | Path]) -> list[LoadedLog]:
    return refuse_mixed([load(path) for path in paths])


def refuse_mixed(logs: list[LoadedLog]) -> list[LoadedLog]:
    """A log compared with itself says nothing, and a model's mean and a judge's agreement share
    no table: every log once, all of one kind, of one question set."""
    seen = dict[object, Path]()
    for log in logs:
        twice = f"{log.path} is given twice: a log compared with itself says nothing; give each "
        if log.path.resolve() in seen:
            raise ReportError(twice + "log once")
        # A copy at another path is the same log: the same run and metadata, the same scores.
        reduced = [(r.scorer, r.samples) for r in log.log.reductions or []]
        run = (log.log.eval.eval_id, repr((log.log.eval.metadata, reduced)))
        if run in seen:
            raise ReportError(f"{twice}log once ({seen[run]} is the same log)")
        seen |= {log.path.resolve(): log.path, run: log.path}
    if len({log.kind for log in logs}) > 1:
        listed = "; ".join(f"{log.path} ({log.task})" for log in logs)
        raise ReportError(
            "cannot report model logs (live_qa, expert_qa), judge logs (live_qa_judge, "
            "expert_qa_claims), robustness logs (live_qa_judge_robustness) and contamination "
            f"logs (live_qa_contamination) together: {listed}. Run the report once for each kind"
        )
    own = [OwnSet.of_log(log.log.eval.metadata) for log in logs]
    if any(own) and len({own_set and own_set.sha256 for own_set in own}) > 1:
        listed = "; ".join(
            f"{log.path} ({own_set or ', '.join(log.log.eval.metadata['data'])})"
            for log, own_set in zip(logs, own, strict=True)
        )
        raise ReportError(
            f"the logs are of different question sets ({listed}): their figures are not one "
            "benchmark, so they are not ranked together. Report each set's logs apart (logs of "
            "one set, the same sha256, compare as usual)"
        )
    return logs

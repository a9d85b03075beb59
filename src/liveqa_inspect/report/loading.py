"""Read logs once into what every report section needs, refusing those it cannot describe: the
logs given, or every log of a folder (`liveqa-report DIR`: an eval set's, or any) task by task
and, within a task, question set by question set. A log's scores are rebuilt as its metrics saw
them, from its reductions, beside what its samples say: why some went unscored, who graded, with
which prompt."""

import math
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log
from inspect_ai.scorer import SampleScore

from liveqa_inspect.data.own_set import OwnSet
from liveqa_inspect.report.loaded import Judge, LoadedLog, SampleId
from liveqa_inspect.report.refusals import ReportError, refuse, refuse_mixed, same_run
from liveqa_inspect.report.sections import Sections
from liveqa_inspect.stats.values import to_float
from liveqa_inspect.versioned import label

Tally = tuple[Counter[str], Counter[str], tuple[Judge, ...], str]


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


def load(path: str | Path, sections: Sections) -> LoadedLog:
    """Read one log, refusing any whose figures would not mean what the report prints."""
    path = Path(path)
    try:
        log = read_eval_log(str(path))
    except Exception as error:  # missing file, not a zip, not an Inspect log: one message
        raise ReportError(f"cannot read {path} as an Inspect log: {error}") from error
    task = log.eval.task.rsplit("/", 1)[-1]  # a log names it `liveqa_inspect/<task>`
    if task not in sections.modules:
        known = ", ".join(sections.tasks)
        raise ReportError(f"{path} is a log of task '{task}': this report reads only {known} logs")
    reads = sections.of(task)
    refuse(log, path, task, reads)
    return rebuild(path, log, task, reads)


def load_all(paths: Sequence[str | Path], sections: Sections) -> list[LoadedLog]:
    return refuse_mixed([load(path, sections) for path in paths], sections)


def logs_by_task(folder: Path, sections: Sections) -> tuple[list[list[LoadedLog]], list[str]]:
    """Each task's logs of each question set, oldest first, and what was left out or read once, and
    why: one log a single report would refuse (a failed attempt an eval set retried, a backup
    copy, a run on another question set) must not cost the folder's others their report."""
    found = list_eval_logs(str(folder), descending=False)
    if not found:
        raise ReportError(f"no Inspect logs found in {folder}")
    groups: dict[tuple[str, OwnSet | None], list[LoadedLog]] = {}
    first: dict[tuple[str, str], Path] = {}
    said = []
    for info in found:
        try:
            log = load(Path(info.name.removeprefix("file://")), sections)
        except ReportError as error:
            said.append(f"skipped: {error}")
            continue
        if (copied := first.setdefault(same_run(log), log.path)) != log.path:
            said.append(f"read once: {log.path} is a copy of {copied} (the same run and scores)")
            continue
        groups.setdefault((log.task, OwnSet.of_log(log.log.eval.metadata)), []).append(log)
    if not groups:
        raise ReportError(f"no log in {folder} can be reported: " + "; ".join(said))
    return list(groups.values()), said


def heading(logs: list[LoadedLog]) -> str:
    """A group's heading: its task, and its question set when it is not LiveQA's."""
    own = OwnSet.of_log(logs[0].log.eval.metadata)
    return f"== {logs[0].task}{f' on {own}' if own else ''}: {len(logs)} log(s) =="

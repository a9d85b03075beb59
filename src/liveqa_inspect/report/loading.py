"""Read logs once into what every report section needs, refusing those it cannot describe: the logs
given, or every log of a folder (`liveqa-report DIR`) grouped by task and question set. A log's
scores are rebuilt as its metrics saw them, from its reductions."""

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from liveqa_inspect.judging.record import JudgeRecord
from liveqa_inspect.report.comparison import answers, same_answers
from liveqa_inspect.report.graded import items
from liveqa_inspect.report.loaded import LoadedLog, Section, Sections
from liveqa_inspect.report.refusals import ReportError, file_digest, refuse, refuse_mixed
from liveqa_inspect.stats.values import to_float
from liveqa_inspect.versioned import label


def rebuild(path: Path, log: EvalLog, task: str, section: Section) -> LoadedLog:
    """The log as its section reads it: its rows of the table, from the scores of the scorer its
    headline names (each sample's reduced as Inspect handed them to its metrics)."""
    assert log.samples
    headline = log.eval.headline_metric
    name = headline.scorer if headline else None
    found = [r.scorer for r in log.reductions or [] if name in (None, r.scorer)]
    if not found:
        raise ReportError(f"{path} has no results of its headline scorer {name}")
    scorer, key = found[0], section.headline or (headline.metric if headline else None)

    def value(given: Any) -> float:
        return to_float(given[key] if isinstance(given, dict) else given)

    data = list(((log.eval.metadata or {}).get("data") or {}).values())
    question_set = str(data[0].get("sha256", "")) if data else ""
    metas = [s.scores[scorer].metadata or {} for s in log.samples if scorer in (s.scores or {})]
    judges = tuple(j for j in dict.fromkeys(JudgeRecord.read(m, log) for m in metas if m) if j)
    prompts = dict.fromkeys(label(m["prompt"]) for m in metas if isinstance(m.get("prompt"), dict))
    found, graded = items(log, scorer, question_set, value)
    prompt = ", ".join(prompts) or "unrecorded"
    return LoadedLog(path, log, task, section, scorer, question_set, judges, prompt, found, graded)


def load(path: str | Path, sections: Sections) -> LoadedLog:
    """Read one log, refusing any whose figures would not mean what the report prints."""
    path = Path(path)
    try:
        log = read_eval_log(str(path))
    except Exception as error:  # missing file, not a zip, not an Inspect log: one message
        raise ReportError(f"cannot read {path} as an Inspect log: {error}") from error
    task = log.eval.task.rsplit("/", 1)[-1]  # a log names it `liveqa_inspect/<task>`
    if task not in sections:
        known = ", ".join(sections)
        raise ReportError(f"{path} is a log of task '{task}': this report reads only {known} logs")
    reads = sections.of(task)
    try:
        refuse(log, path, task, reads)
        return rebuild(path, log, task, reads)
    except ReportError as error:
        error.task = task
        raise


def load_all(paths: Sequence[str | Path], sections: Sections) -> list[LoadedLog]:
    return refuse_mixed([load(path, sections) for path in paths], sections)


Said = tuple[str, str | None]  # a line said of a log of the folder left out, and its task if known


def listed(folder: str | Path) -> dict[Path, float]:
    """The logs Inspect lists in one folder (not its sub-folders), with their times."""
    found = list_eval_logs(str(folder), recursive=False, descending=False)
    return {Path(info.name.removeprefix("file://")): info.mtime or 0 for info in found}


def log_files(folder: Path) -> tuple[list[Path], list[Said]]:
    """The folder's logs and its sub-folders', oldest first, a linked folder or log followed once
    (a link back up the tree is named as not followed, not walked again). Inspect lists no
    linked log: one is a log where Inspect lists its target."""
    found, said, seen = dict[Path, float](), list[Said](), set[str]()
    for top, dirs, files in os.walk(folder, followlinks=True):
        real = os.path.realpath(top)
        if real in seen:
            said.append((f"not followed: {top} is a link to {real}, already read", None))
            dirs.clear()
            continue
        seen.add(real)
        found |= listed(top)
        for link in (Path(top, name) for name in files if Path(top, name).is_symlink()):
            target = link.resolve()
            if target in listed(target.parent):
                found[link] = target.stat().st_mtime * 1000
    return sorted(found, key=found.__getitem__), said


def logs_by_task(folder: Path, sections: Sections) -> tuple[list[LoadedLog], list[Said]]:
    """Every log of the folder a report can describe, and what was left out or read once, and why: a
    log a single report would refuse (a failed attempt an eval set retried) must not cost the
    folder's others their report; only a byte-identical file is a copy."""
    paths, said = log_files(folder)
    if not paths:
        raise ReportError(f"no Inspect logs found in {folder}")
    # Only a file whose size another shares (as a copy's) is hashed: hashing is a second read.
    loaded, first, sizes = [], dict[str, Path](), Counter(path.stat().st_size for path in paths)
    for path in paths:
        same = file_digest(path) if sizes[path.stat().st_size] > 1 else str(path)
        if (copied := first.setdefault(same, path)) != path:
            said.append((f"read once: {path} is a copy of {copied} (the same bytes)", None))
            continue
        try:
            loaded.append(load(path, sections))
        except ReportError as error:
            said.append((f"skipped: {error}", error.task))
    if not loaded:
        raise ReportError(f"no log in {folder} can be reported: " + "; ".join(s for s, _ in said))
    return loaded, said


def grouped(logs: Sequence[LoadedLog]) -> list[tuple[str, list[LoadedLog]]]:
    """The folder's logs as the report compares them, headed: by task, question set (its sha256)
    and whose human levels judge logs are measured against; model logs by their answers: a run's
    answers graded by several judges compare as judges, the runs one judge graded as models."""
    by_set: dict[tuple[str, str, str], list[LoadedLog]] = {}
    for log in logs:
        by_set.setdefault((log.task, log.question_set, log.humans), []).append(log)
    found = []
    for group in by_set.values():
        split = group[0].section.kind == "model" and len(set(map(answers, group))) < len(group)
        found += [(heading(g, split), g) for g in (by_answers(group) if split else [group])]
    return found


def by_answers(logs: Sequence[LoadedLog]) -> list[list[LoadedLog]]:
    """Each run's answers graded again, then each judge's runs (one log a run), then the rest."""
    runs: dict[frozenset[str], list[LoadedLog]] = {}
    by_judge: dict[str, dict[frozenset[str], LoadedLog]] = {}
    for log in logs:
        runs.setdefault(answers(log), []).append(log)
        by_judge.setdefault(log.judge_label, {}).setdefault(answers(log), log)
    found = [run for run in runs.values() if len(run) > 1]
    found += [list(each.values()) for each in by_judge.values() if len(each) > 1]
    shown = {log.path for group in found for log in group}
    return found + [[log] for log in logs if log.path not in shown]


def heading(logs: Sequence[LoadedLog], split: bool) -> str:
    """A group's heading: its task, its question set and human levels where they are a team's own,
    and of a split folder's model logs, whose answers or whose grading it compares."""
    log = logs[0]
    where = f" on {log.own_set}" if log.own_set else ""
    where += f" against {log.humans}" if log.humans.startswith("own") else ""
    if same_answers(logs):
        where += f": {log.model}'s answers"
    elif split:
        where += f": graded by {log.judge_label}"
    return f"== {log.task}{where}: {len(logs)} log(s) =="

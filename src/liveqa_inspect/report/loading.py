"""Read logs once into what every report section needs, refusing those it cannot describe: the
logs given, or every log of a folder (`liveqa-report DIR`: an eval set's, or any) task by task
and, within a task, question set by question set."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log

from liveqa_inspect.data.own_set import OwnSet
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.reductions import rebuild
from liveqa_inspect.report.refusals import ReportError, refuse, refuse_mixed, same_run
from liveqa_inspect.report.sections import Sections


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

"""`liveqa-report DIR`: every log of a folder (an eval set's, or any), reported task by task and,
within a task, question set by question set."""

from __future__ import annotations

from pathlib import Path

from inspect_ai.log import list_eval_logs

from liveqa_inspect.data.own_set import OwnSet
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.loading import load
from liveqa_inspect.report.mixing import same_run
from liveqa_inspect.report.refusals import ReportError
from liveqa_inspect.report.sections import Sections


def logs_by_task(folder: Path, sections: Sections) -> tuple[list[list[LoadedLog]], list[str]]:
    """Each task's logs of each question set, oldest first, and what was left out or read once,
    and why: a folder holds what a single report would refuse (a failed attempt an eval set
    retried, a backup copy of a log, runs on LiveQA and on an own set), and one such log must
    not cost the others their report."""
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

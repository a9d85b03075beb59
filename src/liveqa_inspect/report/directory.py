"""`liveqa-report DIR`: every log of a folder (an eval set's, or any), reported task by task."""

from __future__ import annotations

from pathlib import Path

from inspect_ai.log import list_eval_logs

from liveqa_inspect.report.loading import LoadedLog, ReportError, load, refuse_mixed


def logs_by_task(folder: Path) -> tuple[list[list[LoadedLog]], list[str]]:
    """Each task's logs, oldest first, and why each log or task left out was left out: a folder
    holds what a single report would refuse (a failed attempt an eval set retried, say)."""
    tasks: dict[str, list[LoadedLog]] = {}
    skipped = []
    for found in list_eval_logs(str(folder), descending=False):
        try:
            log = load(Path(found.name.removeprefix("file://")))
        except ReportError as error:
            skipped.append(f"skipped: {error}")
            continue
        tasks.setdefault(log.task, []).append(log)
    groups = []
    for task, logs in tasks.items():
        try:
            groups.append(refuse_mixed(logs))
        except ReportError as error:
            skipped.append(f"skipped the {task} logs: {error}")
    return groups, skipped

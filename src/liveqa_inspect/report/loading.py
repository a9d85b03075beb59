"""Read logs once into what every report section needs, refusing those it cannot describe."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inspect_ai.log import read_eval_log

from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.mixing import refuse_mixed
from liveqa_inspect.report.reductions import rebuild
from liveqa_inspect.report.refusals import ReportError, refuse
from liveqa_inspect.report.sections import Sections


def load(path: str | Path, sections: Sections) -> LoadedLog:
    """Read one log, refusing any whose figures would not mean what the report prints."""
    path = Path(path)
    try:
        log = read_eval_log(str(path))
    except Exception as error:  # missing file, not a zip, not an Inspect log: one message
        raise ReportError(f"cannot read {path} as an Inspect log: {error}") from error
    task = log.eval.task.rsplit("/", 1)[-1]  # a log names it `liveqa_inspect/<task>`
    if task not in sections:
        known = ", ".join(sections.tasks)
        raise ReportError(f"{path} is a log of task '{task}': this report reads only {known} logs")
    reads = sections.of(task)
    refuse(log, path, task, reads)
    return rebuild(path, log, task, reads)


def load_all(paths: Sequence[str | Path], sections: Sections) -> list[LoadedLog]:
    return refuse_mixed([load(path, sections) for path in paths], sections)

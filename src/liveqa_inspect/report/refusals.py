"""The logs the report refuses to describe, alone or together, each with one message saying why
and what to do (docs/report.md, Errors)."""

import hashlib
from pathlib import Path

from inspect_ai.log import EvalLog

from liveqa_inspect.report.loaded import LoadedLog, Section, Sections

PACKAGE = "liveqa_inspect"
PROVENANCE_KEYS = ("data", "data_license")  # judging/provenance.py's, in every task's log


class ReportError(Exception):
    """A log this report cannot describe; its message says why and what to do."""

    task: str | None = None  # the log's, where known: a judge card names its judges' failed runs


def refuse(log: EvalLog, path: Path, task: str, section: Section) -> None:
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
    if section.rated and not isinstance((log.eval.metadata or {}).get("scale"), list):
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
    if section.judged and any("human_level" not in (s.metadata or {}) for s in log.samples):
        raise ReportError(f"{path}: a sample has no human_level in its metadata")


def file_digest(path: Path) -> str:
    """A copy of a log (a backup, a link) is the same bytes; a re-grading or a second grading of
    the same answers, however alike, is another file."""
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def refuse_mixed(logs: list[LoadedLog], sections: Sections) -> list[LoadedLog]:
    """A log compared with itself says nothing, and a model's mean and a judge's agreement share
    no table: every log once, all of one kind, of one question set."""
    seen = dict[object, Path]()
    for log in logs:
        twice = f"{log.path} is given twice: a log compared with itself says nothing; give each "
        if log.path.resolve() in seen:
            raise ReportError(twice + "log once")
        if (same := file_digest(log.path)) in seen:
            raise ReportError(f"{twice}log once ({seen[same]} is a copy of it, the same bytes)")
        seen |= {log.path.resolve(): log.path, same: log.path}
    if len({log.section.kind for log in logs}) > 1:
        listed = "; ".join(f"{log.path} ({log.task})" for log in logs)
        kinds: dict[str, list[str]] = {}  # the tasks of each kind, in the registry's order
        for task in sections:
            kinds.setdefault(sections.of(task).kind, []).append(task)
        *named, last = (f"{kind} logs ({', '.join(tasks)})" for kind, tasks in kinds.items())
        raise ReportError(
            f"cannot report {', '.join(named)} and {last} together: {listed}. Run the report "
            "once for each kind"
        )
    if any(log.own_set for log in logs) and len({log.question_set for log in logs}) > 1:
        listed = "; ".join(f"{log.path} ({log.own_set or ', '.join(log.data)})" for log in logs)
        raise ReportError(
            f"the logs are of different question sets ({listed}): their figures are not one "
            "benchmark, so they are not ranked together. Report each set's logs apart (logs of "
            "one set, the same sha256, compare as usual)"
        )
    return logs

"""The logs the report refuses to describe, each with one message saying why and what to do
(docs/report.md, Errors)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from inspect_ai.log import EvalLog

PACKAGE = "liveqa_inspect"
PROVENANCE_KEYS = ("data", "data_license")  # judging/provenance.py's, in every task's log


class ReportError(Exception):
    """A log this report cannot describe; the message, for the command line, says why and what
    to do (docs/report.md, Errors)."""


def refuse(log: EvalLog, path: Path, task: str, section: ModuleType) -> None:
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
    rated = getattr(section, "RATED", True)
    if rated and not isinstance((log.eval.metadata or {}).get("scale"), list):
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
    if section.HUMAN_LEVELS and any("human_level" not in (s.metadata or {}) for s in log.samples):
        raise ReportError(f"{path}: a sample has no human_level in its metadata")

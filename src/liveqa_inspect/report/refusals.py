"""The logs the report refuses to describe, alone or together, each with one message saying why
and what to do (docs/report.md, Errors)."""

from pathlib import Path
from types import ModuleType

from inspect_ai.log import EvalLog

from liveqa_inspect.data.own_set import OwnSet
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.sections import Sections

PACKAGE = "liveqa_inspect"
PROVENANCE_KEYS = ("data", "data_license")  # judging/provenance.py's, in every task's log


class ReportError(Exception):
    """A log this report cannot describe; its message says why and what to do."""


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


def same_run(log: LoadedLog) -> tuple[str, str]:
    """What a copy of a log at another path shares with it: the run, its metadata and its scores
    (a copy re-graded by `inspect score` has other scores: another judge's log)."""
    reduced = [(r.scorer, r.samples) for r in log.log.reductions or []]
    return log.log.eval.eval_id, repr((log.log.eval.metadata, reduced))


def refuse_mixed(logs: list[LoadedLog], sections: Sections) -> list[LoadedLog]:
    """A log compared with itself says nothing, and a model's mean and a judge's agreement share
    no table: every log once, all of one kind, of one question set."""
    seen = dict[object, Path]()
    for log in logs:
        twice = f"{log.path} is given twice: a log compared with itself says nothing; give each "
        if log.path.resolve() in seen:
            raise ReportError(twice + "log once")
        if (run := same_run(log)) in seen:
            raise ReportError(f"{twice}log once ({seen[run]} is the same log)")
        seen |= {log.path.resolve(): log.path, run: log.path}
    if len({log.kind for log in logs}) > 1:
        listed = "; ".join(f"{log.path} ({log.task})" for log in logs)
        *kinds, last = (f"{kind} logs ({', '.join(t)})" for kind, t in sections.kinds().items())
        raise ReportError(
            f"cannot report {', '.join(kinds)} and {last} together: {listed}. Run the report "
            "once for each kind"
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

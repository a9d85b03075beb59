"""What the report refuses to describe: each refusal one message saying why and what to do
(docs/report.md, Errors)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from inspect_ai.log import EvalLog

from liveqa_inspect.data.own_set import OwnSet

if TYPE_CHECKING:
    from liveqa_inspect.report.loading import Kind, LoadedLog

PACKAGE = "liveqa_inspect"
PROVENANCE_KEYS = ("data", "data_license")  # judging/task.data_provenance's, in every task's log


class ReportError(Exception):
    """A log this report cannot describe; the message, for the command line, says why."""


def written_here(log: EvalLog) -> bool:
    """Whether this package wrote the log: its task's registry name carries the package, or (a
    task run from its file) the eval's metadata carries the provenance every task records."""
    named = (log.eval.task_registry_name or log.eval.task).startswith(f"{PACKAGE}/")
    return named or all(key in (log.eval.metadata or {}) for key in PROVENANCE_KEYS)


def refusal(log: EvalLog, path: Path, task: str, kind: Kind) -> str | None:
    if not written_here(log):
        return (
            f"{path} is a log of a task named '{task}' that {PACKAGE} did not write (task "
            f"'{log.eval.task_registry_name or log.eval.task}', without {PACKAGE}'s provenance "
            "in its metadata): its figures would not mean what this report prints"
        )
    if log.status != "success":
        return (
            f"{path} has status '{log.status}', not 'success': figures of an unfinished or "
            "failed run cover only some samples, so they are not reported (finish it with "
            "`inspect eval-retry`)"
        )
    if kind != "contamination" and not isinstance((log.eval.metadata or {}).get("scale"), list):
        return (
            f"{path} records no rating scale: it was written before version 3-A of this "
            "package; re-run it, or re-score it with `inspect score`"
        )
    failed = [s.error for s in log.samples or [] if s.error is not None]
    if failed and len(failed) == len(log.samples or []):
        return (
            f"{path}: all {len(failed)} of its samples errored, so nothing was scored (the "
            f"first: {failed[0].message.splitlines()[0]}); fix the cause and re-run them with "
            "`inspect eval-retry`"
        )
    if log.results is None or not log.samples:
        return (
            f"{path} holds no results or no samples: the report needs both (do not run with "
            "--no-log-samples)"
        )
    return None


def refuse_mixed(logs: Sequence[LoadedLog]) -> None:
    """A log compared with itself says nothing, and a model's mean and a judge's agreement share
    no table: every log once, all of one kind."""
    seen: dict[object, Path] = {}
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

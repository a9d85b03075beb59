"""Logs that share no report: a log given twice, logs of two kinds, logs of two question sets."""

from __future__ import annotations

from pathlib import Path

from liveqa_inspect.data.own_set import OwnSet
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.refusals import ReportError
from liveqa_inspect.report.sections import Sections


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

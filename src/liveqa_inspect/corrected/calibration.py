"""A model's mean level corrected by its judge's calibration against human grades of other
answers (stats/corrected.py, docs/corrected-scores.md): among the logs the report reads, a log
measuring the same judge (its record: models, panel rule, settings) on the same rubric and scale.
An answer is one epoch's grading: a verdict is one draw of the judge's confusion (an epoch mean
would fall between levels)."""

from collections.abc import Sequence

import numpy as np

from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.tables import figure_cell
from liveqa_inspect.stats.bootstrap import Estimate, mean_estimate
from liveqa_inspect.stats.corrected import NotIdentifiable, corrected_mean

ASSUMES = (
    "assumes: the judge errs on these answers as it erred on the calibration's answers of the "
    "same human level (NIST's: answers of 2017 systems, most of them poor); no correction fixes a "
    "rubric that measures the wrong thing (docs/corrected-scores.md)."
)


def calibration(log: LoadedLog, logs: Sequence[LoadedLog]) -> LoadedLog | None:
    """The log measuring `log`'s judge against humans, of the same rubric and scale (the one
    with most answers where several are); none for a log that is no model's mean level."""
    if log.section.kind != "model":
        return None
    judge = [record.identity for record in log.judges]
    found = [
        other
        for other in logs
        if other.section.kind == "judge"
        and [record.identity for record in other.judges] == judge
        and (other.prompt_label, other.scale) == (log.prompt_label, log.scale)
    ]
    return max(found, key=lambda other: other.scored, default=None)


def levels(log: LoadedLog) -> np.ndarray:
    return np.array([g.level for g in log.gradings if g.status == "scored"], dtype=float)


def corrected(log: LoadedLog, by: LoadedLog) -> Estimate | NotIdentifiable:
    """`log`'s scored answers' mean human level, as `by`'s (judge level, human level) pairs say
    the judge errs."""
    human = {item.sample: item.human for item in by.items}
    scored = [g for g in by.gradings if g.status == "scored"]
    calibrated = np.array([human[g.sample] for g in scored], dtype=float)
    return corrected_mean(levels(by), calibrated, levels(log), log.scale)


def said(log: LoadedLog, logs: Sequence[LoadedLog]) -> tuple[str, str] | None:
    """The corrected mean as a cell (or why there is none) and the calibration it rests on; None
    where no log of `logs` calibrates the judge."""
    by = calibration(log, logs)
    if by is None:
        return None
    found = corrected(log, by)
    shown = str(found) if isinstance(found, NotIdentifiable) else figure_cell(found)
    return shown, f"{by.path.name}: {len(levels(by))} answers graded by {by.humans}"


def lines(log: LoadedLog, logs: Sequence[LoadedLog]) -> list[str]:
    """Beside a model log's raw mean: its corrected mean, the calibration named, the assumption."""
    found = said(log, logs)
    if found is None:
        return []
    shown, by = found
    raw = figure_cell(mean_estimate(levels(log)))
    return [
        f"corrected mean ({log.path.name}, calibration {by}): {shown}; the judge's raw mean of "
        f"the same {len(levels(log))} answers: {raw}",
        ASSUMES,
    ]

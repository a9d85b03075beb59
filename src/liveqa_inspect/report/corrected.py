"""A log's answers as the corrected means read them (stats/corrected.py): each answer's judge
level, an answer being a sample in one epoch (a verdict is one draw of the judge's confusion; an
epoch mean would fall between levels), and the mean corrected by a judge log's calibration."""

import math
from pathlib import Path

import numpy as np
from inspect_ai.log import EvalLog, read_eval_log

from liveqa_inspect.report.loaded import SampleId
from liveqa_inspect.report.refusals import ReportError
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.stats.corrected import NotIdentifiable, corrected_mean
from liveqa_inspect.stats.values import to_float

Answer = tuple[SampleId, int]
"""A sample id and its epoch."""


def read_log(path: Path) -> EvalLog:
    try:
        log = read_eval_log(str(path))
    except Exception as error:  # missing file, not a zip, not an Inspect log: one message
        raise ReportError(f"cannot read {path} as an Inspect log: {error}") from error
    if log.status != "success" or not log.samples:
        raise ReportError(
            f"{path} has status '{log.status}' and {len(log.samples or [])} samples: a finished "
            "run's log with its samples is needed (finish it with `inspect eval-retry`; do not "
            "run with --no-log-samples)"
        )
    return log


def scale(log: EvalLog) -> list[float]:
    return [float(level) for level in (log.eval.metadata or {}).get("scale") or []]


def answer_levels(log: EvalLog) -> dict[Answer, float]:
    """Each answer's level from the log's headline scorer (the judge's), NaN where it was not
    scored (an unreadable verdict, an errored sample)."""
    headline = log.eval.headline_metric
    scorer = headline.scorer if headline else None
    levels = {}
    for sample in log.samples or []:
        score = (sample.scores or {}).get(scorer) if scorer else None
        levels[sample.id, sample.epoch] = to_float(score.value) if score else math.nan
    return levels


def graded_levels(log: EvalLog) -> dict[Answer, float]:
    """The scored answers' levels: the unscored are left out, as the log's mean leaves them."""
    return {key: level for key, level in answer_levels(log).items() if not math.isnan(level)}


def nist_corrected(graded: EvalLog, calibration: EvalLog) -> Estimate | NotIdentifiable:
    """The mean human level of `graded`'s scored answers (a model's, graded by a judge), corrected
    by `calibration`, the same judge's log measured against humans: its answers' (judge level,
    human level) pairs. Whether the two logs' judges and prompts are the same is the caller's to
    check."""
    metadata = calibration.eval.metadata or {}
    if not metadata.get("measures_judge") or scale(calibration) != scale(graded):
        raise ReportError(
            f"{calibration.location or 'the calibration log'} is not a log measuring a judge on "
            f"the graded log's scale ({', '.join(f'{level:g}' for level in scale(graded))}): "
            "calibrate with the judge task run by the same judge"
        )
    human = {s.id: float((s.metadata or {})["human_level"]) for s in calibration.samples or []}
    pairs = [(level, human[sample]) for (sample, _), level in graded_levels(calibration).items()]
    judge, humans = np.array(pairs, dtype=float).reshape(-1, 2).T
    levels = np.array(list(graded_levels(graded).values()))
    return corrected_mean(judge, humans, levels, scale(graded))

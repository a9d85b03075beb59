"""The report on live_qa_judge_robustness logs: how a judge's level moves on perturbed answers.

Every figure and interval of a log is read from its results. From the samples come only what
the results do not hold: the pairs that moved most against expectation and, across logs (one
per judge), each judge's paired difference from the first over the answers both graded, each
resample drawing the same answers for both judges.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Sequence

import numpy as np

from liveqa_inspect.report.comparison import (
    comparison,
    difference_table,
    differing,
    labels,
    setting,
)
from liveqa_inspect.report.loading import LoadedLog, ReportError, SampleId
from liveqa_inspect.report.plots import Chart, IntervalChart
from liveqa_inspect.report.stats import Estimate
from liveqa_inspect.report.tables import Block, Cell, Table, figure, interval, with_interval
from liveqa_inspect.stats import names as keys
from liveqa_inspect.stats.bootstrap import percentile_interval, resample_rows
from liveqa_inspect.stats.names import PAIRS, SHIFT, UNREADABLE, juror_figures, pair_key
from liveqa_inspect.tasks.live_qa_judge.report import judge_line
from liveqa_inspect.tasks.robustness.metrics import (
    SUMMARIES,
    Moved,
    Versions,
    outcomes,
    pooled,
    selected,
    share_moved,
    versions_of,
)
from liveqa_inspect.tasks.robustness.perturbations import ORIGINAL, Expect, expected

KIND = "robustness"
"""The kind of log this section reads (report/loading.py's `Kind`)."""

MOVED_ROWS = 10
"""The pairs listed as having moved most against expectation."""
EXCERPT_CHARS = 60
"""An answer as the moved pairs' table shows it: its start, enough to find it in the log."""


def perturbations(log: LoadedLog) -> list[str]:
    """The perturbations the run asked for, in the task's order."""
    return selected([meta.get("perturbations", []) for meta in log.metadata.values()])


def share(name: str) -> str:
    """A perturbation's share as expected: unchanged if it should hold, lowered if it should
    lower."""
    return keys.UNCHANGED if expected(name) == "hold" else keys.LOWERED


def rows_of(log: LoadedLog) -> list[tuple[str, str]]:
    """(key, row label) of every figure a side-by-side table shows: the summaries, then each
    perturbation's share as expected."""
    return [
        (keys.ROBUSTNESS, "robustness (unchanged where it should hold)"),
        (keys.SENSITIVITY, "sensitivity (lowered where it should lower)"),
        *((pair_key(name, share(name)), f"{name} ({share(name)})") for name in perturbations(log)),
    ]


def side_by_side(log: LoadedLog, title: str, columns: dict[str, dict[str, float]]) -> Table:
    """Figures as rows and judges (or jurors) as columns, each value with its interval: seven
    perturbations as columns would not fit a terminal."""
    return Table(
        title,
        ["figure", *columns],
        [
            [label, *(with_interval(*figure(values, key)) for values in columns.values())]
            for key, label in rows_of(log)
        ],
    )


def texts(log: LoadedLog) -> str:
    """The added texts' name, version and hash, as the log records them."""
    given = (log.log.eval.metadata or {}).get("perturbation_texts")
    if not isinstance(given, dict):
        return "unrecorded"
    return f"{given['name']} v{given['version']} (sha256 {str(given['sha256'])[:12]})"


def header(log: LoadedLog) -> list[str]:
    args = log.log.eval.task_args
    unread = sum(math.isnan(value) for value in log.values.values())
    return [
        f"{log.task} report: {log.path}",
        judge_line(log),
        f"perturbation texts: {texts(log)}",
        f"{setting(log)}; per grade: {args.get('per_grade')}; seed: {args.get('seed')}; "
        f"epochs: {log.epochs}",
        f"answers: {len(log.values)}, {unread} with the original's verdict unreadable",
    ]


def summary_table(log: LoadedLog) -> Table:
    rows: list[list[Cell]] = []
    for summary in SUMMARIES:
        value, low, high = figure(log.figures, summary)
        counts = (log.figures.get(pair_key(summary, key), math.nan) for key in (PAIRS, UNREADABLE))
        rows.append([summary, value, interval(low, high), *(fmt_count(n) for n in counts)])
    return Table(
        "Robustness and sensitivity (95% CI: answers resampled, each with all its pairs)",
        ["figure", "value", "95% CI", "pairs", "left out"],
        rows,
        [
            "A constant judge is fully robust and has sensitivity 0: read the two together, and "
            "beside the judge's agreement with the humans (live_qa_judge).",
        ],
    )


def fmt_count(value: float) -> str:
    return "n/a" if math.isnan(value) else str(int(value))


def perturbation_table(log: LoadedLog) -> Table:
    rows: list[list[Cell]] = []
    for name in perturbations(log):
        value, low, high = figure(log.figures, pair_key(name, share(name)))
        shift, shift_low, shift_high = figure(log.figures, pair_key(name, SHIFT))
        counts = (log.figures.get(pair_key(name, key), math.nan) for key in (PAIRS, UNREADABLE))
        rows.append(
            [name, f"{expected(name)} ({share(name)})", *(fmt_count(n) for n in counts),
             value, interval(low, high), shift, interval(shift_low, shift_high)]
        )  # fmt: skip
    return Table(
        "Perturbations (95% CI: the log's seeded paired bootstrap)",
        ["perturbation", "should", "pairs", "left out", "as expected", "95% CI", "mean shift",
         "shift 95% CI"],  # fmt: skip
        rows,
        ["left out: pairs with a verdict unreadable on either side. Mean shift: perturbed level "
         "minus the original's, above 0 where the perturbation pleased the judge."],  # fmt: skip
    )


def juror_table(log: LoadedLog) -> Table | None:
    """A panel's jurors, each alone, beside the panel; None for a single judge."""
    jurors = juror_figures(log.figures)
    if not jurors:
        return None
    columns = {"panel": log.figures, **jurors}
    return side_by_side(log, "Each juror alone (value [95% CI])", columns)


def answer_versions(log: LoadedLog) -> dict[SampleId, dict[str, float]]:
    """Each answer's level in each version, as the log's epoch reducer left them."""
    reduction = next((r for r in log.log.reductions or [] if r.scorer == log.scorer), None)
    if reduction is None:
        raise ReportError(f"{log.path} holds no reduced scores of {log.scorer}")
    return {s.sample_id: dict(s.value) for s in reduction.samples if s.sample_id is not None}  # type: ignore[arg-type]


AGAINST_EXPECTATION: dict[Expect, Moved] = {
    "hold": lambda start, end: end != start,
    "lower": lambda start, end: end > start,
}


def against_expectation(level: float, before: float, name: str, scale: np.ndarray) -> bool:
    """A level that moved where it should have held, or rose where it should have fallen: in
    whole, or in part where a level is halfway between two (stats/levels.py)."""
    moved = share_moved(
        np.array([before]), np.array([level]), scale, AGAINST_EXPECTATION[expected(name)]
    )
    return bool(moved[0] > 0)


def moved_table(log: LoadedLog) -> Table:
    """The pairs that moved most against expectation, largest shift first, answers shortened."""
    found = []
    for sample_id, levels in answer_versions(log).items():
        before = levels[ORIGINAL]
        for name, level in levels.items():
            if name == ORIGINAL or math.isnan(before) or math.isnan(level):
                continue
            if against_expectation(level, before, name, np.asarray(log.scale)):
                found.append((sample_id, name, before, level))
    found.sort(key=lambda pair: (-abs(pair[3] - pair[2]), str(pair[0]), pair[1]))
    rows: list[list[Cell]] = [
        [str(sample_id), name, f"{log.metadata[sample_id]['human_level']:g}", before, level,
         level - before, textwrap.shorten(str(log.metadata[sample_id]["answer"]), EXCERPT_CHARS)]
        for sample_id, name, before, level in found[:MOVED_ROWS]
    ]  # fmt: skip
    return Table(
        f"Pairs that moved most against expectation ({min(len(found), MOVED_ROWS)} of "
        f"{len(found)})",
        ["answer", "perturbation", "human", "original", "perturbed", "shift", "answer (start)"],
        rows,
        ["Against expectation: the level moved where it should have held, or rose where it "
         "should have fallen. Each answer's versions are in its sample's metadata."],  # fmt: skip
    )


def chart(log: LoadedLog) -> IntervalChart:
    rows = rows_of(log)
    values = [figure(log.figures, key) for key, _ in rows]
    return IntervalChart(
        filename=f"{log.path.stem}-robustness.png",
        title=f"{log.task}: {log.judge_label}, share as expected (95% CI)",
        axis="share of pairs as expected",
        labels=[label for _, label in rows],
        values=[value for value, _, _ in values],
        lows=[low for _, low, _ in values],
        highs=[high for _, _, high in values],
        limits=(0.0, 1.0),
    )


def versions(log: LoadedLog, ids: Sequence[SampleId], names: Sequence[str]) -> Versions:
    levels = answer_versions(log)
    return versions_of([levels[i] for i in ids], names)


def summary_difference(summary: str) -> Callable[[LoadedLog, LoadedLog], Estimate]:
    """`other`'s summary minus `first`'s over the answers both hold, each resample drawing the
    same answers (each with all its pairs) for both judges."""

    def difference(first: LoadedLog, other: LoadedLog) -> Estimate:
        ids = [i for i in first.values if i in other.values]
        names = [name for name in perturbations(first) if name in perturbations(other)]
        scale = np.asarray(first.scale)
        a = outcomes(versions(first, ids, names), SUMMARIES[summary], scale)
        b = outcomes(versions(other, ids, names), SUMMARIES[summary], scale)

        def statistic(rows: np.ndarray | slice) -> np.ndarray:
            return pooled(*b, rows) - pooled(*a, rows)

        if len(ids) < 2:
            return Estimate(math.nan, math.nan, math.nan, len(ids))
        low, high = percentile_interval(statistic(resample_rows(len(ids))))
        return Estimate(float(statistic(slice(None))[0]), low, high, len(ids))

    return difference


def judges_chart(logs: Sequence[LoadedLog]) -> IntervalChart:
    rows = [
        (f"{label}: {summary}", figure(log.figures, summary))
        for label, log in zip(labels(logs), logs, strict=True)
        for summary in SUMMARIES
    ]
    return IntervalChart(
        filename=f"{logs[0].path.stem}-robustness-judges.png",
        title=f"{logs[0].task}: robustness and sensitivity of each judge (95% CI)",
        axis="share of pairs as expected",
        labels=[label for label, _ in rows],
        values=[value for _, (value, _, _) in rows],
        lows=[low for _, (_, low, _) in rows],
        highs=[high for _, (_, _, high) in rows],
        limits=(0.0, 1.0),
    )


def report(logs: Sequence[LoadedLog]) -> tuple[list[Block], list[Chart]]:
    if len(logs) > 1:
        columns = dict(zip(labels(logs), (log.figures for log in logs), strict=True))
        title = "Judges (value [95% CI: each log's seeded bootstrap])"
        judges = side_by_side(logs[0], title, columns)
        differences = [
            difference_table(logs, summary_difference(summary), f"{summary} difference",
                             "the answers both hold, each with all its pairs")  # fmt: skip
            for summary in SUMMARIES
        ]
        blocks = comparison(logs, "robustness", judges, differences[0])
        # Versions perturbed with other texts are not comparable, as under another prompt.
        at = blocks.index(judges)
        blocks[at:at] = differing(logs, "perturbation texts", texts)
        return [*blocks, *differences[1:]], [judges_chart(logs)]
    [log] = logs
    blocks: list[Block] = [*header(log), summary_table(log), perturbation_table(log)]
    blocks += [table for table in (juror_table(log),) if table is not None]
    blocks.append(moved_table(log))
    return blocks, [chart(log)]

"""The report on judge logs (live_qa_judge, expert_qa_claims): how a judge agrees with humans.

Tables are on the scale the log records, so the same ones serve LiveQA's 0..1 levels and the
claims tasks' 1..5 or 1..3 ones.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from liveqa_inspect.report.comparison import comparison, difference_table, labels, per_log, setting
from liveqa_inspect.report.loading import LoadedLog
from liveqa_inspect.report.plots import Chart, Heatmap, IntervalChart
from liveqa_inspect.report.stats import group_agreement, kappa_difference
from liveqa_inspect.report.tables import Block, Cell, Table, figure, figure_cells, figure_table, fmt
from liveqa_inspect.stats.agreement import FIGURES
from liveqa_inspect.stats.names import (
    ALPHA,
    DETECTION_FIGURES,
    EPOCH_AGREEMENT,
    INCORRECT_AUROC,
    INCORRECT_F1,
    KAPPA,
    MAJORITY_SHARE,
    confusion_key,
    juror_figures,
    parse_floor_key,
    parse_juror_key,
)

KIND = "judge"
"""The kind of log this section reads (report/loading.py's `Kind`)."""

FIELD = "field"
RHO = "spearman_rho"
EXACT = "exact_agreement"
FIELD_FIGURES = (EXACT, KAPPA, "mae")
JUDGE_TABLE = {
    KAPPA: "kappa",
    RHO: "rho",
    EXACT: "exact",
    "within_one": "within one",
    "bias": "bias",
    "mae": "MAE",
}
COMPARED_EXTRAS = (INCORRECT_F1, INCORRECT_AUROC)


def judge_line(log: LoadedLog) -> str:
    """Who was measured, on which prompt: the grader role when bound, else the evaluated model."""
    judged = (
        "the evaluated model"
        if log.judge_label == log.model
        else f"the grader role; evaluated model: {log.model}"
    )
    return f"judge: {log.judge_label} ({judged}); prompt: {log.prompt_label}"


def header(log: LoadedLog) -> list[str]:
    return [
        f"{log.task} report: {log.path}",
        judge_line(log),
        f"{setting(log)}; epochs: {log.epochs}; "
        f"scale: {', '.join(f'{level:g}' for level in log.scale)}",
        *log.counts("claims" if log.task == "expert_qa_claims" else "answers"),
    ]


def floor_table(log: LoadedLog) -> Table | None:
    """The no-model floors a judge must beat, beside its figure they bound: a reference metric's
    rho beside its rho (a judge no better than ROUGE-L adds nothing over string overlap), the
    majority level's share beside its exact agreement."""
    assert log.log.results is not None
    rows: list[list[Cell]] = []
    for scorer in log.log.results.scores:
        for key, found in scorer.metrics.items():
            metric = parse_floor_key(key) if parse_juror_key(key) is None else None
            if metric is not None or key == MAJORITY_SHARE:
                floor, judge = (metric, RHO) if metric is not None else ("majority level", EXACT)
                value, judged = float(found.value), log.figures.get(judge, math.nan)
                rows.append([floor, judge, value, judged, judged - value])
    if not rows:
        return None
    return Table(
        "No-model floors (what the judge must beat)",
        ["floor", "compared with", "floor value", "judge", "judge - floor"],
        rows,
    )


def juror_table(log: LoadedLog) -> Table | None:
    """A bound panel's jurors, each measured alone against the humans; None for one judge."""
    jurors = juror_figures(log.verdicts)
    if not jurors:
        return None
    rows = [[juror, *figure_cells(values, JUDGE_TABLE)] for juror, values in jurors.items()]
    alpha = log.verdicts.get(ALPHA, math.nan)
    return Table(
        "Each juror alone (value [95% CI]); a juror is measured on every answer it graded, "
        "those the panel left unscored too",
        ["juror", *JUDGE_TABLE.values()],
        [["panel", *figure_cells(log.figures, JUDGE_TABLE)], *rows],
        [f"Jurors' ordinal Krippendorff's alpha with each other: {fmt(alpha)}."],
    )


def field_table(log: LoadedLog) -> Table | None:
    if not any(FIELD in meta for meta in log.metadata.values()):
        return None
    rows = [
        [label, n, *figure_cells(values, FIELD_FIGURES)]
        for label, n, values in group_agreement(log, FIELD)
    ]
    return Table(
        "By field (value [seeded bootstrap 95% CI] over each field's graded items)",
        [FIELD, "n", *FIELD_FIGURES],
        rows,
        ["Computed from the samples: the log's metrics hold no per-field figures."],
    )


def confusion_matrix(log: LoadedLog) -> np.ndarray:
    """Counts, rows the human level and columns the judge level, both in rising order; a level
    halfway between two counts half in each (see stats/levels.py), so a count can end in .5."""
    scale = log.scale
    return np.array(
        [[log.figures.get(confusion_key(h, j), 0.0) for j in scale] for h in scale], dtype=float
    )


def confusion_table(log: LoadedLog) -> Table:
    matrix = confusion_matrix(log)
    rows = [
        [f"{level:g}", *(f"{n:g}" for n in row), f"{row.sum():g}"]  # halves where counted
        for level, row in zip(log.scale, matrix, strict=True)
    ]
    note = (
        "A judge level halfway between two levels (a panel's or an epoch mean) counts half "
        "in each of their columns."
    )
    return Table(
        "Confusion matrix (rows: human level, columns: judge level)",
        ["human \\ judge", *(f"{level:g}" for level in log.scale), "total"],
        rows,
        [note] if (matrix % 1).any() else [],
    )


def judge_table(logs: Sequence[LoadedLog]) -> Table:
    """The judges side by side; for claims correctness judges also how well each finds the wrong
    claims, which kappa hides when nearly every claim is correct."""
    extras = [name for name in COMPARED_EXTRAS if all(name in log.figures for log in logs)]
    return per_log(
        logs,
        "Judges (value [95% CI: each log's seeded bootstrap])",
        [*JUDGE_TABLE.values(), *extras],
        lambda log: figure_cells(log.figures, [*JUDGE_TABLE, *extras]),
    )


def heatmap(log: LoadedLog) -> Heatmap:
    return Heatmap(
        filename=f"{log.path.stem}-confusion.png",
        title=f"{log.task}: {log.judge_label} vs human (n={log.scored})",
        levels=log.scale,
        matrix=confusion_matrix(log),
    )


def kappa_chart(logs: Sequence[LoadedLog]) -> IntervalChart:
    values, lows, highs = zip(*(figure(log.figures, KAPPA) for log in logs), strict=True)
    return IntervalChart(
        filename=f"{logs[0].path.stem}-judges.png",
        title=f"{logs[0].task}: quadratic kappa with the human levels (95% CI)",
        axis="quadratic weighted kappa",
        labels=labels(logs),
        values=values,
        lows=lows,
        highs=highs,
    )


def report(logs: Sequence[LoadedLog]) -> tuple[list[Block], list[Chart]]:
    charts: list[Chart] = [heatmap(log) for log in logs]
    if len(logs) > 1:
        differences = difference_table(
            logs, kappa_difference, "kappa difference", "the answers both graded"
        )
        blocks = comparison(logs, "judge", judge_table(logs), differences)
        return blocks, [*charts, kappa_chart(logs)]
    [log] = logs
    title = "Agreement with the human assessors (95% CI: the log's seeded bootstrap)"
    blocks = [*header(log), figure_table(title, log.figures, FIGURES)]
    stability = log.verdicts.get(EPOCH_AGREEMENT, math.nan)
    if not math.isnan(stability):
        blocks.append(f"epoch agreement (same level in every epoch): {fmt(stability)}")
    detection = [name for name in DETECTION_FIGURES if name in log.figures]  # claims tasks
    extras = figure_table("Wrong-claim detection", log.figures, detection) if detection else None
    optional = (floor_table(log), juror_table(log), extras, field_table(log))
    blocks += [table for table in optional if table is not None]
    blocks.append(confusion_table(log))
    return blocks, charts

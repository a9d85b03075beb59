"""The report on model logs (live_qa, expert_qa): the judge's mean level for each model."""

from __future__ import annotations

from collections.abc import Sequence

from liveqa_inspect.judging.verdicts import panel_figures
from liveqa_inspect.report.comparison import comparison, difference_table, labels, per_log, setting
from liveqa_inspect.report.loading import LoadedLog
from liveqa_inspect.report.plots import Chart, IntervalChart
from liveqa_inspect.report.stats import group_means, mean_difference
from liveqa_inspect.report.tables import Block, Cell, Table, fmt, interval
from liveqa_inspect.stats.bootstrap import Estimate, mean_estimate
from liveqa_inspect.stats.names import VERDICTS
from liveqa_inspect.stats.values import score_values
from liveqa_inspect.tasks.live_qa.metrics import level_shares

KIND = "model"
"""The kind of log this section reads (report/loading.py's `Kind`)."""

GROUPS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "live_qa": (
        ("focus_category", "By focus category", ""),
        (
            "question_types",
            "By question type",
            "A question of several types counts once in each of them: the n add up to more "
            "than the questions.",
        ),
    ),
    "expert_qa": (("field", "By field", ""),),
}
"""(sample metadata key, table title, note) of each task's per-group tables."""

SCALE = (0.0, 1.0)
"""The axis of the mean charts: the judges' levels of both model tasks run from 0 to 1."""


def header(log: LoadedLog) -> list[str]:
    return [
        f"{log.task} report: {log.path}",
        f"model: {log.model}; {setting(log)}; epochs: {log.epochs}",
        f"judge: {log.judge_label}; prompt: {log.prompt_label}",
        *log.counts("samples"),
    ]


def headline(log: LoadedLog) -> Estimate:
    """The judge's mean level and its interval, as the log's `mean` and `bootstrap_ci` state."""
    return mean_estimate(score_values(log.scores()))


def model_table(logs: Sequence[LoadedLog]) -> Table:
    def cells(log: LoadedLog) -> list[Cell]:
        mean = headline(log)
        return [log.judge_label, mean.value, interval(mean.low, mean.high)]

    title = "The judge's mean level (95% CI: the log's seeded bootstrap)"
    return per_log(logs, title, ["judge", "mean", "95% CI"], cells)


def level_table(log: LoadedLog) -> Table:
    note = (
        "A level between levels (a panel's or an epoch mean) counts at its nearest level, the "
        "lower one if halfway."
    )
    shares = level_shares(score_values(log.scores()), log.scale)
    return Table(
        "Level distribution (share of the scored samples)",
        ["level", "share"],
        [[f"{level:g}", share] for level, share in shares.items()],
        [note] if log.between_levels else (),
    )


def panel_table(log: LoadedLog) -> Table | None:
    panel = panel_figures(log.verdicts)
    if panel is None:
        return None
    return Table(
        "Panel: each juror's mean level, over every sample it graded",
        ["juror", "mean"],
        [[name, juror.mean] for name, juror in panel.jurors.items()],
        [f"Jurors' ordinal Krippendorff's alpha: {fmt(panel.alpha)} (1 when they always agree)."],
    )


def other_scorers(log: LoadedLog) -> Table | None:
    """The log's other scorers (live_qa's reference overlap), as their results state them."""
    assert log.log.results is not None
    others = [s for s in log.log.results.scores if s.name not in (log.scorer, VERDICTS)]
    if not others:
        return None
    names = list(dict.fromkeys(key for s in others for key in s.metrics))
    rows = [
        [s.name, *(float(s.metrics[n].value) if n in s.metrics else "" for n in names)]
        for s in others
    ]
    return Table("Other scorers", ["scorer", *names], rows)


def group_table(log: LoadedLog, key: str, title: str, note: str) -> Table:
    rows = [
        [label, estimate.n, estimate.value, interval(estimate.low, estimate.high)]
        for label, estimate in group_means(log, key)
    ]
    notes = [note] if note else []
    return Table(
        f"{title} (mean over each group's scored samples; seeded bootstrap 95% CI)",
        [key, "n", "mean", "95% CI"],
        rows,
        [*notes, "Computed from the samples: the log's metrics hold no per-group figures."],
    )


def means_chart(logs: Sequence[LoadedLog]) -> IntervalChart:
    """Named apart (`-models`, `-means`): a comparison is named after its first log and would
    otherwise overwrite that log's own chart."""
    means = [headline(log) for log in logs]
    return IntervalChart.of(
        f"{logs[0].path.stem}-{'models' if len(logs) > 1 else 'means'}.png",
        f"{logs[0].task}: the judge's mean level (95% CI)",
        "mean judge level",
        labels(logs),
        means,
        SCALE,
    )


def group_chart(log: LoadedLog, key: str, title: str) -> IntervalChart:
    rows = group_means(log, key)
    return IntervalChart.of(
        f"{log.path.stem}-{key}.png",
        f"{log.task} {log.model}: {title.lower()} (95% CI)",
        "mean judge level",
        [f"{label} (n={estimate.n})" for label, estimate in rows],
        [estimate for _, estimate in rows],
        SCALE,
    )


def report(logs: Sequence[LoadedLog]) -> tuple[list[Block], list[Chart]]:
    if len(logs) > 1:
        differences = difference_table(
            logs, mean_difference, "difference", "the samples both scored"
        )
        blocks = comparison(logs, logs[0].task, model_table(logs), differences)
        return blocks, [means_chart(logs)]
    [log] = logs
    groups = GROUPS.get(log.task, ())
    blocks = [*header(log), model_table(logs), level_table(log)]
    blocks += [t for t in (panel_table(log),) if t is not None]
    blocks += [group_table(log, key, title, note) for key, title, note in groups]
    blocks += [t for t in (other_scorers(log),) if t is not None]
    return blocks, [means_chart(logs), *(group_chart(log, key, title) for key, title, _ in groups)]

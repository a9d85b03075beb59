"""Judges compared on the same answers: one run's answers graded by each (`inspect score` on
copies of a `--no-score` log), the best-controlled comparison of judges there is, and what each
judge costs (docs/judge-cost.md)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from liveqa_inspect.judging.grade import JUDGE_ROLE
from liveqa_inspect.report import comparison as compare
from liveqa_inspect.report.cost import dollars, usages
from liveqa_inspect.report.loading import JUDGE_KINDS, LoadedLog
from liveqa_inspect.report.stats import mean_difference
from liveqa_inspect.report.tables import Block, Cell, Table, figure_cells, interval
from liveqa_inspect.stats.agreement import agreement_figures
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.stats.names import KAPPA

NOT_RECORDED = "not recorded"
COST_NOTE = f"{NOT_RECORDED}: the log holds no usage of the grader role"
COST = "judge cost ($)"
BETWEEN_JUDGES = (KAPPA, "exact_agreement")


def judge_cost(log: LoadedLog) -> str:
    """The grader role's cost; where none is bound, a log measuring a judge measures the
    evaluated model, so its cost is the model's."""
    roles, models = usages(log)
    found = roles.get(JUDGE_ROLE) or (models.get(log.model) if log.kind in JUDGE_KINDS else None)
    return NOT_RECORDED if found is None else dollars(found[1])


def cost_notes(table: Table) -> Table:
    """The table with a note on its unrecorded costs, if any."""
    unrecorded = any(NOT_RECORDED in row for row in table.rows)
    return Table(table.title, table.headers, table.rows, [COST_NOTE] if unrecorded else [])


def against_first(logs: compare.Logs) -> Table:
    """Each judge against the first on the answers both scored: the paired mean difference, and
    their agreement by the figures live_qa_judge measures a judge with, the first standing where
    the humans stand there."""
    first, names, rows = logs[0], compare.labels(logs), []
    for name, log in zip(names[1:], logs[1:], strict=True):
        pairs = np.array([(log.values.get(i, math.nan), v) for i, v in first.values.items()])
        both = pairs[~np.isnan(pairs.sum(axis=1))]
        pair = agreement_figures(*both.T, first.scale)
        mean = mean_difference(first, log)
        bounds = interval(mean.low, mean.high)
        rows.append([name, mean.value, bounds, *figure_cells(pair, BETWEEN_JUDGES), len(both)])
    title = f"Each judge against {names[0]} on the answers both scored (paired bootstrap 95% CI)"
    headers = ["judge", "mean difference", "95% CI", "kappa", "exact", "shared"]
    return Table(title, headers, rows)


def report(logs: compare.Logs, mean: Callable[[LoadedLog], Estimate]) -> list[Block]:
    """Each judge's `mean` level with its interval, unscored count and cost, then its paired
    difference from the first and their agreement."""

    def cells(log: LoadedLog) -> list[Cell]:
        estimate = mean(log)
        return [estimate.value, interval(estimate.low, estimate.high), judge_cost(log)]

    first = logs[0]
    title = "Each judge's mean level on the same answers (95% CI: the log's seeded bootstrap)"
    means = compare.per_log(logs, title, ["mean", "95% CI", COST], cells)
    blocks = compare.comparison(logs, first.task, cost_notes(means), against_first(logs))
    line = f"Judges on the same answers: {first.model}'s ({compare.setting(first)}), each log "
    return [line + "graded by another judge.", *blocks]

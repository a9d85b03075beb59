"""The report on live_qa_judge_robustness logs. Every figure is the metrics' own function on the
log's scores, so a printed figure is the log's; the same functions give what the log does not
hold: the pairs that moved most against expectation, and each judge's difference from the first."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence

import numpy as np

from liveqa_inspect.report import comparison as compare
from liveqa_inspect.report.loading import LoadedLog
from liveqa_inspect.report.plots import Chart, IntervalChart
from liveqa_inspect.report.tables import Block, Cell, Table, figure_cells, interval
from liveqa_inspect.stats.bootstrap import Estimate, estimate
from liveqa_inspect.stats.names import ROBUSTNESS, SENSITIVITY
from liveqa_inspect.tasks.robustness import metrics
from liveqa_inspect.tasks.robustness.perturbations import ORIGINAL, expected
from liveqa_inspect.versioned import label as text_label

KIND = "robustness"
HEADLINE = ORIGINAL
"""The level in a score's value that the report counts as the answer's: the original's."""
MOVED_ROWS = 10
EXCERPT_CHARS = 60
LABELS = {
    ROBUSTNESS: "robustness (unchanged where it should hold)",
    SENSITIVITY: "sensitivity (lowered where it should lower)",
}

Figures = dict[str, metrics.Pooled]


def label(name: str) -> str:
    return LABELS.get(name) or f"{name} ({metrics.SHARE[expected(name)]})"


def side_by_side(title: str, columns: dict[str, Figures]) -> Table:
    """The first column's figures as rows, judges or jurors as columns: seven perturbations as
    columns would not fit a terminal."""
    names = list(next(iter(columns.values())))
    cells = [figure_cells({n: p.share for n, p in c.items()}, names) for c in columns.values()]
    rows = [[label(n), *row] for n, row in zip(names, zip(*cells, strict=True), strict=True)]
    return Table(title, ["figure", *columns], rows)


def texts(log: LoadedLog) -> str:
    given = (log.log.eval.metadata or {}).get("perturbation_texts")
    return text_label(given) if isinstance(given, dict) else "unrecorded"


def settings(log: LoadedLog) -> dict[str, str]:
    """Versions perturbed with other texts are not comparable, as under another prompt."""
    return {"perturbation texts": texts(log)}


def header(log: LoadedLog) -> list[str]:
    args = log.log.eval.task_args
    return [
        f"{log.task} report: {log.path}",
        compare.judge_line(log),
        f"perturbation texts: {texts(log)}",
        f"{compare.setting(log)}; per grade: {args.get('per_grade')}; seed: {args.get('seed')}; "
        f"epochs: {log.epochs}",
        f"answers: {len(log.values)}, {log.unscored} with the original's verdict unreadable",
    ]


def shown(figure: Estimate) -> list[Cell]:
    return [figure.value, interval(figure.low, figure.high)]


def summary_table(found: Figures) -> Table:
    return Table(
        "Robustness and sensitivity (95% CI: answers resampled, each with all its pairs)",
        ["figure", "value", "95% CI", "pairs", "left out"],
        [[name, *shown(s.share), s.n, s.left_out] for name, s in found.items() if not s.shift],
        ["A constant judge is fully robust and has sensitivity 0: read the two together, and "
         "beside the judge's agreement with the humans (live_qa_judge)."],  # fmt: skip
    )


def perturbation_table(found: Figures) -> Table:
    return Table(
        "Perturbations (95% CI: the log's seeded paired bootstrap)",
        ["perturbation", "should", "pairs", "left out", "as expected", "95% CI", "mean shift",
         "shift 95% CI"],  # fmt: skip
        [[name, f"{expected(name)} ({metrics.SHARE[expected(name)]})", p.n, p.left_out,
          *shown(p.share), *shown(p.shift)] for name, p in found.items() if p.shift],  # fmt: skip
        ["left out: pairs with a verdict unreadable on either side. Mean shift: perturbed level "
         "minus the original's, above 0 where the perturbation pleased the judge."],  # fmt: skip
    )


def moved_table(log: LoadedLog) -> Table:
    """The pairs that moved against expectation (moved, and not the way they should), largest
    shift first."""
    scores, rows = log.scores(), []
    for name in metrics.asked(scores):
        read, _, move, _ = metrics.pairs(scores, name, np.asarray(log.scale))
        for i in np.flatnonzero(read & (move != 0) & (move != metrics.MOVE[expected(name)])):
            score, meta = scores[i], log.metadata[scores[i].sample_id]  # type: ignore[index]
            before, after = metrics.level(score, ORIGINAL), metrics.level(score, name)
            start = textwrap.shorten(str(meta["answer"]), EXCERPT_CHARS)
            rows.append([str(score.sample_id), name, f"{meta['human_level']:g}", before, after,
                         after - before, start])  # fmt: skip
    rows.sort(key=lambda row: (-abs(row[5]), row[0], row[1]))
    return Table(
        f"Pairs that moved most against expectation ({min(len(rows), MOVED_ROWS)} of {len(rows)})",
        ["answer", "perturbation", "human", "original", "perturbed", "shift", "answer (start)"],
        rows[:MOVED_ROWS],
        ["Against expectation: the level moved where it should have held, or rose where it "
         "should have fallen. Each answer's versions are in its sample's metadata."],  # fmt: skip
    )


def chart(filename: str, title: str, rows: dict[str, Estimate]) -> IntervalChart:
    values, lows, highs = zip(*((e.value, e.low, e.high) for e in rows.values()), strict=True)
    axis = "share of pairs as expected"
    return IntervalChart(filename, title, axis, list(rows), values, lows, highs, (0.0, 1.0))


def summary_difference(summary: str) -> Callable[[LoadedLog, LoadedLog], Estimate]:
    """`other`'s summary minus `first`'s over the answers both hold, each resample drawing the
    same answers (each with all its pairs) for both judges."""
    way = metrics.SUMMARIES[summary]

    def difference(first: LoadedLog, other: LoadedLog) -> Estimate:
        a, b = ({s.sample_id: s for s in log.scores()} for log in (first, other))
        ids = [i for i in a if i in b]
        theirs = metrics.asked(list(b.values()))
        names = [n for n in metrics.asked(list(a.values())) if n in theirs and expected(n) == way]
        scale = np.asarray(first.scale)
        mine, yours = (metrics.outcomes([s[i] for i in ids], names, scale)[:2] for s in (a, b))
        return estimate(lambda rows: metrics.pooled(*yours, rows) - metrics.pooled(*mine, rows),
                        len(ids))  # fmt: skip

    return difference


def report(logs: Sequence[LoadedLog]) -> tuple[list[Block], list[Chart]]:
    found = [metrics.robustness_figures(log.scores(), log.scale) for log in logs]
    if len(logs) > 1:
        names = compare.labels(logs)
        title = "Judges (value [95% CI: each log's seeded bootstrap])"
        judges = side_by_side(title, dict(zip(names, found, strict=True)))
        differences = [
            compare.difference_table(logs, summary_difference(summary), f"{summary} difference",
                                     "the answers both hold, each with all its pairs")  # fmt: skip
            for summary in metrics.SUMMARIES
        ]
        blocks = compare.comparison(logs, "robustness", judges, differences[0])
        shares = {f"{name}: {summary}": each[summary].share
                  for name, each in zip(names, found, strict=True)
                  for summary in metrics.SUMMARIES}  # fmt: skip
        title = f"{logs[0].task}: robustness and sensitivity of each judge (95% CI)"
        filename = f"{logs[0].path.stem}-robustness-judges.png"
        return [*blocks, *differences[1:]], [chart(filename, title, shares)]
    [log], [one] = logs, found
    blocks: list[Block] = [*header(log), summary_table(one), perturbation_table(one)]
    jurors = {j: metrics.robustness_figures(alone, log.scale)
              for j, alone in metrics.juror_scores(log.scores()).items()}  # fmt: skip
    if jurors:
        blocks.append(side_by_side("Each juror alone (value [95% CI])", {"panel": one, **jurors}))
    title = f"{log.task}: {log.judge_label}, share as expected (95% CI)"
    shares = {label(name): pooled.share for name, pooled in one.items()}
    return [*blocks, moved_table(log)], [chart(f"{log.path.stem}-robustness.png", title, shares)]

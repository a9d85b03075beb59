"""The report on live_qa_judge_robustness logs. Every figure is the metrics' own function on the
log's scores, so a printed figure is the log's; the same functions give what the log does not
hold: the pairs that moved most against expectation, and each judge's difference from the first."""

import math
import textwrap
from collections.abc import Sequence
from functools import partial

import numpy as np

from liveqa_inspect.report import card as frame
from liveqa_inspect.report import comparison as compare
from liveqa_inspect.report.counts import count_lines
from liveqa_inspect.report.loaded import LoadedLog, SampleId
from liveqa_inspect.report.plots import Chart, IntervalChart
from liveqa_inspect.report.tables import Block, Table, figure_cell, value_ci
from liveqa_inspect.stats.bootstrap import Estimate, estimate
from liveqa_inspect.tasks.live_qa.report import setting
from liveqa_inspect.tasks.robustness import metrics
from liveqa_inspect.tasks.robustness.dataset import ORIGINAL, PERTURBATIONS, Expect, expected
from liveqa_inspect.versioned import label as text_label

KIND, NOUN, HUMAN_LEVELS = "robustness", "answers", True
HEADLINE = ORIGINAL  # the level in a score's value that the counts read as the answer's
MOVED_ROWS = 10
EXCERPT_CHARS = 60

CARD_COLUMNS = {"hold": "most moved (should hold)", "lower": "most not lowered (should lower)"}


def label(name: str) -> str:
    way = metrics.SUMMARIES.get(name) or expected(name)
    where = f" where it should {way}" if name in metrics.SUMMARIES else ""
    return f"{name} ({metrics.SHARE[way]}{where})"


def side_by_side(title: str, columns: dict[str, metrics.Shares]) -> Table:
    """Figures as rows (seven perturbations as columns would not fit a terminal), each with the
    pairs it read: one column may have read fewer, or not run a perturbation at all."""
    ran = {name for figures in columns.values() for name in figures}
    names = [*metrics.SUMMARIES, *(name for name in PERTURBATIONS if name in ran)]

    def shown(figures: metrics.Shares, name: str) -> str:
        found = figures.get(name)
        return "not run" if found is None else f"{figure_cell(found.share)} n={found.n}"

    rows = [[label(name), *(shown(column, name) for column in columns.values())] for name in names]
    return Table(title, ["figure", *columns], rows)


def settings(log: LoadedLog) -> dict[str, str]:
    """Versions perturbed with other texts are not comparable, as under another prompt."""
    return {"perturbation texts": text_label(log.log.eval.metadata["perturbation_texts"])}


def header(log: LoadedLog) -> list[str]:
    args = log.log.eval.task_args
    unread, errored = metrics.unread_epochs(log.scores()), log.left_out["errored"]
    epochs = f"epochs left out of a version's mean: {unread} unreadable, {errored} errored"
    return [
        compare.judge_line(log),
        *(f"{name}: {value}" for name, value in settings(log).items()),
        f"{setting(log)}; per grade: {args.get('per_grade')}; seed: {args.get('seed')}; "
        f"epochs: {log.epochs}",
        count_lines(log)[0],  # the frame's epochs line counts the original's alone
        *([epochs] if unread or errored else []),
    ]


def should(name: str) -> str:
    return f"{expected(name)} ({metrics.SHARE[expected(name)]})"


def summary_table(found: metrics.Shares) -> Table:
    title = "Robustness and sensitivity (95% CI: answers resampled, each with all its pairs)"
    rows = [[name, *value_ci(s.share), s.n, s.left_out] for name, s in found.items() if not s.shift]
    note = (
        "A constant judge is fully robust and has sensitivity 0: read the two together, and "
        "beside the judge's agreement with the humans (live_qa_judge)."
    )
    return Table(title, ["figure", "value", "95% CI", "pairs", "left out"], rows, [note])


def perturbation_table(log: LoadedLog, found: metrics.Shares) -> Table:
    # An errored answer has no score: its pairs are neither read nor left out in the log.
    lost = [len(meta["versions"]) for i, meta in log.metadata.items() if i not in log.values]
    errored = f" The {sum(lost)} pairs of the {len(lost)} errored answers are in neither count."
    rows = [
        [name, should(name), p.n, p.left_out, *value_ci(p.share), *value_ci(p.shift)]
        for name, p in found.items()
        if p.shift
    ]
    headers = ["perturbation", "should", "pairs", "left out", "as expected", "95% CI"]
    note = (
        "left out: pairs with a verdict unreadable on either side."
        + (errored if lost else "")
        + " Mean shift: perturbed level minus the original's, above 0 where the perturbation "
        "pleased the judge."
    )
    title = "Perturbations (95% CI: the log's seeded paired bootstrap)"
    return Table(title, [*headers, "mean shift", "shift 95% CI"], rows, [note])


def moved_table(log: LoadedLog) -> Table:
    """Pairs that moved, and not the way they should: the largest shift first."""
    scores, rows = log.scores(), []
    for name in metrics.asked(scores):
        read, _, move, _ = metrics.pairs(scores, name, log.scale)
        for i in np.flatnonzero(read & (move != 0) & (move != metrics.MOVE[expected(name)])):
            score, meta = scores[i], log.metadata[scores[i].sample_id]  # type: ignore[index]
            before, after = metrics.level(score, ORIGINAL), metrics.level(score, name)
            start = textwrap.shorten(str(meta["answer"]), EXCERPT_CHARS)
            human = f"{meta['human_level']:g}"
            rows.append([str(score.sample_id), name, human, before, after, after - before, start])
    rows.sort(key=lambda row: (-abs(row[5]), row[0], row[1]))
    return Table(
        f"Pairs that moved most against expectation ({min(len(rows), MOVED_ROWS)} of {len(rows)})",
        ["answer", "perturbation", "human", "original", "perturbed", "shift", "answer (start)"],
        rows[:MOVED_ROWS],
        [
            "Against expectation: the level moved where it should have held, or rose where it "
            "should have fallen. Each answer's versions are in its sample's metadata."
        ],
    )


def chart(filename: str, title: str, rows: dict[str, Estimate]) -> IntervalChart:
    axis = "share of pairs as expected"
    return IntervalChart(filename, title, axis, list(rows), list(rows.values()), (0.0, 1.0))


def paired(first: LoadedLog, other: LoadedLog) -> tuple[list[SampleId], list[str], int]:
    """The answers both logs hold, the perturbations both ran, and how many of those answers the
    two perturbed otherwise (another seed draws other texts): their pairs are not the same."""
    theirs = metrics.asked(other.scores())
    names = [name for name in metrics.asked(first.scores()) if name in theirs]
    ids = [i for i in first.values if i in other.values]
    mine, yours = ([log.metadata[i]["versions"] for i in ids] for log in (first, other))
    otherwise = [any(a.get(n) != b.get(n) for n in names) for a, b in zip(mine, yours, strict=True)]
    return ids, names, sum(otherwise)


def summary_difference(summary: str, first: LoadedLog, other: LoadedLog) -> Estimate:
    """`other`'s summary minus `first`'s over the answers both hold and the perturbations both
    ran, each resample drawing the same answers (each with all its pairs) for both judges."""
    ids, names, otherwise = paired(first, other)
    if otherwise:
        return Estimate(math.nan)
    group = [n for n in names if expected(n) == metrics.SUMMARIES[summary]]
    scores = [{s.sample_id: s for s in log.scores()} for log in (first, other)]
    mine, yours = (metrics.outcomes([s[i] for i in ids], group, first.scale)[:2] for s in scores)
    return estimate(
        lambda rows: metrics.pooled(*yours, rows) - metrics.pooled(*mine, rows), len(ids)
    )


def pairing(logs: Sequence[LoadedLog]) -> list[str]:
    """Said before the tables: a paired difference pools the perturbations both logs ran, on
    answers both perturbed alike."""
    ran = {", ".join(metrics.asked(log.scores())) for log in logs}
    lines = ["note: a paired difference pools the perturbations both logs ran."] * (len(ran) > 1)
    for log in logs[1:]:
        ids, _, otherwise = paired(logs[0], log)
        seeds = " and ".join(str(each.log.eval.task_args.get("seed")) for each in (logs[0], log))
        if otherwise:
            lines.append(
                f"WARNING: {log.path.name} perturbed {otherwise} of the {len(ids)} answers it "
                f"shares with {logs[0].path.name} otherwise (seeds {seeds}): their pairs are not "
                "the same, so no paired difference from it is shown."
            )
    return lines


def report(logs: Sequence[LoadedLog]) -> tuple[list[Block], list[Chart]]:
    found = [metrics.robustness_figures(log.scores(), log.scale) for log in logs]
    if len(logs) > 1:
        names = compare.labels(logs)
        title = "Judges (value [95% CI: each log's seeded bootstrap] n=pairs read)"
        judges = side_by_side(title, dict(zip(names, found, strict=True)))
        over = "the answers both hold, each with all its pairs"
        differences = [
            compare.difference_table(logs, partial(summary_difference, s), f"{s} difference", over)
            for s in metrics.SUMMARIES
        ]
        blocks = compare.comparison(logs, "robustness", judges, *differences, notes=pairing(logs))
        shares = {
            f"{name}: {summary}": each[summary].share
            for name, each in zip(names, found, strict=True)
            for summary in metrics.SUMMARIES
        }
        title = f"{logs[0].task}: robustness and sensitivity of each judge (95% CI)"
        return blocks, [chart(compare.figure_name(logs, "robustness-judges"), title, shares)]
    [log], [one] = logs, found
    blocks: list[Block] = [*header(log), summary_table(one), perturbation_table(log, one)]
    jurors = metrics.juror_figures(log.scores(), log.scale)
    if jurors:
        title = "Each juror alone (value [95% CI] n=pairs read)"
        blocks.append(side_by_side(title, {"panel": one, **jurors}))
    title = f"{log.task}: {log.judge_label}, share as expected (95% CI)"
    shares = {label(name): pooled.share for name, pooled in one.items()}
    return [*blocks, moved_table(log)], [chart(f"{log.path.stem}-robustness.png", title, shares)]


def worst(found: metrics.Shares, way: Expect) -> str:
    """The perturbation expected to `way` whose pairs went most against it, named, with the share
    that did: its share as expected, from the log's own figure, turned the other way."""
    shares = {n: p.share for n, p in found.items() if p.shift and expected(n) == way}
    shares = {n: share for n, share in shares.items() if not math.isnan(share.value)}
    if not shares:
        return "none read"
    name, share = min(shares.items(), key=lambda item: item[1].value)
    against = Estimate(1 - share.value, 1 - share.high, 1 - share.low, share.n)
    return f"{name} {figure_cell(against)}"


def card(logs: Sequence[LoadedLog], references: Sequence[str]) -> list[frame.Part]:
    """The judge card's columns: the largest share of pairs moved by a perturbation that should
    hold the level, and the largest share not lowered by one that should lower it."""
    judges, rows = frame.judges(logs), {}
    for name, log in judges.items():
        found = metrics.robustness_figures(log.scores(), log.scale)
        rows[name] = [worst(found, way) for way in CARD_COLUMNS]
    title = f"{logs[0].task}: the perturbation that went most against the expected move"
    return [frame.Part(title, list(CARD_COLUMNS.values()), rows, judges)]

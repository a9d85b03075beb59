"""The report on live_qa_judge_robustness logs. Every figure is the metrics' own function on the
log's scores, so a printed figure is the log's; the same functions give what the log does not
hold: the pairs that moved most against expectation, and each judge's difference from the first."""

import textwrap
from collections.abc import Sequence
from functools import partial

import numpy as np

from liveqa_inspect.report import card as frame
from liveqa_inspect.report import comparison as compare
from liveqa_inspect.report.graded import paired
from liveqa_inspect.report.loaded import LoadedLog, Logs, Report, Section
from liveqa_inspect.report.plots import Charted, IntervalChart
from liveqa_inspect.report.tables import NOT_STATED, Block, Table, figure_cell, value_ci
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.tasks.live_qa.report import setting
from liveqa_inspect.tasks.live_qa_judge.report import NIST
from liveqa_inspect.tasks.robustness import metrics
from liveqa_inspect.tasks.robustness.dataset import ORIGINAL, PERTURBATIONS, Expect, expected
from liveqa_inspect.versioned import label as text_label

MOVED_ROWS = 10
EXCERPT_CHARS = 60
AXIS, LIMITS = "share of pairs as expected", (0.0, 1.0)
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

    def shown(found: metrics.Pooled | None) -> str:
        return "not run" if found is None else f"{figure_cell(found.share)} n={found.n}"

    rows = [[label(n), *(shown(figures.get(n)) for figures in columns.values())] for n in names]
    return Table(title, ["figure", *columns], rows)


def settings(log: LoadedLog) -> dict[str, str]:
    """Versions perturbed with other texts are not comparable, as under another prompt."""
    return {"perturbation texts": text_label(log.log.eval.metadata["perturbation_texts"])}


def figure_tables(log: LoadedLog, found: metrics.Shares) -> list[Table]:
    title = "Robustness and sensitivity (95% CI: answers resampled, each with all its pairs)"
    rows = [[name, *value_ci(s.share), s.n, s.left_out] for name, s in found.items() if not s.shift]
    note = (
        "A constant judge is fully robust and has sensitivity 0: read the two together, and "
        "beside the judge's agreement with the humans (live_qa_judge)."
    )
    summary = Table(title, ["figure", "value", "95% CI", "pairs", "left out"], rows, [note])
    # An errored answer has no score: its pairs are neither read nor left out in the log.
    lost = [len(i.metadata["versions"]) for i in log.items if i.status == "errored"]
    errored = f" The {sum(lost)} pairs of the {len(lost)} errored answers are in neither count."
    rows = [
        [name, f"{expected(name)} ({metrics.SHARE[expected(name)]})", p.n, p.left_out]
        + [*value_ci(p.share), *value_ci(p.shift)]
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
    return [summary, Table(title, [*headers, "mean shift", "shift 95% CI"], rows, [note])]


def moved_table(log: LoadedLog) -> Table:
    scores, rows = log.scores(), []
    for name in metrics.asked(scores):
        read, _, move, _ = metrics.pairs(scores, name, log.scale)
        for i in np.flatnonzero(read & (move != 0) & (move != metrics.MOVE[expected(name)])):
            score, meta = scores[i], scores[i].sample_metadata or {}  # type: ignore[index]
            before, after = metrics.level(score, ORIGINAL), metrics.level(score, name)
            start = textwrap.shorten(str(meta["answer"]), EXCERPT_CHARS)
            human = f"{meta['human_level']:g}"
            rows.append([str(score.sample_id), name, human, before, after, after - before, start])
    shown = sorted(rows, key=lambda row: (-abs(row[5]), row[0], row[1]))[:MOVED_ROWS]
    title = f"Pairs that moved most against expectation ({len(shown)} of {len(rows)})"
    headers = ["answer", "perturbation", "human", "original", "perturbed", "shift"]
    note = (
        "Against expectation: the level moved where it should have held, or rose where it "
        "should have fallen. Each answer's versions are in its sample's metadata."
    )
    return Table(title, [*headers, "answer (start)"], shown, [note])


def otherwise(pairs: compare.Pairs) -> int:
    """How many answers both logs perturbed otherwise (another seed draws other texts)."""
    sides = [[pair[n].score for pair in pairs if pair[n].score] for n in (0, 1)]
    names = set(metrics.asked(sides[0])) & set(metrics.asked(sides[1]))
    versions = [[pair[n].metadata["versions"] for n in (0, 1)] for pair in pairs]
    return sum(any(a.get(n) != b.get(n) for n in names) for a, b in versions)


def summary_difference(summary: str, scale: Sequence[float], pairs: compare.Pairs) -> Estimate:
    """The second judge's summary minus the first's; none where the two perturbed otherwise."""
    if otherwise(pairs):
        return NOT_STATED
    first, other = ([pair[n].score for pair in pairs] for n in (0, 1))
    return metrics.summary_difference(first, other, summary, scale)  # type: ignore[arg-type]


def pairing(logs: Logs) -> list[str]:
    """A paired difference pools the perturbations both logs ran, on answers perturbed alike."""
    ran = {", ".join(metrics.asked(log.scores())) for log in logs}
    lines = ["note: a paired difference pools the perturbations both logs ran."] * (len(ran) > 1)
    for log in logs[1:]:
        held = paired(logs[0].items, log.items, "answer", held=True)
        seeds = " and ".join(str(each.log.eval.task_args.get("seed")) for each in (logs[0], log))
        if moved := otherwise(held):
            lines.append(
                f"WARNING: {log.path.name} perturbed {moved} of the {len(held)} answers it "
                f"shares with {logs[0].path.name} otherwise (seeds {seeds}): their pairs are not "
                "the same, so no paired difference from it is shown."
            )
    return lines


def report(logs: Logs) -> Report:
    found = [metrics.robustness_figures(log.scores(), log.scale) for log in logs]
    if len(logs) > 1:
        columns = dict(zip(compare.labels(logs), found, strict=True))
        title = "Judges (value [95% CI: each log's seeded bootstrap] n=pairs read)"
        judges = side_by_side(title, columns)
        scale = logs[0].scale
        differences = [
            compare.difference_table(logs, partial(summary_difference, s, scale), f"{s} difference")
            for s in metrics.SUMMARIES
        ]
        blocks = compare.comparison(logs, "robustness", judges, *differences, notes=pairing(logs))
        rows = [
            Charted(f"{name}: {summary}", each[summary].share)
            for name, each in columns.items()
            for summary in metrics.SUMMARIES
        ]
        title = f"{logs[0].task}: robustness and sensitivity of each judge (95% CI)"
        filename = compare.figure_name(logs, "robustness-judges")
        return blocks, [IntervalChart(filename, title, AXIS, rows, LIMITS)]
    [log], [one] = logs, found
    args, errored = log.log.eval.task_args, log.left_out["errored"]
    unread = metrics.unread_epochs(log.scores())
    left_out = f"epochs left out of a version's mean: {unread} unreadable, {errored} errored"
    blocks: list[Block] = [
        compare.judge_line(log),
        *(f"{name}: {value}" for name, value in settings(log).items()),
        f"{setting(log)}; per grade: {args.get('per_grade')}; seed: {args.get('seed')}; "
        f"epochs: {log.epochs}",
        log.count_lines()[0],  # the frame's epochs line counts the original's alone
        *[left_out] * bool(unread or errored),
        *figure_tables(log, one),
    ]
    if jurors := metrics.juror_figures(log.scores(), log.scale):
        title = "Each juror alone (value [95% CI] n=pairs read)"
        blocks.append(side_by_side(title, {"panel": one, **jurors}))
    title = f"{log.task}: {log.judge_label}, share as expected (95% CI)"
    rows = [Charted(label(name), pooled.share) for name, pooled in one.items()]
    filename = f"{log.path.stem}-robustness.png"
    figure = IntervalChart(filename, title, AXIS, rows, LIMITS, beside=log.path)
    return [*blocks, moved_table(log)], [figure]


def worst(found: metrics.Shares, way: Expect) -> str:
    """The perturbation expected to `way` whose pairs went most against it: the log's own share
    as expected, turned the other way. A share is undefined exactly where no pair was read."""
    shares = {name: p for name, p in found.items() if p.shift and p.n and expected(name) == way}
    if not shares:
        return "none read"
    name, pooled = min(shares.items(), key=lambda item: item[1].share.value)
    share, n = pooled.share, sum(p.n for p in shares.values())
    if share.value == 1:
        return f"{'moved' if way == 'hold' else 'unlowered'} none (n={n})"
    against = Estimate(1 - share.value, 1 - share.high, 1 - share.low, share.n)
    return f"{name} {figure_cell(against)} n={pooled.n}"


def card(judges: frame.Judges, _: Sequence[str], __: Logs) -> list[frame.Part]:
    logs = list(judges.values())
    figures = {name: metrics.robustness_figures(g.scores(), g.scale) for name, g in judges.items()}
    rows = {name: [worst(found, way) for way in CARD_COLUMNS] for name, found in figures.items()}
    title = f"{logs[0].task}: the perturbation that went most against the expected move"
    notes = [w for w in compare.warnings(logs) if w.startswith("WARNING")]
    return [frame.Part(title, list(CARD_COLUMNS.values()), rows, judges, notes=notes)]


SECTION = Section(
    "robustness", "answers", setting, report, NIST, headline=ORIGINAL, settings=settings, card=card
)

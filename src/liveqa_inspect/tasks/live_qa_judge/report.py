"""The report on live_qa_judge logs (and, through tasks/expert_qa/claims_report.py,
expert_qa_claims'): a judge's agreement with the humans, each figure from the table's items by the
function its metric calls, also those the log lacks."""

import math
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from liveqa_inspect.judging.verdicts import epoch_figures, panel_figures
from liveqa_inspect.report import card as frame
from liveqa_inspect.report import comparison as compare
from liveqa_inspect.report.cost import per_judge
from liveqa_inspect.report.graded import Item, group_members
from liveqa_inspect.report.loaded import LoadedLog, Logs, Report, Section
from liveqa_inspect.report.plots import Charted, Heatmap, IntervalChart
from liveqa_inspect.report.tables import Block, Table, figure_cell, figure_cells, figure_table, fmt
from liveqa_inspect.stats import agreement as agree
from liveqa_inspect.stats.bootstrap import Estimate, Figures
from liveqa_inspect.stats.names import INCORRECT_AUROC, INCORRECT_F1, KAPPA, level_name
from liveqa_inspect.tasks.expert_qa.claims_metrics import detection, majority
from liveqa_inspect.tasks.live_qa.report import agreement as judges_agreement
from liveqa_inspect.tasks.live_qa.report import setting as setting

FIELD, RHO, EXACT = "field", "spearman_rho", "exact_agreement"
NIST = ("NIST", "the NIST assessors")
JUDGE_TABLE = {KAPPA: "kappa", RHO: "rho", EXACT: "exact", "within_one": "within one"}
JUDGE_TABLE |= {"bias": "bias", "mae": "MAE"}
FLOOR_SCORERS = ("reference_floor", "claim_passage_overlap")
"""The scorers whose `reference_spearman` metric states each reference metric's rho."""
CARD_FLOOR, NO_FLOOR = "rouge_l", (RHO, math.nan)  # the floor the card shows beside the rho
KAPPA_AXIS = "quadratic weighted kappa"
Detects = Callable[[LoadedLog], bool]
"""Whether a log's judge rates claims' correctness, whose wrong-claim detection is shown."""


def levels(items: Sequence[Item]) -> tuple[np.ndarray, np.ndarray]:
    """The judge's and the humans' levels of the items."""
    return np.array([i.value for i in items], float), np.array([i.human for i in items], float)


def agreement(log: LoadedLog, items: Sequence[Item] | None = None) -> Figures:
    """As the log's `agreement` metric states them (over `items`, some of the log's)."""
    found = levels(log.scored_items() if items is None else items)
    return agree.agreement_figures(*found, log.scale)


def wrong_claims(log: LoadedLog, detects: Detects) -> Figures:
    """As a claims correctness judge's `wrong_claim_detection` states them (no interval), which
    kappa hides when nearly every claim is correct; empty for other logs."""
    found = detection(*levels(log.scored_items())) if detects(log) else {}
    return {name: Estimate(value, n=log.scored) for name, value in found.items()}


def kappa_difference(pairs: Sequence[tuple[Item, Item]], scale: Sequence[float]) -> Estimate:
    """The second judge's quadratic kappa minus the first's over the answers both graded, both
    against the human levels of the first log, each resample drawing the same answers for both."""
    first, other = (np.array([pair[n].value for pair in pairs]) for n in (0, 1))
    return agree.kappa_difference(first, other, np.array([a.human for a, _ in pairs]), scale)


def floors(log: LoadedLog, detects: Detects) -> dict[str, tuple[str, float]]:
    """The no-model floors by name, each with the judge's figure it bounds, on the answers the
    judge scored (its figures are over those): a judge no better than ROUGE-L's rho adds nothing
    over string overlap; the majority level's share bounds exact agreement."""
    scored = log.scored_items()
    found = {
        name: (RHO, rho)
        for scorer in FLOOR_SCORERS
        if scored and all(scorer in item.scores for item in scored)
        for name, rho in agree.reference_rhos([item.scores[scorer] for item in scored]).items()
    }
    if detects(log):
        found = {"majority level": (EXACT, majority(levels(scored)[1])), **found}
    return found


def optional_tables(log: LoadedLog, judge: Figures, detects: Detects) -> list[Table]:
    """Where the log has them: floors, each juror alone, wrong-claim detection, fields."""
    found = []
    bounded = floors(log, detects).items()  # each floor, the judge's figure f it bounds, value v
    if rows := [[name, f, v, judge[f].value, judge[f].value - v] for name, (f, v) in bounded]:
        title = f"No-model floors (what the judge must beat), on the {log.scored} answers it scored"
        headers = ["floor", "compared with", "floor value", "judge", "judge - floor"]
        found.append(Table(title, headers, rows))
    if panel := panel_figures(log.verdicts):
        jurors = [("panel", judge), *((name, j.agreement) for name, j in panel.jurors.items())]
        title = "Each juror alone (value [95% CI]); a juror is measured on every answer it graded, "
        title += "those the panel left unscored too"
        rows = [[name, *figure_cells(figures, JUDGE_TABLE)] for name, figures in jurors]
        alpha = f"Jurors' ordinal Krippendorff's alpha with each other: {fmt(panel.alpha)}."
        found.append(Table(title, ["juror", *JUDGE_TABLE.values()], rows, [alpha]))
    if wrong := wrong_claims(log, detects):
        found.append(figure_table("Wrong-claim detection", wrong, list(wrong)))
    if any(FIELD in item.metadata for item in log.items):
        figures, groups = (EXACT, KAPPA, "mae"), group_members(log.scored_items(), FIELD)
        rows = [[n, len(g), *figure_cells(agreement(log, g), figures)] for n, g in groups.items()]
        title = "By field (value [seeded bootstrap 95% CI] over each field's graded items)"
        note = "Computed from the samples: the log's metrics hold no per-field figures."
        found.append(Table(title, [FIELD, "n", *figures], rows, [note]))
    return found


def confusion(log: LoadedLog) -> tuple[Table, Heatmap]:
    matrix = agree.confusion_matrix(log.scores(), log.scale)
    names = [level_name(level) for level in log.scale]
    rows = [[n, *(f"{c:g}" for c in r), f"{r.sum():g}"] for n, r in zip(names, matrix, strict=True)]
    note = "A judge level between two levels (a panel's or an epoch mean) counts in the column of"
    notes = [f"{note} its nearest level, the lower one if halfway."] if log.between_levels else []
    title = "Confusion matrix (rows: human level, columns: judge level)"
    table = Table(title, ["human \\ judge", *names, "total"], rows, notes)
    title = f"{log.task}: {log.judge_label} vs human (n={log.scored})"
    return table, Heatmap(f"{log.path.stem}-confusion.png", title, log.scale, matrix, log.path)


def report(logs: Logs, detects: Detects) -> Report:
    log, judges = logs[0], [agreement(log) for log in logs]
    tables, charts = zip(*map(confusion, logs), strict=True)
    if len(logs) > 1:
        difference = partial(kappa_difference, scale=log.scale)
        differences = compare.difference_table(logs, difference, "kappa difference")
        # Claims correctness judges with how well each finds wrong claims.
        both = all(map(detects, logs))
        names = [*JUDGE_TABLE, *((INCORRECT_F1, INCORRECT_AUROC) if both else ())]
        pairs = zip(logs, judges, strict=True)
        found = {g.path: {**j, **wrong_claims(g, detects)} for g, j in pairs}
        title = "Judges (value [95% CI: each log's seeded bootstrap]) and what each cost"
        headers = [JUDGE_TABLE.get(name, name) for name in names]
        table = per_judge(logs, title, headers, lambda g: figure_cells(found[g.path], names))
        title = f"{log.task}: quadratic kappa with the human levels (95% CI)"
        rows = [*map(Charted, compare.labels(logs), [judge[KAPPA] for judge in judges])]
        chart = IntervalChart(compare.figure_name(logs, "judges"), title, KAPPA_AXIS, rows)
        return compare.comparison(logs, "judge", table, differences), [*charts, chart]
    title = "Agreement with the human assessors (95% CI: the log's seeded bootstrap)"
    scale, epochs = ", ".join(map(level_name, log.scale)), epoch_figures(log.verdicts)
    blocks: list[Block] = [
        compare.judge_line(log),
        f"{log.section.setting(log)}; epochs: {log.epochs}; scale: {scale}",
        *log.count_lines(),
        figure_table(title, judges[0], agree.FIGURES),
    ]
    if epochs is not None and not math.isnan(epochs.agreement):
        blocks.append(f"epoch agreement (same level in every epoch): {fmt(epochs.agreement)}")
    return [*blocks, *optional_tables(log, judges[0], detects), tables[0]], list(charts)


def ranked(logs: Logs, names: Sequence[str], noun: str) -> tuple[dict[str, str], str]:
    """Each judge's kappa from the best one's over the answers every judge scored (paired), in
    words, and how to read it; no `best` among judges tied at the top, none where the judges'
    logs differ in a setting (their figures are not of one measurement)."""
    if differ := compare.differing_settings(logs):
        return {}, (
            f"{noun} kappa vs best: not ranked, as the judges' logs differ in "
            f"{', '.join(differ)}: their figures are not of one measurement."
        )
    keys = compare.shared(logs)
    note = (
        f"{noun} kappa vs best: a judge's quadratic kappa minus the highest one's, over the "
        f"{len(keys)} answers every judge scored (paired bootstrap 95% CI): worse or better "
        "where the interval excludes 0, else tied; `tied` for all judges at the top where "
        "several share it."
    )
    if not keys:
        return dict.fromkeys(names, "no answer every judge scored"), note
    scored = [{item.answer: item for item in log.scored_items()} for log in logs]
    kept = [[found[key] for key in keys] for found in scored]
    kappas = [agreement(log, items)[KAPPA].value for log, items in zip(logs, kept, strict=True)]
    ranks = np.nan_to_num(kappas, nan=-np.inf)
    best = np.flatnonzero(ranks == ranks.max())
    found = dict.fromkeys([names[n] for n in best], "tied" if len(best) > 1 else "best")
    for n in np.flatnonzero(ranks < ranks.max()):
        difference = kappa_difference(list(zip(kept[best[0]], kept[n], strict=True)), logs[0].scale)
        words = "worse" if difference.high < 0 else "better" if difference.low > 0 else "tied"
        found[names[n]] = f"{figure_cell(difference)} {words}"
    return found, note


def card(
    judges: frame.Judges, references: Sequence[str], _: Logs, detects: Detects
) -> list[frame.Part]:
    """The judge card's columns of these logs, each over the answers it states: ROUGE-L's rho
    (the floor) beside each judge's, `above` it only beyond noise; where several judges ran of one
    measurement, each one's paired kappa difference from the best over the answers all scored."""
    logs = list(judges.values())
    noun, several = logs[0].humans, len(logs) > 1
    floor_of = {n: floors(g, detects).get(CARD_FLOOR, NO_FLOOR)[1] for n, g in judges.items()}
    shown = not all(map(math.isnan, floor_of.values()))
    versus, ranking = ranked(logs, list(judges), noun) if several else ({}, "")
    rows, charted = {}, []
    for name, log in judges.items():
        judge, floor = agreement(log), floor_of[name]
        beyond = "above" if (low := judge[RHO].low) > floor else "not beyond CI"
        beyond = "n/a" if math.isnan(low) or math.isnan(floor) else beyond
        cells = [figure_cell(judge[KAPPA]), figure_cell(judge[RHO])]
        cells += [fmt(floor), beyond] if shown else []
        cells += [figure_cell(judge["bias"]), log.scored]
        rows[name] = cells + ([versus.get(name, "not ranked")] if several else [])
        charted += [Charted(f"{name}: {noun} kappa", judge[KAPPA], name)]
        charted += [Charted(f"{name}: {noun} rho", judge[RHO], name, floor)]
    columns = [f"{noun} kappa", f"{noun} rho"]
    columns += [f"{noun} ROUGE-L floor", f"{noun} rho vs floor"] if shown else []
    columns += [f"{noun} bias", f"{noun} answers scored"]
    columns += [f"{noun} kappa vs best (paired)"] if several else []
    notes = [
        f"{noun} ROUGE-L floor: ROUGE-L's rho with the human levels on the answers the judge "
        "scored, the answers its rho is over."
    ] * shown
    notes += [ranking] * several
    notes += [w for w in compare.warnings(logs) if w.startswith(("WARNING", "note"))]
    title = f"{logs[0].task}: agreement with {noun} ({logs[0].section.setting(logs[0])})"
    part = frame.Part(title, columns, rows, judges, charted, notes)
    return [part, *frame.reference_part(judges, references, judges_agreement, noun)]


def section(
    humans: tuple[str, str], noun: str, items: Callable[[LoadedLog], str], detects: Detects
) -> Section:
    """live_qa_judge's section, and expert_qa_claims' with its own humans, noun and setting."""
    found = partial(report, detects=detects)
    return Section("judge", noun, items, found, humans=humans, card=partial(card, detects=detects))


SECTION = section(NIST, "answers", setting, lambda _: False)

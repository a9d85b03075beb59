"""The report on live_qa_judge logs (and, through tasks/expert_qa/claims_report.py,
expert_qa_claims'): a judge's agreement with the humans, each figure from the log's scores by the
function its metric calls, also those the log lacks."""

import math
from collections.abc import Sequence

import numpy as np
from inspect_ai.scorer import SampleScore

from liveqa_inspect.judging.verdicts import epoch_figures, panel_figures
from liveqa_inspect.report import card as frame
from liveqa_inspect.report import comparison as compare
from liveqa_inspect.report.cost import per_judge
from liveqa_inspect.report.counts import count_lines
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.plots import Chart, Heatmap, IntervalChart
from liveqa_inspect.report.stats import group_members
from liveqa_inspect.report.tables import Block, Table, figure_cell, figure_cells, figure_table, fmt
from liveqa_inspect.stats import agreement as agree
from liveqa_inspect.stats.bootstrap import Estimate, Figures, tallied_estimates
from liveqa_inspect.stats.names import INCORRECT_AUROC, INCORRECT_F1, KAPPA, level_name
from liveqa_inspect.stats.values import human_levels, score_values
from liveqa_inspect.tasks.expert_qa.claims_metrics import detection, majority
from liveqa_inspect.tasks.live_qa.report import agreement as judges_agreement
from liveqa_inspect.tasks.live_qa.report import setting as setting

KIND, NOUN, HUMAN_LEVELS = "judge", "answers", True
HUMANS = ("NIST", "the NIST assessors")
"""Whom a judge agrees with: the card's noun for them, and its title's."""
FIELD, RHO, EXACT = "field", "spearman_rho", "exact_agreement"
JUDGE_TABLE = {KAPPA: "kappa", RHO: "rho", EXACT: "exact", "within_one": "within one"}
JUDGE_TABLE |= {"bias": "bias", "mae": "MAE"}
FLOOR_SCORERS = ("reference_floor", "claim_passage_overlap")
"""The scorers whose `reference_spearman` metric states each reference metric's rho."""
CARD_FLOOR = "rouge_l"  # the floor the card shows beside each judge's rho


def agreement(log: LoadedLog, scores: list[SampleScore] | None = None) -> Figures:
    """As the log's `agreement` metric states them (over `scores`, a group of the log's)."""
    scores = log.scores() if scores is None else scores
    return agree.agreement_figures(score_values(scores), human_levels(scores), log.scale)


def detects(log: LoadedLog) -> bool:
    """Whether the log's judge rates claims' correctness (expert_qa_claims' section says)."""
    return bool(getattr(log.section, "finds_wrong_claims", lambda _: False)(log))


def wrong_claims(log: LoadedLog) -> Figures:
    """As a claims correctness judge's `wrong_claim_detection` states them (no interval), which
    kappa hides when nearly every claim is correct; empty for other logs."""
    if not detects(log):
        return {}
    scores = log.scores()
    found = detection(score_values(scores), human_levels(scores))
    return {name: Estimate(value, n=len(scores)) for name, value in found.items()}


def kappa_difference(first: LoadedLog, other: LoadedLog) -> Estimate:
    """`other`'s quadratic kappa minus `first`'s over the answers both graded, both against the
    human levels of the first log, each resample drawing the same answers for both judges."""
    theirs = {s.sample_id: s for s in other.scores()}
    shared = [s for s in first.scores() if s.sample_id in theirs]
    scale = sorted(set(first.scale) | set(other.scale))

    def difference(*columns: np.ndarray) -> dict[str, np.ndarray]:
        *judges, people, weights = columns
        a, b = (agree.quadratic_kappa(agree.Pairs(j, people, scale), weights) for j in judges)
        return {KAPPA: b - a}

    paired = [theirs[s.sample_id] for s in shared]
    columns = score_values(shared), score_values(paired), human_levels(shared)
    return tallied_estimates(difference, *columns)[KAPPA] if shared else Estimate(math.nan)


def floors(log: LoadedLog) -> dict[str, tuple[str, float]]:
    """The no-model floors by name, each with the judge's figure it bounds: a judge no better than
    ROUGE-L's rho adds nothing over string overlap; the majority level's share bounds exact
    agreement."""
    rhos = [agree.reference_rhos(log.scores(s)) for s in FLOOR_SCORERS if s in log.reductions]
    found = {name: (RHO, rho) for each in rhos for name, rho in each.items()}
    if detects(log):
        found = {"majority level": (EXACT, majority(human_levels(log.scores()))), **found}
    return found


def floor_table(log: LoadedLog, judge: Figures) -> Table | None:
    found = floors(log).items()  # each floor's name, the judge's figure f it bounds, its value v
    rows = [[name, f, v, judge[f].value, judge[f].value - v] for name, (f, v) in found]
    title = "No-model floors (what the judge must beat)"
    headers = ["floor", "compared with", "floor value", "judge", "judge - floor"]
    return Table(title, headers, rows) if rows else None


def juror_table(log: LoadedLog, judge: Figures) -> Table | None:
    """A bound panel's jurors, each measured alone against the humans; None for one judge."""
    panel = panel_figures(log.verdicts)
    if panel is None:
        return None
    jurors = [("panel", judge), *((name, j.agreement) for name, j in panel.jurors.items())]
    return Table(
        "Each juror alone (value [95% CI]); a juror is measured on every answer it graded, "
        "those the panel left unscored too",
        ["juror", *JUDGE_TABLE.values()],
        [[name, *figure_cells(figures, JUDGE_TABLE)] for name, figures in jurors],
        [f"Jurors' ordinal Krippendorff's alpha with each other: {fmt(panel.alpha)}."],
    )


def field_table(log: LoadedLog) -> Table | None:
    if not any(FIELD in meta for meta in log.metadata.values()):
        return None
    scored, figures = {s.sample_id: s for s in log.scores()}, (EXACT, KAPPA, "mae")
    rows = []
    for label, ids in group_members(log, FIELD).items():
        group = [scored[i] for i in ids if i in scored]
        rows.append([label, len(group), *figure_cells(agreement(log, group), figures)])
    title = "By field (value [seeded bootstrap 95% CI] over each field's graded items)"
    note = "Computed from the samples: the log's metrics hold no per-field figures."
    return Table(title, [FIELD, "n", *figures], rows, [note])


def confusion(log: LoadedLog) -> tuple[Table, Heatmap]:
    matrix = agree.confusion_matrix(log.scores(), log.scale)
    levels = [level_name(level) for level in log.scale]
    rows = [
        [level, *(f"{n:g}" for n in row), f"{row.sum():g}"]
        for level, row in zip(levels, matrix, strict=True)
    ]
    note = "A judge level between two levels (a panel's or an epoch mean) counts in the column of"
    notes = [f"{note} its nearest level, the lower one if halfway."] if log.between_levels else []
    title = "Confusion matrix (rows: human level, columns: judge level)"
    table = Table(title, ["human \\ judge", *levels, "total"], rows, notes)
    title = f"{log.task}: {log.judge_label} vs human (n={log.scored})"
    return table, Heatmap(f"{log.path.stem}-confusion.png", title, log.scale, matrix)


def judge_table(logs: Sequence[LoadedLog], judges: Sequence[Figures]) -> Table:
    """The judges side by side with their cost; for claims correctness judges, how well each finds
    wrong claims."""
    names = [*JUDGE_TABLE, *((INCORRECT_F1, INCORRECT_AUROC) if all(map(detects, logs)) else ())]
    found = {log.path: {**j, **wrong_claims(log)} for log, j in zip(logs, judges, strict=True)}
    title = "Judges (value [95% CI: each log's seeded bootstrap]) and what each cost"
    headers = [JUDGE_TABLE.get(name, name) for name in names]
    return per_judge(logs, title, headers, lambda log: figure_cells(found[log.path], names))


def report(logs: Sequence[LoadedLog]) -> tuple[list[Block], list[Chart]]:
    log, judges = logs[0], [agreement(log) for log in logs]
    confusions = [confusion(log) for log in logs]
    charts: list[Chart] = [heatmap for _, heatmap in confusions]
    if len(logs) > 1:
        over = "the answers both graded"
        differences = compare.difference_table(logs, kappa_difference, "kappa difference", over)
        blocks = compare.comparison(logs, "judge", judge_table(logs, judges), differences)
        title = f"{log.task}: quadratic kappa with the human levels (95% CI)"
        kappas = [judge[KAPPA] for judge in judges]
        axis, labels = "quadratic weighted kappa", compare.labels(logs)
        chart = IntervalChart(compare.figure_name(logs, "judges"), title, axis, labels, kappas)
        return blocks, [*charts, chart]
    judge, scale = judges[0], ", ".join(map(level_name, log.scale))
    title = "Agreement with the human assessors (95% CI: the log's seeded bootstrap)"
    blocks: list[Block] = [
        compare.judge_line(log),
        f"{log.section.setting(log)}; epochs: {log.epochs}; scale: {scale}",
        *count_lines(log),
        figure_table(title, judge, agree.FIGURES),
    ]
    epochs = epoch_figures(log.verdicts)
    if epochs is not None and not math.isnan(epochs.agreement):
        blocks.append(f"epoch agreement (same level in every epoch): {fmt(epochs.agreement)}")
    found = wrong_claims(log)
    detection = figure_table("Wrong-claim detection", found, list(found)) if found else None
    optional = (floor_table(log, judge), juror_table(log, judge), detection, field_table(log))
    return [*blocks, *(table for table in optional if table), confusions[0][0]], charts


def is_beyond(low: float, floor: float) -> str:
    """Whether a figure's interval lies wholly above a floor: `above` only beyond noise."""
    if math.isnan(low) or math.isnan(floor):
        return "n/a"
    return "above" if low > floor else "not beyond CI"


def versus(judges: dict[str, LoadedLog], best: str, name: str) -> str:
    """A judge's kappa from the best one's, paired over the answers both graded, in words."""
    if name == best:
        return "best"
    difference = kappa_difference(judges[best], judges[name])
    if not difference.n:
        return f"no answer shared with {best}"
    words = "worse" if difference.high < 0 else "better" if difference.low > 0 else "tied"
    return f"{figure_cell(difference)} {words}"


def card(logs: Sequence[LoadedLog], references: Sequence[str]) -> list[frame.Part]:
    """The judge card's columns of these logs: kappa and rho with the humans, ROUGE-L's rho (the
    floor) beside rho where the log has it, bias; where several judges ran, each one's paired
    kappa difference from the best; each one's agreement with a reference judge."""
    judges, (noun, humans) = frame.judges(logs), logs[0].section.HUMANS
    found = {name: agreement(log) for name, log in judges.items()}
    best = max(found, key=lambda name: np.nan_to_num(found[name][KAPPA].value, nan=-np.inf))
    floor_of = {
        name: floors(log).get(CARD_FLOOR, (RHO, math.nan))[1] for name, log in judges.items()
    }
    shown, several = not all(map(math.isnan, floor_of.values())), len(judges) > 1
    rows, charted = {}, {}
    for name in judges:
        judge, floor = found[name], floor_of[name]
        cells = [figure_cell(judge[KAPPA]), figure_cell(judge[RHO])]
        cells += [fmt(floor), is_beyond(judge[RHO].low, floor)] if shown else []
        cells.append(figure_cell(judge["bias"]))
        rows[name] = cells + ([versus(judges, best, name)] if several else [])
        charted |= {f"{name}: {noun} kappa": judge[KAPPA], f"{name}: {noun} rho": judge[RHO]}
        charted |= {f"{name}: {noun} ROUGE-L floor": Estimate(floor)} if shown else {}
    columns = [f"{noun} kappa", f"{noun} rho"]
    columns += [f"{noun} ROUGE-L floor", f"{noun} rho vs floor"] if shown else []
    columns += [f"{noun} bias", *([f"{noun} kappa vs best (paired)"] if several else [])]
    notes = [
        f"{noun} kappa vs best: a judge's quadratic kappa minus that of {best} (the highest), "
        "over the answers both graded (paired bootstrap 95% CI): worse or better where the "
        "interval excludes 0, else tied."
    ] * several
    title = f"{logs[0].task}: agreement with {humans}"
    part = frame.Part(title, columns, rows, judges, charted, notes)
    return [part, *frame.reference_part(logs, references, judges_agreement, noun)]

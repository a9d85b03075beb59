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
from liveqa_inspect.report.graded import Item
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.plots import Chart, Charted, Heatmap, IntervalChart
from liveqa_inspect.report.sections import Logs, Report, Section
from liveqa_inspect.report.stats import group_members
from liveqa_inspect.report.tables import Block, Table, figure_cell, figure_cells, figure_table, fmt
from liveqa_inspect.stats import agreement as agree
from liveqa_inspect.stats.bootstrap import Estimate, Figures, tallied_estimates
from liveqa_inspect.stats.names import INCORRECT_AUROC, INCORRECT_F1, KAPPA, level_name
from liveqa_inspect.tasks.expert_qa.claims_metrics import detection, majority
from liveqa_inspect.tasks.live_qa.report import agreement as judges_agreement
from liveqa_inspect.tasks.live_qa.report import setting as setting

FIELD, RHO, EXACT = "field", "spearman_rho", "exact_agreement"
JUDGE_TABLE = {KAPPA: "kappa", RHO: "rho", EXACT: "exact", "within_one": "within one"}
JUDGE_TABLE |= {"bias": "bias", "mae": "MAE"}
FLOOR_SCORERS = ("reference_floor", "claim_passage_overlap")
"""The scorers whose `reference_spearman` metric states each reference metric's rho."""
CARD_FLOOR = "rouge_l"  # the floor the card shows beside each judge's rho
Detects = Callable[[LoadedLog], bool]
"""Whether a log's judge rates claims' correctness, whose wrong-claim detection is shown."""


def levels(items: Sequence[Item]) -> tuple[np.ndarray, np.ndarray]:
    """The judge's and the humans' levels of the items."""
    return np.array([i.value for i in items], float), np.array([i.human for i in items], float)


def agreement(log: LoadedLog, items: Sequence[Item] | None = None) -> Figures:
    """As the log's `agreement` metric states them (over `items`, some of the log's)."""
    return agree.agreement_figures(
        *levels(log.scored_items() if items is None else items), log.scale
    )


def wrong_claims(log: LoadedLog, detects: Detects) -> Figures:
    """As a claims correctness judge's `wrong_claim_detection` states them (no interval), which
    kappa hides when nearly every claim is correct; empty for other logs."""
    if not detects(log):
        return {}
    found = detection(*levels(log.scored_items()))
    return {name: Estimate(value, n=log.scored) for name, value in found.items()}


def kappa_difference(pairs: Sequence[tuple[Item, Item]], scale: Sequence[float]) -> Estimate:
    """The second judge's quadratic kappa minus the first's over the answers both graded, both
    against the human levels of the first log, each resample drawing the same answers for both."""
    if not pairs:
        return Estimate(math.nan)

    def difference(*columns: np.ndarray) -> dict[str, np.ndarray]:
        *judges, people, weights = columns
        a, b = (agree.quadratic_kappa(agree.Pairs(j, people, scale), weights) for j in judges)
        return {KAPPA: b - a}

    first, other = (np.array([pair[n].value for pair in pairs]) for n in (0, 1))
    humans = np.array([first_item.human for first_item, _ in pairs])
    return tallied_estimates(difference, first, other, humans)[KAPPA]


def floors(log: LoadedLog, detects: Detects) -> dict[str, tuple[str, float]]:
    """The no-model floors by name, each with the judge's figure it bounds, on the answers the
    judge scored (its figures are over those): a judge no better than ROUGE-L's rho adds nothing
    over string overlap; the majority level's share bounds exact agreement."""
    scored = log.scored_items()
    rhos = [
        agree.reference_rhos([item.scores[name] for item in scored])
        for name in FLOOR_SCORERS
        if scored and all(name in item.scores for item in scored)
    ]
    found = {name: (RHO, rho) for each in rhos for name, rho in each.items()}
    if detects(log):
        found = {"majority level": (EXACT, majority(levels(scored)[1])), **found}
    return found


def floor_table(log: LoadedLog, judge: Figures, detects: Detects) -> Table | None:
    found = floors(log, detects).items()  # each floor, the judge's figure f it bounds, its value v
    rows = [[name, f, v, judge[f].value, judge[f].value - v] for name, (f, v) in found]
    title = f"No-model floors (what the judge must beat), on the {log.scored} answers it scored"
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
    if not any(FIELD in item.metadata for item in log.items):
        return None
    figures, rows = (EXACT, KAPPA, "mae"), []
    for label, group in group_members(log.scored_items(), FIELD).items():
        rows.append([label, len(group), *figure_cells(agreement(log, group), figures)])
    title = "By field (value [seeded bootstrap 95% CI] over each field's graded items)"
    note = "Computed from the samples: the log's metrics hold no per-field figures."
    return Table(title, [FIELD, "n", *figures], rows, [note])


def confusion(log: LoadedLog) -> tuple[Table, Heatmap]:
    matrix = agree.confusion_matrix(log.scores(), log.scale)
    names = [level_name(level) for level in log.scale]
    rows = [
        [level, *(f"{n:g}" for n in row), f"{row.sum():g}"]
        for level, row in zip(names, matrix, strict=True)
    ]
    note = "A judge level between two levels (a panel's or an epoch mean) counts in the column of"
    notes = [f"{note} its nearest level, the lower one if halfway."] if log.between_levels else []
    title = "Confusion matrix (rows: human level, columns: judge level)"
    table = Table(title, ["human \\ judge", *names, "total"], rows, notes)
    title = f"{log.task}: {log.judge_label} vs human (n={log.scored})"
    name = f"{log.path.stem}-confusion.png"
    return table, Heatmap(name, title, log.scale, matrix, log.path)


def judge_table(logs: Logs, judges: Sequence[Figures], detects: Detects) -> Table:
    """The judges side by side with their cost; for claims correctness judges, how well each finds
    wrong claims."""
    names = [*JUDGE_TABLE, *((INCORRECT_F1, INCORRECT_AUROC) if all(map(detects, logs)) else ())]
    found = {
        log.path: {**j, **wrong_claims(log, detects)} for log, j in zip(logs, judges, strict=True)
    }
    title = "Judges (value [95% CI: each log's seeded bootstrap]) and what each cost"
    headers = [JUDGE_TABLE.get(name, name) for name in names]
    return per_judge(logs, title, headers, lambda log: figure_cells(found[log.path], names))


def report(logs: Logs, detects: Detects) -> Report:
    log, judges = logs[0], [agreement(log) for log in logs]
    confusions = [confusion(log) for log in logs]
    charts: list[Chart] = [heatmap for _, heatmap in confusions]
    if len(logs) > 1:
        difference = partial(kappa_difference, scale=log.scale)
        differences = compare.difference_table(logs, difference, "kappa difference")
        table = judge_table(logs, judges, detects)
        blocks = compare.comparison(logs, "judge", table, differences)
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
        *log.count_lines(),
        figure_table(title, judge, agree.FIGURES),
    ]
    epochs = epoch_figures(log.verdicts)
    if epochs is not None and not math.isnan(epochs.agreement):
        blocks.append(f"epoch agreement (same level in every epoch): {fmt(epochs.agreement)}")
    found = wrong_claims(log, detects)
    detection = figure_table("Wrong-claim detection", found, list(found)) if found else None
    floor = floor_table(log, judge, detects)
    optional = (floor, juror_table(log, judge), detection, field_table(log))
    return [*blocks, *(table for table in optional if table), confusions[0][0]], charts


def is_beyond(low: float, floor: float) -> str:
    """Whether a figure's interval lies wholly above a floor: `above` only beyond noise."""
    if math.isnan(low) or math.isnan(floor):
        return "n/a"
    return "above" if low > floor else "not beyond CI"


def ranked(logs: Logs, names: Sequence[str]) -> dict[str, str]:
    """Each judge's kappa from the best one's over the answers every judge scored (paired), in
    words; no `best` among judges tied at the top."""
    keys = compare.shared(logs)
    scored = [{item.answer: item for item in log.scored_items()} for log in logs]
    kept = [[found[key] for key in keys] for found in scored]
    kappas = [agreement(log, items)[KAPPA].value for log, items in zip(logs, kept, strict=True)]
    top = max(np.nan_to_num(kappas, nan=-np.inf))
    best = [n for n, kappa in enumerate(kappas) if np.nan_to_num(kappa, nan=-np.inf) == top]
    found = {}
    for n, name in enumerate(names):
        if n in best:
            found[name] = "tied" if len(best) > 1 else "best"
            continue
        pairs = list(zip(kept[best[0]], kept[n], strict=True))
        difference = kappa_difference(pairs, logs[0].scale)
        words = "worse" if difference.high < 0 else "better" if difference.low > 0 else "tied"
        found[name] = f"{figure_cell(difference)} {words}"
    return found


def card(logs: Logs, context: frame.Context, detects: Detects) -> list[frame.Part]:
    """The judge card's columns of these logs: kappa and rho with the humans and the answers they
    are over, ROUGE-L's rho (the floor) on the same answers, bias; where several judges ran, each
    one's paired kappa difference from the best over the answers every judge scored; each one's
    agreement with a reference judge."""
    judges, noun = context.judges(logs), logs[0].humans
    names, log_list = list(judges), list(judges.values())
    found = {name: agreement(log) for name, log in judges.items()}
    floor_of = {
        name: floors(log, detects).get(CARD_FLOOR, (RHO, math.nan))[1]
        for name, log in judges.items()
    }
    shown, several = not all(map(math.isnan, floor_of.values())), len(judges) > 1
    differ = compare.differing_settings(log_list) if several else {}
    versus = ranked(log_list, names) if several and not differ else {}
    rows, charted = {}, []
    for name, log in judges.items():
        judge, floor = found[name], floor_of[name]
        cells = [figure_cell(judge[KAPPA]), figure_cell(judge[RHO])]
        cells += [fmt(floor), is_beyond(judge[RHO].low, floor)] if shown else []
        cells += [figure_cell(judge["bias"]), log.scored]
        rows[name] = cells + ([versus.get(name, "not ranked")] if several else [])
        charted += [Charted(name, f"{noun} kappa", judge[KAPPA])]
        charted += [Charted(name, f"{noun} rho", judge[RHO], floor)]
    columns = [f"{noun} kappa", f"{noun} rho"]
    columns += [f"{noun} ROUGE-L floor", f"{noun} rho vs floor"] if shown else []
    columns += [f"{noun} bias", f"{noun} answers scored"]
    columns += [f"{noun} kappa vs best (paired)"] if several else []
    notes = [
        f"{noun} ROUGE-L floor: ROUGE-L's rho with the human levels on the answers the judge "
        "scored, the answers its rho is over."
    ] * shown
    if versus:
        notes.append(
            f"{noun} kappa vs best: a judge's quadratic kappa minus the highest one's, over the "
            f"{len(compare.shared(log_list))} answers every judge scored (paired bootstrap 95% "
            "CI): worse or better where the interval excludes 0, else tied; `tied` for all "
            "judges at the top where several share it."
        )
    elif several:
        notes.append(
            f"{noun} kappa vs best: not ranked, as the judges' logs differ in "
            f"{', '.join(differ)}: their figures are not of one measurement."
        )
    notes += [w for w in compare.warnings(log_list) if w.startswith(("WARNING", "note"))]
    title = f"{logs[0].task}: agreement with {noun} ({logs[0].section.setting(logs[0])})"
    part = frame.Part(title, columns, rows, judges, charted, notes)
    return [part, *frame.reference_part(logs, context, judges_agreement, noun)]


def never(_: LoadedLog) -> bool:
    return False


def section(
    humans: tuple[str, str], noun: str, items: Callable[[LoadedLog], str], detects: Detects
) -> Section:
    """live_qa_judge's section, and expert_qa_claims' with its own humans, noun and setting."""
    return Section(
        "judge",
        noun,
        items,
        partial(report, detects=detects),
        humans=humans,
        card=partial(card, detects=detects),
    )


SECTION = section(("NIST", "the NIST assessors"), "answers", setting, never)

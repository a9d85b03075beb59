"""The report on live_qa logs (and, through tasks/expert_qa/report.py, expert_qa's): the judge's
mean level for each model, or, on one run's answers graded by several judges, the best-controlled
comparison of judges there is (docs/judge-cost.md)."""

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial

import numpy as np

from liveqa_inspect.corrected.calibration import ASSUMES, said
from liveqa_inspect.judging.verdicts import panel_figures
from liveqa_inspect.report import card as frame
from liveqa_inspect.report import comparison as compare
from liveqa_inspect.report.cost import per_judge
from liveqa_inspect.report.graded import Item, group_members, mean_difference
from liveqa_inspect.report.loaded import ITEMS, Compared, LoadedLog, Logs, Report, Section
from liveqa_inspect.report.plots import Chart, Charted, IntervalChart
from liveqa_inspect.report.tables import Block, Table, figure_cell, fmt, value_ci
from liveqa_inspect.stats.agreement import agreement_figures
from liveqa_inspect.stats.bootstrap import Estimate, mean_estimate
from liveqa_inspect.stats.names import KAPPA, VERDICTS, juror_names, level_name
from liveqa_inspect.stats.values import score_values
from liveqa_inspect.tasks.live_qa.metrics import level_shares

SEVERAL_TYPES = (
    "A question of several types counts once in each of them: the n add up to more than the "
    "questions."
)
FALLBACK = "question_fallback"
AXIS = "mean judge level"


def wording(log: LoadedLog) -> str:
    """The wording asked: an own set's questions are asked as written, whatever `-T question=`
    says, so its runs of two values asked the same text and are no wording comparison."""
    asked = log.log.eval.task_args.get("question", "summary")
    return compare.AS_WRITTEN if log.own_set else str(asked)


def setting(log: LoadedLog) -> str:
    return compare.own_questions(log) or f"question wording: {wording(log)}"


def compared(logs: Logs) -> Compared | None:
    """One model's runs that differ in the question wording alone: ConStat's check of memorised
    wording (docs/contamination.md), not a mismatch."""
    if len({log.model for log in logs}) > 1 or list(compare.differing_settings(logs)) != [ITEMS]:
        return None
    wordings = ", ".join(dict.fromkeys(wording(log) for log in logs))
    note = (
        f"A wording comparison: one model, graded alike, on the questions worded {wordings}. "
        "Each difference is paired question by question. A model that scores clearly lower "
        "on a paraphrase than on the consumers' original wording may have memorised the "
        "originals (ConStat); a wording can also be harder or easier in itself, so this is "
        "evidence, not proof (docs/contamination.md)."
    )
    return juror_names(f"{log.model} ({wording(log)})" for log in logs), [note]


def headline(log: LoadedLog) -> Estimate:
    """The judge's mean level and its interval, as the log's `mean` and `bootstrap_ci` state."""
    return mean_estimate(score_values(log.scores()))


def differences(logs: Logs) -> Table:
    """Each log's mean difference from the first, paired question by question. A paraphrase log
    asks the questions without a NIST paraphrase as their summary: beside another wording, theirs
    is no difference of wording, so they are left out, and said to be."""
    reworded = len({wording(log) for log in logs}) > 1
    flagged = {i.question for g in logs for i in g.items if reworded and i.metadata.get(FALLBACK)}
    left_out = [str(i.sample) for i in logs[0].items if i.question in flagged]
    table = compare.difference_table(
        logs,
        lambda pairs: mean_difference([(a, b) for a, b in pairs if a.question not in flagged]),
        "difference",
        partial(agreement, scale=logs[0].scale) if compare.same_answers(logs) else None,
    )
    note = (
        "Left out of the differences, as not asked in two wordings: the questions without a NIST "
        f"paraphrase, which a paraphrase log asks as their summary ({', '.join(left_out)})."
    )
    return replace(table, notes=[note]) if left_out else table


def agreement(pairs: Sequence[tuple[Item, Item]], scale: Sequence[float]) -> dict[str, Estimate]:
    """Judges of the same answers agree by the figures live_qa_judge measures a judge with, the
    first standing where the humans stand there."""
    values = np.array([(other.value, first.value) for first, other in pairs]).reshape(-1, 2)
    found = agreement_figures(*values.T, scale)
    return {"kappa": found[KAPPA], "exact": found["exact_agreement"]}


def mean_table(logs: Logs) -> Table:
    """Judges of the same answers with what each cost: a judge is chosen on both."""
    if compare.same_answers(logs):
        title = "Each judge's mean level on the same answers (95% CI: the log's seeded bootstrap)"
        return per_judge(logs, title, ["mean", "95% CI"], lambda log: value_ci(headline(log)))
    title = "The judge's mean level (95% CI: the log's seeded bootstrap)"
    headers = ["judge", "mean", "95% CI"]
    return compare.per_log(logs, title, headers, lambda g: [g.judge_label, *value_ci(headline(g))])


def level_tables(log: LoadedLog) -> list[Table]:
    """The levels' shares, then a panel's jurors' means."""
    shares = level_shares(score_values(log.scores()), log.scale).items()
    note = "A level between levels (a panel's or an epoch mean) counts at its nearest level"
    notes = [f"{note}, the lower one if halfway."] if log.between_levels else []
    title = "Level distribution (share of the scored samples)"
    found = [Table(title, ["level", "share"], [[level_name(n), s] for n, s in shares], notes)]
    if panel := panel_figures(log.verdicts):
        title = "Panel: each juror's mean level, over every sample it graded"
        rows = [[name, juror.mean] for name, juror in panel.jurors.items()]
        alpha = f"Jurors' ordinal Krippendorff's alpha: {fmt(panel.alpha)} (1 when they always"
        found.append(Table(title, ["juror", "mean"], rows, [f"{alpha} agree)."]))
    return found


def other_scorers(log: LoadedLog) -> list[Table]:
    """The log's other scorers (live_qa's reference overlap), as their results state them."""
    assert log.log.results is not None
    others = [s for s in log.log.results.scores if s.name not in (log.scorer, VERDICTS)]
    names = list(dict.fromkeys(key for s in others for key in s.metrics))
    rows = [
        [s.name, *(float(s.metrics[n].value) if n in s.metrics else "" for n in names)]
        for s in others
    ]
    return [Table("Other scorers", ["scorer", *names], rows)] if others else []


def chart(filename: str, title: str, rows: Mapping[str, Estimate], log: LoadedLog | None) -> Chart:
    """On an axis from 0 to 1, where the judges' levels of both model tasks run; a log's own
    figure beside it."""
    found = [*map(Charted, rows, rows.values())]
    return IntervalChart(filename, title, AXIS, found, (0.0, 1.0), beside=log and log.path)


def report(logs: Logs) -> Report:
    """The means chart is named apart (`-models-<digest>`, `-means`): a comparison is named after
    its first log and would otherwise overwrite that log's own chart."""
    log, table = logs[0], mean_table(logs)
    means = dict(zip(compare.labels(logs), map(headline, logs), strict=True))
    title = f"{log.task}: the judge's mean level (95% CI)"
    if len(logs) > 1:
        figure = chart(compare.figure_name(logs, "models"), title, means, None)
        return compare.comparison(logs, log.task, table, differences(logs)), [figure]
    charts = [chart(f"{log.path.stem}-means.png", title, means, log)]
    blocks: list[Block] = [
        f"model: {log.model}; {log.section.setting(log)}; epochs: {log.epochs}",
        f"judge: {log.judge_label}; prompt: {log.prompt_label}",
        *log.count_lines(),
        table,
        *level_tables(log),
    ]
    for key, heading in log.section.groups.items():
        # Each group's mean over its scored items: `mean_estimate` leaves the unscored NaNs out.
        members = group_members(log.items, key).items()
        means = [(label, mean_estimate([i.value for i in group])) for label, group in members]
        rows = [[label, e.n, *value_ci(e)] for label, e in means]
        notes = [SEVERAL_TYPES] * (key == "question_types")
        notes.append("Computed from the samples: the log's metrics hold no per-group figures.")
        title = f"{heading} (mean over each group's scored samples; seeded bootstrap 95% CI)"
        blocks.append(Table(title, [key, "n", "mean", "95% CI"], rows, notes))
        title = f"{log.task} {log.model}: {heading.lower()} (95% CI)"
        shown = {f"{label} (n={e.n})": e for label, e in means}
        charts.append(chart(f"{log.path.stem}-{key}.png", title, shown, log))
    return [*blocks, *other_scorers(log)], charts


def card(
    judges: frame.Judges, references: Sequence[str], logs: Sequence[LoadedLog]
) -> list[frame.Part]:
    """The judge card's columns of one run's answers graded by several judges: each judge's mean
    level on them, its mean corrected by its calibration where `logs` (all read) hold one, and
    its agreement with a reference judge."""
    log = next(iter(judges.values()))
    whose = f"{log.task}: {log.model}'s answers ({log.section.setting(log)})"
    rows = {name: [figure_cell(headline(each)), each.scored] for name, each in judges.items()}
    columns = [f"{log.task} mean level", "answers scored"]
    corrected = {name: said(each, logs) for name, each in judges.items()}
    notes = [f"{name}'s calibration: {found[1]}" for name, found in corrected.items() if found]
    if notes:
        columns.append("corrected mean")
        for name, found in corrected.items():
            rows[name].append(found[0] if found else "no calibration")
        notes.append(ASSUMES)
    mean = frame.Part(f"{whose}: each judge's mean level", columns, rows, judges, notes=notes)
    noun = f"{log.task} ({log.model}'s answers)"
    return [mean, *frame.reference_part(judges, references, agreement, noun)]


GROUPS = {"focus_category": "By focus category", "question_types": "By question type"}
SECTION = Section("model", "samples", setting, report, compared=compared, card=card, groups=GROUPS)

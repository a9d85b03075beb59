"""The report on live_qa_contamination logs: the log's figures, by its metrics' own functions (of
the reduced scores, and of every epoch's for the counts), and the intervals of the two means."""

import math
import textwrap

from inspect_ai.log import EvalSample
from inspect_ai.scorer import SampleScore

from liveqa_inspect.report.comparison import comparison, figure_name, labels, per_log
from liveqa_inspect.report.loaded import LoadedLog, Logs, Report, Section
from liveqa_inspect.report.plots import Charted, IntervalChart, Scatter
from liveqa_inspect.report.refusals import ReportError
from liveqa_inspect.report.tables import Cell, Table, figure_cell, figure_table
from liveqa_inspect.stats import names
from liveqa_inspect.tasks.contamination.scorer import Overlaps, column, completion_stats, reproduced
from liveqa_inspect.tasks.contamination.solver import GENERAL, GUIDED, Replies
from liveqa_inspect.versioned import label as text_label

FLAG_P = 0.05  # Golchin & Surdeanu's threshold on the difference's p
NAMED = {GUIDED: "guided (the test set named)", GENERAL: "general (control)"}
LONGEST_RUNS = 5
SHOWN_CHARS = 60  # of a text in a table cell
PROBED = "part probed (-T part=)"
REFERENCES_NOTE = (
    "note: the reference answers were copied from public health websites (their URLs are in the "
    "samples): a model that completes them may have read those sites, not this test set."
)


def p_value(p: float) -> str:
    """Four decimals: the smallest p 10,000 resamples give is 0.0001, which three print as 0."""
    return "n/a" if math.isnan(p) else f"{p:.4f}"


def excerpt(text: str, end: bool = False) -> str:
    text = " ".join(text.split())
    if end:
        return text if len(text) <= SHOWN_CHARS else "… " + text[-(SHOWN_CHARS - 2) :].lstrip()
    return textwrap.shorten(text, SHOWN_CHARS, placeholder=" …") or "(empty)"


def completions(log: LoadedLog) -> list[EvalSample]:
    return [sample for sample in log.log.samples or [] if log.scorer in (sample.scores or {})]


def counted(log: LoadedLog) -> dict[str, int]:
    scores = [SampleScore(score=s.scores[log.scorer], sample_id=s.id) for s in completions(log)]
    if any(names.SHORT not in score.score.value for score in scores):  # type: ignore[operator]
        raise ReportError(
            f"{log.path} was written by an earlier version of this package, which counted a "
            "short remainder repeated whole as a reproduction, and not per completion: re-run it"
        )
    return reproduced(scores)


def setting(log: LoadedLog) -> str:
    part = f"part: {log.log.eval.task_args.get('part', 'question')}"
    return f"questions: {log.own_set}; {part}" if log.own_set else part


def settings(log: LoadedLog) -> dict[str, str]:
    return {"probe instructions": ", ".join(map(text_label, log.log.eval.metadata["instructions"]))}


def verdict(found: Overlaps, counts: dict[str, int]) -> str:
    """Only a difference from the control points at the test set (docs/contamination.md)."""
    p, both = p_value(found.p), counts[names.verbatim_key(names.BOTH)]
    said = (
        "flagged: the guided completions overlap the remainders more than the general ones "
        f"(one-sided p = {p} <= {FLAG_P:g}). Evidence the model has seen these texts in this "
        "test set, not proof that its scores are inflated."
        if found.p <= FLAG_P
        else "not flagged: the guided completions overlap the remainders no more than the "
        f"general ones (one-sided p = {p}). This is no proof the model never saw these texts."
    )
    also = (
        f" {both} completions reproduce their remainder under the general instruction too: "
        "the model may know those texts, from this test set or elsewhere."
    )
    return said + (also if both else "")


def tables(found: Overlaps, counts: dict[str, int], words: int) -> list[Table]:
    rows = {NAMED[name]: overlap for name, overlap in found.overlaps.items()}
    rows["difference, guided - general"] = found.difference
    title = "Overlap of the completions with the true remainder (mean ROUGE-L F; seeded bootstrap "
    overlaps = figure_table(title + "95% CI, paired for the difference)", rows, list(rows))
    p_row = ["one-sided p (difference > 0)", p_value(found.p), ""]
    notes = ["The difference is the headline; a refused or empty reply counts 0."]
    title = (
        f"Reproduced (a run of {words} words or more shared with the remainder) and refused, "
        f"of the {counts[names.COMPLETIONS]} completions of each instruction"
    )
    rows = [
        [name, counts[names.verbatim_key(name)], counts.get(names.refused_key(name), "")]
        for name in (GUIDED, GENERAL, names.BOTH)
    ]
    note = (
        f"{counts[names.SHORT]} completions are of a remainder shorter than {words} words: none "
        "can reproduce it, as a few words repeated whole are often a guess."
    )
    return [
        Table(overlaps.title, overlaps.headers, [*overlaps.rows, p_row], notes),
        Table(title, ["instruction", "reproduced", "refused or empty"], rows, [note]),
    ]


def runs_table(log: LoadedLog) -> Table:
    """Each completion's longer run of its two (guided on a tie), longest first."""
    runs = []
    for sample in completions(log):
        score = sample.scores[log.scorer]  # type: ignore[index]
        name = max((GUIDED, GENERAL), key=lambda n: score.value[names.run_key(n)])  # type: ignore
        if run := int(score.value[names.run_key(name)]):  # type: ignore[index]
            completion = excerpt(sample.store_as(Replies).completions[name])
            texts = [excerpt(str(sample.input), True), completion, excerpt(str(sample.target))]
            runs.append([str(sample.id), sample.epoch, name, run, *texts])
    title = f"The longest runs shared with the remainder (at most {LONGEST_RUNS} completions)"
    headers = ["id", "epoch", "instruction", "run", "shown (its end)", "completion", "remainder"]
    return Table(title, headers, sorted(runs, key=lambda row: -row[3])[:LONGEST_RUNS])


def side_by_side(logs: Logs) -> Report:
    found = {log.path: (completion_stats(log.scores()), counted(log)) for log in logs}

    def cells(log: LoadedLog) -> list[Cell]:
        f, counts = found[log.path]
        overlaps = [f.overlaps[GUIDED].value, f.overlaps[GENERAL].value]
        return [*overlaps, figure_cell(f.difference), p_value(f.p), *counts.values()]

    title = (
        "The models side by side (mean ROUGE-L with the remainder; difference with its paired "
        "bootstrap 95% CI; the completions counted, as the log's metrics name them)"
    )
    headers = ["guided", "general", "difference", "p", *found[logs[0].path][1]]
    table = per_log(logs, title, headers, cells)
    title = f"{logs[0].task}: guided minus general overlap (95% CI)"
    rows = [*map(Charted, labels(logs), (f.difference for f, _ in found.values()))]
    name, axis = figure_name(logs, "differences"), "difference in mean ROUGE-L"
    return comparison(logs, logs[0].task, table), [IntervalChart(name, title, axis, rows, (-1, 1))]


def report(logs: Logs) -> Report:
    if len(logs) > 1:
        return side_by_side(logs)
    [log] = logs
    scores, counts, meta = log.scores(), counted(log), log.log.eval.metadata
    found, left_out = completion_stats(scores), ", ".join(meta["left_out"])
    blocks = [
        f"model: {log.model}; {setting(log)}; epochs: {log.epochs}",
        f"instructions: {settings(log)['probe instructions']}",
        *log.count_lines(),
        f"left out of the items: {len(meta['left_out'])} texts shorter than "
        f"{2 * int(meta['min_side_words'])} words" + (f" ({left_out})" if left_out else ""),
        verdict(found, counts),
        *([REFERENCES_NOTE] if meta["part"] == "reference" else []),
        *tables(found, counts, int(meta["verbatim_words"])),
        runs_table(log),
    ]
    title = f"{log.task} {log.model} ({setting(log)}): each item's overlap with its remainder"
    axes = [f"{NAMED[name]}: ROUGE-L with the remainder" for name in (GENERAL, GUIDED)]
    x, y = (list(column(scores, names.overlap_key(name))) for name in (GENERAL, GUIDED))
    name = f"{log.path.stem}-overlap.png"
    return blocks, [Scatter(name, title, *axes, x, y, "guided higher", "general higher", log.path)]


SECTION = Section(
    "contamination", "items", setting, report, rated=False, items=PROBED, settings=settings
)

"""The report on live_qa_contamination logs. Every figure is `completion_stats` of the log's
reduced scores, as its metric computes it, so the report prints the log's figures, and the
intervals of the two means the log does not hold."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import replace

from inspect_ai.scorer import SampleScore

from liveqa_inspect.report.comparison import labels, setting, warnings
from liveqa_inspect.report.loading import LoadedLog
from liveqa_inspect.report.plots import Chart, IntervalChart, Scatter
from liveqa_inspect.report.tables import Block, Table, estimate_cell, figure_table
from liveqa_inspect.stats.names import overlap_key, run_key
from liveqa_inspect.tasks.contamination.instructions import GENERAL, GUIDED
from liveqa_inspect.tasks.contamination.metrics import Figures, column, completion_stats
from liveqa_inspect.versioned import label as text_label

KIND = "contamination"
FLAG_P = 0.05  # Golchin & Surdeanu's threshold on the difference's p
NAMED = {GUIDED: "guided (the test set named)", GENERAL: "general (control)"}
LONGEST_RUNS = 5
SHOWN_CHARS = 60
"""Of each text in a table cell: the end of the shown part (where the completion picks up), the
start of the completion and of the remainder."""
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


def instructions(log: LoadedLog) -> str:
    return ", ".join(text_label(given) for given in log.log.eval.metadata["instructions"])


def settings(log: LoadedLog) -> dict[str, str]:
    return {"probe instructions": instructions(log)}


def header(log: LoadedLog) -> list[str]:
    meta = log.log.eval.metadata
    left_out = ", ".join(meta["left_out"])
    return [
        f"{log.task} report: {log.path}",
        f"model: {log.model}; {setting(log)}; epochs: {log.epochs}",
        f"instructions: {instructions(log)}",
        f"items: {log.scored} probed, {len(meta['left_out'])} left out as shorter than "
        f"{2 * int(meta['min_side_words'])} words" + (f" ({left_out})" if left_out else ""),
    ]


def verdict(found: Figures) -> str:
    p, n = p_value(found.p), found.difference.n
    significant = "the guided completions overlap the remainders more than the general ones "
    reasons = [f"{significant}(one-sided p = {p} <= {FLAG_P:g})"] if found.p <= FLAG_P else []
    reasons += [
        f"{round(i.verbatim * n)} of the {n} {name} completions reproduce their remainder"
        for name, i in found.instructions.items()
        if i.verbatim > 0
    ]
    if not reasons:
        return (
            f"not flagged: no significant difference (one-sided p = {p}) and no completion "
            "reproduces its remainder. This is no proof the model never saw these texts."
        )
    return (f"flagged: {'; '.join(reasons)}. Evidence the model has seen these texts, not proof "
            "that its scores are inflated.")  # fmt: skip


def overlap_table(found: Figures) -> Table:
    rows = {NAMED[name]: i.overlap for name, i in found.instructions.items()}
    rows["difference, guided - general"] = found.difference
    title = "Overlap of the completions with the true remainder (mean ROUGE-L F; seeded bootstrap "
    table = figure_table(title + "95% CI, paired for the difference)", rows, list(rows))
    p_row = ["one-sided p (difference > 0)", p_value(found.p), ""]
    notes = ["The difference is the headline; a refused or empty reply counts 0."]
    return replace(table, rows=[*table.rows, p_row], notes=notes)


def reproduction_table(found: Figures, words: int) -> Table:
    return Table(
        "Reproduced verbatim or nearly, and refused",
        ["instruction", "verbatim share", "refused or empty"],
        [[name, i.verbatim, i.refused] for name, i in found.instructions.items()],
        [f"Verbatim or nearly: the completion shares a run of at least {words} consecutive words "
         "with the remainder, or the whole remainder when it is shorter."],
    )  # fmt: skip


def runs_table(log: LoadedLog, scores: list[SampleScore]) -> Table:
    """Each item under the instruction with the longer run (guided on a tie), longest first."""
    runs = []
    for score in scores:
        value: dict[str, float] = score.score.value  # type: ignore[assignment]
        name = max((GUIDED, GENERAL), key=lambda n: value[run_key(n)])
        if run := int(value[run_key(name)]):
            runs.append((run, name, score))
    first = {sample.id: sample for sample in reversed(log.log.samples or [])}  # epoch 1's texts
    rows = []
    for run, name, score in sorted(runs, key=lambda r: -r[0])[:LONGEST_RUNS]:
        sample = first[score.sample_id]  # type: ignore[index]
        completion = str((score.score.metadata or {})[name]["completion"])
        rows.append([str(sample.id), name, run, excerpt(str(sample.input), end=True),
                     excerpt(completion), excerpt(str(sample.target))])  # fmt: skip
    return Table(
        f"The longest runs shared with the remainder (at most {LONGEST_RUNS} items)",
        ["id", "instruction", "run", "shown (its end)", "completion", "remainder"],
        rows,
        ["Each item under the instruction whose completion shares the longer run."],
    )


def overlap_chart(log: LoadedLog, scores: list[SampleScore]) -> Scatter:
    return Scatter(
        filename=f"{log.path.stem}-overlap.png",
        title=f"{log.task} {log.model} ({setting(log)}): each item's overlap with its remainder",
        x_axis=f"{NAMED[GENERAL]}: ROUGE-L with the remainder",
        y_axis=f"{NAMED[GUIDED]}: ROUGE-L with the remainder",
        x=list(column(scores, overlap_key(GENERAL))),
        y=list(column(scores, overlap_key(GUIDED))),
        above="guided higher",
        below="general higher",
    )


def side_by_side(logs: Sequence[LoadedLog]) -> tuple[list[Block], list[Chart]]:
    blocks: list[Block] = [f"{len(logs)} {logs[0].task} logs side by side:"]
    blocks += [f"{n}. {log.path} ({log.model})" for n, log in enumerate(logs, start=1)]
    blocks += warnings(logs)
    found = [completion_stats(log.scores()) for log in logs]
    rows = []
    for label, log, f in zip(labels(logs), logs, found, strict=True):
        guided, general = f.instructions[GUIDED], f.instructions[GENERAL]
        rows.append([label, log.log.eval.metadata["part"], guided.overlap.value,
                     general.overlap.value, estimate_cell(f.difference), p_value(f.p),
                     guided.verbatim, general.verbatim, guided.refused, general.refused,
                     f.difference.n])  # fmt: skip
    blocks.append(Table(
        "The models side by side (mean ROUGE-L with the remainder; difference with its paired "
        "bootstrap 95% CI)",
        ["model", "part", "guided", "general", "difference", "p", "verbatim guided",
         "verbatim general", "refused guided", "refused general", "items"],
        rows,
    ))  # fmt: skip
    chart = IntervalChart(
        filename=f"{logs[0].path.stem}-differences.png",
        title=f"{logs[0].task}: guided minus general overlap (95% CI)",
        axis="difference in mean ROUGE-L",
        labels=labels(logs),
        values=[f.difference.value for f in found],
        lows=[f.difference.low for f in found],
        highs=[f.difference.high for f in found],
        limits=(-1.0, 1.0),
    )
    return blocks, [chart]


def report(logs: Sequence[LoadedLog]) -> tuple[list[Block], list[Chart]]:
    if len(logs) > 1:
        return side_by_side(logs)
    [log] = logs
    scores = log.scores()
    found = completion_stats(scores)
    blocks = [*header(log), verdict(found)]
    blocks += [REFERENCES_NOTE] if log.log.eval.metadata["part"] == "reference" else []
    words = int(log.log.eval.metadata["verbatim_words"])
    blocks += [overlap_table(found), reproduction_table(found, words), runs_table(log, scores)]
    return blocks, [overlap_chart(log, scores)]

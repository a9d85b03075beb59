"""The report on live_qa_contamination logs. Its figures are the log's metrics, recomputed by
their own functions: of the reduced scores (the overlaps, the difference) and of every epoch's
(the reproductions), with the intervals of the two means the log does not hold."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import replace

from inspect_ai.log import EvalSample
from inspect_ai.scorer import SampleScore

from liveqa_inspect.report.comparison import differing, labels, setting
from liveqa_inspect.report.loading import LoadedLog, ReportError
from liveqa_inspect.report.plots import Chart, IntervalChart, Scatter
from liveqa_inspect.report.tables import Block, Table, estimate_cell, figure_table
from liveqa_inspect.stats.names import (
    BOTH, COMPLETIONS, SHORT, overlap_key, refused_key, run_key, verbatim_key,
)  # fmt: skip
from liveqa_inspect.tasks.contamination.instructions import GENERAL, GUIDED
from liveqa_inspect.tasks.contamination.metrics import (
    Figures, column, completion_stats, reproduction_counts,
)  # fmt: skip
from liveqa_inspect.versioned import label as text_label

KIND = "contamination"
FLAG_P = 0.05  # Golchin & Surdeanu's threshold on the difference's p
NAMED = {GUIDED: "guided (the test set named)", GENERAL: "general (control)"}
LONGEST_RUNS = 5
SHOWN_CHARS = 60  # of a text in a table cell
COUNTED = [verbatim_key(GUIDED), verbatim_key(GENERAL), verbatim_key(BOTH)]
COUNTED += [refused_key(GUIDED), refused_key(GENERAL), COMPLETIONS]
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
    """Every epoch's sample that was scored (an errored one has no score)."""
    return [sample for sample in log.log.samples or [] if log.scorer in (sample.scores or {})]


def counted(log: LoadedLog) -> dict[str, int]:
    """The reproductions and refusals, as the log's metric counts them: over every completion."""
    scores = [SampleScore(score=s.scores[log.scorer], sample_id=s.id) for s in completions(log)]
    if any(SHORT not in score.score.value for score in scores):  # type: ignore[operator]
        raise ReportError(
            f"{log.path} was written before version 3-B of this package, which counts "
            "reproductions per completion and never a short remainder repeated whole: re-run it"
        )
    return reproduction_counts(scores)


def instructions(log: LoadedLog) -> str:
    return ", ".join(text_label(given) for given in log.log.eval.metadata["instructions"])


def header(log: LoadedLog) -> list[str]:
    meta = log.log.eval.metadata
    left_out = ", ".join(meta["left_out"])
    return [
        f"{log.task} report: {log.path}",
        f"model: {log.model}; {setting(log)}; epochs: {log.epochs}",
        f"instructions: {instructions(log)}",
        *log.counts("items"),
        f"left out of the items: {len(meta['left_out'])} texts shorter than "
        f"{2 * int(meta['min_side_words'])} words" + (f" ({left_out})" if left_out else ""),
    ]


def verdict(found: Figures, counts: dict[str, int]) -> str:
    """Only the difference from the control points at the test set: a text reproduced under
    both instructions is known, maybe from elsewhere."""
    p, both = p_value(found.p), counts[verbatim_key(BOTH)]
    also = (f" {both} completions reproduce their remainder under the general instruction too: "
            "the model may know those texts, from this test set or elsewhere.") if both else ""  # fmt: skip
    if found.p <= FLAG_P:
        return (
            "flagged: the guided completions overlap the remainders more than the general ones "
            f"(one-sided p = {p} <= {FLAG_P:g}). Evidence the model has seen these texts in this "
            f"test set, not proof that its scores are inflated.{also}"
        )
    return (
        "not flagged: the guided completions overlap the remainders no more than the general "
        f"ones (one-sided p = {p}), so nothing points at this test set.{also} This is no proof "
        "the model never saw these texts."
    )


def overlap_table(found: Figures) -> Table:
    rows = {NAMED[name]: overlap for name, overlap in found.overlaps.items()}
    rows["difference, guided - general"] = found.difference
    title = "Overlap of the completions with the true remainder (mean ROUGE-L F; seeded bootstrap "
    table = figure_table(title + "95% CI, paired for the difference)", rows, list(rows))
    p_row = ["one-sided p (difference > 0)", p_value(found.p), ""]
    notes = ["The difference is the headline; a refused or empty reply counts 0."]
    return replace(table, rows=[*table.rows, p_row], notes=notes)


def reproduction_table(counts: dict[str, int], words: int) -> Table:
    rows = [[name, counts[verbatim_key(name)], counts.get(refused_key(name), "")]
            for name in (GUIDED, GENERAL, BOTH)]  # fmt: skip
    return Table(
        f"Reproduced (a run of {words} words or more shared with the remainder) and refused, "
        f"of the {counts[COMPLETIONS]} completions of each instruction",
        ["instruction", "reproduced", "refused or empty"],
        rows,
        [f"{counts[SHORT]} completions are of a remainder shorter than {words} words, which none "
         "can reproduce: a few words repeated whole are often a guess.",
         "Only a reproduction the general instruction does not also give points at this test "
         "set."],
    )  # fmt: skip


def runs_table(log: LoadedLog) -> Table:
    """Each completion's longer run of its two (guided on a tie), longest first."""
    runs = []
    for sample in completions(log):
        value: dict[str, float] = sample.scores[log.scorer].value  # type: ignore[index,assignment]
        name = max((GUIDED, GENERAL), key=lambda n: value[run_key(n)])
        if run := int(value[run_key(name)]):
            runs.append((run, name, sample))
    rows = []
    for run, name, sample in sorted(runs, key=lambda r: -r[0])[:LONGEST_RUNS]:
        completion = str(sample.scores[log.scorer].metadata[name]["completion"])  # type: ignore
        rows.append([str(sample.id), sample.epoch, name, run, excerpt(str(sample.input), True),
                     excerpt(completion), excerpt(str(sample.target))])  # fmt: skip
    return Table(
        f"The longest runs shared with the remainder (at most {LONGEST_RUNS} completions)",
        ["id", "epoch", "instruction", "run", "shown (its end)", "completion", "remainder"],
        rows,
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
    for n, log in enumerate(logs, start=1):
        blocks += [f"{n}. {log.path} ({log.model})", *log.counts("   items")]
    blocks += differing(logs, "part probed (-T part=)", setting)
    blocks += differing(logs, "probe instructions", instructions)
    found = [(completion_stats(log.scores()), counted(log)) for log in logs]
    rows = [[label, log.log.eval.metadata["part"], f.overlaps[GUIDED].value,
             f.overlaps[GENERAL].value, estimate_cell(f.difference), p_value(f.p),
             *(counts[key] for key in COUNTED)]
            for label, log, (f, counts) in zip(labels(logs), logs, found, strict=True)]  # fmt: skip
    blocks.append(Table(
        "The models side by side (mean ROUGE-L with the remainder; difference with its paired "
        "bootstrap 95% CI; completions reproduced and refused)",
        ["model", "part", "guided", "general", "difference", "p", "reproduced guided",
         "reproduced general", "reproduced both", "refused guided", "refused general",
         "completions"],
        rows,
    ))  # fmt: skip
    chart = IntervalChart(
        filename=f"{logs[0].path.stem}-differences.png",
        title=f"{logs[0].task}: guided minus general overlap (95% CI)",
        axis="difference in mean ROUGE-L",
        labels=labels(logs),
        values=[f.difference.value for f, _ in found],
        lows=[f.difference.low for f, _ in found],
        highs=[f.difference.high for f, _ in found],
        limits=(-1.0, 1.0),
    )
    return blocks, [chart]


def report(logs: Sequence[LoadedLog]) -> tuple[list[Block], list[Chart]]:
    if len(logs) > 1:
        return side_by_side(logs)
    [log] = logs
    scores, counts = log.scores(), counted(log)
    found = completion_stats(scores)
    blocks = [*header(log), verdict(found, counts)]
    blocks += [REFERENCES_NOTE] if log.log.eval.metadata["part"] == "reference" else []
    words = int(log.log.eval.metadata["verbatim_words"])
    blocks += [overlap_table(found), reproduction_table(counts, words), runs_table(log)]
    return blocks, [overlap_chart(log, scores)]

"""The report on contamination logs (live_qa_contamination): does a model know the texts?

One log: the overlap under each instruction and their difference with intervals, the share
reproduced verbatim, the refusals, whether the log is flagged, the items with the longest runs
shared with their remainder, and a PNG of every item's guided against general overlap. Several
logs (one per model): the models side by side. The figures are the log's; the intervals of the
two means, which the log does not hold, are drawn from the items with the same seeded bootstrap.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from liveqa_inspect.report.comparison import differing, labels, setting
from liveqa_inspect.report.loading import LoadedLog, Prompt, ReportError, SampleId
from liveqa_inspect.report.plots import Chart, IntervalChart, Scatter
from liveqa_inspect.report.stats import mean_estimate
from liveqa_inspect.report.tables import Block, Table, interval, with_interval
from liveqa_inspect.stats.names import (
    DIFFERENCE,
    DIFFERENCE_P,
    ci_keys,
    overlap_key,
    refused_key,
    run_key,
    verbatim_key,
)
from liveqa_inspect.tasks.contamination.instructions import GENERAL, GUIDED
from liveqa_inspect.tasks.contamination.metrics import FLAG_P

KIND = "contamination"
"""The kind of log this section reads (report/loading.py's `Kind`)."""

INSTRUCTIONS = (GUIDED, GENERAL)
LONGEST_RUNS = 5
"""Items shown in the table of longest runs."""
SHOWN_CHARS = 60
"""How much of each text a table cell holds: the end of the shown part (where the completion
picks up), the start of the completion and of the remainder."""


@dataclass(frozen=True)
class Probe:
    """One item as the report shows it: its reduced figures and its texts (first epoch)."""

    id: SampleId
    values: dict[str, float]
    shown: str
    remainder: str
    completions: dict[str, str]

    def longer_run(self) -> tuple[str, int]:
        """The instruction whose completion shares the longer run (guided on a tie), and it."""
        name = max(INSTRUCTIONS, key=lambda n: self.values[run_key(n)])
        return name, int(self.values[run_key(name)])


def probes(log: LoadedLog) -> list[Probe]:
    reduction = next((r for r in log.log.reductions or [] if r.scorer == log.scorer), None)
    if reduction is None:
        raise ReportError(f"{log.path} holds no reduced scores for {log.scorer}")
    samples = {}
    for sample in log.log.samples or []:
        samples.setdefault(sample.id, sample)
    found = []
    for score in reduction.samples:
        sample = samples[score.sample_id]  # type: ignore[index]
        meta = score.metadata or {}
        found.append(
            Probe(
                id=sample.id,
                values={key: float(value) for key, value in score.value.items()},  # type: ignore[union-attr]
                shown=str(sample.input),
                remainder=str(sample.target),
                completions={name: str(meta[name]["completion"]) for name in INSTRUCTIONS},
            )
        )
    return found


def p_value(p: float) -> str:
    """Four decimals: the smallest p 10,000 resamples can give is 0.0001, which three would
    print as 0."""
    return "n/a" if math.isnan(p) else f"{p:.4f}"


def flat(text: str) -> str:
    return " ".join(text.split())


def start(text: str) -> str:
    return textwrap.shorten(flat(text), SHOWN_CHARS, placeholder=" …") or "(empty)"


def end(text: str) -> str:
    text = flat(text)
    return text if len(text) <= SHOWN_CHARS else "… " + text[-(SHOWN_CHARS - 2) :].lstrip()


def instructions(log: LoadedLog) -> str:
    given = log.log.eval.metadata["instructions"]
    return ", ".join(str(Prompt(i["name"], i["version"], i["sha256"])) for i in given)


def part(log: LoadedLog) -> str:
    return str(log.log.eval.metadata["part"])


def header(log: LoadedLog) -> list[str]:
    meta = log.log.eval.metadata
    left_out = list(meta["left_out"])
    shortest = 2 * int(meta["min_side_words"])
    return [
        f"{log.task} report: {log.path}",
        f"model: {log.model}; {setting(log)}; epochs: {log.epochs}",
        f"instructions: {instructions(log)}",
        f"items: {log.scored} probed, {len(left_out)} left out as shorter than {shortest} words"
        + (f" ({', '.join(left_out)})" if left_out else ""),
    ]


def overlap_table(log: LoadedLog, items: Sequence[Probe]) -> Table:
    rows: list[list[str | float]] = []
    for name, label in ((GUIDED, "guided (the test set named)"), (GENERAL, "general (control)")):
        estimate = mean_estimate(np.array([item.values[overlap_key(name)] for item in items]))
        rows.append([label, log.figures[overlap_key(name)], interval(estimate.low, estimate.high)])
    low, high = (log.figures.get(key, math.nan) for key in ci_keys(DIFFERENCE))
    rows.append(["difference, guided - general", log.figures[DIFFERENCE], interval(low, high)])
    rows.append(["one-sided p (difference > 0)", p_value(log.figures[DIFFERENCE_P]), ""])
    return Table(
        "Overlap of the completions with the true remainder (mean ROUGE-L F; seeded bootstrap "
        "95% CI, paired for the difference)",
        ["figure", "value", "95% CI"],
        rows,
        ["The difference is the headline; a refused or empty reply counts 0."],
    )


def reproduction_table(log: LoadedLog, words: int) -> Table:
    rows = [
        [name, log.figures[verbatim_key(name)], int(log.figures[refused_key(name)])]
        for name in INSTRUCTIONS
    ]
    return Table(
        "Reproduced verbatim or nearly, and refused",
        ["instruction", "verbatim share", "refused or empty"],
        rows,
        [
            f"Verbatim or nearly: the completion shares a run of at least {words} consecutive "
            "words with the remainder, or the whole remainder when it is shorter."
        ],
    )


def verdict(log: LoadedLog) -> str:
    """Golchin & Surdeanu's flag: a guided overlap above the general one at p <= FLAG_P, or
    completions that reproduce their remainder."""
    reasons = []
    p = log.figures[DIFFERENCE_P]
    if p <= FLAG_P:
        reasons.append(
            f"the guided completions overlap the remainders more than the general ones "
            f"(one-sided p = {p_value(p)} <= {FLAG_P:g})"
        )
    for name in INSTRUCTIONS:
        share = log.figures[verbatim_key(name)]
        if share > 0:
            reasons.append(
                f"{round(share * log.scored)} of the {log.scored} {name} completions reproduce "
                "their remainder"
            )
    if not reasons:
        return (
            f"not flagged: no significant difference (one-sided p = {p_value(p)}) and no "
            "completion reproduces its remainder. This is no proof the model never saw these texts."
        )
    return (
        f"flagged: {'; '.join(reasons)}. Evidence the model has seen these texts, not proof that "
        "its scores are inflated."
    )


def runs_table(items: Sequence[Probe]) -> Table:
    ranked = sorted(items, key=lambda item: -item.longer_run()[1])
    rows = []
    for item in ranked[:LONGEST_RUNS]:
        name, run = item.longer_run()
        if run == 0:
            break
        rows.append(
            [str(item.id), name, run, end(item.shown), start(item.completions[name]),
             start(item.remainder)]
        )  # fmt: skip
    return Table(
        f"The longest runs shared with the remainder (at most {LONGEST_RUNS} items)",
        ["id", "instruction", "run", "shown (its end)", "completion", "remainder"],
        rows,
        ["Each item under the instruction whose completion shares the longer run."],
    )


def overlap_chart(log: LoadedLog, items: Sequence[Probe]) -> Scatter:
    return Scatter(
        filename=f"{log.path.stem}-overlap.png",
        title=f"{log.task} {log.model} ({setting(log)}): each item's overlap with its remainder",
        x_axis="general (control): ROUGE-L with the remainder",
        y_axis="guided (the test set named): ROUGE-L with the remainder",
        x=[item.values[overlap_key(GENERAL)] for item in items],
        y=[item.values[overlap_key(GUIDED)] for item in items],
        above="guided higher",
        below="general higher",
    )


def side_by_side(logs: Sequence[LoadedLog]) -> Table:
    rows = []
    for label, log in zip(labels(logs), logs, strict=True):
        f = log.figures
        low, high = (f.get(key, math.nan) for key in ci_keys(DIFFERENCE))
        rows.append(
            [label, part(log), f[overlap_key(GUIDED)], f[overlap_key(GENERAL)],
             with_interval(f[DIFFERENCE], low, high), p_value(f[DIFFERENCE_P]),
             f[verbatim_key(GUIDED)], f[verbatim_key(GENERAL)],
             int(f[refused_key(GUIDED)]), int(f[refused_key(GENERAL)]), log.scored]
        )  # fmt: skip
    return Table(
        "The models side by side (mean ROUGE-L with the remainder; difference with its paired "
        "bootstrap 95% CI)",
        ["model", "part", "guided", "general", "difference", "p", "verbatim guided",
         "verbatim general", "refused guided", "refused general", "items"],
        rows,
    )  # fmt: skip


def differences_chart(logs: Sequence[LoadedLog]) -> IntervalChart:
    return IntervalChart(
        filename=f"{logs[0].path.stem}-differences.png",
        title=f"{logs[0].task}: guided minus general overlap (95% CI)",
        axis="difference in mean ROUGE-L",
        labels=labels(logs),
        values=[log.figures[DIFFERENCE] for log in logs],
        lows=[log.figures.get(ci_keys(DIFFERENCE)[0], math.nan) for log in logs],
        highs=[log.figures.get(ci_keys(DIFFERENCE)[1], math.nan) for log in logs],
        limits=(-1.0, 1.0),
    )


def part_note(log: LoadedLog) -> list[str]:
    if part(log) != "reference":
        return []
    return [
        "note: the reference answers were copied from public health websites (their URLs are in "
        "the samples): a model that completes them may have read those sites, not this test set."
    ]


def report(logs: Sequence[LoadedLog]) -> tuple[list[Block], list[Chart]]:
    if len(logs) > 1:
        blocks: list[Block] = [f"{len(logs)} {logs[0].task} logs side by side:"]
        blocks += [f"{n}. {log.path} ({log.model})" for n, log in enumerate(logs, start=1)]
        blocks += differing(logs, "part probed (-T part=)", setting)
        blocks += differing(logs, "probe instructions", instructions)
        return [*blocks, side_by_side(logs)], [differences_chart(logs)]
    [log] = logs
    items = probes(log)
    words = int(log.log.eval.metadata["verbatim_words"])
    blocks = [*header(log), verdict(log), *part_note(log)]
    blocks += [overlap_table(log, items), reproduction_table(log, words), runs_table(items)]
    return blocks, [overlap_chart(log, items)]

"""The judge card: every candidate judge of a folder in one row, to choose the judge to pin. Each
task's section adds its columns through its `card` hook, over one group of its logs, each figure
stating the answers it covers; the frame names no task and adds what every judge log has: what it
errored on, left unscored and cost (docs/report.md, The judge card)."""

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from inspect_ai.model import GenerateConfig

from liveqa_inspect.default_judge import DEFAULT_JUDGE
from liveqa_inspect.judging.grade import sent
from liveqa_inspect.judging.record import JudgeRecord
from liveqa_inspect.report import comparison as compare
from liveqa_inspect.report.cost import NO_PRICE, graded, judge_spend
from liveqa_inspect.report.graded import Item, paired
from liveqa_inspect.report.loaded import LoadedLog, Logs, Sections
from liveqa_inspect.report.loading import Said
from liveqa_inspect.report.plots import Charted, IntervalChart
from liveqa_inspect.report.tables import Block, Cell, Table, figure_cell, fmt
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.stats.names import juror_names

TITLE = "Judge card"
MARKDOWN, PNG = "judge-card.md", "judge-card.png"
NOT_RUN = "not run"
REFERENCE = "reference"
SPENT = ["judge", "errored", "unscored", "tokens / 100 graded", "$ / 100 graded", "cached replies"]
Judges = Mapping[str, LoadedLog]
"""A group's judge logs by their rows' names, in the group's order: what a section's hook reads."""
SPENT_NOTE = (
    "errored: answers whose grading failed (`fail_on_error` off), of all; unscored: answers "
    "whose verdict could not be read, of those graded (scored or unscored: the judge was "
    "asked), epochs counted, over all the judge's logs; tokens and $ count every judge call "
    "as if no reply came from a cache, per 100 answers graded (a robustness answer counts "
    "once with all its versions); cached replies: judge calls answered from a cache; "
    f"{NO_PRICE}: a model without a price (--model-cost-config)."
)
Agreement = Callable[[Sequence[tuple[Item, Item]], Sequence[float]], Mapping[str, Estimate]]
"""Two judges' agreement on the answers both graded, the first standing for the humans."""
DEFAULT = JudgeRecord.of([DEFAULT_JUDGE], "", "default judge", [sent(GenerateConfig())])
"""The pinned default judge as a run grades with it when nothing is set: the card's reference."""


@dataclass(frozen=True)
class Part:
    """One table of the card: a row of cells for each judge of its logs (keyed by its card name),
    the log behind each row (for what the frame counts), figures for the chart."""

    title: str
    columns: Sequence[str]
    rows: Mapping[str, Sequence[Cell]]
    logs: Mapping[str, LoadedLog]
    charted: Sequence[Charted] = ()
    notes: Sequence[str] = ()


@dataclass(frozen=True)
class Card:
    heading: str
    blocks: list[Block]
    chart: IntervalChart | None


def references(named: Sequence[Judges], asked: Sequence[str]) -> tuple[list[str], list[str]]:
    """The rows that are reference judges (the pinned default at its default settings, and each
    `--reference-judge` named as its row is), and why one asked for is none."""
    logs = [(name, log) for judges in named for name, log in judges.items()]
    default = [(DEFAULT.models, DEFAULT.settings)]
    found = [name for name, log in logs if [(j.models, j.settings) for j in log.judges] == default]
    ran = sorted({name for name, log in logs if DEFAULT_JUDGE in log.judge_label})
    why = f"it ran only as {', '.join(ran)}" if ran else "it graded none of these answers"
    notes = [
        f"No agreement with the pinned default judge {DEFAULT_JUDGE} at its default "
        f"settings: {why}."
    ] * (not found)
    rows = {name for name, _ in logs}
    found += [name for name in asked if name in rows]
    notes += [
        f"--reference-judge {name}: no row of the card is that judge (name it as its row is: "
        f"{', '.join(sorted(rows))}), so no agreement with it is shown."
        for name in asked
        if name not in rows
    ]
    return list(dict.fromkeys(found)), notes


def reference_part(
    named: Judges, references: Sequence[str], agreement: Agreement, noun: str
) -> list[Part]:
    """Each judge's agreement with a reference judge that graded the same answers: whether a
    successor keeps the scores of the judge it replaces comparable. Empty where none did."""
    found = [name for name in named if name in references]
    columns, rows = [], {name: list[Cell]() for name in named}
    scale = next(iter(named.values())).scale
    for reference in found:
        columns += [f"{noun} kappa with {reference}", f"{noun} exact with {reference}"]
        for name, log in named.items():
            if name == reference:
                rows[name] += [REFERENCE, REFERENCE]
                continue
            figures = agreement(paired(named[reference].items, log.items, "answer"), scale)
            kappa, exact = figures["kappa"], figures["exact"]
            rows[name] += [figure_cell(kappa), f"{figure_cell(exact)} n={exact.n}"]
    title = f"{noun}: agreement with the reference judge on the same answers"
    return [Part(title, columns, rows, named)] if found else []


def warnings(found: Sequence[Part]) -> list[str]:
    """The caveats the runs printed (LoadedLog.caveats), once a judge and text: the card is what a
    team pastes, and a figure pasted without them reads as a measurement."""
    parts = [part.logs.items() for part in found]
    said = (f"WARNING: {name}: {text}" for p in parts for name, g in p for text in g.caveats())
    return list(dict.fromkeys(said))


def share(n: int, of: int) -> str:
    return f"{fmt(n / of)} ({n} of {of})" if of else "n/a"


def spent(found: Sequence[Part], name: str) -> list[Cell]:
    """What a judge errored on and left unscored, and what its calls cost per 100 answers graded
    (scored or unscored: the judge was asked), over all its logs (each once)."""
    logs = list({p.logs[name].path: p.logs[name] for p in found if name in p.logs}.values())
    rows, answers = [g for log in logs for g in log.gradings], graded(*logs)
    spend = judge_spend(*logs)
    errored, unscored = (sum(g.status == s for g in rows) for s in ("errored", "unscored"))
    counts = [share(errored, len(rows)), share(unscored, answers)]
    if not spend.calls:
        return [*counts, *["no judge call"] * 3]
    if not answers:  # every answer errored: its calls were made, none graded one
        return [*counts, "n/a", "n/a", f"{spend.cached} of {spend.calls} calls"]
    dollars = NO_PRICE if spend.cost is None else f"{100 * spend.cost / answers:.4f}"
    per_100 = f"{100 * spend.usage.total_tokens / answers:.0f}"
    return [*counts, per_100, dollars, f"{spend.cached} of {spend.calls} calls"]


def judge_card(
    groups: Sequence[Logs], sections: Sections, asked: Sequence[str], skipped: Sequence[Said]
) -> Card | None:
    """The card of the folder's judges from each task's hook, None where none contributes a
    column; the judge tasks no log ran, and the judge logs left out (a failed run), named on it."""
    # Each judge log's row name: its judge and the settings its logs differ in over all the
    # groups (one judge at two temperatures is two rows in every task), `#2` on a true repeat.
    judging = [group for group in groups if compare.judged(group)]
    logs = [log for group in judging for log in group]
    base = dict(zip((log.path for log in logs), compare.judge_labels(logs), strict=True))
    named = [dict(zip(juror_names(base[log.path] for log in g), g, strict=True)) for g in judging]
    found_references, notes = references(named, asked)
    hooks = {task: hook for task in sections if (hook := sections.of(task).card)}
    everything = [log for group in groups for log in group]
    pairs = zip(judging, named, strict=True)
    hooked = [(hooks[g[0].task], judges) for g, judges in pairs if g[0].task in hooks]
    found = [part for hook, judges in hooked for part in hook(judges, found_references, everything)]
    if not found:
        return None
    rows = list(dict.fromkeys(name for part in found for name in part.rows))
    blocks: list[Block] = [*warnings(found)]
    for part in found:
        cells = [[name, *(part.rows.get(name) or [NOT_RUN] * len(part.columns))] for name in rows]
        title = f"{part.title} (value [95% CI])"
        blocks.append(Table(title, ["judge", *part.columns], cells, part.notes))
    tasks, ran = [task for task in hooks if sections.of(task).judged], {g[0].task for g in groups}
    notes.append(SPENT_NOTE)
    if missing := [task for task in tasks if task not in ran]:
        notes.append(f"No log of {', '.join(missing)} in the folder: their columns are not shown.")
    left_out = [line.removeprefix("skipped: ") for line, task in skipped if task in tasks]
    notes += [f"Not on the card: {line}" for line in left_out]
    cells = [[name, *spent(found, name)] for name in rows]
    blocks.append(Table("What each judge errored on, left unread and cost", SPENT, cells, notes))
    charted = [figure for part in found for figure in part.charted]
    low = min([0.0, *(r.estimate.low for r in charted if not math.isnan(r.estimate.low))])
    axis, limits = "figure (quadratic kappa, Spearman rho)", (min(-0.1, low - 0.05), 1.05)
    title = f"{TITLE}: agreement with the humans (95% CI)"
    chart = IntervalChart(PNG, title, axis, charted, limits, warnings(found))
    return Card(f"{TITLE}: {len(rows)} judge(s)", blocks, chart if charted else None)

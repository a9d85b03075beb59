"""The judge card: every candidate judge of a folder in one row, to choose the judge to pin. Each
task's report section contributes its own columns through its `card(logs, references)` hook (found
as the frame finds its `report`), computed by the functions its own tables call; the frame names no
task, and adds what every judge log has: the verdicts it could not read and what its calls cost.
docs/report.md (The judge card) says where each column comes from."""

from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from liveqa_inspect.default_judge import DEFAULT_JUDGE
from liveqa_inspect.report import comparison as compare
from liveqa_inspect.report.cost import NO_PRICE, NOT_RECORDED, judge_spend
from liveqa_inspect.report.counts import caveat_texts
from liveqa_inspect.report.judge_settings import (
    judge_settings_differing,
    verdict_settings,
    with_settings,
)
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.plots import IntervalChart
from liveqa_inspect.report.sections import Sections
from liveqa_inspect.report.tables import Block, Cell, Table, figure_cell, fmt
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.stats.names import juror_names

TITLE = "Judge card"
MARKDOWN, PNG = "judge-card.md", "judge-card.png"
NOT_RUN = "not run"
REFERENCE = "reference"
SPENT = ["unscored", "tokens / 100 graded", "$ / 100 graded", "cached replies"]
Agreement = Callable[[LoadedLog, LoadedLog], Mapping[str, Estimate]]
"""Two judges' agreement on the answers both graded, the first standing for the humans."""
NAMES: ContextVar[Mapping[Path, str]] = ContextVar("card_names", default=MappingProxyType({}))
"""Each judge log's card row name while the card is built (`card.judges` reads it)."""


@dataclass(frozen=True)
class Part:
    """One task's table of the card: a row of cells for each judge that ran it (keyed as `judges`
    names them), the log behind each row (for what the frame counts), figures for the chart."""

    title: str
    columns: Sequence[str]
    rows: Mapping[str, Sequence[Cell]]
    logs: Mapping[str, LoadedLog]
    charted: Mapping[str, Estimate] = field(default_factory=dict)
    notes: Sequence[str] = ()


@dataclass(frozen=True)
class Card:
    heading: str
    blocks: list[Block]
    chart: IntervalChart | None


def card_names(groups: Sequence[Sequence[LoadedLog]]) -> dict[Path, str]:
    """Each log's row name: its judge and the settings in which its logs differ over all the groups
    (a task's own labels are unique within it only: one judge run at two temperatures, one of
    which ran a second task, would meet the other's row there); `#2` on a true repeat only."""
    logs = [log for group in groups for log in group]
    differ = judge_settings_differing(logs, verdict_settings)
    named = {log.path: with_settings(log, found) for log, found in zip(logs, differ, strict=True)}
    for group in groups:
        paths = [log.path for log in group]
        named |= dict(zip(paths, juror_names(named[path] for path in paths), strict=True))
    return named


def judges(logs: Sequence[LoadedLog]) -> dict[str, LoadedLog]:
    """Each log under its card row's name (`card_names`), so one judge's rows of several tasks
    meet in one card row only where it graded alike; outside a card, the task's labels."""
    named = NAMES.get()
    if all(log.path in named for log in logs):
        return {named[log.path]: log for log in logs}
    return dict(zip(compare.labels(logs), logs, strict=True))


def reference_part(
    logs: Sequence[LoadedLog], references: Sequence[str], agreement: Agreement, noun: str
) -> list[Part]:
    """Each judge's agreement with a reference judge (the pinned default, or one named with
    `--reference-judge`) that graded the same answers: whether a successor keeps the scores of
    the judge it replaces comparable. Empty where no reference judge graded them."""
    named = judges(logs)
    found = [name for name in named if name in references]
    columns, rows = [], {name: list[Cell]() for name in named}
    for reference in found:
        columns += [f"{noun} kappa with {reference}", f"{noun} exact with {reference}"]
        for name, log in named.items():
            if name == reference:
                rows[name] += [REFERENCE, REFERENCE]
                continue
            figures = agreement(named[reference], log)
            kappa, exact = figures["kappa"], figures["exact"]
            rows[name] += [figure_cell(kappa), f"{figure_cell(exact)} n={exact.n}"]
    title = f"{noun}: agreement with the reference judge on the same answers"
    return [Part(title, columns, rows, named)] if found else []


def parts(groups: Sequence[Sequence[LoadedLog]], references: Sequence[str]) -> list[Part]:
    """Each hook's parts, its rows named over all the judge logs of the card at once."""
    hooked = [logs for logs in groups if hasattr(logs[0].section, "card")]
    token = NAMES.set(card_names([g for g in hooked if compare.row_noun(g) == "judge"]))
    try:
        return [part for logs in hooked for part in logs[0].section.card(logs, references)]
    finally:
        NAMES.reset(token)


def warnings(found: Sequence[Part]) -> list[str]:
    """The caveats the run printed (report/counts.py), once a judge and text, naming the judge:
    the card is what a team pastes, and a figure pasted without them reads as a measurement."""
    said = (
        f"WARNING: {name}: {text}"
        for part in found
        for name, log in part.logs.items()
        for text in caveat_texts(log)
    )
    return list(dict.fromkeys(said))


def spent(found: Sequence[Part], name: str) -> list[Cell]:
    """A judge's unscored share, tokens and dollars per 100 answers graded, and cached replies,
    over all its logs (each once: a log may stand behind several parts)."""
    logs = list({p.logs[name].path: p.logs[name] for p in found if name in p.logs}.values())
    unscored, total = sum(log.unscored for log in logs), sum(len(log.values) for log in logs)
    share = f"{fmt(unscored / total)} ({unscored} of {total})" if total else "n/a"
    spends = [found for log in logs if (found := judge_spend(log))]
    graded = sum(s.graded for s in spends)
    if not graded:
        return [share, NOT_RECORDED, NOT_RECORDED, NOT_RECORDED]
    tokens = sum(s.usage.total_tokens for s in spends)
    costs = [s.cost for s in spends]
    dollars = NO_PRICE if None in costs else f"{100 * sum(filter(None, costs)) / graded:.4f}"
    cached = f"{sum(s.cached for s in spends)} of {sum(s.calls for s in spends)} calls"
    return [share, f"{100 * tokens / graded:.0f}", dollars, cached]


def judge_card(
    groups: Sequence[Sequence[LoadedLog]], references: Sequence[str], sections: Sections
) -> Card | None:
    """The card of the folder's judges, None where no section contributes a column."""
    found = parts(groups, references)
    if not found:
        return None
    names = list(dict.fromkeys(name for part in found for name in part.rows))
    # A table a task: one row a judge in each (the card's 19 columns in one table would not fit
    # a terminal), the same judges in the same order, "not run" where a judge did not run it.
    blocks: list[Block] = [*warnings(found)]
    blocks += [
        Table(
            f"{part.title} (value [95% CI])",
            ["judge", *part.columns],
            [[name, *(part.rows.get(name) or [NOT_RUN] * len(part.columns))] for name in names],
            part.notes,
        )
        for part in found
    ]
    rows = [[name, *spent(found, name)] for name in names]
    notes = [
        "unscored: answers whose verdict could not be read, of those graded, over all the judge's "
        "logs; tokens and $ count every judge call as if no reply came from a cache (what the "
        "judge costs), per 100 answers graded (epochs counted; a robustness answer counts once "
        "with all its versions, so a judge that ran it reads dearer); cached replies: judge calls "
        f"answered from a cache, of all its calls; {NO_PRICE}: a model without a price "
        "(--model-cost-config)."
    ]
    for reference in (r for r in references if r != DEFAULT_JUDGE):
        if reference not in names:
            notes.append(
                f"--reference-judge {reference}: no row of the card is that judge (name it as its "
                f"row is: {', '.join(names)}), so no agreement with it is shown."
            )
    # The judge tasks with a card hook that no log of the folder ran: said, not left out.
    ran = {logs[0].task for logs in groups}
    hooked = [task for task in sections.tasks if hasattr(sections.of(task), "card")]
    if missing := [t for t in hooked if t not in ran and sections.of(t).HUMAN_LEVELS]:
        notes.append(f"No log of {', '.join(missing)} in the folder: their columns are not shown.")
    blocks.append(Table("What each judge left unread and cost", ["judge", *SPENT], rows, notes))
    charted = {label: e for part in found for label, e in part.charted.items()}
    title = f"{TITLE}: agreement with the humans (95% CI)"
    axis = "figure (kappa, rho; floor: ROUGE-L's rho)"
    chart = IntervalChart(PNG, title, axis, list(charted), list(charted.values()))
    return Card(f"{TITLE}: {len(names)} judge(s)", blocks, chart if charted else None)

"""What a run's models cost, from the calls its log holds (`LoadedLog.calls`), each priced as if
it had been made: a judge is chosen on its price as well as on its agreement with humans. Not
from `log.stats`, which misprices a judge (docs/judge-cost.md, What is counted): each model event
says which role called, which model answered, whether the reply came from the cache (its output
keeps the usage of the call that made it) and, through its spans, which scorer made it; `inspect
score --action overwrite` replaces the old scoring's events, so a log's events are the calls of
its own scoring."""

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import yaml
from inspect_ai.model import ModelCost, ModelUsage, compute_model_cost
from pydantic import ValidationError

from liveqa_inspect.report.comparison import labels, per_log
from liveqa_inspect.report.graded import Call
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.refusals import ReportError
from liveqa_inspect.report.sections import Logs
from liveqa_inspect.report.tables import Cell, Table

PRICES: ContextVar[Mapping[str, ModelCost]] = ContextVar("prices", default=MappingProxyType({}))
"""`liveqa-report --model-cost-config`'s prices, for the cost table and every section's costs."""
Used = tuple[ModelUsage, float | None]
"""Tokens of some calls, and their cost (None: a call has no price)."""
NO_PRICE = "no price"
FORMAT = "YAML or JSON: each model's input, output, input_cache_write, input_cache_read $ per 1M"
HOW_TO_PRICE = (
    "no price: Inspect knows no price for the model, and a total without it would read as $0; "
    f"give one with `--model-cost-config FILE` to `inspect eval` or `liveqa-report` ({FORMAT})"
)
NOT_RECORDED = "not recorded"
COST_NOTE = f"{NOT_RECORDED}: the log holds no call of its judge"
UNCACHED = "their tokens are counted at what they would cost uncached"


@dataclass(frozen=True)
class Spend:
    """What some calls spent: their tokens and dollars (None: a model of them has no price), a
    reply read from a cache counted as if made, and how many of them were `cached`."""

    usage: ModelUsage
    cost: float | None
    calls: int
    cached: int

    @classmethod
    def of(cls, made: Sequence[Call]) -> "Spend":
        return cls(*spent(made), len(made), sum(call.cached for call in made))

    @classmethod
    def total(cls, spends: Sequence["Spend"]) -> "Spend":
        costs = [spend.cost for spend in spends]
        return cls(
            sum((spend.usage for spend in spends), ModelUsage()),
            None if None in costs else sum(cost or 0.0 for cost in costs),
            sum(spend.calls for spend in spends),
            sum(spend.cached for spend in spends),
        )


def dollars(cost: float | None) -> str:
    return NO_PRICE if cost is None else f"{cost:.4f}"


def price(call: Call) -> float | None:
    """Inspect's price where it priced the call (a cached reply keeps the price of the call that
    made it), else `--model-cost-config`'s; None where neither has one, never $0."""
    if call.usage.total_cost is not None:
        return call.usage.total_cost
    found = PRICES.get().get(call.model)
    return None if found is None else compute_model_cost(found, call.usage)


def spent(made: Iterable[Call]) -> Used:
    """The calls' tokens and cost, a cached reply counted at what it would cost uncached."""
    made = list(made)
    usage = sum((call.usage for call in made), ModelUsage())
    costs = [price(call) for call in made]
    return usage, None if None in costs else sum(cost or 0.0 for cost in costs)


def read_prices(path: Path) -> dict[str, ModelCost]:
    """Inspect's `--model-cost-config` file, which `inspect score` does not take."""
    try:
        found = yaml.safe_load(path.read_text(encoding="utf-8"))
        return {model: ModelCost(**cost) for model, cost in found.items()}
    except (OSError, yaml.YAMLError, AttributeError, TypeError, ValidationError) as error:
        raise ReportError(f"cannot read the prices in {path}: {error}; give {FORMAT}") from error


def graded(log: LoadedLog) -> int:
    """Answers graded, epochs counted: scored or unscored (the judge was asked), not errored. A
    cost per question would read three times the cost of grading an answer with 3 epochs (a
    robustness answer counts once, though its judge grades each of its versions)."""
    return sum(grading.status != "errored" for grading in log.gradings)


def judge_spend(log: LoadedLog) -> Spend:
    """The calls of the log's headline scorer (docs/judge-cost.md says whose)."""
    return Spend.of([call for call in log.calls if call.judging])


def usages(log: LoadedLog) -> tuple[dict[str, Used], dict[str, Used]]:
    """Each role's usage and cost, and each model's (a panel's jurors): a model serving two roles
    is charged each role's calls in its row, and its own row adds them once."""
    roles = sorted({call.role for call in log.calls if call.role is not None})
    models = sorted({call.model for call in log.calls}, key=lambda m: (m != log.model, m))
    return (
        {role: spent(call for call in log.calls if call.role == role) for role in roles},
        {model: spent(call for call in log.calls if call.model == model) for model in models},
    )


def cached_note(run: str, log: LoadedLog, nouns: Sequence[str] = ("judge", "other")) -> str | None:
    """A re-run whose judge replies all came from the cache would otherwise look free."""
    parts = []
    for noun in nouns:
        found = [call.cached for call in log.calls if call.judging == (noun == "judge")]
        if any(found):
            parts.append(f"{sum(found)} of {len(found)} {noun} replies read from the cache")
    return f"{run}: {' and '.join(parts)}; {UNCACHED}" if parts else None


def per_judge(
    logs: Logs, title: str, headers: Sequence[str], cells: Callable[[LoadedLog], list[Cell]]
) -> Table:
    """`per_log`'s table with each judge's cost beside its figures: a judge is chosen on both."""
    spends = {log.path: judge_spend(log) for log in logs}

    def with_cost(log: LoadedLog) -> list[Cell]:
        spend = spends[log.path]
        return [*cells(log), dollars(spend.cost) if spend.calls else NOT_RECORDED]

    table = per_log(logs, title, [*headers, "judge cost ($)"], with_cost)
    notes = [COST_NOTE] if not all(spend.calls for spend in spends.values()) else []
    runs = zip(labels(logs), logs, strict=True)
    notes += [note for run, log in runs if (note := cached_note(run, log, ["judge"]))]
    return Table(table.title, table.headers, table.rows, notes)


def usage_row(
    run: str, used_by: str, usage: ModelUsage, cost: float | None, scored: int
) -> list[Cell]:
    """Cached and reasoning tokens only where the provider reported them."""
    read, reasoning = usage.input_tokens_cache_read, usage.reasoning_tokens
    tokens = [usage.input_tokens, usage.output_tokens, read, reasoning]
    per_sample = NO_PRICE if cost is None else f"{cost / scored:.6f}" if scored else "n/a"
    return [run, used_by, *("" if n is None else str(n) for n in tokens), dollars(cost), per_sample]


def projection(log: LoadedLog, run: str, costs: Sequence[float | None]) -> str | None:
    """A `--limit` run prices the whole set at its own cost per sample (epochs included)."""
    planned, ran = log.log.eval.dataset.samples or 0, len(log.items)
    if log.log.eval.config.limit is None or not 0 < ran < planned:
        return None
    if None in costs:
        return f"{run}: no projected cost of all {planned} samples (a model has no price)"
    total = sum(cost or 0.0 for cost in costs) * planned / ran
    return f"{run}: all {planned} samples would cost about ${total:.2f}"


def cost_table(logs: Logs) -> Table:
    """Each role's usage (the judge's is `grader`), then each model's (a panel's jurors)."""
    rows: list[list[Cell]] = []
    notes = []
    for run, log in zip(labels(logs), logs, strict=True):
        roles, models = usages(log)
        if not models:  # nothing called: no cost, and none to project
            rows.append(usage_row(run, "no model call recorded", ModelUsage(), 0.0, 0))
            continue
        answers = graded(log)
        rows += [usage_row(run, f"role {role}", *used, answers) for role, used in roles.items()]
        rows += [usage_row(run, f"model {m}", *used, answers) for m, used in models.items()]
        notes += [line] if (line := cached_note(run, log)) else []
        notes += [line] if (line := projection(log, run, [c for _, c in models.values()])) else []
    if any(row[-1] == NO_PRICE for row in rows):
        notes.append(HOW_TO_PRICE)
    headers = ["run", "used by", "input", "output", "cached", "reasoning", "cost ($)"]
    headers.append("per graded answer ($)")
    return Table("Tokens and cost of the model calls in the log", headers, rows, notes)

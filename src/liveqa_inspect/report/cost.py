"""What a run's models cost, from the calls its log holds, each priced as if made: a judge is chosen
on its price as well as on its agreement with humans. Not from `log.stats`, which misprices a judge
(docs/judge-cost.md): each model event says which role called, which model answered, whether the
reply came from the cache (its output keeps the usage of the call that made it) and, through its
spans, which scorer made it; `inspect score --action overwrite` replaces the old scoring's events,
so they are its own scoring's calls."""

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

import yaml
from inspect_ai.model import ModelCost, ModelUsage, compute_model_cost
from pydantic import ValidationError

from liveqa_inspect.report.comparison import labels, per_log
from liveqa_inspect.report.graded import Call
from liveqa_inspect.report.loaded import LoadedLog, Logs
from liveqa_inspect.report.refusals import ReportError
from liveqa_inspect.report.tables import Cell, Table

PRICES: ContextVar[Mapping[str, ModelCost]] = ContextVar("prices", default=MappingProxyType({}))
"""`liveqa-report --model-cost-config`'s prices, for the cost table and every section's costs."""
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
    def of(cls, made: Iterable[Call]) -> "Spend":
        made = list(made)
        costs = [price(call) for call in made]
        cost = None if None in costs else sum(cost or 0.0 for cost in costs)
        usage = sum((call.usage for call in made), ModelUsage())
        return cls(usage, cost, len(made), sum(call.cached for call in made))

    @property
    def dollars(self) -> str:
        return NO_PRICE if self.cost is None else f"{self.cost:.4f}"


def price(call: Call) -> float | None:
    """Inspect's price where it priced the call (a cached reply keeps the price of the call that
    made it), else `--model-cost-config`'s; None where neither has one, never $0."""
    if call.usage.total_cost is not None:
        return call.usage.total_cost
    found = PRICES.get().get(call.model)
    return None if found is None else compute_model_cost(found, call.usage)


def read_prices(path: Path) -> dict[str, ModelCost]:
    """Inspect's `--model-cost-config` file, which `inspect score` does not take."""
    try:
        found = yaml.safe_load(path.read_text(encoding="utf-8"))
        return {model: ModelCost(**cost) for model, cost in found.items()}
    except (OSError, yaml.YAMLError, AttributeError, TypeError, ValidationError) as error:
        raise ReportError(f"cannot read the prices in {path}: {error}; give {FORMAT}") from error


def graded(*logs: LoadedLog) -> int:
    """Answers graded, epochs counted: scored or unscored (the judge was asked), not errored: the
    one definition every cost per answer divides by. A cost per question would read three times
    the cost of grading an answer with 3 epochs (a robustness answer counts once, though its
    judge grades each of its versions)."""
    return sum(grading.status != "errored" for log in logs for grading in log.gradings)


def judge_spend(*logs: LoadedLog) -> Spend:
    """The calls of the logs' headline scorers (docs/judge-cost.md says whose)."""
    return Spend.of([call for log in logs for call in log.calls if call.judging])


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
    costs = {path: spend.dollars if spend.calls else NOT_RECORDED for path, spend in spends.items()}
    table = per_log(logs, title, [*headers, "judge cost ($)"], lambda g: [*cells(g), costs[g.path]])
    notes = [COST_NOTE] * (NOT_RECORDED in costs.values())
    runs = zip(labels(logs), logs, strict=True)
    notes += [note for run, log in runs if (note := cached_note(run, log, ["judge"]))]
    return replace(table, notes=notes)


def usage_row(run: str, used_by: str, spend: Spend, answers: int) -> list[Cell]:
    """Cached and reasoning tokens only where the provider reported them."""
    usage, cost = spend.usage, spend.cost
    read, reasoning = usage.input_tokens_cache_read, usage.reasoning_tokens
    tokens = [usage.input_tokens, usage.output_tokens, read, reasoning]
    per_answer = NO_PRICE if cost is None else f"{cost / answers:.6f}" if answers else "n/a"
    return [run, used_by, *("" if n is None else str(n) for n in tokens), spend.dollars, per_answer]


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
    """Each role's usage (the judge's is `grader`), then each model's (a panel's jurors): a model
    serving two roles is charged each role's calls in its row, and its own row adds them once."""
    rows, notes = list[list[Cell]](), list[str]()
    for run, log in zip(labels(logs), logs, strict=True):
        if not log.calls:  # nothing called: no cost, and none to project
            rows.append(usage_row(run, "no model call recorded", Spend.of([]), 0))
            continue
        roles = sorted({call.role for call in log.calls if call.role is not None})
        models = sorted({call.model for call in log.calls}, key=lambda m: (m != log.model, m))
        spends = {f"role {r}": Spend.of(c for c in log.calls if c.role == r) for r in roles}
        by_model = {f"model {m}": Spend.of(c for c in log.calls if c.model == m) for m in models}
        costs, spends = [spend.cost for spend in by_model.values()], spends | by_model
        rows += [usage_row(run, used, spend, graded(log)) for used, spend in spends.items()]
        notes += [line for line in (cached_note(run, log), projection(log, run, costs)) if line]
    notes += [HOW_TO_PRICE] * any(row[-1] == NO_PRICE for row in rows)
    headers = ["run", "used by", "input", "output", "cached", "reasoning", "cost ($)"]
    headers.append("per graded answer ($)")
    return Table("Tokens and cost of the model calls in the log", headers, rows, notes)

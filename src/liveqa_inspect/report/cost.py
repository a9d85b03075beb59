"""What a run's models cost, as Inspect recorded it: a judge is chosen on its price as well as
on its agreement with humans (docs/judge-cost.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import yaml
from inspect_ai.event import ModelEvent
from inspect_ai.model import ModelCost, ModelUsage, compute_model_cost
from pydantic import ValidationError

from liveqa_inspect.judging.grade import JUDGE_ROLE
from liveqa_inspect.report.comparison import Logs, labels, per_log
from liveqa_inspect.report.loading import JUDGE_KINDS, LoadedLog, ReportError
from liveqa_inspect.report.tables import Cell, Table

Prices = Mapping[str, ModelCost]
PRICES: ContextVar[Prices] = ContextVar("prices", default=MappingProxyType({}))
"""`liveqa-report --model-cost-config`'s prices, for the cost table and every section's costs."""
NO_PRICE = "no price"
FORMAT = "YAML or JSON: each model's input, output, input_cache_write, input_cache_read $ per 1M"
HOW_TO_PRICE = (
    "no price: Inspect knows no price for the model, and a total without it would read as $0; "
    f"give one with `--model-cost-config FILE` to `inspect eval` or `liveqa-report` ({FORMAT})"
)
NOT_RECORDED = "not recorded"
COST_NOTE = f"{NOT_RECORDED}: the log holds no usage of the grader role (replies from a cache?)"
COST = "judge cost ($)"
Used = tuple[ModelUsage, float | None]
"""Tokens as Inspect recorded them, and their cost (None: no price)."""


def dollars(cost: float | None) -> str:
    return NO_PRICE if cost is None else f"{cost:.4f}"


def read_prices(path: Path) -> dict[str, ModelCost]:
    """Inspect's `--model-cost-config` file, which `inspect score` does not take."""
    try:
        found = yaml.safe_load(path.read_text(encoding="utf-8"))
        return {model: ModelCost(**cost) for model, cost in found.items()}
    except (OSError, yaml.YAMLError, AttributeError, TypeError, ValidationError) as error:
        raise ReportError(f"cannot read the prices in {path}: {error}; give {FORMAT}") from error


def usages(log: LoadedLog) -> tuple[dict[str, Used], dict[str, Used]]:
    """Each role's usage and cost (the judge's is `grader`), and each model's (a panel's jurors).
    `inspect score` leaves `log.stats` as the eval made it, so a re-graded log (no grader in it,
    or other judges) has its grader's from the scoring's events; a model Inspect knows no price
    for is priced from `--model-cost-config` (PRICES)."""
    roles, models = log.log.stats.role_usage, log.log.stats.model_usage
    judges = {model for _, names in log.judges for model in names}
    if JUDGE_ROLE not in roles or not judges <= set(models):
        roles = {role: u for role, u in roles.items() if role != JUDGE_ROLE}
        models = {model: u for model, u in models.items() if model == log.model}
        for event in (event for sample in log.log.samples or [] for event in sample.events):
            # Inspect counts no usage for a reply from its cache.
            if isinstance(event, ModelEvent) and event.role == JUDGE_ROLE and event.cache != "read":
                usage = event.output.usage or ModelUsage()
                models[event.model] = models.get(event.model, ModelUsage()) + usage
                roles[JUDGE_ROLE] = roles.get(JUDGE_ROLE, ModelUsage()) + usage
    prices, costs = PRICES.get(), {m: u.total_cost for m, u in models.items()}
    for m in [m for m, cost in costs.items() if cost is None and m in prices]:
        costs[m] = compute_model_cost(prices[m], models[m])
    priced = {}
    for role, u in roles.items():
        # Inspect's role total adds its priced models only: a model priced here adds its own
        # cost (it serves that role alone), one priced nowhere leaves no price.
        served = (judges if role == JUDGE_ROLE else set()) or set(models)
        extra = [costs[m] for m in served & set(models) if models[m].total_cost is None]
        total = None if None in extra else (u.total_cost or 0.0) + sum(filter(None, extra))
        priced[role] = u, total
    return priced, {model: (u, costs[model]) for model, u in models.items()}


def judge_cost(log: LoadedLog) -> str:
    """The grader role's cost; where none is bound, a log measuring a judge measures the
    evaluated model, so its cost is the model's."""
    roles, models = usages(log)
    found = roles.get(JUDGE_ROLE) or (models.get(log.model) if log.kind in JUDGE_KINDS else None)
    return NOT_RECORDED if found is None else dollars(found[1])


def per_judge(
    logs: Logs, title: str, headers: Sequence[str], cells: Callable[[LoadedLog], list[Cell]]
) -> Table:
    """`per_log`'s table with each judge's cost beside its figures: a judge is chosen on both."""
    table = per_log(logs, title, [*headers, COST], lambda log: [*cells(log), judge_cost(log)])
    unrecorded = any(NOT_RECORDED in row for row in table.rows)
    return Table(table.title, table.headers, table.rows, [COST_NOTE] if unrecorded else [])


def usage_row(
    run: str, used_by: str, usage: ModelUsage, cost: float | None, scored: int
) -> list[Cell]:
    """Cached and reasoning tokens only where the provider reported them."""
    return [
        run, used_by, str(usage.input_tokens), str(usage.output_tokens),
        "" if usage.input_tokens_cache_read is None else str(usage.input_tokens_cache_read),
        "" if usage.reasoning_tokens is None else str(usage.reasoning_tokens),
        dollars(cost),
        NO_PRICE if cost is None else f"{cost / scored:.6f}" if scored else "n/a",
    ]  # fmt: skip


def projection(log: LoadedLog, run: str, costs: Sequence[float | None]) -> str | None:
    """A `--limit` run prices the whole set at its own cost per sample (epochs included)."""
    planned, ran = log.log.eval.dataset.samples or 0, len(log.metadata)
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
        if not models:  # every reply read from a cache, say: no cost, and none to project
            rows.append(usage_row(run, "no model call recorded", ModelUsage(), 0.0, 0))
            continue
        rows += [usage_row(run, f"role {role}", *used, log.scored) for role, used in roles.items()]
        rows += [usage_row(run, f"model {m}", *used, log.scored) for m, used in models.items()]
        notes += [line] if (line := projection(log, run, [c for _, c in models.values()])) else []
    if any(row[-1] == NO_PRICE for row in rows):
        notes.append(HOW_TO_PRICE)
    headers = ["run", "used by", "input", "output", "cached", "reasoning", "cost ($)"]
    headers.append("per scored answer ($)")
    return Table("Tokens and cost, as Inspect recorded them", headers, rows, notes)


# --- PROVISIONAL (r4-card): `judge_spend` as r4-cost's contract states it, until r4-cost's own
# --- replaces this block (the judge card reads it; drop this block when merging r4-cost).
@dataclass(frozen=True)
class JudgeSpend:
    """A log's judge calls: their tokens as if uncached and their cost (None: no price), how many
    calls, how many of them were replies read from a cache, and the answers graded (epochs
    counted)."""

    usage: ModelUsage
    cost: float | None
    calls: int
    cached: int
    graded: int


def judge_spend(log: LoadedLog) -> JudgeSpend | None:
    """The grader role's calls, or where none is bound in a log measuring a judge, the evaluated
    model's; None where no judge call is recorded."""
    events = [e for s in log.log.samples or [] for e in s.events if isinstance(e, ModelEvent)]
    own = log.kind in JUDGE_KINDS and not any(e.role == JUDGE_ROLE for e in events)
    calls = [e for e in events if e.role == JUDGE_ROLE or (own and e.model == log.model)]
    if not calls:
        return None
    usage, cost, prices = ModelUsage(), 0.0, PRICES.get()
    for event in calls:
        used = event.output.usage or ModelUsage()
        usage += used
        price = prices.get(event.model)
        each = compute_model_cost(price, used) if price else used.total_cost
        cost = None if cost is None or each is None else cost + each
    graded = sum(log.scorer in (s.scores or {}) for s in log.log.samples or [])
    cached = sum(e.cache == "read" for e in calls)
    return JudgeSpend(usage, cost, len(calls), cached, graded)


# --- end of the PROVISIONAL block

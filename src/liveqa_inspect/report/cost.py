"""What a run's models cost, as Inspect recorded it in `log.stats`: a judge is chosen on its price
as well as on its agreement with humans (docs/judge-cost.md)."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.model import ModelUsage

from liveqa_inspect.judging.grade import JUDGE_ROLE
from liveqa_inspect.report.comparison import labels
from liveqa_inspect.report.loading import LoadedLog
from liveqa_inspect.report.tables import Cell, Table

NO_PRICE = "no price"
HOW_TO_PRICE = (
    "no price: Inspect knows no price for the model, and a total without it would read as $0; "
    "give one with `inspect eval --model-cost-config FILE` (YAML or JSON: per model, its input, "
    "output, input_cache_write and input_cache_read prices in $ per million tokens)"
)
Used = tuple[ModelUsage, float | None]
"""Tokens as Inspect recorded them, and their cost (None: no price)."""


def dollars(cost: float | None) -> str:
    return NO_PRICE if cost is None else f"{cost:.4f}"


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


def projection(log: LoadedLog, run: str) -> str | None:
    """A `--limit` run prices the whole set at its own cost per sample (epochs included)."""
    planned, ran = log.log.eval.dataset.samples or 0, len(log.metadata)
    if log.log.eval.config.limit is None or not 0 < ran < planned:
        return None
    usage = log.log.stats.model_usage.values()
    if any(used.total_cost is None for used in usage):
        return f"{run}: no projected cost of all {planned} samples (a model has no price)"
    total = sum(used.total_cost or 0.0 for used in usage) * planned / ran
    return f"{run}: all {planned} samples would cost about ${total:.2f}"


def usages(log: LoadedLog) -> tuple[dict[str, Used], dict[str, Used]]:
    """Each role's usage and cost (the judge's is `grader`), and each model's (a panel's jurors).
    Inspect sums a role's priced models only: a role served by an unpriced one has no price."""
    stats = log.log.stats
    unpriced = {model for model, u in stats.model_usage.items() if u.total_cost is None}
    judges = {model for _, models in log.judges for model in models}
    roles = {}
    for role, u in stats.role_usage.items():
        served = (judges if role == JUDGE_ROLE else set()) or set(stats.model_usage)
        roles[role] = u, None if served & unpriced else u.total_cost
    return roles, {model: (u, u.total_cost) for model, u in stats.model_usage.items()}


def cost_table(logs: Sequence[LoadedLog]) -> Table:
    rows: list[list[Cell]] = []
    notes = []
    for run, log in zip(labels(logs), logs, strict=True):
        roles, models = usages(log)
        rows += [usage_row(run, f"role {role}", *used, log.scored) for role, used in roles.items()]
        rows += [usage_row(run, f"model {m}", *used, log.scored) for m, used in models.items()]
        notes += [line] if (line := projection(log, run)) else []
    if any(row[-1] == NO_PRICE for row in rows):
        notes.append(HOW_TO_PRICE)
    headers = ["run", "used by", "input", "output", "cached", "reasoning", "cost ($)"]
    headers.append("per scored answer ($)")
    return Table("Tokens and cost, as Inspect recorded them", headers, rows, notes)

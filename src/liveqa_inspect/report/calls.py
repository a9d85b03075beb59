"""A log's model calls, read from its samples' events, each priced as if it had been made.

`log.stats` cannot price a judge: it adds a model's usage over all the roles it serves (a model
grading its own answers is charged its answering as judging), it counts no reply read from a
cache (a re-run's judge would look free), and `inspect score` leaves it as the eval made it (a
re-graded log still holds the old judge's usage). Each model event says which role called,
which model answered, whether the reply came from the cache (its output keeps the usage of the
call that made it) and, through its spans, which scorer made it; `inspect score --action
overwrite` replaces the old scoring's events, so a log's events are the calls of its own scoring.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from types import MappingProxyType

from inspect_ai.event import ModelEvent, SpanBeginEvent
from inspect_ai.log import EvalLog
from inspect_ai.model import ModelCost, ModelUsage, compute_model_cost

PRICES: ContextVar[Mapping[str, ModelCost]] = ContextVar("prices", default=MappingProxyType({}))
"""`liveqa-report --model-cost-config`'s prices, for the cost table and every section's costs."""
SCORER_SPAN = "scorer"
"""The type of the span Inspect opens around each scorer, named after it."""
Used = tuple[ModelUsage, float | None]
"""Tokens of some calls, and their cost (None: a call has no price)."""


@dataclass(frozen=True)
class Call:
    """One model event: `usage` is the call's own, also for a reply read from the cache."""

    role: str | None
    model: str
    usage: ModelUsage
    cached: bool
    judging: bool
    """Made while the log's headline scorer ran: the judge's call (a juror's, in a panel)."""


def read_calls(log: EvalLog, scorer: str) -> list[Call]:
    """Each model event, `judging` where a span of `scorer` holds it (a span begins after its
    parent's, so one pass over the events knows every span inside the scorer's)."""
    found = []
    for sample in log.samples or []:
        in_scorer: set[str] = set()
        for event in sample.events:
            if isinstance(event, SpanBeginEvent):
                scoring = event.type == SCORER_SPAN and event.name == scorer
                if scoring or event.parent_id in in_scorer:
                    in_scorer.add(event.id)
            elif isinstance(event, ModelEvent):
                usage = event.output.usage or ModelUsage()
                judging = event.span_id in in_scorer
                found.append(Call(event.role, event.model, usage, event.cache == "read", judging))
    return found


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

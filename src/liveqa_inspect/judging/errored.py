"""A sample whose run errored is scored by none of this package's scorers, in a run or a
re-grading (`score()`, `inspect score`). A run with `fail_on_error` off leaves such a sample
errored and unscored; re-graded, its missing answer would read as an empty one, score 0 and
count as scored, and the headline would move with nothing to say so (issue 35)."""

import functools
from collections.abc import Awaitable, Callable

from inspect_ai.event import ErrorEvent
from inspect_ai.log import transcript
from inspect_ai.scorer import Score, Target
from inspect_ai.solver import TaskState


def unless_errored(
    score: Callable[[TaskState, Target], Awaitable[Score]],
) -> Callable[[TaskState, Target], Awaitable[Score | None]]:
    """None (which Inspect leaves out of the sample's scores and every metric) for a sample that
    errored. Inspect hands a scorer no sample's error, but its transcript holds the sample's events:
    re-grading loads the logged ones, and a sample that errored has its `ErrorEvent` there (only a
    final error: a sample retried on error logs none for the attempts before)."""

    @functools.wraps(score)
    async def scored(state: TaskState, target: Target) -> Score | None:
        errored = any(isinstance(event, ErrorEvent) for event in transcript().events)
        return None if errored else await score(state, target)

    return scored

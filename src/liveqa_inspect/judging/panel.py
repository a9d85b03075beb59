"""A panel of jurors: how their levels combine into the panel's one level, or why they do not."""

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Literal, get_args

from liveqa_inspect.arguments import one_of

LEVEL_DIGITS = 6
"""A panel's or an epoch's mean level is rounded to this: View shows 0.7, not 0.6999999999999998."""

PanelRule = Literal["mean", "median", "majority"]
GRADER_FAILED, NO_MAJORITY = "grader_failed", "no_majority"


def combine(levels: Sequence[float | None], panel: PanelRule) -> float | str:
    """The panel's level, or the reason it has none: `grader_failed` unless more than half of the
    jurors gave a verdict; under `majority`, `no_majority` unless one level was given by more
    than half of the whole panel (an abstention withholds a vote without lowering the bar)."""
    given = [level for level in levels if level is not None]
    if 2 * len(given) <= len(levels):
        return GRADER_FAILED
    if panel == "majority":
        level, votes = Counter(given).most_common(1)[0]
        return level if 2 * votes > len(levels) else NO_MAJORITY
    average = statistics.fmean if panel == "mean" else statistics.median
    return round(float(average(given)), LEVEL_DIGITS)


def check_panel(panel: str) -> None:
    one_of("panel", panel, get_args(PanelRule))

"""A panel of jurors: how their levels combine into the panel's one level."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Literal, get_args

from liveqa_inspect.arguments import one_of

LEVEL_DIGITS = 6
"""A panel's or an epoch's mean level is rounded to this, so View shows 0.7, not
0.6999999999999998; far finer than any difference a judge's levels can make."""

Panel = Literal["mean", "median", "majority"]
PANELS: tuple[str, ...] = get_args(Panel)


def combine(levels: Sequence[float | None], panel: Panel) -> float | None:
    """The panel's level, or None: more than half of the jurors must have given a verdict.

    `mean` and `median` combine the verdicts given; `majority` needs one level given by more
    than half of the whole panel, so an abstention withholds a vote without lowering the bar.
    """
    given = [level for level in levels if level is not None]
    if 2 * len(given) <= len(levels):
        return None
    if panel == "mean":
        return round(statistics.fmean(given), LEVEL_DIGITS)
    if panel == "median":
        return round(float(statistics.median(given)), LEVEL_DIGITS)
    level, votes = Counter(given).most_common(1)[0]
    return level if 2 * votes > len(levels) else None


def check_panel(panel: str) -> None:
    one_of("panel", panel, PANELS)

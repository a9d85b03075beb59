"""The one rule for a value between two levels (a panel's or epochs' mean): figures that count
levels count it at its nearest level, the lower one exactly halfway (docs/judge.md)."""

from collections.abc import Sequence

import numpy as np

HALFWAY = 1e-6
"""How close to halfway, in level steps, counts as halfway: panel and epoch means are rounded to 6
decimals, so a midpoint can be off by that much, while any two levels are at least 0.3 apart."""


def level_index(values: np.ndarray, levels: Sequence[float] | np.ndarray) -> np.ndarray:
    """The index of the level each value counts at (NaN values are the caller's to leave out)."""
    levels = np.asarray(levels, dtype=float)
    place = np.interp(values, levels, np.arange(len(levels), dtype=float))
    return np.ceil(place - 0.5 - HALFWAY).clip(0, len(levels) - 1).astype(np.int8)

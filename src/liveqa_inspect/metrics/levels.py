"""The one rule for a value that falls between two levels of a scale.

A panel's mean or median, or a sample's mean over epochs, can fall between levels: 0 and 0.3 give
0.15, a median of 0.3 and 0.7 gives 0.5. Figures that allow it use the value itself: quadratic
kappa takes each value's place on the scale (0.15 is halfway from 0 to 0.3), rho, MAE and bias the
value. Figures that need a level (exact agreement, within one, the confusion counts, the level
shares, the claims that count as flagged) count a value at its nearest level, and a value exactly
halfway between two levels half at each: the rule is the same downwards and upwards, and no
midpoint is decided by floating-point error.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

HALFWAY = 1e-6
"""How close to halfway, in level steps, counts as halfway. Panel and epoch means are rounded to 6
decimals, so a midpoint can be off by that much, while any two levels are at least 0.3 apart."""


@dataclass(frozen=True)
class Placed:
    """Values on a scale: each one's place in level steps, and the level or two it counts at.

    A value counts at level index `near` with weight 1, or, when `halfway` to the next level,
    with weight 1/2 at `near` and 1/2 at `near` + 1. Found once on the items, then `drawn` into
    bootstrap resamples with them.
    """

    place: np.ndarray
    near: np.ndarray
    halfway: np.ndarray
    levels: int

    @classmethod
    def on(cls, values: np.ndarray, levels: np.ndarray) -> Placed:
        place = np.interp(values, levels, np.arange(len(levels), dtype=float))
        low = np.clip(np.floor(place), 0, len(levels) - 2)
        past = place - low
        halfway = np.abs(past - 0.5) <= HALFWAY
        near = (low + (past > 0.5 + HALFWAY)).astype(np.int8)
        return cls(place, near, halfway, len(levels))

    def drawn(self, rows: np.ndarray) -> Placed:
        """The same values drawn by `rows` (resamples by item indices)."""
        return Placed(self.place[rows], self.near[rows], self.halfway[rows], self.levels)

    def counted(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """(level index, weight) of each way a value counts; the second is left out when no
        value is halfway, so values on levels cost one comparison, as whole levels would."""
        ways = [(self.near, np.where(self.halfway, 0.5, 1.0))]
        if self.halfway.any():
            upper = np.minimum(self.near + 1, self.levels - 1)
            ways.append((upper, np.where(self.halfway, 0.5, 0.0)))
        return ways

    def at(self, index: int) -> np.ndarray:
        """The weight each value counts at the level of this index: 0, 0.5 or 1."""
        weight = np.zeros(self.place.shape)
        for near, share in self.counted():
            weight += share * (near == index)
        return weight

"""The one rule for a value that falls between two levels of a scale.

A panel's mean or median, or a sample's mean over epochs, can fall between levels: 0 and 0.3 give
0.15, a median of 0.3 and 0.7 gives 0.5. Figures that allow it use the value itself: quadratic
kappa takes each value's place on the scale (0.15 is halfway from 0 to 0.3), rho, MAE and bias the
value. Figures that need a level (exact agreement, within one, the confusion counts, the level
shares, the claims that count as flagged, a robustness pair that moved) count a value at its
nearest level, and a value exactly halfway between two levels half at each: the rule is the same
downwards and upwards, and no midpoint is decided by floating-point error. Values compared with
each other are counted at their lower levels for one half and their upper levels for the other,
so a value is always level with itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

HALFWAY = 1e-6
"""How close to halfway, in level steps, counts as halfway. Panel and epoch means are rounded to 6
decimals, so a midpoint can be off by that much, while any two levels are at least 0.3 apart."""


@dataclass(frozen=True)
class Placed:
    """Values on a scale: each one's place in level steps, and the level index it counts at in
    each half, `down` and `up`: the nearest level in both, or, for a value halfway between two
    levels, the lower one in `down` and the upper one in `up`. Found once on the items, then
    `drawn` into bootstrap resamples with them."""

    place: np.ndarray
    down: np.ndarray
    up: np.ndarray

    @classmethod
    def on(cls, values: np.ndarray, levels: np.ndarray) -> Placed:
        place = np.interp(values, levels, np.arange(len(levels), dtype=float))
        low = np.clip(np.floor(place), 0, len(levels) - 2)
        past = place - low
        halfway = np.abs(past - 0.5) <= HALFWAY
        down = (low + (past > 0.5 + HALFWAY)).astype(np.int8)
        return cls(place, down, (down + halfway).astype(np.int8))

    def drawn(self, rows: np.ndarray) -> Placed:
        """The same values drawn by `rows` (resamples by item indices)."""
        return Placed(self.place[rows], self.down[rows], self.up[rows])

    def halves(self) -> bool:
        """Whether any value is halfway, so that its two halves differ."""
        return bool((self.down != self.up).any())

    def at(self, index: int) -> np.ndarray:
        """The weight each value counts at the level of this index: 0, 0.5 or 1."""
        return 0.5 * (self.down == index) + 0.5 * (self.up == index)


def counted(*values: Placed) -> list[tuple[float, list[np.ndarray]]]:
    """(weight, the level index of each of `values`) for each way they count together: once, with
    weight 1, when none is halfway, else their lower levels and their upper levels, 1/2 each."""
    if not any(placed.halves() for placed in values):
        return [(1.0, [placed.down for placed in values])]
    return [(0.5, [placed.down for placed in values]), (0.5, [placed.up for placed in values])]


def level_index(values: np.ndarray, levels: np.ndarray | list[float]) -> np.ndarray:
    """The index of the level each value counts at, for the figures that count levels: its
    nearest level, and of two equally near, the lower one (a split panel has not given the
    higher level). NaN values are the caller's to leave out."""
    levels = np.asarray(levels, dtype=float)
    place = np.interp(values, levels, np.arange(len(levels), dtype=float))
    return np.ceil(place - 0.5 - HALFWAY).clip(0, len(levels) - 1).astype(np.int8)

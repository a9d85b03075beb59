"""The report's figures, drawn on an Agg canvas rather than through pyplot: no display needed,
no global figure state left behind; matplotlib is imported only when a figure is drawn."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from liveqa_inspect.report.tables import fmt
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.stats.names import level_name

if TYPE_CHECKING:
    from matplotlib.axes import Axes

TITLE_CHARS_PER_INCH, FOOTER_CHARS_PER_INCH = 8, 14
"""Titles wrap at this many characters an inch: a panel's judge names run long, and a title
wider than its figure is cut off at both ends (a footer's smaller type holds more)."""


@contextmanager
def drawing(
    path: Path, title: str, width: float, height: float, footer: str = ""
) -> Iterator[Axes]:
    """Axes to draw on, then saved to `path` under `title`, wrapped to the figure's width, with
    `footer` (a run's caveats) under the plot."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=120)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    yield axes
    axes.set_title(textwrap.fill(title, int(width * TITLE_CHARS_PER_INCH)), fontsize=10)
    lines = textwrap.wrap(footer, int(width * FOOTER_CHARS_PER_INCH))
    figure.text(0.01, 0.01, "\n".join(lines), fontsize=7, va="bottom", color="darkred")
    figure.tight_layout(rect=(0, (0.12 * len(lines) + 0.05) / height if lines else 0, 1, 1))
    figure.savefig(path, format="png")


@dataclass(frozen=True)
class Heatmap:
    """A confusion matrix, each cell's count written in it and shaded by its share of the row: on
    NIST's grades most answers are 0, so raw counts would leave every other row almost blank."""

    filename: str
    title: str
    levels: Sequence[float]
    matrix: np.ndarray
    beside: Path | None = None

    def draw(self, path: Path) -> None:
        totals = self.matrix.sum(axis=1, keepdims=True)
        shares = np.divide(self.matrix, totals, out=np.zeros(self.matrix.shape), where=totals > 0)
        k = len(self.levels)
        with drawing(path, self.title, 2.6 + 0.8 * k, 2.2 + 0.7 * k) as axes:
            image = axes.imshow(shares, cmap="Blues", vmin=0.0, vmax=1.0)
            names = [level_name(level) for level in self.levels]
            axes.set(xticks=range(k), xticklabels=names, yticks=range(k), yticklabels=names)
            axes.set(xlabel="judge level", ylabel="human level")
            for (h, j), count in np.ndenumerate(self.matrix):
                colour = "white" if shares[h, j] > 0.55 else "black"
                axes.text(j, h, f"{count:g}", ha="center", va="center", color=colour, fontsize=12)
            axes.figure.colorbar(image, ax=axes, label="share of the human level's items")


@dataclass(frozen=True)
class Scatter:
    """Two shares (0 to 1) of each item against each other, with the diagonal where they are
    equal; what a point above it or below it means is written in that corner."""

    filename: str
    title: str
    x_axis: str
    y_axis: str
    x: Sequence[float]
    y: Sequence[float]
    above: str
    below: str
    beside: Path | None = None

    def draw(self, path: Path) -> None:
        with drawing(path, self.title, 5.8, 5.4) as axes:
            axes.plot((0, 1), (0, 1), color="grey", linewidth=1, linestyle="--")
            axes.scatter(self.x, self.y, color="#4C72B0", alpha=0.6, edgecolors="none")
            frame = (-0.03, 1.03)  # points on the limits drawn whole, not cut by the frame
            axes.set(xlim=frame, ylim=frame, aspect="equal", xlabel=self.x_axis, ylabel=self.y_axis)
            axes.text(0.04, 0.96, self.above, transform=axes.transAxes, va="top", color="grey")
            axes.text(0.96, 0.04, self.below, transform=axes.transAxes, ha="right", color="grey")
            axes.grid(alpha=0.3)


@dataclass(frozen=True)
class Charted:
    """One row of an interval chart: its figure, its group (a judge on the card: one colour a
    group), and where a no-model floor bounds it, the floor on the same answers."""

    label: str
    estimate: Estimate
    group: str = ""
    floor: float = math.nan


@dataclass(frozen=True)
class IntervalChart:
    """A figure per row with its 95% interval, horizontal so long labels (model names, ExpertQA
    fields) stay readable. An undefined figure is written `n/a`, neither drawn nor guessed as 0; a
    floor is a mark, not a bar (it is no judge's result); the run's caveats under the plot, so the
    image says them too."""

    filename: str
    title: str
    axis: str
    rows: Sequence[Charted]
    limits: tuple[float, float] | None = None  # None: the data's own
    caveats: Sequence[str] = ()
    beside: Path | None = None  # the log it is a figure of, beside which it is written

    def draw(self, path: Path) -> None:
        height = 1.6 + 0.45 * len(self.rows) + 0.3 * len(self.caveats)
        with drawing(path, self.title, 7.5, height, " ".join(self.caveats)) as axes:
            self.plot(axes)

    def plot(self, axes: Axes) -> None:
        groups, floor = list(dict.fromkeys(row.group for row in self.rows)), ""
        for y, row in enumerate(self.rows):
            e, colour = row.estimate, PALETTE[groups.index(row.group) % len(PALETTE)]
            axes.text(1.01, y, fmt(e.value), transform=axes.get_yaxis_transform(), va="center")
            if not math.isnan(row.floor):
                axes.plot(row.floor, y, "D", color="black", markersize=7, zorder=3)
                floor = "; \u25c6 ROUGE-L's rho on the same answers, the floor"
            if math.isnan(e.value):
                continue
            axes.barh(y, e.value, color=colour, alpha=0.85)
            if not (math.isnan(e.low) or math.isnan(e.high)):
                bounds = [[e.value - e.low], [e.high - e.value]]
                axes.errorbar(e.value, y, xerr=bounds, fmt="none", ecolor="black", capsize=4)
        axes.set_yticks(range(len(self.rows)), [row.label for row in self.rows])
        axes.invert_yaxis()
        axes.set(xlabel=self.axis + floor, xlim=self.limits)
        axes.grid(axis="x", alpha=0.3)


PALETTE = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3")
Chart = IntervalChart | Heatmap | Scatter

"""A report as blocks of text lines and titled tables, rendered for a terminal or as Markdown.
Numbers are formatted here, once: three decimals, `n/a` for NaN (an undefined figure, such as
the rho of a judge that gives one level to everything, must not read as a number)."""

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tabulate import tabulate

from liveqa_inspect.stats.bootstrap import Estimate

Cell = str | int | float
NOT_STATED = Estimate(math.nan)


@dataclass(frozen=True)
class Table:
    title: str
    headers: Sequence[str]
    rows: Sequence[Sequence[Cell]]
    notes: Sequence[str] = ()  # printed under the table: what a reader needs to read it right


Block = str | Table


def fmt(value: float) -> str:
    text = "n/a" if math.isnan(value) else f"{value:.3f}"
    return "0.000" if text == "-0.000" else text  # a rounding residue, not a sign


def interval(low: float, high: float) -> str:
    return "n/a" if math.isnan(low) or math.isnan(high) else f"[{fmt(low)}, {fmt(high)}]"


def figure_cell(estimate: Estimate) -> str:
    """A figure and its interval in one cell, for tables of many figures side by side."""
    bounds = interval(estimate.low, estimate.high)
    return fmt(estimate.value) if bounds == "n/a" else f"{fmt(estimate.value)} {bounds}"


def figure_cells(estimates: Mapping[str, Estimate], names: Iterable[str]) -> list[str]:
    return [figure_cell(estimates.get(name, NOT_STATED)) for name in names]


def value_ci(estimate: Estimate) -> list[Cell]:
    """A figure as its value and its 95% CI cells, for tables of one figure a row."""
    return [estimate.value, interval(estimate.low, estimate.high)]


def figure_table(title: str, estimates: Mapping[str, Estimate], names: Sequence[str]) -> Table:
    rows = [[name, *value_ci(estimates.get(name, NOT_STATED))] for name in names]
    return Table(title, ["figure", "value", "95% CI"], rows)


def cell(value: Cell) -> str:
    return fmt(value) if isinstance(value, float) else str(value)


def render(blocks: Sequence[Block], markdown: bool = False) -> str:
    """Consecutive lines stay together; a table stands apart with a blank line either side. Its
    columns of figures (numbers, intervals, n/a) align right; in Markdown a `|` in an excerpt is
    escaped, as it would end its cell."""
    lines: list[str] = []
    style, escaped, bold, em = ("pipe", "\\|", "**", "_") if markdown else ("simple", "|", "", "")
    for block in blocks:
        if not isinstance(block, Table):  # a Markdown line break keeps header lines apart
            lines.append(block + "  " if markdown and block else block)
            continue
        rows = [[cell(value).replace("|", escaped) for value in row] for row in block.rows]
        columns = list(zip(*rows, strict=True)) or [() for _ in block.headers]
        figures = [all(not text or re.match(r"n/a|-?\d|\[", text) for text in c) for c in columns]
        aligned = ["left"] + ["right" if right else "left" for right in figures[1:]]
        body = tabulate(rows, list(block.headers), style, disable_numparse=True, colalign=aligned)
        notes = [f"{em}{note}{em}" for note in block.notes]  # none: a blank too many, collapsed
        lines += ["", f"{bold}{block.title}{bold}", "", *body.splitlines(), "", *notes, ""]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines).strip("\n"))


def figure_line(path: Path, markdown: bool) -> str:
    """Where a figure was written; in Markdown the image itself, so a report pasted into a README
    shows its figures. A path with a space or parenthesis is a link only in CommonMark's <...>."""
    if not markdown:
        return f"figure: {path}"
    target = f"<{path}>" if any(c in str(path) for c in " ()") else str(path)
    return f"![{path.name}]({target})"

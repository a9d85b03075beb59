"""A readable report of one live_qa_judge log: agreement, the reference floor, the confusion matrix.

`inspect view` shows a live_qa_judge log's metrics as one flat list of some fifty numbers (each
figure, its CI bounds, sixteen confusion cells, six floor rhos). This module reads them back from
the log's results, so it never recomputes anything and always agrees with the log, and lays them
out as a reader asks about a judge: how well does it agree with the NIST assessors, does it beat
the reference-overlap metrics, and where does it go wrong.

    python -m liveqa_inspect.report LOG [--png PATH]

Exit status 0 on success, 2 when the log cannot be reported on (not a live_qa_judge log, an
unfinished or failed run, no results).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from inspect_ai.log import EvalLog, EvalScore, read_eval_log
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from liveqa_inspect.agreement import AGREEMENT_STATISTICS
from liveqa_inspect.prompts import LIVEQA_SCALE

LEVELS = LIVEQA_SCALE.levels

JUDGE_TASK = "live_qa_judge"
AGREEMENT_SCORER = "judge_agreement_scorer"
FLOOR_SCORER = "reference_floor"
FLOOR_SUFFIX = "_spearman_rho"
FIGURES: tuple[str, ...] = tuple(AGREEMENT_STATISTICS)
"""In agreement.py's order: level-wise figures first, then rho, then the value-wise ones."""

EXIT_OK = 0
EXIT_REFUSED = 2
"""As argparse uses for a bad command line: the input, not the program, is at fault."""

AgreementRow = tuple[str, float, float, float]
CORNER = "human \\ judge"


class ReportError(Exception):
    """A log this report cannot describe; the message says why, for the command line."""


def task_name(log: EvalLog) -> str:
    """The task's bare name: a log names it with its package (`liveqa_inspect/live_qa_judge`)."""
    return log.eval.task.rsplit("/", 1)[-1]


def load_judge_log(path: str | Path) -> EvalLog:
    """Read a log's header and refuse any log whose metrics would not mean what we print.

    Only the header is read: every figure is a metric in `results`, and a 581-sample log's
    samples are most of its size.
    """
    try:
        log = read_eval_log(str(path), header_only=True)
    except Exception as error:  # missing file, not a zip, not an Inspect log: one message
        raise ReportError(f"cannot read {path} as an Inspect log: {error}") from error
    if task_name(log) != JUDGE_TASK:
        raise ReportError(
            f"{path} is a log of task '{log.eval.task}', not {JUDGE_TASK}: "
            "this report reads the judge-agreement metrics only live_qa_judge computes"
        )
    if log.status != "success":
        raise ReportError(
            f"{path} has status '{log.status}', not 'success': metrics of an unfinished "
            "or failed run cover only some answers, so they are not reported"
        )
    if log.results is None or scorer_results(log, AGREEMENT_SCORER) is None:
        raise ReportError(f"{path} has no {AGREEMENT_SCORER} results to report")
    return log


def scorer_results(log: EvalLog, name: str) -> EvalScore | None:
    """One scorer's results, or None: a log from another version may lack the floor scorer."""
    if log.results is None:
        return None
    return next((s for s in log.results.scores if s.name == name), None)


def metric_values(log: EvalLog, name: str) -> dict[str, float]:
    """A scorer's metrics as plain floats; empty when the scorer is not in the log."""
    found = scorer_results(log, name)
    if found is None:
        return {}
    return {key: float(m.value) for key, m in found.metrics.items()}


def sample_counts(log: EvalLog) -> tuple[int, int]:
    """(scored, unscored) answers: every figure is over the scored ones alone.

    Unscored answers are those the judge gave no readable verdict on; a judge that often fails
    to answer can look good on the few it does grade, so the count belongs next to the figures.
    """
    found = scorer_results(log, AGREEMENT_SCORER)
    assert found is not None and log.results is not None
    scored = found.scored_samples
    unscored = found.unscored_samples
    if scored is None:  # logs before Inspect counted them: all completed samples were scored
        scored = log.results.completed_samples
    return int(scored), int(unscored or 0)


def agreement_table(log: EvalLog) -> list[AgreementRow]:
    """(figure, value, CI low, CI high) for each agreement figure, NaN where the log has none."""
    values = metric_values(log, AGREEMENT_SCORER)
    return [
        (
            name,
            values.get(name, math.nan),
            values.get(f"{name}_ci_low", math.nan),
            values.get(f"{name}_ci_high", math.nan),
        )
        for name in FIGURES
    ]


def reference_floor_table(log: EvalLog) -> list[tuple[str, float]]:
    """(metric, Spearman rho with the human level) for each reference-overlap metric.

    These are the floor: a judge whose rho does not beat ROUGE-L's adds nothing over string
    overlap with NIST's reference answers.
    """
    values = metric_values(log, FLOOR_SCORER)
    return [
        (key.removesuffix(FLOOR_SUFFIX), value)
        for key, value in values.items()
        if key.endswith(FLOOR_SUFFIX)
    ]


def confusion_matrix(log: EvalLog) -> np.ndarray:
    """4x4 counts, rows the human level and columns the judge level, both in LEVELS order."""
    values = metric_values(log, AGREEMENT_SCORER)
    matrix = np.zeros((len(LEVELS), len(LEVELS)), dtype=int)
    for h, human in enumerate(LEVELS):
        for j, judge in enumerate(LEVELS):
            # Inspect stores every metric value as a float; the cells are counts.
            matrix[h, j] = round(values.get(f"human_{human:g}/judge_{judge:g}", 0.0))
    return matrix


def fmt(value: float) -> str:
    """Three decimals; `n/a` for NaN, which a metric gives when it is undefined (say, rho of a
    judge that returns one level for everything), so it does not read as a number."""
    return "n/a" if math.isnan(value) else f"{value:.3f}"


def format_agreement(rows: Sequence[AgreementRow]) -> list[str]:
    lines = [f"{'figure':<18}{'value':>8}  95% CI"]
    for name, value, low, high in rows:
        lines.append(f"{name:<18}{fmt(value):>8}  [{fmt(low)}, {fmt(high)}]")
    return lines


def format_floor(floor: Sequence[tuple[str, float]], judge_rho: float) -> list[str]:
    """The judge's rho first, then each metric with how far the judge is above it."""
    lines = [
        f"{'metric':<18}{'rho':>8}  {'judge - metric':>14}",
        f"{'judge':<18}{fmt(judge_rho):>8}",
    ]
    for name, rho in floor:
        lines.append(f"{name:<18}{fmt(rho):>8}  {fmt(judge_rho - rho):>14}")
    return lines


def format_confusion(matrix: np.ndarray) -> list[str]:
    header = f"{CORNER:<14}" + "".join(f"{level:>7g}" for level in LEVELS)
    lines = [header + f"{'total':>8}"]
    for level, row in zip(LEVELS, matrix, strict=True):
        lines.append(f"{level:<14g}" + "".join(f"{n:>7d}" for n in row) + f"{row.sum():>8d}")
    return lines


def render(log: EvalLog, path: str | Path) -> str:
    """The whole text report."""
    scored, unscored = sample_counts(log)
    rows = agreement_table(log)
    judge_rho = next(value for name, value, _, _ in rows if name == "spearman_rho")
    floor = reference_floor_table(log)
    lines = [
        f"live_qa_judge report: {path}",
        f"judge model: {log.eval.model}",
        f"answers: {scored} scored, {unscored} unscored (no readable verdict)",
        "",
        "Agreement with the human assessors (seeded bootstrap 95% CI)",
        *format_agreement(rows),
        "",
        "Reference-metric floor (Spearman rho with the human level)",
        *(format_floor(floor, judge_rho) if floor else [f"no {FLOOR_SCORER} results in the log"]),
        "",
        "Confusion matrix (rows: human level, columns: judge level)",
        *format_confusion(confusion_matrix(log)),
    ]
    return "\n".join(lines)


def plot_confusion(matrix: np.ndarray, path: str | Path, title: str) -> Path:
    """Write the matrix as a PNG heatmap with each cell's count written in it.

    Cells are shaded by their share of the row (the human level's answers), not by raw count:
    NIST graded most answers 0, so raw counts would leave every other row almost blank. The
    figure is drawn on an Agg canvas directly, not through pyplot, so it needs no display and
    leaves no global figure state behind in a process that imports this module.
    """
    totals = matrix.sum(axis=1, keepdims=True)
    shares = np.divide(matrix, totals, out=np.zeros(matrix.shape), where=totals > 0)
    figure = Figure(figsize=(5.6, 4.8), dpi=120)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    image = axes.imshow(shares, cmap="Blues", vmin=0.0, vmax=1.0)
    labels = [f"{level:g}" for level in LEVELS]
    axes.set_xticks(range(len(LEVELS)), labels)
    axes.set_yticks(range(len(LEVELS)), labels)
    axes.set_xlabel("judge level")
    axes.set_ylabel("human level")
    axes.set_title(title, fontsize=10)
    for (h, j), count in np.ndenumerate(matrix):
        colour = "white" if shares[h, j] > 0.55 else "black"
        axes.text(j, h, f"{count}", ha="center", va="center", color=colour, fontsize=13)
    figure.colorbar(image, ax=axes, label="share of the human level's answers")
    figure.tight_layout()
    out = Path(path)
    figure.savefig(out, format="png")
    return out


def default_png(log_path: str | Path) -> Path:
    """`<log stem>-confusion.png` next to the log, so the picture travels with its log."""
    log_path = Path(log_path)
    return log_path.with_name(f"{log_path.stem}-confusion.png")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m liveqa_inspect.report",
        description="Report a live_qa_judge log: agreement with the human grades, the "
        "reference-metric floor and the confusion matrix (also written as a PNG).",
    )
    parser.add_argument("log", help="a live_qa_judge .eval (or .json) log")
    parser.add_argument("--png", help="where to write the heatmap (default: next to the log)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Print the report and write the heatmap; 2, with the reason on stderr, for a refused log."""
    args = parse_args(argv)
    try:
        log = load_judge_log(args.log)
    except ReportError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_REFUSED
    print(render(log, args.log))
    scored, _ = sample_counts(log)
    png = plot_confusion(
        confusion_matrix(log),
        args.png or default_png(args.log),
        f"live_qa_judge: {log.eval.model} vs human (n={scored})",
    )
    print(f"\nconfusion heatmap: {png}")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())

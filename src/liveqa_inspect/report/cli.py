"""`liveqa-report LOG [LOG ...]`: print a report of one or several logs and write its figures.

Its exit statuses, and the refusals behind them, are listed in docs/report.md (Errors).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from liveqa_inspect.report.loading import LoadedLog, ReportError, load_all, section
from liveqa_inspect.report.plots import Chart
from liveqa_inspect.report.tables import Block, figure_line, render

EXIT_OK = 0
EXIT_NO_FIGURES = 1
EXIT_REFUSED = 2
"""As argparse uses for a bad command line: the input, not the program, is at fault."""


def build(logs: Sequence[LoadedLog]) -> tuple[list[Block], list[Chart]]:
    return section(logs[0].task).report(logs)


def write_charts(charts: Sequence[Chart], out: Path) -> list[Path]:
    """Each figure into `out`; created if missing, so `--out reports/` just works."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ReportError(f"cannot create the figure folder {out}: {error}") from error
    written = []
    for chart in charts:
        path = out / chart.filename
        try:
            chart.draw(path)
        except OSError as error:
            raise ReportError(
                f"cannot write the figures into {out}: {error.strerror or error}; the tables "
                "above are complete (choose a writable folder with --out)"
            ) from error
        written.append(path)
    return written


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="liveqa-report",
        description="Report live_qa / expert_qa logs (the judge's mean per model, per group, and "
        "paired differences between models) or live_qa_judge / expert_qa_claims logs (agreement "
        "with the human levels, floors, confusion matrix, and differences between judges) or "
        "live_qa_contamination logs (how much of the test set a model completes when told it) or "
        "live_qa_judge_robustness logs (how a judge's level moves on perturbed answers).",
    )
    parser.add_argument("logs", nargs="+", metavar="LOG", help="an Inspect .eval or .json log")
    parser.add_argument(
        "--markdown", action="store_true", help="print the tables as Markdown (for a README)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="where to write the PNGs (default: beside the first log)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the report, then write its PNGs: a folder the figures cannot be written to costs
    the figures, not the tables."""
    args = parse_args(argv)
    try:
        logs = load_all(args.logs)
        blocks, charts = build(logs)
    except ReportError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_REFUSED
    print(render(blocks, markdown=args.markdown), flush=True)
    try:
        written = write_charts(charts, args.out or logs[0].path.parent)
    except ReportError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_NO_FIGURES
    print()
    print(render([figure_line(path, args.markdown) for path in written], args.markdown))
    return EXIT_OK

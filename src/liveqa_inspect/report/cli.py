"""`liveqa-report LOG [LOG ...]`: print a report of one or several logs and write its figures.
Its exit statuses, and the refusals behind them, are listed in docs/report.md (Errors)."""

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from liveqa_inspect.corrected import calibration, sheet
from liveqa_inspect.default_judge import DEFAULT_JUDGE
from liveqa_inspect.errors import DataError
from liveqa_inspect.report.card import MARKDOWN, PNG, Card, judge_card
from liveqa_inspect.report.cost import PRICES, cost_table, read_prices
from liveqa_inspect.report.loaded import Logs, Sections
from liveqa_inspect.report.loading import grouped, load, load_all, logs_by_task
from liveqa_inspect.report.plots import Chart
from liveqa_inspect.report.refusals import ReportError
from liveqa_inspect.report.tables import Block, figure_line, render
from liveqa_inspect.tasks import TASKS

EXIT_OK, EXIT_NO_FIGURES, EXIT_REFUSED = 0, 1, 2  # 2 as argparse's: the input is at fault
SECTIONS = Sections({task: section for task, (_, section) in TASKS.items()})
"""The registry the frame is handed: each task's report section."""
PRICES_HELP = "prices of models the logs have none for, in Inspect's format (docs/judge-cost.md)"
REFERENCE_HELP = (
    "a judge the judge card measures each candidate against where it graded the same answers, "
    f"beside the pinned default {DEFAULT_JUDGE} (repeatable)"
)


def build(logs: Logs, everything: Logs = ()) -> tuple[list[Block], list[Chart]]:
    """The caveats the runs printed, each naming its log (a comparison holds several), a one-log
    report's title, the section's report, each model log's mean corrected by its judge's
    calibration among `everything` read, then what its models cost (report/cost.py)."""
    blocks, charts = logs[0].section.report(logs)
    blocks += [line for log in logs for line in calibration.lines(log, everything)]
    warned = [f"WARNING: {log.path.name}: {text}" for log in logs for text in log.caveats()]
    title = [f"{logs[0].task} report: {logs[0].path}"] * (len(logs) == 1)
    return [*warned, *title, *blocks, cost_table(logs)], charts


def unwritable(what: str, folder: Path, error: OSError, above: str) -> None:
    print(
        f"error: cannot write {what} into {folder}: {error.strerror or error}; {above} complete "
        "(choose a writable folder with --out)",
        file=sys.stderr,
    )


def write_charts(charts: Sequence[Chart], out: Path | None, default: Path) -> list[Path] | None:
    """Each figure into `out`, created if missing (so `--out reports/` just works), else beside
    the log it is a figure of (a comparison's: into `default`); None, said, where they cannot be
    written: that costs the figures, not the tables above."""
    written = []
    for chart in charts:
        folder = out or (chart.beside.parent if chart.beside else default)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            chart.draw(folder / chart.filename)
        except OSError as error:
            unwritable("the figures", folder, error, "the tables above are")
            return None
        written.append(folder / chart.filename)
    return written


def show_card(card: Card, out: Path, markdown: bool) -> bool:
    """The judge card first, as a folder's reader wants it, then its Markdown and chart written
    into `out`: whether they were (a folder they cannot be written to costs the files only)."""
    print(render([f"== {card.heading} ==", "", *card.blocks], markdown=markdown), flush=True)
    text = f"# {card.heading}\n\n" + render(card.blocks, markdown=True)
    written = [MARKDOWN, PNG] if card.chart else [MARKDOWN]
    try:
        out.mkdir(parents=True, exist_ok=True)
        if card.chart:
            card.chart.draw(out / PNG)
            text += f"\n\n![{PNG}]({PNG})"
        (out / MARKDOWN).write_text(text + "\n", encoding="utf-8")
    except OSError as error:
        unwritable("the judge card", out, error, "the card above is")
        return False
    print("\n" + "\n".join(f"card: {out / name}" for name in written) + "\n")
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """Print the report, then its PNGs: an unwritable folder costs the figures, not the tables."""
    parser = argparse.ArgumentParser(
        prog="liveqa-report",
        description="Report the logs of liveqa_inspect's tasks: one log's figures, or several "
        "logs of one kind (models, judges, contamination probes, robustness) side by side, with "
        "each one's paired difference from the first (docs/report.md).",
    )
    add = parser.add_argument
    add("logs", nargs="+", metavar="LOG", help="an Inspect .eval or .json log, or a folder of logs")
    add("--markdown", action="store_true", help="print the tables as Markdown (for a README)")
    add("--out", type=Path, metavar="DIR", help="where the PNGs go (default: beside the first log)")
    add("--model-cost-config", type=Path, metavar="FILE", help=PRICES_HELP)
    add("--reference-judge", action="append", default=[], metavar="MODEL", help=REFERENCE_HELP)
    sheet.add_options(parser)
    args = parser.parse_args(argv)
    folder = Path(args.logs[0]) if len(args.logs) == 1 and Path(args.logs[0]).is_dir() else None
    try:
        if sheet.asked(args, parser):
            return sheet.run(args, load(args.logs[0], SECTIONS))
        if args.reference_judge and not folder:
            parser.error(
                "--reference-judge is a column of the judge card, which is made of a folder "
                "of logs: give the folder (liveqa-report DIR --reference-judge MODEL)"
            )
        PRICES.set(read_prices(args.model_cost_config) if args.model_cost_config else {})
        if folder:
            loaded, skipped = logs_by_task(folder, SECTIONS)
            headings, groups = zip(*grouped(loaded), strict=True)
        else:
            headings, groups, skipped = [None], [load_all(args.logs, SECTIONS)], []
        everything = [log for logs in groups for log in logs]
        reports = [build(logs, everything) for logs in groups]
        card = folder and judge_card(groups, SECTIONS, args.reference_judge, skipped)
    except (ReportError, DataError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_REFUSED
    card_written = show_card(card, args.out or folder, args.markdown) if card and folder else True
    if skipped:
        print(render([line for line, _ in skipped], args.markdown) + "\n")
    for title, logs, (blocks, charts) in zip(headings, groups, reports, strict=True):
        print(render([*[title, ""] * bool(title), *blocks], markdown=args.markdown), flush=True)
        written = write_charts(charts, args.out, folder or logs[0].path.parent)
        if written is None:
            return EXIT_NO_FIGURES
        print("\n" + render([figure_line(path, args.markdown) for path in written], args.markdown))
    return EXIT_OK if card_written else EXIT_NO_FIGURES

"""A team's own grades of a random subset of a log's answers (docs/corrected-scores.md):
`liveqa-report LOG --grading-sheet N` writes grading-sheet.csv, N scored answers drawn at random
(the seed in every row) with an empty `level` and without the judge's verdict, so they are graded
blind; `liveqa-report LOG --human-grades FILE` reads it back filled and prints the
prediction-powered mean beside the human-only mean of the same answers."""

import argparse
import csv
from pathlib import Path

import numpy as np
from inspect_ai.log import EvalSample

from liveqa_inspect.data.lines import read_csv
from liveqa_inspect.errors import DataError, shown
from liveqa_inspect.judging.scale import Scale
from liveqa_inspect.report.graded import SampleId
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.refusals import ReportError
from liveqa_inspect.report.tables import Table, render, value_ci
from liveqa_inspect.stats.bootstrap import SEED, mean_estimate
from liveqa_inspect.stats.corrected import human_only_mean, prediction_powered_mean

Answer = tuple[SampleId, int]
"""A sample id and its epoch: one grading, one draw of the judge."""

SHEET = "grading-sheet.csv"
COLUMNS = ("sample_id", "epoch", "question", "references", "answer", "level", "seed")
READ = ("sample_id", "epoch", "level")
"""The columns a filled sheet must keep; the others are there for the grader to read."""
ASSUMES = (
    "assumes: the hand-graded answers were drawn at random from the log's scored answers and "
    "graded blind (without the judge's verdict); no correction fixes a rubric that measures the "
    "wrong thing."
)


def add_options(parser: argparse.ArgumentParser) -> None:
    add = parser.add_argument
    add(
        "--grading-sheet",
        type=int,
        metavar="N",
        help=f"write {SHEET} into --out: N of the log's scored answers drawn at random, to grade "
        "by hand (docs/corrected-scores.md)",
    )
    add("--seed", type=int, default=SEED, help=f"the draw's seed (default {SEED})")
    add(
        "--human-grades",
        type=Path,
        metavar="FILE",
        help="a filled grading sheet: print the prediction-powered mean of the log",
    )


def asked(args: argparse.Namespace, parser: argparse.ArgumentParser) -> bool:
    """Whether the command asks for a sheet or reads one: then of one log file."""
    if args.grading_sheet is not None and args.human_grades is not None:
        parser.error("--grading-sheet writes a sheet and --human-grades reads one: give one")
    asked = args.grading_sheet is not None or args.human_grades is not None
    if asked and (len(args.logs) != 1 or Path(args.logs[0]).is_dir()):
        parser.error("--grading-sheet and --human-grades take one log file (not a folder)")
    return asked


def run(args: argparse.Namespace, log: LoadedLog) -> int:
    """Either option, on one log of a model's answers graded by a judge."""
    if log.section.kind != "model":
        raise ReportError(
            f"{log.path} is a log of {log.task}, not of a model's answers graded by a judge: "
            "a grading sheet draws from a log of a model's answers and the judge's levels"
        )
    if args.human_grades is None:
        out = args.out or log.path.parent
        written = write_sheet(log, args.grading_sheet, args.seed, out)
        print(f"grading sheet: {written} ({args.grading_sheet} answers, seed {args.seed})")
        print("Fill the level column without looking up the judge's verdicts, then run")
        print(f"  liveqa-report {log.path} --human-grades {written}")
    else:
        print(render(powered_report(log, args.human_grades), markdown=args.markdown))
    return 0


def graded_levels(log: LoadedLog) -> dict[Answer, float]:
    """The scored answers' levels: the unscored are left out, as the log's mean leaves them."""
    return {(g.sample, g.epoch): g.level for g in log.gradings if g.status == "scored"}


def text(sample: EvalSample) -> tuple[str, str]:
    """The question and its references as the grader reads them."""
    given = sample.input
    question = given if isinstance(given, str) else "\n\n".join(m.text for m in given)
    targets = [sample.target] if isinstance(sample.target, str) else list(sample.target)
    numbered = (
        [f"[{i}] {t}" for i, t in enumerate(targets, start=1)] if len(targets) > 1 else targets
    )
    return question, "\n\n".join(numbered)


def write_sheet(log: LoadedLog, n: int, seed: int, out: Path) -> Path:
    """N scored answers in the order drawn (the first rows of a sheet are a random draw too)."""
    scored = sorted(graded_levels(log), key=lambda key: (str(key[0]), key[1]))
    if not 1 <= n <= len(scored):
        raise ReportError(
            f"--grading-sheet {n}: {log.path} has {len(scored)} scored answers; draw 1 to "
            f"{len(scored)} of them"
        )
    sheet = out / SHEET
    if sheet.exists():
        raise ReportError(
            f"{sheet} exists: writing would lose any grades in it; move it, or choose another "
            "folder with --out"
        )
    samples = {(s.id, s.epoch): s for s in log.log.samples or []}
    drawn = np.random.default_rng(seed).choice(len(scored), size=n, replace=False)
    try:
        out.mkdir(parents=True, exist_ok=True)
        with sheet.open("w", encoding="utf-8", newline="") as f:
            writer = csv.writer(f, dialect="unix")
            writer.writerow(COLUMNS)
            for index in drawn:
                sample_id, epoch = scored[index]
                sample = samples[sample_id, epoch]
                answer = sample.output.completion
                writer.writerow([sample_id, epoch, *text(sample), answer, "", seed])
    except OSError as error:
        raise ReportError(f"cannot write {sheet}: {error.strerror or error}") from error
    return sheet


def read_grades(sheet: Path, log: LoadedLog) -> dict[Answer, float]:
    """Each row's human level by its answer; a row that names no scored answer of the log, an
    answer twice, or a level off the log's scale is refused, naming its line."""
    answers = {(str(sample), epoch): (sample, epoch) for sample, epoch in graded_levels(log)}
    levels, path = Scale(tuple(log.scale)), log.path
    grades: dict[Answer, float] = {}
    lines: dict[Answer, int] = {}
    for number, row in read_csv(sheet, READ):
        where = f"{sheet} line {number}"
        key = answers.get((row["sample_id"], int(row["epoch"]) if row["epoch"].isdigit() else -1))
        if key is None:
            raise DataError(
                f"{where}: sample {shown(row['sample_id'])} epoch {shown(row['epoch'])} is not a "
                f"scored answer of {path}; a sheet is read with the log it was drawn from"
            )
        if key in lines:
            raise DataError(
                f"{where}: sample {key[0]} epoch {key[1]} is graded twice (line {lines[key]} "
                "too); keep one row"
            )
        given = row["level"].strip()
        if not given:
            raise DataError(
                f"{where}: the level is empty; grade every row, or delete the rows left ungraded "
                "from the bottom up (the rows are in the order drawn: the first ones are a "
                "random draw too)"
            )
        if (level := levels.read(given)) is None:
            raise DataError(
                f"{where}: level {shown(given)} is not on the log's scale "
                f"({levels.describe()}); grade each answer at one of them"
            )
        grades[key], lines[key] = level, number
    if not grades:
        raise DataError(f"{sheet} holds no graded rows")
    return grades


def powered_report(log: LoadedLog, sheet: Path) -> list[str | Table]:
    """The prediction-powered mean of the log's scored answers, the human-only mean of the hand-
    graded ones and the judge's own mean of all, each with its 95% interval."""
    judge = graded_levels(log)
    grades, path = read_grades(sheet, log), log.path
    graded = list(grades)
    others = np.array([level for key, level in judge.items() if key not in grades])
    judged = np.array([judge[key] for key in graded])
    human = np.array([grades[key] for key in graded])
    n, total = len(graded), len(judge)
    rows = [
        [
            "prediction-powered mean",
            *value_ci(prediction_powered_mean(others, judged, human)),
            f"n = {n} by hand, N = {total}",
        ],
        ["human-only mean", *value_ci(human_only_mean(human)), f"the n = {n}"],
        [
            "judge's mean",
            *value_ci(mean_estimate(np.array(list(judge.values())))),
            f"the N = {total}",
        ],
    ]
    unscored = sum(g.status != "scored" for g in log.gradings)
    notes = [ASSUMES] + [
        f"{unscored} answers the judge left unscored (or that errored) are not counted, as the "
        "log's mean leaves them out."
    ] * (unscored > 0)
    title = f"Corrected by {n} hand-graded answers ({sheet.name}) of {path}"
    return [Table(title, ["figure", "value", "95% CI", "answers"], rows, notes)]

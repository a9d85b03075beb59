"""`liveqa-report LOG --grading-sheet N`, then `--human-grades FILE`, through the CLI: the sheet
drawn (seeded, blind), filled and read back into the prediction-powered mean, and each bad sheet
refused in one line naming its row."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig

from liveqa_inspect.corrected.sheet import COLUMNS, SHEET
from liveqa_inspect.corrected.sheet import graded_levels as levels_of
from liveqa_inspect.report import main
from liveqa_inspect.report.cli import SECTIONS
from liveqa_inspect.report.loading import load
from liveqa_inspect.report.tables import fmt
from liveqa_inspect.stats.bootstrap import SEED, mean_estimate
from liveqa_inspect.stats.corrected import human_only_mean, prediction_powered_mean
from tests.helpers import between, judge_script, run_live_qa

HUMAN = {"ANSWER-ONE": "0.7", "ANSWER-SEVEN": "1", "ANSWER-ZERO": "0.3", "": "0"}
"""What a team's grader says of each scripted answer (the judge says 1, 0.7, 0, 0)."""


def judge_failing_one(prompt: str, config: GenerateConfig) -> str:
    """The scripted judge, but unreadable on ANSWER-THREE: those answers go unscored."""
    return (
        "no verdict"
        if between(prompt, "answer") == "ANSWER-THREE"
        else judge_script(prompt, config)
    )


@pytest.fixture(scope="module")
def log(module_env: None) -> EvalLog:
    return run_live_qa(grader=judge_failing_one, limit=8, epochs=2)


def write(path: Path, rows: list[dict[str, str]], columns: list[str]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, dialect="unix", extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


def row_line(path: Path, index: int) -> int:
    """The line the sheet's row `index` starts on (a cell can hold line breaks)."""
    with path.open(encoding="utf-8", newline="") as f:
        reader, start = csv.reader(f), 1
        for number, _ in enumerate(reader):
            if number == index + 1:
                return start
            start = reader.line_num + 1
    raise AssertionError(index)


def graded_levels(log: EvalLog) -> dict[tuple[str | int, int], float]:
    return levels_of(load(log.location, SECTIONS))


def drawn(log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    assert main([log.location, "--grading-sheet", "6", "--out", str(tmp_path)]) == 0
    assert str(tmp_path / SHEET) in capsys.readouterr().out
    with (tmp_path / SHEET).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_the_sheet_is_a_seeded_blind_draw_of_scored_answers(
    log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = drawn(log, tmp_path, capsys)
    assert list(rows[0]) == list(COLUMNS)  # no verdict, no reasoning: graded blind
    scored = sorted(graded_levels(log), key=lambda key: (str(key[0]), key[1]))
    assert len(scored) == 14  # 8 questions, 2 epochs, ANSWER-THREE's two unscored
    order = np.random.default_rng(SEED).choice(len(scored), size=6, replace=False)
    assert [(r["sample_id"], int(r["epoch"])) for r in rows] == [scored[i] for i in order]
    samples = {(s.id, s.epoch): s for s in log.samples or []}
    for row in rows:
        sample = samples[row["sample_id"], int(row["epoch"])]
        assert row["answer"] == sample.output.completion != "ANSWER-THREE"
        targets = list(sample.target)
        shown = [f"[{i}] {t}" for i, t in enumerate(targets, 1)] if len(targets) > 1 else targets
        assert row["question"] == sample.input and row["references"] == "\n\n".join(shown)
        assert (row["level"], row["seed"]) == ("", str(SEED))
    # A second draw into the same folder would lose the grades: refused.
    assert main([log.location, "--grading-sheet", "6", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        f"error: {tmp_path / SHEET} exists: writing would lose any grades in it; move it, or "
        "choose another folder with --out\n"
    )
    assert main([log.location, "--grading-sheet", "15", "--out", str(tmp_path / "more")]) == 2
    assert "has 14 scored answers; draw 1 to 14 of them" in capsys.readouterr().err


def test_the_filled_sheet_gives_the_prediction_powered_mean(
    log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = drawn(log, tmp_path, capsys)
    for row in rows:
        row["level"] = HUMAN[row["answer"]]
    filled = write(tmp_path / "filled.csv", rows, list(COLUMNS))
    assert main([log.location, "--human-grades", str(filled)]) == 0
    printed = capsys.readouterr().out
    levels = graded_levels(log)
    graded = [(r["sample_id"], int(r["epoch"])) for r in rows]
    human = np.array([float(r["level"]) for r in rows])
    judge = np.array([levels[key] for key in graded])
    others = np.array([level for key, level in levels.items() if key not in graded])
    for name, figure, answers in [
        (
            "prediction-powered mean",
            prediction_powered_mean(others, judge, human),
            "n = 6 by hand, N = 14",
        ),
        ("human-only mean", human_only_mean(human), "the n = 6"),
        ("judge's mean", mean_estimate(np.array(list(levels.values()))), "the N = 14"),
    ]:
        assert not math.isnan(figure.low)
        [line] = [line for line in printed.splitlines() if line.startswith(name)]
        cells = [fmt(figure.value), f"[{fmt(figure.low)}, {fmt(figure.high)}]", answers]
        assert [part.strip() for part in line.split("  ") if part.strip()][1:] == cells
    assert "graded blind" in printed and "2 answers the judge left unscored" in printed


@pytest.mark.parametrize(
    "change, said",
    [
        (
            lambda rows: rows[1].update(sample_id="TQ999") or 1,
            "line {line}: sample 'TQ999' epoch '{epoch}' "
            "is not a scored answer of {log}; a sheet is read with the log it was drawn from",
        ),
        (
            lambda rows: rows[2].update(level="0.5") or 2,
            "line {line}: level '0.5' is not on the log's scale "
            "(0, 0.3, 0.7 or 1); grade each answer at one of them",
        ),
        (
            lambda rows: rows[0].update(level="") or 0,
            "line {line}: the level is empty; grade every row, or delete the rows left ungraded "
            "from the bottom up (the rows are in the order drawn: the first ones are a random "
            "draw too)",
        ),
        (None, "line 1: the header lacks the column level"),
    ],
    ids=["unknown sample", "level 0.5", "empty level", "missing column"],
)
def test_a_bad_sheet_is_refused_in_one_line_naming_its_row(
    log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str], change, said: str
) -> None:
    rows = drawn(log, tmp_path, capsys)
    for row in rows:
        row["level"] = HUMAN[row["answer"]]
    columns = list(COLUMNS)
    if change is None:
        columns.remove("level")
    bad = change(rows) if change else -1  # the row made bad, -1 the header
    sheet = write(tmp_path / "bad.csv", rows, columns)
    assert main([log.location, "--human-grades", str(sheet)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {sheet} ")
    line = row_line(sheet, bad)
    assert said.format(line=line, epoch=rows[1]["epoch"], log=log.location) in err

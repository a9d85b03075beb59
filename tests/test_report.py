"""The report CLI on real logs: live_qa_judge run through eval() with scripted judges."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig

from liveqa_inspect import live_qa, live_qa_judge
from liveqa_inspect.prompts import LIVEQA_SCALE
from liveqa_inspect.report import FIGURES, confusion_matrix, default_png, main
from tests.helpers import (
    Script,
    human_levels,
    judge_script,
    scripted_model,
    shown,
    subject_script,
    verdict,
)

LEVELS = LIVEQA_SCALE.levels

LIMIT = 30
FLOOR = ("exact_match", "quasi_exact_match", "f1_score", "rouge_l", "bleu_1", "bleu_4")


def perfect_judge(data: Path) -> Script:
    levels = human_levels(data)

    def script(prompt: str, _: GenerateConfig) -> str:
        return verdict(f"{levels[shown(prompt)]:g}")

    return script


def constant_judge(_: Path) -> Script:
    return lambda *_: verdict("0.3")


JUDGES = {"perfect": perfect_judge, "constant": constant_judge}


def run_judge(judge: str, data: Path) -> EvalLog:
    model = scripted_model(JUDGES[judge](data), "judge")
    [log] = eval(live_qa_judge(), model=model, limit=LIMIT, display="none")
    assert log.status == "success", log.error
    return log


def metrics(log: EvalLog, scorer: str) -> dict[str, float]:
    found = next(s for s in log.results.scores if s.name == scorer)
    return {name: m.value for name, m in found.metrics.items()}


def number(text: str) -> float:
    return math.nan if text == "n/a" else float(text)


def same(printed: str, value: float) -> bool:
    """A printed three-decimal figure is the log's value (or both are undefined)."""
    if math.isnan(value):
        return printed == "n/a"
    return number(printed) == pytest.approx(value, abs=5e-4)


def section(out: str, title: str) -> list[str]:
    """The lines of one report section: after its title and column header, to a blank line."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title)) + 2
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


@pytest.mark.parametrize("judge", ["perfect", "constant"])
def test_report_prints_the_log_s_metrics_and_draws_the_matrix(
    judge: str, tmp_path: Path, liveqa_data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = run_judge(judge, liveqa_data_dir)
    png = tmp_path / "matrix.png"
    assert main([log.location, "--png", str(png)]) == 0
    out = capsys.readouterr().out

    assert "judge model: mockllm/judge" in out
    assert f"answers: {LIMIT} scored, 0 unscored" in out

    agreement = metrics(log, "judge_agreement_scorer")
    rows = section(out, "Agreement with the human assessors")
    assert [row.split()[0] for row in rows] == list(FIGURES)
    for row in rows:
        name, value, low, high = row.replace("[", "").replace("]", "").replace(",", "").split()
        assert same(value, agreement[name]), row
        assert same(low, agreement[f"{name}_ci_low"]), row
        assert same(high, agreement[f"{name}_ci_high"]), row

    floor = metrics(log, "reference_floor")
    judge_row, *metric_rows = section(out, "Reference-metric floor")
    assert judge_row.split() == ["judge", judge_row.split()[1]]
    assert same(judge_row.split()[1], agreement["spearman_rho"])
    assert [row.split()[0] for row in metric_rows] == list(FLOOR)
    for row in metric_rows:
        name, rho, margin = row.split()
        assert same(rho, floor[f"{name}_spearman_rho"]), row
        assert same(margin, agreement["spearman_rho"] - floor[f"{name}_spearman_rho"]), row

    cells = section(out, "Confusion matrix")
    assert len(cells) == len(LEVELS)
    for human, row in zip(LEVELS, cells, strict=True):
        level, *counts, total = row.split()
        assert float(level) == human
        expected = [agreement[f"human_{human:g}/judge_{j:g}"] for j in LEVELS]
        assert [int(c) for c in counts] == expected
        assert int(total) == sum(expected)
    matrix = confusion_matrix(log)
    assert matrix.sum() == LIMIT
    if judge == "perfect":
        assert (matrix == np.diag(matrix.diagonal())).all()  # nothing off the diagonal
        assert agreement["spearman_rho"] == pytest.approx(1.0)
    else:
        assert (matrix[:, LEVELS.index(0.3)] == matrix.sum(axis=1)).all()

    assert f"confusion heatmap: {png}" in out
    data = png.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) > 10_000  # a drawn figure, not an empty canvas


def test_the_heatmap_goes_next_to_the_log_by_default(
    liveqa_data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = run_judge("constant", liveqa_data_dir)
    assert main([log.location]) == 0
    png = default_png(log.location)
    assert png == Path(log.location).with_name(Path(log.location).stem + "-confusion.png")
    assert png.read_bytes().startswith(b"\x89PNG")
    assert f"confusion heatmap: {png}" in capsys.readouterr().out


def test_a_live_qa_log_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    judge = scripted_model(judge_script, "judge")
    [log] = eval(
        live_qa(),
        model=scripted_model(subject_script),
        model_roles={"grader": judge},
        limit=2,
        display="none",
    )
    assert log.status == "success"
    assert main([log.location]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "not live_qa_judge" in captured.err and "live_qa'" in captured.err
    assert not default_png(log.location).exists()


def test_a_missing_log_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "nope.eval")]) == 2
    assert "cannot read" in capsys.readouterr().err

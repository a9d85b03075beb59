"""The README's benchmark commands keep working: each runs end to end at tiny sizes.

The full runs start a server and several real `inspect eval` processes, so they are slow tests;
the parts that broke before (the judge prompt of the throughput table, where the data is looked
for) are also checked in the fast set.
"""

from __future__ import annotations

import json
import runpy
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from tests.commands import Ran, inspect_command

REPO = Path(__file__).resolve().parents[2]
BENCHMARKS = REPO / "benchmarks"


@pytest.fixture
def benchmarks(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The benchmarks folder importable, as its scripts import each other."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_throughput

    return bench_throughput


def table_rows(output: str, first_cell: str) -> list[list[str]]:
    """The cells of every Markdown table row whose first cell is `first_cell`."""
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in output.splitlines()]
    return [row for row in rows if row[0] == first_cell]


def test_throughput_prompt_table_measures_both_judge_prompts(benchmarks: ModuleType) -> None:
    table = benchmarks.prompt_overhead_table()
    [ours] = table_rows(table, "live_qa")
    [peer] = table_rows(table, "model_graded_qa")
    # Columns: chars, content chars, overhead chars, tokens, content tokens, overhead tokens.
    chars, content, overhead = (int(cell) for cell in ours[1:4])
    assert content == int(peer[2]) > 0  # the same question, references and answer
    assert chars - content == overhead > 0
    assert int(ours[3]) > int(peer[3]) > 0  # our rubric is the longer one


def test_data_is_looked_for_beside_the_repository(
    benchmarks: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from peer_task import data_path

    monkeypatch.delenv("LIVEQA_DATA")
    repo = tmp_path / "repo"
    assert data_path(repo) is None  # nothing there: the task downloads
    shared = tmp_path / "shared" / "data" / "liveqa"
    shared.mkdir(parents=True)
    assert data_path(repo) == shared
    monkeypatch.setenv("LIVEQA_DATA", str(tmp_path / "elsewhere"))
    assert data_path(repo) == tmp_path / "elsewhere"


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Callable[..., str]:
    """A benchmark script run as `python benchmarks/<script> <args>` runs it, in this process;
    the evals it times are real `inspect eval` processes, as the script starts them, unless a
    test runs them in this process (`evals_in_process`)."""

    def run_script(script: str, *args: str) -> str:
        monkeypatch.setattr(sys, "argv", [str(BENCHMARKS / script), *args])
        # As for a script: its folder first (the scripts import each other, and add folders).
        monkeypatch.setattr(sys, "path", [str(BENCHMARKS), *sys.path])
        monkeypatch.chdir(REPO)
        capsys.readouterr()
        runpy.run_path(str(BENCHMARKS / script), run_name="__main__")
        return capsys.readouterr().out

    return run_script


def in_process(command: list[str], env: Mapping[str, str], cwd: Path, **_: object) -> Ran:
    """A script's `subprocess.run` of `python -m inspect_ai ARGS` (or of inspect_floor.py's
    `python -c FLOOR_MAIN ARGS`), in this process (its returncode, stdout and stderr are what
    the scripts read)."""
    from inspect_floor import FLOOR_MAIN

    python, flag, module, *args = command
    assert (python, flag, module) in {
        (sys.executable, "-m", "inspect_ai"),
        (sys.executable, "-c", FLOOR_MAIN),
    }, command
    return inspect_command(*args, env=env, cwd=cwd)


@pytest.fixture
def evals_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests check that a script runs and fills its tables, not its times: its evals can
    run in this process. bench_speed's cannot (each reports its own process's CPU time), so
    the scripts' real processes are tested there."""
    monkeypatch.setattr(subprocess, "run", in_process)


@pytest.mark.slow
@pytest.mark.usefixtures("evals_in_process")
def test_bench_throughput_runs(run: Callable[..., str]) -> None:
    out = run("bench_throughput.py", "--latency", "0.05", "--connections", "2", "--limit", "1")
    for task in ("live_qa", "model_graded_qa"):
        [row] = table_rows(out, task)[:1]
        # task, C, samples, wall, served, ideal, served/ideal, requests/sample, status
        assert row[1:3] == ["2", "1"] and row[7:] == ["2.00", "success"], row
    assert len(table_rows(out, "live_qa")) == 2  # the throughput row and the prompt-size row


@pytest.mark.slow
@pytest.mark.usefixtures("evals_in_process")
def test_bench_overlap_runs(run: Callable[..., str]) -> None:
    out = run(
        "bench_overlap.py",
        "--latency",
        "0.05",
        "--connections",
        "2",
        "--limit",
        "1",
        "--import-runs",
        "0",
    )
    rows = table_rows(out, "2")
    # N, max_samples, samples, ..., requests/sample, status: Inspect's default, then 2N.
    assert [row[1:3] for row in rows] == [["default", "1"], ["4", "1"]]
    assert all(row[-2:] == ["2.00", "success"] for row in rows)


def test_bench_speed_metrics_table_compares_both_implementations(
    benchmarks: ModuleType, liveqa_data_dir: Path
) -> None:
    import bench_speed

    from liveqa_inspect.tasks.live_qa.dataset import live_qa_dataset

    questions = [bench_speed.references(s) for s in live_qa_dataset("summary", liveqa_data_dir)]
    one = next(golds for golds in questions if len(golds) == 1)
    three = [golds for golds in questions if len(golds) == 3][:2]
    nist = [("The cat sat on the mat.", ["the cat sat on the mat", "a dog"])]
    table = bench_speed.metrics_table([one, *three], nist, ["heart", "rate"], runs=1)
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()[2:]]
    assert [row[0].split(",")[0] for row in rows] == [
        "live_qa sample",
        "live_qa sample with three references (median of the 2)",
        "live_qa_judge floor: 1 NIST answers",
    ]
    # text_overlap, rouge-score + nltk, speed-up: times too short to trust, but all there.
    assert all(float(fast) >= 0 <= float(slow) and up[-1] == "x" for _, fast, slow, up in rows)


@pytest.mark.slow
def test_bench_speed_runs(run: Callable[..., str]) -> None:
    out = run(
        "bench_speed.py",
        "--parts",
        "live_qa,live_qa_judge",
        "--latency",
        "0.05",
        "--connections",
        "2",
        "--limit",
        "2",
        "--repeats",
        "1",
        "--judge-connections",
        "2",
    )
    # N, max_samples, metrics, samples, wall, served, cpu, added wall, added cpu, status
    live_qa = table_rows(out, "2")
    assert [(row[2], row[3], row[-1]) for row in live_qa] == [
        ("off", "2", "success"),
        ("on", "2", "success"),
    ]
    [judge] = table_rows(out, "live_qa_judge, instant judge")
    assert judge[1:3] == ["2", "2"] and judge[-1] == "success"


@pytest.mark.slow
@pytest.mark.usefixtures("evals_in_process")
def test_bench_live_qa_runs(run: Callable[..., str]) -> None:
    tiny = ["--latency", "0.05", "--connections", "2", "--limit", "1", "--repeats", "1"]
    out = run("bench_live_qa.py", *tiny)
    # N, samples, runs, wall, cpu, first request, served, ideal, wall/ideal, goal, requests, status;
    # then Inspect's floor: N, runs, its four times, live_qa's two differences, status
    [row, floor] = table_rows(out, "2")
    assert row[1:3] == ["1", "1"] and row[7] == "0.1" and row[-2:] == ["2.00", "success"], row
    assert floor[1] == "1" and floor[-1] == "success", floor


def test_bench_corrected_simulates_nists_calibration(
    benchmarks: ModuleType, liveqa_data_dir: Path
) -> None:
    import bench_corrected

    from liveqa_inspect.tasks.live_qa_judge.dataset import live_qa_judge_dataset

    levels = [s.metadata["human_level"] for s in live_qa_judge_dataset(data=liveqa_data_dir)]
    assert bench_corrected.NIST_COUNTS == tuple(
        levels.count(level) for level in bench_corrected.LEVELS
    )
    for confusion in bench_corrected.judges().values():
        assert np.allclose(confusion.sum(axis=0), 1) and confusion.min() >= 0


@pytest.mark.slow
def test_bench_corrected_runs(run: Callable[..., str]) -> None:
    out = run("bench_corrected.py", "--repetitions", "2", "--processes", "1")
    rows = table_rows(out, "lenient")
    # judge, estimator, shown, coverage, bias, mean width: eight estimators, two distributions.
    assert [row[1] for row in rows[:2]] == ["raw mean", "corrected (NIST, 581)"]
    assert len(rows) == 16 and all(row[2] == "100%" for row in rows)
    assert [row[2] for row in table_rows(out, "near-constant")][1::8] == ["0%", "0%"]
    assert "2 repetitions, 1 process(es)" in out


@pytest.mark.slow
def test_bench_startup_finds_the_entry_point_reads_no_file_and_imports_nothing_heavy(
    run: Callable[..., str], tmp_path: Path
) -> None:
    """Issue 42: in the start of another eval's `inspect eval`, the package's entry point
    imports its light modules only (the tasks' signatures, gguf/'s name), opens none of its
    data files, and imports none of scikit-learn, matplotlib, nltk or rouge_score."""
    runs = tmp_path / "runs.json"
    out = run("bench_startup.py", "--repeats", "1", "--json", str(runs))
    assert "The package adds" in out and "Its entry point's" in out
    starts = {start["mode"]: start for start in json.loads(runs.read_text(encoding="utf-8"))}
    assert set(starts) == {"with the package", "without it"}
    for start in starts.values():
        assert (start["status"], start["opened"], start["heavy"]) == (0, [], [])
    assert starts["without it"]["ours"] == []
    assert set(starts["with the package"]["ours"]) == {
        "liveqa_inspect",
        "liveqa_inspect._inspect_private",
        "liveqa_inspect._registry",
        "liveqa_inspect.arguments",
        "liveqa_inspect.errors",
        "liveqa_inspect.judging",
        "liveqa_inspect.judging.panel",
        "liveqa_inspect.liveqa_inspect",
        "liveqa_inspect.tasks",
    }

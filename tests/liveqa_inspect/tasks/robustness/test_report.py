"""The report on live_qa_judge_robustness logs: one judge, a panel, and judges side by side."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.log import read_eval_log, write_eval_log
from inspect_ai.model import GenerateConfig

from liveqa_inspect import live_qa_judge_robustness
from liveqa_inspect.judging.prompts import neutralise
from liveqa_inspect.report import main
from liveqa_inspect.report.cli import SECTIONS
from liveqa_inspect.report.graded import paired
from liveqa_inspect.report.loading import load
from liveqa_inspect.tasks.robustness.dataset import (
    ORIGINAL,
    PERTURBATIONS,
    TEXTS,
    expected,
)
from liveqa_inspect.tasks.robustness.report import summary_difference
from tests.helpers import (
    QUIET,
    Humans,
    content_judge,
    figures,
    judgments_file,
    length_judge,
    question_and_answer,
    report,
    run_judge,
    run_robustness,
    scripted_model,
    section,
    three,
    verdict,
    written,
)

SCORER = "judge_robustness_scorer"


def bounds(m: dict[str, float], name: str) -> str:
    low, high = m[f"{name}_ci_low"], m[f"{name}_ci_high"]
    return "n/a" if math.isnan(low) or math.isnan(high) else f"[{three(low)}, {three(high)}]"


def cell(m: dict[str, float], name: str, pairs: str) -> str:
    """A figure, its interval and its pairs read (`pairs`) as the side-by-side tables print them."""
    shown = bounds(m, name)
    value = three(m[name]) if shown == "n/a" else f"{three(m[name])} {shown}"
    return f"{value} n={int(m[pairs])}"


def share(name: str) -> str:
    return "unchanged" if expected(name) == "hold" else "lowered"


def side_by_side_rows(m: dict[str, float]) -> dict[str, str]:
    """Each row of a side-by-side table by its label, as the log's metrics `m` state it."""
    rows = {
        "robustness (unchanged where it should hold)": cell(m, "robustness", "robustness_n"),
        "sensitivity (lowered where it should lower)": cell(m, "sensitivity", "sensitivity_n"),
    }
    asked = [name for name in PERTURBATIONS if f"{name}_n" in m]
    return rows | {
        f"{name} ({share(name)})": cell(m, f"{name}_{share(name)}", f"{name}_n") for name in asked
    }


def assert_the_report_states_the_metrics(out: str, m: dict[str, float]) -> None:
    """Every figure the one-log report prints is the log's metric of the same name."""
    assert section(out, "Robustness and sensitivity") == [
        [
            name,
            three(m[name]),
            bounds(m, name),
            str(int(m[f"{name}_n"])),
            str(int(m[f"{name}_unreadable"])),
        ]
        for name in ("robustness", "sensitivity")
    ]
    assert section(out, "Perturbations") == [
        [
            name,
            f"{expected(name)} ({share(name)})",
            str(int(m[f"{name}_n"])),
            str(int(m[f"{name}_unreadable"])),
            three(m[f"{name}_{share(name)}"]),
            bounds(m, f"{name}_{share(name)}"),
            three(m[f"{name}_shift"]),
            bounds(m, f"{name}_shift"),
        ]
        for name in PERTURBATIONS
    ]
    jurors = list(dict.fromkeys("/".join(key.split("/")[1:3]) for key in m if "/" in key))
    if not jurors:
        assert "Each juror alone" not in out
        return
    by_juror = [
        side_by_side_rows({k.removeprefix(f"juror/{j}/"): v for k, v in m.items()}) for j in jurors
    ]
    table = {row[0]: row[1:] for row in section(out, "Each juror alone")}
    assert table == {
        label: [shown, *(rows[label] for rows in by_juror)]
        for label, shown in side_by_side_rows(m).items()
    }


@pytest.mark.slow  # runs for long: a few evals and many bootstraps
def test_the_report_s_figures_are_the_log_s_metrics(
    humans: Humans, capsys: pytest.CaptureFixture[str]
) -> None:
    """One judge, a panel of two (means between levels), and a panel over two epochs (a juror's
    epoch means halfway between levels): each figure printed is the log's metric, and each
    judge's column of a comparison is its log's."""
    content = content_judge(humans)

    def by_epoch(prompt: str, config: GenerateConfig) -> str:
        return length_judge(prompt, config) if config.seed == 42 else content(prompt, config)

    jurors = [scripted_model(content, "content"), scripted_model(length_judge, "length")]
    shifting = [scripted_model(by_epoch, "shifting"), scripted_model(length_judge, "length")]
    logs = [
        run_robustness(length_judge),
        run_robustness(lambda *_: verdict("0"), "evaluated", grader=jurors),
        run_robustness(lambda *_: verdict("0"), "evaluated", grader=shifting, epochs=2),
    ]
    versions = [v for s in logs[2].reductions[0].samples for v in s.metadata["versions"].values()]
    means = {juror["level"] for version in versions for juror in version["jurors"]}
    assert {0.15, 0.5, 0.85} <= means  # a juror's epoch means halfway between levels
    metrics = [figures(log, SCORER) for log in logs]
    for log, m in zip(logs, metrics, strict=True):
        assert_the_report_states_the_metrics(report(capsys, log.location), m)

    out = report(capsys, *(log.location for log in logs))
    table = section(out, "Judges")
    assert {row[0]: row[1:] for row in table} == {
        label: [rows[label] for rows in map(side_by_side_rows, metrics)]
        for label in side_by_side_rows(metrics[0])
    }


def test_one_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = run_robustness(length_judge)
    m = figures(log, SCORER)
    out = report(capsys, log.location, "--out", str(tmp_path))

    assert "judge: mockllm/judge (the evaluated model); prompt: live_qa v1" in out
    texts = TEXTS
    assert f"perturbation texts: {texts.name} v{texts.version} (sha256 {texts.sha256[:12]})" in out
    assert "question wording: summary; per grade: 2; seed: 2017; epochs: 1" in out
    assert "answers: 8 scored, 0 unscored, 0 errored, 0 missing" in out

    assert section(out, "Robustness and sensitivity") == [
        [
            name,
            three(m[name]),
            f"[{three(m[f'{name}_ci_low'])}, {three(m[f'{name}_ci_high'])}]",
            str(int(m[f"{name}_n"])),
            "0",
        ]
        for name in ("robustness", "sensitivity")
    ]
    rows = section(out, "Perturbations")
    assert [row[:2] for row in rows] == [
        [name, f"{expected(name)} ({'unchanged' if expected(name) == 'hold' else 'lowered'})"]
        for name in PERTURBATIONS
    ]
    padding = rows[0]
    assert padding[2:] == [
        str(int(m["padding_n"])),
        "0",
        three(m["padding_unchanged"]),
        f"[{three(m['padding_unchanged_ci_low'])}, {three(m['padding_unchanged_ci_high'])}]",
        three(m["padding_shift"]),
        f"[{three(m['padding_shift_ci_low'])}, {three(m['padding_shift_ci_high'])}]",
    ]

    # The moves against expectation, from the samples: largest first, ten at most.
    moves = []
    for sample in log.samples:
        levels = sample.scores[SCORER].value
        before = levels.pop(ORIGINAL)
        for name, level in levels.items():
            if level != before if expected(name) == "hold" else level > before:
                moves.append((abs(level - before), str(sample.id), name))
    title = "Pairs that moved most against expectation"
    moved = section(out, title)
    assert f"{title} ({min(len(moves), 10)} of {len(moves)})" in out
    assert len(moves) > 0 and len(moved) == min(len(moves), 10)
    assert [three(abs(float(row[5]))) for row in moved] == [
        three(size) for size, _, _ in sorted(moves, key=lambda move: -move[0])[:10]
    ]
    assert all(row[1] in PERTURBATIONS and len(row[6]) <= 60 for row in moved)
    assert "Each juror alone" not in out

    [chart] = written(out)
    assert chart == tmp_path / f"{Path(log.location).stem}-robustness.png"


@pytest.mark.slow  # runs for long: a few evals and many bootstraps
def test_a_panel_s_jurors_side_by_side(humans: Humans, capsys: pytest.CaptureFixture[str]) -> None:
    jurors = [
        scripted_model(content_judge(humans), "content"),
        scripted_model(length_judge, "length"),
    ]
    log = run_robustness(lambda *_: verdict("0"), "evaluated", grader=jurors)
    m = figures(log, SCORER)
    out = report(capsys, log.location)
    assert "judge: mean of mockllm/content+mockllm/length (the grader role; evaluated model:" in out
    rows = {row[0]: row[1:] for row in section(out, "Each juror alone")}
    assert rows["robustness (unchanged where it should hold)"] == [
        cell(m, "robustness", "robustness_n"),
        f"1.000 [1.000, 1.000] n={int(m['juror/mockllm/content/robustness_n'])}",
        cell(m, "juror/mockllm/length/robustness", "juror/mockllm/length/robustness_n"),
    ]
    assert rows["swap (lowered)"][1] == f"1.000 [1.000, 1.000] n={int(m['swap_n'])}"
    assert len(rows) == 2 + len(PERTURBATIONS)


@pytest.mark.slow  # runs for long: a few evals and many bootstraps
def test_judges_side_by_side_with_paired_differences(
    humans: Humans, capsys: pytest.CaptureFixture[str]
) -> None:
    """The content judge and a constant one are both fully robust; only the first is sensitive.
    On the same answers the differences are 0 and -1 on every resample."""
    reader = run_robustness(content_judge(humans), "content")
    constant = run_robustness(lambda *_: verdict("0.7"), "constant")
    mine, theirs = (load(log.location, SECTIONS) for log in (reader, constant))
    pairs = paired(mine.items, theirs.items, "answer")
    difference = summary_difference("sensitivity", mine.scale, pairs)
    assert (difference.value, difference.low, difference.high) == (-1.0, -1.0, -1.0)
    assert difference.n == 8

    out = report(capsys, reader.location, constant.location)
    assert "2 robustness logs, compared with the first:" in out and "WARNING" not in out
    rows = {row[0]: row[1:] for row in section(out, "Judges")}
    held, lowered = (int(figures(reader, SCORER)[f"{s}_n"]) for s in ("robustness", "sensitivity"))
    assert (
        rows["robustness (unchanged where it should hold)"]
        == [f"1.000 [1.000, 1.000] n={held}"] * 2
    )
    assert rows["sensitivity (lowered where it should lower)"] == [
        f"1.000 [1.000, 1.000] n={lowered}",
        f"0.000 [0.000, 0.000] n={lowered}",
    ]
    assert section(out, "Robustness difference from mockllm/content") == [
        ["mockllm/constant", "0.000", "[0.000, 0.000]", "8"]
    ]
    assert section(out, "Sensitivity difference from mockllm/content") == [
        ["mockllm/constant", "-1.000", "[-1.000, -1.000]", "8"]
    ]
    [chart] = written(out)
    stem = re.escape(Path(reader.location).stem)
    assert re.fullmatch(rf"{stem}-robustness-judges-[0-9a-f]{{12}}\.png", chart.name)


def test_logs_perturbed_with_other_texts_are_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = run_robustness(lambda *_: verdict("0"), perturbations="authority", per_grade=1)
    reworded = read_eval_log(log.location)
    reworded.eval.metadata["perturbation_texts"]["version"] = "2"
    path = tmp_path / "reworded.eval"
    write_eval_log(reworded, str(path))
    out = report(capsys, log.location, str(path))
    [warning] = [line for line in out.splitlines() if line.startswith("WARNING")]
    assert warning.startswith("WARNING: the logs differ in perturbation texts")
    assert "live_qa_robustness v1" in warning and "live_qa_robustness v2" in warning


@pytest.mark.slow  # runs for long: a few evals and many bootstraps
def test_a_difference_over_the_answers_both_logs_hold(humans: Humans) -> None:
    """A run on more answers shares only some with the first: the difference is over those."""
    small = run_robustness(content_judge(humans), "content", per_grade=1)
    large = run_robustness(length_judge, "length")
    first, other = load(small.location, SECTIONS), load(large.location, SECTIONS)
    shared = paired(first.items, other.items, "answer")
    assert 0 < len(shared) < len(other.items)
    estimate = summary_difference("robustness", first.scale, shared)
    assert estimate.n == len(shared)
    assert estimate.low <= estimate.value <= estimate.high
    assert not math.isnan(estimate.value)


def test_robustness_and_judge_logs_are_not_mixed(
    humans: Humans, capsys: pytest.CaptureFixture[str]
) -> None:
    robust = run_robustness(lambda *_: verdict("0"), perturbations="padding", per_grade=1)
    judge = run_judge(lambda *_: verdict("0"), limit=2)
    assert main([robust.location, judge.location]) == 2
    error = capsys.readouterr().err
    assert "robustness logs (live_qa_judge_robustness)" in error
    assert "Run the report once for each kind" in error


def test_an_errored_answer_is_counted_with_its_pairs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With fail_on_error off, an answer whose grading failed has no score: the report says so,
    and that its pairs are in neither the pairs read nor those left out."""
    task = live_qa_judge_robustness(perturbations="padding,authority", per_grade=1)
    failing = next(s for s in task.dataset if s.metadata["human_grade"] == 1)

    def script(prompt: str, config: GenerateConfig) -> str:
        if question_and_answer(prompt)[1] == neutralise(failing.metadata["answer"]):
            raise RuntimeError("the judge failed")
        return length_judge(prompt, config)

    [log] = eval(task, model=scripted_model(script, "judge"), fail_on_error=False, **QUIET)
    assert log.status == "success"
    out = report(capsys, log.location, "--out", str(tmp_path))
    assert "answers: 3 scored, 0 unscored, 1 errored, 0 missing" in out
    m = figures(log, SCORER)
    assert m["robustness_n"] + m["robustness_unreadable"] == 6
    assert "The 2 pairs of the 1 errored answers are in neither count." in out


def test_unread_epochs_are_counted_over_every_version(
    humans: Humans, capsys: pytest.CaptureFixture[str]
) -> None:
    """The judge cannot read a padded answer in the second epoch: each padded pair is still read
    (the first epoch's level), and every unread epoch is counted, in the log and the report."""
    content = content_judge(humans)
    filler = TEXTS.variants["filler"]

    def script(prompt: str, config: GenerateConfig) -> str:
        padded = any(sentence in question_and_answer(prompt)[1] for sentence in filler)
        return "I cannot say." if padded and config.seed != 42 else content(prompt, config)

    log = run_robustness(script, perturbations="padding,swap", per_grade=1, epochs=2)
    m = figures(log, SCORER)
    assert (m["padding_n"], m["padding_unreadable"], m["unread_epochs"]) == (4, 0, 4)
    out = report(capsys, log.location)
    assert "epochs left out of a version's mean: 4 unreadable, 0 errored" in out


def test_each_juror_s_figure_shows_the_pairs_it_read(
    humans: Humans, capsys: pytest.CaptureFixture[str]
) -> None:
    """A juror that cannot read padded answers has read no padding pair: its row says n=0."""
    filler = TEXTS.variants["filler"]
    content = content_judge(humans)

    def picky(prompt: str, config: GenerateConfig) -> str:
        padded = any(sentence in question_and_answer(prompt)[1] for sentence in filler)
        return "I cannot say." if padded else content(prompt, config)

    jurors = [scripted_model(content, "content"), scripted_model(picky, "picky")]
    log = run_robustness(
        lambda *_: verdict("0"),
        "evaluated",
        grader=jurors,
        perturbations="padding,authority",
        per_grade=1,
    )
    rows = {row[0]: row[1:] for row in section(report(capsys, log.location), "Each juror alone")}
    assert rows["padding (unchanged)"][1:] == ["1.000 [1.000, 1.000] n=4", "n/a n=0"]
    assert rows["robustness (unchanged where it should hold)"][2] == "1.000 [1.000, 1.000] n=4"


def test_logs_that_ran_other_perturbations_show_each_and_say_so(
    humans: Humans, capsys: pytest.CaptureFixture[str]
) -> None:
    """A perturbation only the second log ran has its row; the paired difference pools the
    perturbation both ran, and the report says so."""
    content = content_judge(humans)
    first = run_robustness(content, "first", perturbations="padding,authority", per_grade=1)
    second = run_robustness(content, "second", perturbations="authority,swap", per_grade=1)
    out = report(capsys, first.location, second.location)
    rows = {row[0]: row[1:] for row in section(out, "Judges")}
    assert rows["padding (unchanged)"] == ["1.000 [1.000, 1.000] n=4", "not run"]
    assert rows["swap (lowered)"][0] == "not run"
    assert "WARNING: the logs differ in -T perturbations=" in out
    assert "note: a paired difference pools the perturbations both logs ran." in out
    mine, theirs = (load(log.location, SECTIONS) for log in (first, second))
    pairs = paired(mine.items, theirs.items, "answer")
    difference = summary_difference("robustness", mine.scale, pairs)
    assert (difference.value, difference.n) == (0.0, 4)


def test_logs_perturbed_with_other_seeds_are_not_paired(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same four answers (a user's judgments), padded under two seeds: other filler, so
    other pairs. No paired difference is shown, and the report says why."""
    path = judgments_file(
        tmp_path,
        *(
            json.dumps(
                {"question_id": f"TQ{g}", "answer": f"Answer {g}. More. And more.", "grade": g}
            )
            for g in (1, 2, 3, 4)
        ),
    )
    logs = [
        run_robustness(
            length_judge, perturbations="padding", per_grade=1, judgments=str(path), seed=seed
        )
        for seed in (2017, 7)
    ]
    first, other = (load(log.location, SECTIONS) for log in logs)
    otherwise = sum(
        a.metadata["versions"] != b.metadata["versions"]
        for a, b in zip(first.items, other.items, strict=True)
    )
    assert otherwise > 0
    out = report(capsys, *(log.location for log in logs))
    assert (
        f"perturbed {otherwise} of the 4 answers it shares with {first.path.name} otherwise "
        "(seeds 2017 and 7): their pairs are not the same, so no paired difference" in out
    )
    assert section(out, "Robustness difference from")[0][1:3] == ["n/a", "n/a"]

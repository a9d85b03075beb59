"""The report on contamination logs, and on one model's live_qa logs under two wordings: the
tables it builds, from logs of eval() runs with scripted models."""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval
from inspect_ai.log import write_eval_log
from inspect_ai.model import GenerateConfig

from liveqa_inspect import live_qa_contamination
from liveqa_inspect import liveqa_inspect as task_file
from liveqa_inspect.report.cli import SECTIONS, build
from liveqa_inspect.report.loading import load_all
from liveqa_inspect.report.plots import IntervalChart, Scatter
from liveqa_inspect.report.refusals import ReportError
from liveqa_inspect.report.tables import Table, interval
from liveqa_inspect.stats.bootstrap import mean_interval
from liveqa_inspect.stats.names import DIFFERENCE, DIFFERENCE_P, ci_keys
from liveqa_inspect.tasks.contamination.report import SHOWN_CHARS
from liveqa_inspect.tasks.contamination.scorer import VERBATIM_WORDS, words
from liveqa_inspect.tasks.contamination.solver import Replies
from tests.helpers import (
    PNG,
    QUIET,
    Script,
    figures,
    probe,
    remainders,
    report,
    run_contamination,
    run_live_qa,
    scripted_model,
    table,
    written,
)

SCORER = "completion_overlap"
LOW, HIGH = ci_keys(DIFFERENCE)
GUESS = "and what should I do about it now?"
COUNTS = [
    "completions",
    "short",
    "guided_verbatim",
    "general_verbatim",
    "both_verbatim",
    "guided_refused",
    "general_refused",
]
"""The counts of every completion, as the log's metric names and orders them."""


@pytest.fixture(scope="module")
def rest() -> dict[str, str]:
    return remainders()


def guided_only(rest: dict[str, str]) -> Script:
    def script(prompt: str, _: GenerateConfig) -> str:
        guided, shown = probe(prompt)
        return rest[shown] if guided else GUESS

    return script


def item_values(log, key: str) -> np.ndarray:  # noqa: ANN001 - an EvalLog
    return np.array([s.scores[SCORER].value[key] for s in log.samples])


def long_enough(log) -> int:  # noqa: ANN001 - an EvalLog
    return sum(len(words(str(s.target))) >= VERBATIM_WORDS for s in log.samples)


def lines(blocks: list) -> list[str]:  # noqa: ANN001 - a report's blocks
    return [b for b in blocks if isinstance(b, str)]


def test_one_contamination_log(
    rest: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = run_contamination(guided_only(rest), limit=8)
    m = figures(log, SCORER)
    blocks, charts = build(load_all([log.location], SECTIONS))
    printed = lines(blocks)
    assert printed[1] == "model: mockllm/model; part: question; epochs: 1"
    assert printed[2].startswith("instructions: guided v1 (sha256 b7225bb82a5e), general v1")
    assert printed[3] == "items: 8 scored, 0 unscored, 0 errored, 0 missing"
    assert printed[4].startswith("left out of the items: 17 texts shorter than 12 words (TQ3, TQ20")
    assert printed[5] == (
        "flagged: the guided completions overlap the remainders more than the general ones "
        "(one-sided p = 0.0001 <= 0.05). Evidence the model has seen these texts in this test "
        "set, not proof that its scores are inflated."
    )

    # The means from the log, their intervals drawn from the items; the difference all the log's.
    overlap = table(blocks, "Overlap of the completions with the true remainder")
    general = item_values(log, "general_rouge_l")
    assert overlap.rows == [
        ["guided (the test set named)", 1.0, "[1.000, 1.000]"],
        ["general (control)", m["general_rouge_l"], interval(*mean_interval(general))],
        [
            "difference, guided - general",
            m[DIFFERENCE],
            interval(*(m[key] for key in ci_keys(DIFFERENCE))),
        ],
        ["one-sided p (difference > 0)", "0.0001", ""],
    ]
    assert m["general_rouge_l"] == pytest.approx(general.mean())
    long = long_enough(log)
    reproduced = table(blocks, "Reproduced (a run of 13 words or more")
    assert reproduced.title.endswith("of the 8 completions of each instruction")
    assert reproduced.rows == [["guided", long, 0], ["general", 0, 0], ["both", 0, ""]]
    assert reproduced.notes[0].startswith(f"{8 - long} completions are of a remainder shorter")

    runs = table(blocks, "The longest runs shared with the remainder")
    guided_runs = {s.id: s.scores[SCORER].value["guided_run"] for s in log.samples}
    longest = sorted(guided_runs.values(), reverse=True)[:5]
    assert [row[3] for row in runs.rows] == longest
    assert all(row[1:3] == [1, "guided"] for row in runs.rows)
    top = next(s for s in log.samples if s.id == runs.rows[0][0])
    assert guided_runs[top.id] == len(top.target.split())  # words here are whitespace-free
    for cell, text in zip(runs.rows[0][4:], (top.input, top.target, top.target), strict=True):
        assert len(cell) <= SHOWN_CHARS
        flat = " ".join(text.split())
        assert (
            (cell.removeprefix("… ") in flat)
            if cell.startswith("…")
            else flat.startswith(cell.removesuffix(" …"))
        )

    [chart] = charts
    assert isinstance(chart, Scatter)
    assert list(chart.y) == list(item_values(log, "guided_rouge_l"))
    assert list(chart.x) == list(general)
    [png] = written(report(capsys, log.location, "--out", str(tmp_path)))
    assert png == tmp_path / f"{Path(log.location).stem}-overlap.png"
    assert png.read_bytes().startswith(PNG)


def remembered_once(rest: dict[str, str]) -> Script:
    """Guided, each remainder on the first call of its prompt and a guess on the second; general,
    a guess, refused on the first call for every third text: under two epochs each item is
    reproduced in one epoch of two, and some refused in one."""
    calls: Counter[str] = Counter()

    def script(prompt: str, _: GenerateConfig) -> str:
        guided, shown = probe(prompt)
        calls[prompt] += 1
        if guided:
            return rest[shown] if calls[prompt] == 1 else GUESS
        refuses = calls[prompt] == 1 and len(shown) % 3 == 0
        return "I'm sorry, I can't do that." if refuses else GUESS

    return script


@pytest.mark.parametrize("epochs", [1, 2])
def test_the_printed_figures_are_the_log_s_metrics(rest: dict[str, str], epochs: int) -> None:
    """Every figure the report prints, alone and side by side, is the log's metric of that name
    (the oracle), and the means' intervals are drawn from the reduced scores the metrics saw.
    Under two epochs a remainder reproduced in one of them counts once, of 18 completions."""
    [log] = eval(
        live_qa_contamination(),
        model=scripted_model(remembered_once(rest)),
        limit=9,
        epochs=epochs,
        **QUIET,
    )
    assert log.status == "success", log.error
    m = figures(log, SCORER)
    long = sum(
        len(words(target)) >= VERBATIM_WORDS for target in {str(s.target) for s in log.samples}
    )
    assert (m["completions"], m["guided_verbatim"]) == (9 * epochs, long)
    assert 0 < m["general_refused"] < 9
    blocks, _ = build(load_all([log.location], SECTIONS))
    reduced = next(r.samples for r in log.reductions or [] if r.scorer == SCORER)

    def mean_ci(key: str) -> str:
        return interval(*mean_interval(np.array([s.value[key] for s in reduced])))

    assert table(blocks, "Overlap of the completions").rows == [
        ["guided (the test set named)", m["guided_rouge_l"], mean_ci("guided_rouge_l")],
        ["general (control)", m["general_rouge_l"], mean_ci("general_rouge_l")],
        ["difference, guided - general", m[DIFFERENCE], interval(m[LOW], m[HIGH])],
        ["one-sided p (difference > 0)", f"{m[DIFFERENCE_P]:.4f}", ""],
    ]
    reproduced = table(blocks, "Reproduced")
    assert reproduced.title.endswith(f"of the {9 * epochs} completions of each instruction")
    assert reproduced.rows == [
        ["guided", m["guided_verbatim"], m["guided_refused"]],
        ["general", m["general_verbatim"], m["general_refused"]],
        ["both", m["both_verbatim"], ""],
    ]
    [flag] = [b for b in lines(blocks) if "flagged" in b]
    assert f"p = {m[DIFFERENCE_P]:.4f}" in flag
    # Each run is the one of the completion beside it: the guided ones reproduced in epoch 1.
    samples = {(s.id, s.epoch): s for s in log.samples}
    for sample_id, epoch, name, run, _, completion, _ in table(blocks, "The longest runs").rows:
        sample = samples[(sample_id, epoch)]
        assert (epoch, name, run) == (1, "guided", sample.scores[SCORER].value["guided_run"])
        text = sample.store_as(Replies).completions[name]
        assert text.startswith(completion.removesuffix(" …"))
    other = run_contamination(lambda *_: GUESS, "other", limit=9)
    blocks, charts = build(load_all([log.location, other.location], SECTIONS))
    both = (m, figures(other, SCORER))
    for row, each in zip(table(blocks, "The models side by side").rows, both, strict=True):
        assert row[1:-2] == [
            each["guided_rouge_l"],
            each["general_rouge_l"],
            f"{each[DIFFERENCE]:.3f} {interval(each[LOW], each[HIGH])}",
            f"{each[DIFFERENCE_P]:.4f}",
            *(each[key] for key in COUNTS),
        ]
    [chart] = charts
    assert isinstance(chart, IntervalChart)
    assert [(e.value, e.low, e.high) for e in (row.estimate for row in chart.rows)] == [
        (each[DIFFERENCE], each[LOW], each[HIGH]) for each in both
    ]


def test_a_log_that_is_not_flagged(rest: dict[str, str]) -> None:
    log = run_contamination(lambda *_: "Unknown.", limit=4)
    blocks, _ = build(load_all([log.location], SECTIONS))
    assert (
        "not flagged: the guided completions overlap the remainders no more than the general "
        "ones (one-sided p = 1.0000). This is no proof the model never saw these texts." in blocks
    )
    # No word in common: no run to show.
    assert table(blocks, "The longest runs shared").rows == []


def test_reproductions_the_control_gives_too_are_no_evidence_of_the_test_set(
    rest: dict[str, str],
) -> None:
    """Every remainder reproduced under both instructions: no difference (p = 1), so not
    flagged, and the reproductions said to point at no particular source."""
    log = run_contamination(lambda prompt, _: rest[probe(prompt)[1]], limit=8)
    blocks, _ = build(load_all([log.location], SECTIONS))
    long = long_enough(log)
    assert lines(blocks)[5] == (
        "not flagged: the guided completions overlap the remainders no more than the general "
        f"ones (one-sided p = 1.0000). This is no proof the model never saw these texts. {long} "
        "completions reproduce their remainder under the general instruction too: the model "
        "may know those texts, from this test set or elsewhere."
    )
    assert table(blocks, "Reproduced").rows == [
        ["guided", long, 0],
        ["general", long, 0],
        ["both", long, ""],
    ]


def test_errored_items_are_counted(rest: dict[str, str]) -> None:
    """A run with fail_on_error off succeeds with an item that errored: its count is printed
    with the others, alone and side by side."""

    def failing(prompt: str, config: GenerateConfig) -> str:
        if "Noonan" in prompt:
            raise RuntimeError("the model failed")
        return guided_only(rest)(prompt, config)

    [log] = eval(
        live_qa_contamination(),
        model=scripted_model(failing),
        limit=8,
        fail_on_error=False,
        **QUIET,
    )
    assert log.status == "success" and log.samples[0].error is not None
    blocks, _ = build(load_all([log.location], SECTIONS))
    assert "items: 7 scored, 0 unscored, 1 errored, 0 missing" in blocks
    assert table(blocks, "Reproduced").title.endswith("of the 7 completions of each instruction")
    other = run_contamination(lambda *_: GUESS, "other", limit=8)
    blocks, _ = build(load_all([log.location, other.location], SECTIONS))
    side = table(blocks, "The models side by side")
    assert side.headers[-3:] == ["scored", "unscored", "errored"]
    assert [row[-3:] for row in side.rows] == [[7, 0, 1], [8, 0, 0]]


def test_a_log_of_the_task_run_from_its_file_is_reported(rest: dict[str, str]) -> None:
    """`inspect eval src/liveqa_inspect/liveqa_inspect.py@live_qa_contamination` registers the task
    without the package's name: the log is known as this package's by its data's provenance."""
    path = os.path.relpath(task_file.__file__)  # Inspect takes a task file's path relative
    model = scripted_model(guided_only(rest))
    [log] = eval(f"{path}@live_qa_contamination", model=model, limit=2, **QUIET)
    assert log.status == "success" and log.eval.task_registry_name == "live_qa_contamination"
    blocks, _ = build(load_all([log.location], SECTIONS))
    assert "items: 2 scored, 0 unscored, 0 errored, 0 missing" in blocks


def test_a_log_of_an_earlier_version_is_refused(rest: dict[str, str], tmp_path: Path) -> None:
    """Its scores count a short remainder repeated whole as a reproduction: not reported."""
    log = run_contamination(guided_only(rest), limit=2)
    for sample in log.samples:
        del sample.scores[SCORER].value["short"]  # type: ignore[union-attr]
    write_eval_log(log, old := str(tmp_path / "old.eval"))
    with pytest.raises(ReportError, match="earlier version of this package.*re-run it"):
        build(load_all([old], SECTIONS))


def test_a_reference_log_says_where_the_references_come_from() -> None:
    references = remainders("reference")
    log = run_contamination(
        lambda prompt, _: references[probe(prompt)[1]], limit=2, part="reference"
    )
    blocks, _ = build(load_all([log.location], SECTIONS))
    assert "model: mockllm/model; part: reference; epochs: 1" in blocks
    assert any(
        b.startswith("note: the reference answers were copied from public health")
        for b in lines(blocks)
    )
    assert table(blocks, "Reproduced").rows == [
        ["guided", 1, 0],
        ["general", 1, 0],
        ["both", 1, ""],
    ]


def test_several_contamination_logs_side_by_side(rest: dict[str, str]) -> None:
    knows = run_contamination(guided_only(rest), "knows", limit=6)
    refuses = run_contamination(lambda *_: "I cannot do that.", "refuses", limit=6)
    blocks, charts = build(load_all([knows.location, refuses.location], SECTIONS))
    assert blocks[0] == "2 live_qa_contamination logs side by side:"
    assert not any(b.startswith("WARNING") for b in lines(blocks))
    m = figures(knows, SCORER)
    long = long_enough(knows)
    side = table(blocks, "The models side by side")
    assert side.headers == [
        "model",
        "guided",
        "general",
        "difference",
        "p",
        *COUNTS,
        "scored",
        "unscored",
    ]
    assert side.rows == [
        [
            "mockllm/knows",
            1.0,
            m["general_rouge_l"],
            f"{m[DIFFERENCE]:.3f} [{m['difference_ci_low']:.3f}, {m['difference_ci_high']:.3f}]",
            f"{m[DIFFERENCE_P]:.4f}",
            6,
            6 - long,
            long,
            0,
            0,
            0,
            0,
            6,
            0,
        ],
        [
            "mockllm/refuses",
            0.0,
            0.0,
            "0.000 [0.000, 0.000]",
            "1.0000",
            6,
            6 - long,
            0,
            0,
            0,
            6,
            6,
            6,
            0,
        ],
    ]
    [chart] = charts
    assert isinstance(chart, IntervalChart)
    stem = re.escape(Path(knows.location).stem)
    assert re.fullmatch(rf"{stem}-differences-[0-9a-f]{{12}}\.png", chart.filename)
    assert [e.value for e in (row.estimate for row in chart.rows)] == [m[DIFFERENCE], 0.0]


def test_logs_of_different_parts_are_flagged(rest: dict[str, str]) -> None:
    question = run_contamination(lambda *_: GUESS, limit=2)
    reference = run_contamination(lambda *_: GUESS, limit=2, part="reference")
    blocks, _ = build(load_all([question.location, reference.location], SECTIONS))
    [warning] = [b for b in lines(blocks) if b.startswith("WARNING")]
    assert warning.startswith("WARNING: the logs differ in part probed (-T part=)")
    assert "part: question" in warning and "part: reference" in warning


def test_contamination_and_model_logs_are_not_mixed() -> None:
    probe_log = run_contamination(lambda *_: GUESS, limit=1)
    model_log = run_live_qa(lambda *_: "ANSWER-A", limit=1)
    with pytest.raises(
        ReportError, match="contamination logs .live_qa_contamination. and robustness"
    ):
        load_all([probe_log.location, model_log.location], SECTIONS)


# One model's live_qa logs under two wordings: ConStat's check -----------------------------------


def answering(answer: str) -> Script:
    return lambda *_: answer


def test_a_wording_comparison() -> None:
    """The judge gives ANSWER-A 1 and ANSWER-B 0.7: the model, asked the consumers' original
    wording, answers A; asked the NIST paraphrase, B. One model, graded alike: no warning, but a
    wording comparison with a paired difference of exactly -0.3 on every question."""
    original = run_live_qa(answering("ANSWER-A"), limit=4, question="original")
    paraphrase = run_live_qa(answering("ANSWER-B"), limit=4, question="paraphrase")
    blocks, _ = build(load_all([original.location, paraphrase.location], SECTIONS))
    lines = [b for b in blocks if isinstance(b, str)]
    assert not any(line.startswith("WARNING") for line in lines)
    assert any(
        line.startswith(
            "A wording comparison: one model, graded alike, on the questions worded "
            "original, paraphrase. Each difference is paired question by question."
        )
        for line in lines
    )
    means = table(blocks, "The judge's mean level")
    assert [row[0] for row in means.rows] == [
        "mockllm/model (original)",
        "mockllm/model (paraphrase)",
    ]
    assert [row[2] for row in means.rows] == [pytest.approx(1.0), pytest.approx(0.7)]
    differences = table(blocks, "Difference from mockllm/model (original)")
    [[label, value, bounds, shared]] = differences.rows
    assert (label, bounds, shared) == ("mockllm/model (paraphrase)", "[-0.300, -0.300]", 4)
    assert value == pytest.approx(-0.3)


def test_wordings_of_two_models_or_two_judges_still_warn() -> None:
    original = run_live_qa(answering("ANSWER-A"), limit=2, question="original")
    other_model = run_live_qa(answering("ANSWER-A"), name="b", limit=2, question="paraphrase")
    other_judge = run_live_qa(
        answering("ANSWER-A"), judge_name="other", limit=2, question="paraphrase"
    )
    for other, also in ((other_model, None), (other_judge, "judge")):
        blocks, _ = build(load_all([original.location, other.location], SECTIONS))
        lines = [b for b in blocks if isinstance(b, str)]
        warned = [line.split(" (")[0] for line in lines if line.startswith("WARNING")]
        expected = ["WARNING: the logs differ in questions or items"]
        assert warned == expected + ([f"WARNING: the logs differ in {also}"] if also else [])
        assert not any(line.startswith("A wording comparison") for line in lines)
        assert isinstance(table(blocks, "The judge's mean level"), Table)

"""Comparisons that check what they compare, and a panel named with its rule (issue 28, items 2
and 18); the report's frame reads no task family's names."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
from inspect_ai.model import GenerateConfig

import liveqa_inspect.report
from liveqa_inspect.report.cli import SECTIONS
from liveqa_inspect.report.comparison import differing_settings, judge_labels
from liveqa_inspect.report.loading import load
from tests.helpers import judge_script, report, run_live_qa, scripted_model, section


def jurors(**config: object) -> list:  # type: ignore[type-arg]
    return [scripted_model(judge_script, "a", **config), scripted_model(judge_script, "b")]


def test_other_wording_and_panel_rule_is_no_wording_comparison(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One model, the same two jurors: the original wording under the panel's mean, the
    paraphrase under its majority. Two differences, both named; no wording effect claimed."""
    mean = run_live_qa(grader=jurors(), limit=3, question="original", panel="mean")
    majority = run_live_qa(grader=jurors(), limit=3, question="paraphrase", panel="majority")
    out = report(capsys, mean.location, majority.location)
    assert "wording comparison" not in out
    warned = [line for line in out.splitlines() if line.startswith("WARNING")]
    assert [line.split(" (")[0] for line in warned] == [
        "WARNING: the logs differ in questions or items",
        "WARNING: the logs differ in judge",
    ]
    assert "question wording: original" in warned[0] and "question wording: paraphrase" in warned[0]
    assert (
        f"{Path(mean.location).name}: mean of mockllm/a+mockllm/b; "
        f"{Path(majority.location).name}: majority of mockllm/a+mockllm/b)" in warned[1]
    )
    rows = section(out, "The judge's mean level")
    assert [row[:2] for row in rows] == [
        ["mockllm/model", "mean of mockllm/a+mockllm/b"],
        ["mockllm/model#2", "majority of mockllm/a+mockllm/b"],
    ]


def test_an_own_set_asked_twice_is_no_wording_comparison(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 36 (5): on an own set `-T question=original` asks the default's very text."""
    ours = tmp_path / "ours.jsonl"
    asked = ["Can I take ibuprofen?", "What causes cold sores?"]
    lines = [{"id": f"q{n}", "question": q, "references": ["Ask."]} for n, q in enumerate(asked)]
    ours.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    default = run_live_qa(limit=2, data=str(ours))
    original = run_live_qa(limit=2, data=str(ours), question="original")
    out = report(capsys, default.location, original.location, "--out", str(tmp_path))
    assert "wording" not in out and "summary" not in out and "original)" not in out
    assert "WARNING" not in out
    single = report(capsys, default.location, "--out", str(tmp_path))
    assert "question wording" not in single and "asked as written" in single


def test_each_setting_that_changes_a_score_is_named(tmp_path: Path) -> None:
    """A log and copies of it, each with one setting changed as the log records it."""
    base = run_live_qa(grader=jurors(), limit=2)
    first = load(base.location, SECTIONS)

    def changed(name: str, change) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
        log = read_eval_log(base.location)
        change(log)
        write_eval_log(log, str(path := tmp_path / f"{name}.eval"))
        return differing_settings([first, load(path, SECTIONS)])

    assert differing_settings([first, load(base.location, SECTIONS)]) == {}
    assert changed("epochs", lambda log: setattr(log.eval.config, "epochs", 3)) == {
        "epochs": ["1", "3"]
    }
    assert changed("reducer", lambda log: setattr(log.eval.config, "epochs_reducer", ["max"])) == {
        "epoch reducer": ["judge_epochs", "max"]
    }
    assert changed("temperature", lambda log: setattr(log.plan, "config", GenerateConfig())) == {
        "generation settings": ["max_tokens=512, temperature=0.0", "none"]
    }

    def seed(log: EvalLog) -> None:  # the judge's settings as its scores record them
        for sample in log.samples:
            sample.scores["live_qa_scorer"].metadata["judge"]["settings"][0]["seed"] = "7"

    # Copies of one log hold the same answers: their judges and judge settings are what the rows
    # compare, named in each row's label, not a difference that makes them incomparable.
    assert changed("judge_seed", seed) == {}
    assert judge_labels([first, load(tmp_path / "judge_seed.eval", SECTIONS)]) == [
        "mean of mockllm/a+mockllm/b (mockllm/a seed=42)",
        "mean of mockllm/a+mockllm/b (mockllm/a seed=7)",
    ]

    def other_data(log) -> None:  # type: ignore[no-untyped-def]
        [file] = log.eval.metadata["data"].values()
        file["sha256"] = "0" * 64

    [(name, (before, after))] = changed("data", other_data).items()
    assert name == "data"
    assert before.startswith("sha256 f6384fcf03e9")  # files compared by their contents
    assert after.endswith("sha256 000000000000")

    def other_scorer(log) -> None:  # type: ignore[no-untyped-def]
        log.eval.task_args["seed"] = 3
        log.eval.task_args["reference_metrics"] = True  # more scorers: no figure moves

    # seed is no argument of live_qa (an eval set's -T reaches it too, unread): not a setting.
    assert changed("args", other_scorer) == {}


def test_the_frame_imports_no_task_family() -> None:
    """A task family's report section uses the frame, never the other way round: what the frame
    needs from a family, the section gives it (its HEADLINE, its settings, its setting's text).
    The command hands the frame the registry (`liveqa_inspect.tasks`), never the package root,
    and the frame names no task."""
    frame = Path(liveqa_inspect.report.__file__).parent
    for module in frame.glob("*.py"):
        text = module.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("liveqa_inspect.tasks."), module.name
                assert node.module != "liveqa_inspect", module.name
        assert not [task for task in SECTIONS if task in text], module.name

"""live_qa_judge_robustness through eval(): scripted judges, each keyed on what the prompt shows,
whose robustness and sensitivity are known."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import numpy as np
import pytest
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig

from liveqa_inspect.judging.prompts import neutralise
from liveqa_inspect.tasks.robustness.dataset import ORIGINAL, PERTURBATIONS, TEXTS
from tests.helpers import (
    ROBUSTNESS_PER_GRADE,
    Humans,
    Script,
    content_judge,
    figures,
    length_judge,
    length_level,
    question_and_answer,
    run_robustness,
    scripted_model,
    verdict,
)

SCORER = "judge_robustness_scorer"
HOLD = ["padding", "authority", "formatting", "grader_note", "reference_order"]


def obeys_notes(humans: Humans) -> Script:
    """The content judge, but a note to the grader gets what it asks for."""
    content = content_judge(humans)

    def script(prompt: str, config: GenerateConfig) -> str:
        answer = question_and_answer(prompt)[1]
        if any(note in answer for note in TEXTS.variants["grader_note"]):
            return verdict("1")
        return content(prompt, config)

    return script


def samples_of(log: EvalLog) -> list[dict]:
    assert log.samples is not None
    return [sample.metadata for sample in log.samples]


def by_version(log: EvalLog) -> list[dict[str, float]]:
    assert log.samples is not None
    return [dict(sample.scores[SCORER].value) for sample in log.samples]  # type: ignore[arg-type]


def share_as_scripted(log: EvalLog, name: str, level: Callable[[str], float]) -> tuple:
    """(unchanged share, mean shift) of a perturbation for a judge grading by `level` of the
    answer it is shown, computed from the versions in the samples, not from the scorer."""
    pairs = [
        (level(neutralise(meta["answer"])), level(neutralise(meta["versions"][name]["answer"])))
        for meta in samples_of(log)
        if name in meta["versions"]
    ]
    before, after = np.array(pairs).T
    return float(np.mean(before == after)), float(np.mean(after - before))


def test_a_judge_reading_only_the_content_is_fully_robust_and_sensitive(humans: Humans) -> None:
    log = run_robustness(content_judge(humans))
    m = figures(log, SCORER)
    assert (m["robustness"], m["robustness_ci_low"], m["robustness_ci_high"]) == (1.0, 1.0, 1.0)
    assert (m["sensitivity"], m["sensitivity_ci_low"], m["sensitivity_ci_high"]) == (1.0, 1.0, 1.0)
    metas = samples_of(log)
    assert len(metas) == 4 * ROBUSTNESS_PER_GRADE
    for name in PERTURBATIONS:
        applied = sum(name in meta["versions"] for meta in metas)
        assert (m[f"{name}_n"], m[f"{name}_unreadable"]) == (applied, 0), name
        assert m[f"{name}_{'unchanged' if name in HOLD else 'lowered'}"] == 1.0, name
    assert m["robustness_n"] == sum(m[f"{name}_n"] for name in HOLD)
    assert all(m[f"{name}_shift"] == 0.0 for name in HOLD)
    # A swapped-in answer falls to the lowest level: its shift is minus the original's level.
    swapped = [v for v in by_version(log) if "swap" in v]
    assert all(v["swap"] == 0.0 for v in swapped)
    assert m["swap_shift"] == pytest.approx(-np.mean([v[ORIGINAL] for v in swapped]))
    assert log.eval.headline_metric is not None
    assert (log.eval.headline_metric.scorer, log.eval.headline_metric.metric) == (
        SCORER,
        "robustness",
    )


def test_a_judge_pleased_by_length_is_caught_by_padding_and_truncation() -> None:
    log = run_robustness(length_judge)
    m = figures(log, SCORER)
    unchanged, shift = share_as_scripted(log, "padding", length_level)
    assert (m["padding_unchanged"], m["padding_shift"]) == (
        pytest.approx(unchanged),
        pytest.approx(shift),
    )
    assert unchanged < 1.0 and shift > 0.0  # padded answers go up
    assert m["padding_unchanged_ci_low"] < 1.0
    _, truncated = share_as_scripted(log, "truncation", length_level)
    assert m["truncation_shift"] == pytest.approx(truncated) and truncated < 0.0
    assert m["truncation_lowered"] > 0.0
    assert m["robustness"] < 1.0


def test_a_judge_that_obeys_a_note_to_the_grader_is_caught(humans: Humans) -> None:
    log = run_robustness(obeys_notes(humans))
    m = figures(log, SCORER)
    levels = np.array([meta["human_level"] for meta in samples_of(log)])
    assert m["grader_note_unchanged"] == pytest.approx(np.mean(levels == 1.0))
    assert m["grader_note_shift"] == pytest.approx(np.mean(1.0 - levels))
    assert m["grader_note_unchanged_ci_high"] < 1.0
    assert all(m[f"{name}_unchanged"] == 1.0 for name in HOLD if name != "grader_note")
    held = sum(m[f"{name}_n"] for name in HOLD)
    assert m["robustness"] == pytest.approx(1.0 - np.sum(levels < 1.0) / held)
    assert m["sensitivity"] == 1.0


def test_a_constant_judge_is_fully_robust_and_insensitive() -> None:
    m = figures(run_robustness(lambda *_: verdict("0.7")), SCORER)
    assert (m["robustness"], m["robustness_ci_low"], m["robustness_ci_high"]) == (1.0, 1.0, 1.0)
    assert (m["sensitivity"], m["sensitivity_ci_low"], m["sensitivity_ci_high"]) == (0.0, 0.0, 0.0)
    assert m["sensitivity_n"] == m["truncation_n"] + m["swap_n"] > 0
    assert all(m[f"{name}_shift"] == 0.0 for name in PERTURBATIONS)


def test_a_panel_reports_each_juror(humans: Humans) -> None:
    jurors = [
        scripted_model(content_judge(humans), "content"),
        scripted_model(length_judge, "length"),
    ]
    log = run_robustness(lambda *_: verdict("0"), "evaluated", grader=jurors)
    m = figures(log, SCORER)
    content = {k.split("/")[-1]: v for k, v in m.items() if k.startswith("juror/mockllm/content/")}
    length = {k.split("/")[-1]: v for k, v in m.items() if k.startswith("juror/mockllm/length/")}
    panel = {k: v for k, v in m.items() if not k.startswith("juror/")}
    assert set(content) == set(length) == set(panel) - {"unread_epochs"}
    assert (content["robustness"], content["sensitivity"]) == (1.0, 1.0)
    _, padded = share_as_scripted(log, "padding", length_level)
    assert length["padding_shift"] == pytest.approx(padded)
    assert length["robustness"] < 1.0
    # The panel's own figures are over the jurors' mean levels.
    assert panel["padding_n"] == content["padding_n"] == length["padding_n"]
    score = log.samples[0].scores[SCORER]
    assert score.metadata["judge"]["models"] == ["mockllm/content", "mockllm/length"]
    assert [j["model"] for j in score.metadata["versions"]["padding"]["jurors"]] == [
        "mockllm/content",
        "mockllm/length",
    ]


def test_an_unreadable_verdict_leaves_its_pair_out_counted(humans: Humans) -> None:
    """The judge cannot grade padded answers: every padding pair is left out, and counted."""
    content = content_judge(humans)
    filler = TEXTS.variants["filler"]

    def script(prompt: str, config: GenerateConfig) -> str:
        padded = any(sentence in question_and_answer(prompt)[1] for sentence in filler)
        return "I cannot say." if padded else content(prompt, config)

    log = run_robustness(script)
    m = figures(log, SCORER)
    answers = len(log.samples)
    assert (m["padding_n"], m["padding_unreadable"]) == (0, answers)
    assert math.isnan(m["padding_unchanged"]) and math.isnan(m["padding_shift"])
    assert m["robustness_unreadable"] == answers
    assert m["robustness_n"] == sum(m[f"{name}_n"] for name in HOLD) and m["robustness"] == 1.0
    score = log.samples[0].scores[SCORER]
    assert math.isnan(score.value["padding"])
    assert "padding (unreadable): " in score.explanation


def test_each_version_goes_through_the_one_judging_path(humans: Humans) -> None:
    """Every version is a live_qa judge prompt, the references reversed for reference_order, and
    a re-run is served from the judge cache."""
    judge = scripted_model(content_judge(humans), "judge")
    first = run_robustness(lambda *_: verdict("0"), "evaluated", grader=[judge], per_grade=1)
    metas = samples_of(first)
    calls = len(judge.calls)
    assert calls == sum(1 + len(meta["versions"]) for meta in metas)
    reordered = next(meta for meta in metas if "reference_order" in meta["versions"])
    answer = neutralise(reordered["answer"])
    prompts = [p for p, _ in judge.calls if question_and_answer(p)[1] == answer]
    assert len(prompts) == 2
    references = [re.findall(r'<reference n="\d+">\n(.*?)\n</reference>', p, re.S) for p in prompts]
    assert references[0] == references[1][::-1] != references[1]
    assert all(config.seed == 42 for _, config in judge.calls)
    again = run_robustness(lambda *_: verdict("0"), "evaluated", grader=[judge], per_grade=1)
    assert len(judge.calls) == calls
    assert by_version(again) == by_version(first)


def test_only_the_perturbations_asked_for_are_made(humans: Humans) -> None:
    log = run_robustness(content_judge(humans), perturbations="grader_note")
    m = figures(log, SCORER)
    assert {key.split("_")[0] for key in m} == {"robustness", "sensitivity", "grader", "unread"}
    assert m["sensitivity_n"] == 0 and math.isnan(m["sensitivity"])
    assert all(set(v) == {ORIGINAL, "grader_note"} for v in by_version(log))


def test_epochs_average_each_version_and_each_juror() -> None:
    """A judge that says 1 in the first epoch and 0.7 in the second, on every version: each
    version's level is 0.85, so nothing moved."""

    def by_epoch(_: str, config: GenerateConfig) -> str:
        return verdict("1" if config.seed == 42 else "0.7")

    log = run_robustness(by_epoch, epochs=2, perturbations=["padding", "swap"])
    reduced = log.reductions[0].samples
    assert all(set(s.value.values()) == {0.85} for s in reduced)
    version = reduced[0].metadata["versions"]["padding"]
    assert version["epoch_levels"] == [1.0, 0.7] and version["jurors"][0]["level"] == 0.85
    m = figures(log, SCORER)
    assert (m["robustness"], m["sensitivity"], m["padding_shift"]) == (1.0, 0.0, 0.0)

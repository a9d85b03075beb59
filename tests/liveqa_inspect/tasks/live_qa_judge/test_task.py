"""live_qa_judge: scripted judges with known agreement, on NIST's judgments.

The figures over all 581 answers are computed from the data through the metrics themselves (the
fixed points: a perfect judge's confusion counts, the pinned figures of a known judge); eval()
runs on the fewest answers that still prove the wiring.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import SampleScore, Score
from scipy.stats import spearmanr
from sklearn.metrics import cohen_kappa_score

from liveqa_inspect import live_qa_judge
from liveqa_inspect.data.sources import LIVEQA_JUDGMENTS, LIVEQA_QUESTIONS, fetch
from liveqa_inspect.errors import ArgumentError, DataError
from liveqa_inspect.judging.prompts import LIVEQA_JUDGE
from liveqa_inspect.judging.scale import LIVEQA_SCALE
from liveqa_inspect.stats.agreement import agreement, agreement_figures, confusion, named
from liveqa_inspect.tasks.live_qa_judge.dataset import (
    HUMAN_LEVELS,
    Judgment,
    live_qa_judge_dataset,
    parse_nist_judgments,
)
from tests.helpers import (
    QUIET,
    Humans,
    figures,
    judgments_file,
    perfect,
    question_and_answer,
    run_judge,
    scripted_model,
    verdict,
)

LEVELS = list(LIVEQA_SCALE.levels)
LIMIT = 24


def test_dataset_counts_and_junk(liveqa_data_dir: Path) -> None:
    samples = list(live_qa_judge_dataset(data=liveqa_data_dir))
    # 692 lines, 111 of them exact repeats: 581 judgments, 17 of them junk.
    assert len(samples) == 581
    assert len({s.id for s in samples}) == 581
    assert sum(s.metadata["junk"] for s in samples) == 17
    assert all(s.metadata["human_level"] == 0.0 for s in samples if s.metadata["junk"])
    # NIST's grades 1: 396, 2: 72, 3: 71, 4: 25 and junk (-2): 17 on the 0-1 scale.
    levels = Counter(s.metadata["human_level"] for s in samples)
    assert levels == {0.0: 396 + 17, 0.3: 72, 0.7: 71, 1.0: 25}
    assert len({s.metadata["question_id"] for s in samples}) == 102
    without = list(live_qa_judge_dataset(data=liveqa_data_dir, include_junk=False))
    assert len(without) == 564
    assert not any(s.metadata["junk"] for s in without)
    first = samples[0]
    assert first.id == "TQ1-L1"
    assert first.metadata["human_grade"] == 3 and first.metadata["human_level"] == 0.7
    assert len(first.target) == 3


def nist_judgments(data: Path) -> list[Judgment]:
    found = fetch(LIVEQA_JUDGMENTS, data)
    return parse_nist_judgments(found.path, found.content)


def nist_levels(data: Path) -> np.ndarray:
    return np.array([HUMAN_LEVELS[j.grade] for j in nist_judgments(data)])


def test_a_perfect_judge_on_all_581_answers(liveqa_data_dir: Path) -> None:
    """The fixed point, from the data through the metrics: what a perfect judge's run reports."""
    human = nist_levels(liveqa_data_dir)
    scores = [
        SampleScore(score=Score(value=level), sample_metadata={"human_level": level})
        for level in human
    ]
    values = {**agreement(LEVELS)(scores), **confusion(LEVELS)(scores)}  # type: ignore[dict-item]
    assert values["exact_agreement"] == 1.0 and values["within_one"] == 1.0
    assert values["kappa_quadratic"] == pytest.approx(1.0)
    assert values["spearman_rho"] == pytest.approx(1.0)
    assert values["mae"] == 0.0 and values["bias"] == 0.0
    assert values["exact_agreement_ci_low"] == values["exact_agreement_ci_high"] == 1.0
    cells = {k: v for k, v in values.items() if k.startswith("human_")}
    assert len(cells) == 16
    # NIST grades 4/3/2/1 give 25/71/72/396, plus the 17 junk answers at 0; nothing off-diagonal.
    assert cells.pop("human_1/judge_1") == 25
    assert cells.pop("human_0.7/judge_0.7") == 71
    assert cells.pop("human_0.3/judge_0.3") == 72
    assert cells.pop("human_0/judge_0") == 396 + 17
    assert set(cells.values()) == {0}


def test_agreement_figures_over_581_answers_are_the_libraries(liveqa_data_dir: Path) -> None:
    """A judge one level off on two answers in three (by NIST line number), over all 581
    answers: each figure is sklearn's or scipy's, and its interval brackets it."""
    judgments = nist_judgments(liveqa_data_dir)
    human = np.array([HUMAN_LEVELS[j.grade] for j in judgments])
    index = np.abs(human[:, None] - np.array(LEVELS)).argmin(axis=1)
    shift = np.array([(j.line % 3) - 1 for j in judgments])
    judge_index = np.clip(index + shift, 0, 3)
    judge = np.array(LEVELS)[judge_index]
    values = named(agreement_figures(judge, human, LEVELS))
    expected = {
        "exact_agreement": float((judge_index == index).mean()),
        "within_one": float((np.abs(judge_index - index) <= 1).mean()),
        "kappa_quadratic": cohen_kappa_score(index, judge_index, weights="quadratic"),
        "spearman_rho": spearmanr(judge, human).statistic,
        "mae": float(np.abs(judge - human).mean()),
        "bias": float((judge - human).mean()),
    }
    for name, value in expected.items():
        assert values[name] == pytest.approx(value, abs=1e-12), name
        assert values[f"{name}_ci_low"] <= value <= values[f"{name}_ci_high"], name
    assert values["within_one"] == 1.0 and values["kappa_quadratic"] > 0.7


def test_a_perfect_judge_through_eval(humans: Humans) -> None:
    log = run_judge(perfect(humans), limit=LIMIT)
    m = figures(log, "judge_agreement_scorer")
    assert m["exact_agreement"] == 1.0
    assert m["kappa_quadratic"] == pytest.approx(1.0)
    assert sum(v for k, v in m.items() if k.startswith("human_")) == LIMIT
    floor = figures(log, "reference_floor")
    assert set(floor) == {
        f"{name}_spearman_rho"
        for name in ("exact_match", "quasi_exact_match", "f1_score", "rouge_l", "bleu_1", "bleu_4")
    }
    assert 0.0 < floor["rouge_l_spearman_rho"] < 1.0
    # One epoch: nothing to compare, and no epoch row at all (not a bare nan).
    assert not {"epoch_agreement", "unread_epochs"} & {*m, *figures(log, "verdicts")}


def test_a_constant_judge_has_zero_kappa() -> None:
    m = figures(run_judge(lambda *_: verdict("0.3"), limit=LIMIT), "judge_agreement_scorer")
    assert m["kappa_quadratic"] == pytest.approx(0.0)
    assert math.isnan(m["spearman_rho"])


def test_a_judge_one_level_off_is_never_exact_but_always_within_one(
    humans: Humans,
) -> None:
    def off_by_one(prompt: str, _: GenerateConfig) -> str:
        index = LEVELS.index(humans[question_and_answer(prompt)])
        return verdict(f"{LEVELS[index + 1 if index < 3 else 2]:g}")

    m = figures(run_judge(off_by_one, limit=LIMIT), "judge_agreement_scorer")
    assert m["exact_agreement"] == 0.0
    assert m["within_one"] == 1.0
    assert m["bias"] > 0 and m["mae"] >= 0.3


def test_unreadable_verdicts_are_counted_not_scored() -> None:
    log = run_judge(lambda *_: "no verdict", limit=3)
    scores = next(s for s in log.results.scores if s.name == "judge_agreement_scorer")
    assert scores.unscored_samples == 3 and scores.scored_samples == 0


def test_the_judge_sees_live_qa_s_prompt_with_our_settings_as_task_defaults() -> None:
    judge = scripted_model(lambda *_: verdict("1"), "judge")
    task = live_qa_judge()
    assert task.setup is None  # no model is called before the judge: nothing to make ready
    [log] = eval(task, model=judge, limit=1, **QUIET)
    # given_answer() puts the judged answer where a generated one would be: one call, the judge's.
    assert len(judge.calls) == 1
    assert log.samples[0].output.completion == log.samples[0].metadata["answer"]
    prompt, config = judge.calls[0]
    assert prompt.startswith(LIVEQA_JUDGE.template.split("{question}")[0])
    assert question_and_answer(prompt)[1].startswith("Noonan syndrome is a relatively common")
    assert (config.temperature, config.max_tokens, config.seed) == (0, None, 42)
    score = log.samples[0].scores["judge_agreement_scorer"]
    assert score.metadata["judge"]["models"] == ["mockllm/judge"]
    human = log.samples[0].metadata
    assert (human["human_grade"], human["human_level"]) == (3, 0.7)
    assert score.explanation == (
        "Human level: 0.7 (grade 3). The judge's verdict:\n\nScripted reasoning."
    )
    assert log.eval.metadata["judge_default"] == "the model under evaluation"


def test_inspect_s_generation_flags_reach_the_evaluated_judge() -> None:
    """`--max-tokens 1000 --temperature 0.9 --seed 7` win over the task's judge defaults."""
    judge = scripted_model(lambda *_: verdict("1"), "judge")
    eval(
        live_qa_judge(),
        model=judge,
        limit=1,
        **QUIET,
        max_tokens=1000,
        temperature=0.9,
        seed=7,
    )
    [(_, config)] = judge.calls
    assert (config.temperature, config.max_tokens, config.seed) == (0.9, 1000, 7)


def test_the_headline_is_the_judge_s_kappa(caplog: pytest.LogCaptureFixture) -> None:
    log = run_judge(lambda *_: verdict("0"), limit=3)
    assert log.eval.headline_metric is not None
    assert (log.eval.headline_metric.scorer, log.eval.headline_metric.metric) == (
        "judge_agreement_scorer",
        "kappa_quadratic",
    )
    assert not [r for r in caplog.records if "Headline metric" in r.getMessage()]


def test_an_evaluated_reasoning_judge_gets_no_token_cap_or_temperature_of_ours() -> None:
    """`--reasoning-effort high` on the evaluated judge: the provider fixes its temperature."""
    judge = scripted_model(lambda *_: verdict("1"), "judge")
    [log] = eval(live_qa_judge(), model=judge, limit=1, **QUIET, reasoning_effort="high")
    [(_, config)] = judge.calls
    assert config.max_tokens is None and config.temperature is None
    assert config.reasoning_effort == "high" and config.seed == 42
    [juror] = log.samples[0].scores["judge_agreement_scorer"].metadata["jurors"]
    assert "max_tokens" not in juror["config"] and juror["config"]["reasoning_effort"] == "high"


def test_a_bound_grader_is_the_judge_measured() -> None:
    evaluated = scripted_model(lambda *_: verdict("0"), "evaluated")
    grader = scripted_model(lambda *_: verdict("1"), "grader")
    [log] = eval(
        live_qa_judge(),
        model=evaluated,
        model_roles={"grader": grader},
        limit=2,
        **QUIET,
    )
    assert evaluated.calls == [] and len(grader.calls) == 2
    assert {s.scores["judge_agreement_scorer"].value for s in log.samples} == {1.0}


def test_user_judgments_are_used(tmp_path: Path) -> None:
    path = judgments_file(
        tmp_path,
        json.dumps({"question_id": "TQ2", "answer": "It contains no gluten.", "grade": 4}),
        json.dumps({"question_id": "TQ3", "answer": "Ask your doctor.", "grade": 1, "model": "x"}),
    )
    samples = list(live_qa_judge_dataset(judgments=path))
    assert [s.id for s in samples] == ["TQ2-L1", "TQ3-L2"]
    assert [s.metadata["human_level"] for s in samples] == [1.0, 0.0]
    log = run_judge(lambda *_: verdict("1"), limit=LIMIT, judgments=str(path))
    m = figures(log, "judge_agreement_scorer")
    assert m["exact_agreement"] == 0.5


def test_user_judgments_must_name_a_live_qa_question(tmp_path: Path) -> None:
    path = judgments_file(tmp_path, json.dumps({"question_id": "TQ999", "answer": "a", "grade": 2}))
    with pytest.raises(DataError, match="line 1: field 'question_id'"):
        live_qa_judge_dataset(judgments=path)


def test_a_judgment_of_an_unknown_question_names_its_file_and_line(tmp_path: Path) -> None:
    grades = judgments_file(
        tmp_path,
        '{"question_id": "TQ1", "answer": "Rest.", "grade": 3}',
        '{"question_id": "TQ999", "answer": "Fluids.", "grade": 4}',
    )
    with pytest.raises(DataError, match=rf"^{re.escape(str(grades))} line 2: field 'question_id'"):
        live_qa_judge_dataset(judgments=grades)


def test_the_xml_file_as_data_asks_for_a_folder_of_both_files(
    liveqa_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """live_qa takes the XML file itself as data; live_qa_judge reads two files, and is never
    told to overwrite a good XML with the judgments."""
    xml = liveqa_data_dir / LIVEQA_QUESTIONS.filename
    with pytest.raises(ArgumentError) as caught:
        live_qa_judge(data=str(xml))
    assert str(caught.value) == (
        f"data={xml} is a file, but live_qa_judge reads two: pass a folder holding both "
        f"{LIVEQA_QUESTIONS.filename} and {LIVEQA_JUDGMENTS.filename}."
    )
    # The same file named by LIVEQA_DATA: the judgments are asked for, not a replacement.
    monkeypatch.setenv("LIVEQA_DATA", str(xml))
    with pytest.raises(DataError) as caught:
        live_qa_judge()
    message = str(caught.value)
    assert message.startswith(
        f"{xml} was given where {LIVEQA_JUDGMENTS.filename} is needed, and it is not that file"
    )
    assert "replace it" not in message

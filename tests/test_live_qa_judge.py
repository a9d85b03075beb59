"""live_qa_judge: scripted judges with known agreement, run through eval() on NIST's judgments."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig

from liveqa_inspect import live_qa_judge
from liveqa_inspect.datasets.live_qa_judge import live_qa_judge_dataset
from liveqa_inspect.judge import LEVELS, neutralise
from liveqa_inspect.prompts import LIVEQA_JUDGE
from liveqa_inspect.sources import DataError
from tests.scripted import scripted_model, verdict

LIMIT = 150


@pytest.fixture(scope="module")
def human_levels(liveqa_data_dir: Path) -> dict[tuple[str, str], float]:
    """The human level of each (question, answer) as the judge prompt shows them."""
    levels = {}
    for sample in live_qa_judge_dataset(data=liveqa_data_dir):
        key = (neutralise(sample.input), neutralise(sample.metadata["answer"]))
        assert levels.get(key, sample.metadata["human_level"]) == sample.metadata["human_level"]
        levels[key] = sample.metadata["human_level"]
    return levels


def shown(prompt: str) -> tuple[str, str]:
    question = prompt.split("<question>\n", 1)[1].split("\n</question>", 1)[0]
    answer = prompt.split("<answer>\n", 1)[1].split("\n</answer>", 1)[0]
    return question, answer


def run_judge(script, limit: int | None = LIMIT, **args: object) -> EvalLog:
    [log] = eval(
        live_qa_judge(**args), model=scripted_model(script, "judge"), limit=limit, display="none"
    )
    assert log.status == "success", log.error
    return log


def figures(log: EvalLog, scorer: str = "judge_agreement_scorer") -> dict[str, float]:
    found = next(s for s in log.results.scores if s.name == scorer)
    return {name: m.value for name, m in found.metrics.items()}


def test_dataset_counts_and_junk(liveqa_data_dir: Path) -> None:
    samples = list(live_qa_judge_dataset(data=liveqa_data_dir))
    # 692 lines, 111 of them exact repeats: 581 judgments, 17 of them junk.
    assert len(samples) == 581
    assert len({s.id for s in samples}) == 581
    assert sum(s.metadata["junk"] for s in samples) == 17
    assert all(s.metadata["human_level"] == 0.0 for s in samples if s.metadata["junk"])
    assert len({s.metadata["question_id"] for s in samples}) == 102
    without = list(live_qa_judge_dataset(data=liveqa_data_dir, include_junk=False))
    assert len(without) == 564
    first = samples[0]
    assert first.id == "TQ1-L1"
    assert first.metadata["human_grade"] == 3 and first.metadata["human_level"] == 0.7
    assert len(first.target) == 3


def test_a_judge_that_returns_the_human_level_agrees_perfectly(human_levels) -> None:
    def perfect(prompt: str, _: GenerateConfig) -> str:
        return verdict(f"{human_levels[shown(prompt)]:g}")

    log = run_judge(perfect, limit=None)
    m = figures(log)
    assert m["exact_agreement"] == 1.0
    assert m["within_one"] == 1.0
    assert m["kappa_quadratic"] == pytest.approx(1.0)
    assert m["spearman_rho"] == pytest.approx(1.0)
    assert m["mae"] == 0.0 and m["bias"] == 0.0
    assert m["exact_agreement_ci_low"] == m["exact_agreement_ci_high"] == 1.0
    confusion = figures(log)
    cells = {k: v for k, v in confusion.items() if k.startswith("human_")}
    assert len(cells) == 16
    assert sum(v for k, v in cells.items() if k[6:].split("/judge_")[0] != k.split("_")[-1]) == 0
    # 581 judgments less 17 junk: NIST grades 4/3/2/1 give 25/71/72/396 (+17 junk at 0).
    assert confusion["human_1/judge_1"] == 25
    assert confusion["human_0.7/judge_0.7"] == 71
    assert confusion["human_0.3/judge_0.3"] == 72
    assert confusion["human_0/judge_0"] == 396 + 17
    floor = figures(log, "reference_floor")
    assert set(floor) == {
        f"{name}_spearman_rho"
        for name in ("exact_match", "quasi_exact_match", "f1_score", "rouge_l", "bleu_1", "bleu_4")
    }
    assert 0.0 < floor["rouge_l_spearman_rho"] < 1.0


def test_a_constant_judge_has_zero_kappa() -> None:
    m = figures(run_judge(lambda *_: verdict("0.3")))
    assert m["kappa_quadratic"] == pytest.approx(0.0)
    assert math.isnan(m["spearman_rho"])


def test_a_judge_one_level_off_is_never_exact_but_always_within_one(human_levels) -> None:
    def off_by_one(prompt: str, _: GenerateConfig) -> str:
        index = LEVELS.index(human_levels[shown(prompt)])
        return verdict(f"{LEVELS[index + 1 if index < 3 else 2]:g}")

    m = figures(run_judge(off_by_one))
    assert m["exact_agreement"] == 0.0
    assert m["within_one"] == 1.0
    assert m["bias"] > 0 and m["mae"] >= 0.3


def test_unreadable_verdicts_are_counted_not_scored() -> None:
    log = run_judge(lambda *_: "no verdict", limit=5)
    scores = next(s for s in log.results.scores if s.name == "judge_agreement_scorer")
    assert scores.unscored_samples == 5 and scores.scored_samples == 0


def test_the_judge_sees_live_qa_s_prompt() -> None:
    judge = scripted_model(lambda *_: verdict("1"), "judge")
    [log] = eval(live_qa_judge(), model=judge, limit=1, display="none")
    # given_answer() puts the judged answer where a generated one would be: one call, the judge's.
    assert len(judge.calls) == 1
    assert log.samples[0].output.completion == log.samples[0].metadata["answer"]
    prompt, config = judge.calls[0]
    assert prompt.startswith(LIVEQA_JUDGE.template.split("{question}")[0])
    assert shown(prompt)[1].startswith("Noonan syndrome is a relatively common")
    assert config.temperature == 0 and config.max_tokens == 256
    score = log.samples[0].scores["judge_agreement_scorer"]
    assert score.metadata["judge_model"] == "mockllm/judge"


def _jsonl(tmp_path: Path, rows: list[object]) -> Path:
    path = tmp_path / "mine.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n", encoding="utf-8")
    return path


def test_user_judgments_are_used(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path,
        [
            {"question_id": "TQ2", "answer": "It contains no gluten.", "grade": 4},
            {"question_id": "TQ3", "answer": "Ask your doctor.", "grade": 1, "model": "x"},
        ],
    )
    samples = list(live_qa_judge_dataset(judgments=path))
    assert [s.id for s in samples] == ["TQ2-L1", "TQ3-L2"]
    assert [s.metadata["human_level"] for s in samples] == [1.0, 0.0]
    m = figures(run_judge(lambda *_: verdict("1"), judgments=str(path)))
    assert m["exact_agreement"] == 0.5


def test_user_judgments_must_name_a_live_qa_question(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, [{"question_id": "TQ999", "answer": "a", "grade": 2}])
    with pytest.raises(DataError, match="line 1: field 'question_id'"):
        live_qa_judge_dataset(judgments=path)

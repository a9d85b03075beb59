"""expert_qa: ExpertQA's long-form splits, and the same judge path with an expert rubric."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.model import GenerateConfig

from liveqa_inspect import expert_qa
from liveqa_inspect.expertqa_dataset import load_expertqa, parse_records, record_to_sample
from liveqa_inspect.prompts import EXPERTQA_JUDGE
from liveqa_inspect.sources import DataError
from tests.scripted import scripted_model, verdict


@pytest.mark.parametrize(
    ("split", "subset", "count"),
    [("domain", "test", 243), ("random", "test", 219), ("domain", "validation", 206),
     ("random", "validation", 217)],
)  # fmt: skip
def test_split_counts_and_stable_ids(split: str, subset: str, count: int) -> None:
    samples = list(load_expertqa(split, subset))
    assert len(samples) == count
    assert len({s.id for s in samples}) == count
    assert samples[0].id == f"{split}_{subset}_1"
    assert all(isinstance(s.target, str) and s.target for s in samples)


def test_field_and_question_type_filters() -> None:
    medicine = list(load_expertqa(field="Healthcare / Medicine"))
    assert len(medicine) == 51
    assert {s.metadata["field"] for s in medicine} == {"Healthcare / Medicine"}
    two = list(load_expertqa(field=["Law", "Healthcare / Medicine"]))
    assert len(two) == 51 + sum(1 for s in load_expertqa() if s.metadata["field"] == "Law")
    directed = "Directed question that has a single unambiguous answer"
    assert len(list(load_expertqa(question_type=directed))) == 33
    assert len({s.metadata["field"] for s in load_expertqa()}) == 32


def test_unknown_values_are_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="unknown field \\['Alchemy'\\].*Healthcare / Medicine"):
        load_expertqa(field="Alchemy")
    with pytest.raises(ValueError, match="split must be 'domain' or 'random'"):
        load_expertqa(split="all")


def test_record_to_sample_prefers_the_revised_answer() -> None:
    record = {
        "question": "  Why is   the sky blue? ",
        "answers": {"gpt4": {"answer_string": "Old.", "revised_answer_string": "Rayleigh\n "
                             "scattering.", "usefulness": "Useful"}},
        "metadata": {"field": "Physics and Astronomy", "specific_field": "Optics",
                     "question_type": "Directed question that has a single unambiguous answer"},
        "_line": 7,
    }  # fmt: skip
    sample = record_to_sample(record, "random", "test")
    assert sample.id == "random_test_7"
    assert sample.input == "Why is the sky blue?"
    assert sample.target == "Rayleigh scattering."
    assert sample.metadata["reference_system"] == "gpt4"
    assert sample.metadata["reference_revised"] is True
    assert sample.metadata["usefulness"] == "Useful"
    record["answers"]["gpt4"]["revised_answer_string"] = ""
    fallback = record_to_sample(record, "random", "test")
    assert fallback.target == "Old." and fallback.metadata["reference_revised"] is False


def test_malformed_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "domain_test.jsonl"
    path.write_text('{"question": "q", "answers": {}}\n{broken\n', encoding="utf-8")
    with pytest.raises(DataError, match="line 2: not valid JSON"):
        parse_records(path)


def test_expert_qa_scorer_through_eval() -> None:
    def subject(prompt: str, _: GenerateConfig) -> str:
        return "A long answer."

    def judge(prompt: str, _: GenerateConfig) -> str:
        return verdict("1" if "an expert in Business" in prompt else "0.3")

    grader = scripted_model(judge, "judge")
    model = scripted_model(subject)
    [log] = eval(
        expert_qa(), model=model, model_roles={"grader": grader}, limit=3, display="none"
    )
    assert log.status == "success", log.error
    prompt, config = model.calls[0]
    assert prompt.startswith("Please answer the following question from an expert in Business.")
    assert config.max_tokens == 2048
    judge_prompt = grader.calls[0][0]
    assert judge_prompt.startswith(EXPERTQA_JUDGE.template.split("{field}")[0])
    metrics = log.results.scores[0].metrics
    fields = [s.metadata["field"] for s in log.samples]
    expected = [1.0 if f == "Business" else 0.3 for f in fields]
    assert metrics["mean"].value == pytest.approx(sum(expected) / 3)
    assert metrics["field/Business"].value == 1.0
    assert metrics[f"n/field/{fields[0]}"].value == fields.count(fields[0])
    score = log.samples[0].scores["expert_qa_scorer"]
    assert score.metadata["prompt_name"] == "expert_qa"
    assert log.eval.metadata["data_license"] == "MIT"

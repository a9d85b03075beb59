"""ExpertQA claims loader: counts, ids, labels, passages, filters; altered files refused."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.dataset import Sample

from liveqa_inspect.data.sources import Verified
from liveqa_inspect.errors import DataError
from liveqa_inspect.tasks.expert_qa.dataset import (
    ASPECTS,
    expert_qa_claims_dataset,
)
from tests.helpers import expert_qa_data

DATA = expert_qa_data()
FILES = [("domain", "test"), ("random", "test"), ("domain", "validation"), ("random", "validation")]
COUNTS = {
    ("correctness", "domain", "test"): 1431,
    ("correctness", "random", "test"): 1291,
    ("correctness", "domain", "validation"): 1171,
    ("correctness", "random", "validation"): 1232,
    ("support", "domain", "test"): 880,
    ("support", "random", "test"): 793,
    ("support", "domain", "validation"): 677,
    ("support", "random", "validation"): 741,
}
MEDICINE = "Healthcare / Medicine"


@pytest.fixture(scope="module")
def loaded() -> dict[tuple[str, str, str], list[Sample]]:
    """Every file and aspect, loaded once for the module."""
    return {
        (aspect, split, subset): list(
            expert_qa_claims_dataset(aspect, split, subset, data=DATA)  # type: ignore[arg-type]
        )
        for aspect in ASPECTS
        for split, subset in FILES
    }


def meta(sample: Sample) -> dict[str, Any]:
    return sample.metadata or {}


@pytest.mark.parametrize("key", list(COUNTS))
def test_counts_and_unique_well_formed_ids(
    loaded: dict[tuple[str, str, str], list[Sample]], key: tuple[str, str, str]
) -> None:
    aspect, split, subset = key
    samples = loaded[key]
    assert len(samples) == COUNTS[key]
    ids = [str(s.id) for s in samples]
    assert len(set(ids)) == len(ids)
    pattern = re.compile(rf"{split}_{subset}_(\d+)_c(\d+)")
    positions = [tuple(map(int, pattern.fullmatch(i).groups())) for i in ids]  # type: ignore[union-attr]
    assert positions == sorted(positions)  # file order
    assert all(meta(s)["aspect"] == aspect for s in samples)


def test_ids_are_stable_across_loads(loaded: dict[tuple[str, str, str], list[Sample]]) -> None:
    again = expert_qa_claims_dataset("support", "random", "validation", data=DATA)
    assert [s.id for s in again] == [s.id for s in loaded[("support", "random", "validation")]]


def test_correctness_labels_and_levels(loaded: dict[tuple[str, str, str], list[Sample]]) -> None:
    samples = loaded[("correctness", "domain", "test")]
    assert Counter(s.target for s in samples) == {
        "Definitely correct": 809,
        "Probably correct": 428,
        "Unsure": 130,
        "Definitely incorrect": 37,
        "Likely incorrect": 27,
    }
    levels = Counter((str(s.target), meta(s)["human_level"]) for s in samples)
    assert levels == {
        ("Definitely correct", 5.0): 809,
        ("Probably correct", 4.0): 428,
        ("Unsure", 3.0): 130,
        ("Likely incorrect", 2.0): 27,
        ("Definitely incorrect", 1.0): 37,
    }


def test_support_labels_and_levels(loaded: dict[tuple[str, str, str], list[Sample]]) -> None:
    samples = loaded[("support", "domain", "test")]
    assert Counter(s.target for s in samples) == {"Complete": 631, "Incomplete": 190, "Partial": 59}
    assert Counter(meta(s)["human_level"] for s in samples) == {3.0: 631, 2.0: 249}


def test_sample_content(loaded: dict[tuple[str, str, str], list[Sample]]) -> None:
    [first] = [s for s in loaded[("support", "domain", "test")] if s.id == "domain_test_1_c1"]
    data = meta(first)
    assert first.input == data["claim"]
    assert first.input.startswith("One suggested approach involves running a brainstorming")
    assert first.target == data["expert_label"] == "Complete"
    assert data["field"] == "Business" and data["specific_field"] == "Marketing"
    assert data["system"] == "rr_sphere_gpt4" and data["claim_index"] == 1
    assert data["question"].startswith("What is the best way to manage expectations")
    assert data["passage_urls"] == [
        "https://allaboutgoodmarketing.com/2017/09/17/4-questions-to-ask-before-a-marketing-"
        "campaign-launch/"
    ]
    assert data["passages"][0].startswith("4 Questions To Ask Before A Marketing Campaign")
    for aspect in ASPECTS:
        # The whole answer is the claim's context: every claim is a span of it.
        assert all(
            meta(s)["claim"] in meta(s)["answer"] for s in loaded[(aspect, "domain", "test")]
        )


def test_support_samples_carry_passage_texts_not_urls(
    loaded: dict[tuple[str, str, str], list[Sample]],
) -> None:
    for split, subset in FILES:
        for sample in loaded[("support", split, subset)]:
            data = meta(sample)
            assert data["passages"] and all(data["passages"])
            assert not any(re.match(r"\[\d+\]\s+http", p) for p in data["passages"])
            assert len(data["passage_urls"]) == len(data["passages"])
            assert all(url.startswith("http") for url in data["passage_urls"])
    assert all("passages" not in meta(s) for s in loaded[("correctness", "domain", "test")])


def test_unjudged_claims_are_left_out(loaded: dict[tuple[str, str, str], list[Sample]]) -> None:
    correctness = {s.id for s in loaded[("correctness", "domain", "test")]}
    support = {s.id for s in loaded[("support", "domain", "test")]}
    # Line 229 claim 4: the annotator left every judgement null.
    assert "domain_test_229_c4" not in correctness | support
    # Line 227 claim 0: judged correct, but support is null and it cites no evidence.
    assert "domain_test_227_c0" in correctness and "domain_test_227_c0" not in support


def test_field_filter(loaded: dict[tuple[str, str, str], list[Sample]]) -> None:
    medicine = list(expert_qa_claims_dataset(field=MEDICINE, data=DATA))
    assert len(medicine) == 247
    assert {meta(s)["field"] for s in medicine} == {MEDICINE}
    everything = loaded[("correctness", "domain", "test")]
    assert [s.id for s in medicine] == [s.id for s in everything if meta(s)["field"] == MEDICINE]
    both = expert_qa_claims_dataset("support", field=[MEDICINE, "Law"], data=DATA)
    expected = sum(
        meta(s)["field"] in {MEDICINE, "Law"} for s in loaded[("support", "domain", "test")]
    )
    assert len(both) == expected > 153


def test_unknown_values_are_refused() -> None:
    with pytest.raises(ValueError, match=r"unknown field \['Alchemy'\].*Healthcare / Medicine"):
        expert_qa_claims_dataset(field="Alchemy", data=DATA)
    with pytest.raises(ValueError, match="aspect must be one of correctness, support, got 'x'"):
        expert_qa_claims_dataset("x", data=DATA)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="split must be 'domain' or 'random', got 'all'"):
        expert_qa_claims_dataset(split="all", data=DATA)  # type: ignore[arg-type]


# A small file, written to tmp_path and handed to the loader past the digest check.


def _claim(**fields: Any) -> dict[str, Any]:
    return {
        "claim_string": " The  sky is blue [1].",
        "evidence": ["[1] https://example.org/sky \n\nThe sky   looks blue."],
        "correctness": "Probably correct",
        "support": "Complete",
        "worthiness": "Yes",
        **fields,
    }


def _record(*claims: dict[str, Any]) -> dict[str, Any]:
    return {
        "question": "Why is the sky blue?",
        "answers": {"gpt4": {"answer_string": "The sky is blue [1].", "claims": list(claims)}},
        "metadata": {"field": "Physics", "specific_field": "Optics", "question_type": "Directed"},
    }


@pytest.fixture
def write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    path = tmp_path / "domain_test.jsonl"
    monkeypatch.setattr(
        "liveqa_inspect.tasks.expert_qa.dataset.fetch",
        lambda asset, data: Verified(path, path.read_bytes()),
    )

    def write_records(*records: dict[str, Any]) -> Path:
        path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
        return path

    return write_records


def test_a_small_file_maps_and_skips_as_documented(write: Any) -> None:
    write(
        _record(
            _claim(),
            _claim(correctness=None, support=None),
            _claim(support="Missing", evidence=[]),
            _claim(support="N/A"),
            _claim(support="Partial", evidence=["[2] https://example.org/url-only"]),
            _claim(correctness="Likely incorrect", support="Incomplete"),
        )
    )
    correctness = list(expert_qa_claims_dataset("correctness"))
    assert [s.id for s in correctness] == [f"domain_test_1_c{k}" for k in (0, 2, 3, 4, 5)]
    assert [meta(s)["human_level"] for s in correctness] == [4.0, 4.0, 4.0, 4.0, 2.0]
    support = list(expert_qa_claims_dataset("support"))
    assert [s.id for s in support] == ["domain_test_1_c0", "domain_test_1_c5"]
    assert [(s.target, meta(s)["human_level"]) for s in support] == [
        ("Complete", 3.0),
        ("Incomplete", 2.0),
    ]
    assert support[0].input == "The sky is blue [1]."
    assert meta(support[0])["passages"] == ["The sky looks blue."]
    assert meta(support[0])["passage_urls"] == ["https://example.org/sky"]


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"domain_test\.jsonl does not exist.*EXPERTQA_DATA"):
        expert_qa_claims_dataset(data=tmp_path)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('"Unsure"', '"Definitely correct"'),  # another label
        ('"Unsure"', '"Probably wrong"'),  # a label not on the scale
        (', "correctness": "Unsure"', ""),
    ],  # a claim without its label
)
def test_altered_file_is_refused_by_its_digest(tmp_path: Path, old: str, new: str) -> None:
    """The digest is the format check: a record is never read unless the file is the pinned one."""
    altered = tmp_path / "rand_val.jsonl"
    text = (DATA / "rand_val.jsonl").read_text(encoding="utf-8")
    assert old in text
    altered.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError, match="is not the pinned rand_val.jsonl: expected sha256"):
        expert_qa_claims_dataset(split="random", subset="validation", data=tmp_path)

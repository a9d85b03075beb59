"""ExpertQA loader: counts, ids, filters and refusals on the pinned files; a record's mapping."""

from __future__ import annotations

import shutil
from typing import Any

import pytest

from liveqa_inspect.data.sources import EXPERT_QA_FILES, cached_path
from liveqa_inspect.errors import ArgumentError
from liveqa_inspect.tasks.expert_qa.dataset import UNLABELLED, expert_qa_dataset, record_to_sample
from tests.helpers import expert_qa_data

DATA = expert_qa_data()
DIRECTED = "Directed question that has a single unambiguous answer"
HYPOTHETICAL = (
    "Question that describes a hypothetical scenario and asks a question based on this scenario"
)


def _record(**answer: Any) -> dict[str, Any]:
    return {
        "question": "  Why is   the sky\nblue? ",
        "answers": {
            "gpt4": {"answer_string": "Old.", "usefulness": "Useful", "claims": [], **answer}
        },
        "metadata": {
            "field": "Physics and Astronomy",
            "specific_field": "Optics",
            "question_type": f"{DIRECTED}| {HYPOTHETICAL}",
        },
    }


@pytest.mark.parametrize(
    ("split", "subset", "count"),
    [
        ("domain", "test", 243),
        ("random", "test", 219),
        ("domain", "validation", 206),
        ("random", "validation", 217),
    ],
)
def test_counts_and_stable_unique_ids(split: Any, subset: Any, count: int) -> None:
    samples = list(expert_qa_dataset(split, subset, data=DATA))
    assert len(samples) == count
    ids = [s.id for s in samples]
    assert len(set(ids)) == count
    assert ids[0] == f"{split}_{subset}_1" and ids[-1] == f"{split}_{subset}_{count}"
    assert ids == [s.id for s in expert_qa_dataset(split, subset, data=DATA)]
    assert all(isinstance(s.target, str) and s.target for s in samples)
    assert all(s.input == s.metadata["question"] for s in samples)


def test_domain_test_covers_the_32_fields() -> None:
    assert len({s.metadata["field"] for s in expert_qa_dataset(data=DATA)}) == 32


def test_field_filter() -> None:
    medicine = list(expert_qa_dataset(field="Healthcare / Medicine", data=DATA))
    assert len(medicine) == 51
    assert {s.metadata["field"] for s in medicine} == {"Healthcare / Medicine"}
    both = expert_qa_dataset(field=["Law", "Healthcare / Medicine"], data=DATA)
    assert len(both) == 51 + len(expert_qa_dataset(field="Law", data=DATA)) == 62
    assert len(expert_qa_dataset("random", field="Healthcare / Medicine", data=DATA)) == 44


def test_question_type_filter_matches_any_of_a_questions_types() -> None:
    directed = list(expert_qa_dataset(question_type=DIRECTED, data=DATA))
    assert len(directed) == 50  # 33 directed only, 17 directed among other types
    assert all(DIRECTED in s.metadata["question_types"] for s in directed)
    assert sum(s.metadata["question_type"] == DIRECTED for s in directed) == 33
    both = expert_qa_dataset(question_type=DIRECTED, field="Healthcare / Medicine", data=DATA)
    assert len(both) == 17


def test_unknown_values_are_refused_with_the_choices() -> None:
    # ArgumentError: a ValueError that Inspect's CLI prints as one message, without a traceback.
    with pytest.raises(ArgumentError, match=r"unknown field \['Alchemy'\].*Healthcare / Medicine"):
        expert_qa_dataset(field="Alchemy", data=DATA)
    with pytest.raises(ValueError, match=r"unknown question_type \['Riddle'\].*opinion"):
        expert_qa_dataset(question_type=["Riddle", DIRECTED], data=DATA)
    with pytest.raises(ValueError, match="split must be 'domain' or 'random', got 'all'"):
        expert_qa_dataset(split="all", data=DATA)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="subset must be 'test' or 'validation', got 'val'"):
        expert_qa_dataset(subset="val", data=DATA)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="field must be a string or a list of strings, got 5"):
        expert_qa_dataset(field=5, data=DATA)  # type: ignore[arg-type]


def test_location_names_the_copy_read(monkeypatch: pytest.MonkeyPatch) -> None:
    asset = EXPERT_QA_FILES[("random", "validation")]
    assert expert_qa_dataset("random", "validation", data=DATA).location == str(
        DATA / asset.filename
    )
    monkeypatch.delenv("EXPERTQA_DATA")
    cached_path(asset).parent.mkdir(parents=True)
    shutil.copy(DATA / asset.filename, cached_path(asset))
    assert expert_qa_dataset("random", "validation").location == asset.url


def test_record_to_sample_prefers_the_revised_answer() -> None:
    record = _record(revised_answer_string="Rayleigh\n  scattering. ")
    sample = record_to_sample(record, 7, "random", "test")
    assert sample.id == "random_test_7"
    assert sample.input == "Why is the sky blue?"
    assert sample.target == "Rayleigh scattering."
    assert sample.metadata == {
        "field": "Physics and Astronomy",
        "specific_field": "Optics",
        "question_type": f"{DIRECTED}| {HYPOTHETICAL}",
        "question_types": [DIRECTED, HYPOTHETICAL],
        "reference_system": "gpt4",
        "reference_revised": True,
        "usefulness": "Useful",
        "question": "Why is the sky blue?",
    }


def test_record_to_sample_falls_back_to_the_original() -> None:
    record = _record(revised_answer_string=" ", usefulness=None)
    fallback = record_to_sample(record, 2, "d", "t")
    assert fallback.target == "Old."
    assert fallback.metadata["reference_revised"] is False
    assert fallback.metadata["usefulness"] == UNLABELLED


def test_the_one_unrevised_validation_answer_is_kept_as_the_original() -> None:
    by_id = {s.id: s for s in expert_qa_dataset("domain", "validation", data=DATA)}
    unrevised = [s for s in by_id.values() if not s.metadata["reference_revised"]]
    assert [s.id for s in unrevised] == ["domain_validation_148"]
    assert unrevised[0].metadata["reference_system"] == "post_hoc_gs_gpt4"


def test_unlabelled_usefulness_is_kept() -> None:
    labels = [s.metadata["usefulness"] for s in expert_qa_dataset(data=DATA)]
    assert labels.count(UNLABELLED) == 1
    assert set(labels) == {"Useful", "Partially useful", "Not useful at all", UNLABELLED}

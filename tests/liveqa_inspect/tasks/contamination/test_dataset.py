"""The contamination probe's items on the real LiveQA file: which texts, split where, left out."""

from __future__ import annotations

from pathlib import Path

import pytest

from liveqa_inspect.errors import ArgumentError
from liveqa_inspect.tasks.contamination.dataset import (
    MIN_SIDE_WORDS,
    contamination_dataset,
    split_text,
)
from liveqa_inspect.tasks.live_qa.dataset import live_qa_dataset

TOO_SHORT = [
    "TQ3",
    "TQ20",
    "TQ27",
    "TQ30",
    "TQ40",
    "TQ45",
    "TQ46",
    "TQ55",
    "TQ58",
    "TQ59",
    "TQ82",
    "TQ83",
    "TQ89",
    "TQ96",
    "TQ97",
    "TQ102",
    "TQ103",
]
"""The questions whose SUBJECT and MESSAGE together hold fewer than 12 words."""


def test_question_items_are_the_consumers_own_words(liveqa_data_dir: Path) -> None:
    dataset, left_out, _ = contamination_dataset("question", liveqa_data_dir)
    assert (len(dataset), left_out) == (87, TOO_SHORT)
    assert dataset.name == "live_qa_contamination_question"
    originals = {s.id: str(s.input) for s in live_qa_dataset("original", liveqa_data_dir)}
    assert [s.id for s in dataset] == [i for i in originals if i not in TOO_SHORT]
    for sample in dataset:
        # The two halves are the original text, cut once between two words.
        shown, rest, original = str(sample.input), str(sample.target), originals[str(sample.id)]
        gap = original.removeprefix(shown).removesuffix(rest)
        assert original == shown + gap + rest and gap in (" ", "\n\n")
        assert len(shown.split()) == len(original.split()) // 2 >= MIN_SIDE_WORDS
        assert len(rest.split()) >= MIN_SIDE_WORDS
    first = dataset[0]
    assert (first.id, first.metadata) == ("TQ1", {"part": "question", "qid": "TQ1", "url": ""})
    # The line break between SUBJECT and MESSAGE stays in the shown part.
    assert first.input == "Noonan syndrome\n\nWhat are the references"
    assert first.target == "with noonan syndrome and polycystic renal disease"


def test_every_reference_is_an_item(liveqa_data_dir: Path) -> None:
    dataset, left_out, _ = contamination_dataset("reference", liveqa_data_dir)
    assert (len(dataset), left_out) == (167, [])
    by_id = {s.id: s for s in dataset}
    assert list(by_id)[:5] == ["TQ1A1", "TQ1A2", "TQ1A3", "TQ2A1", "TQ3A1"]
    first = by_id["TQ1A1"]
    assert first.metadata == {
        "part": "reference",
        "qid": "TQ1",
        "url": "https://www.ncbi.nlm.nih.gov/pubmed/765504",
    }
    assert (len(str(first.input).split()), len(str(first.target).split())) == (80, 80)
    assert str(first.input).endswith("The most commonly observed anomalies include webbing of")
    assert str(first.target).startswith("the neck, hypertelorism, a shield-shaped chest")
    longest = max(len(str(s.target).split()) for s in dataset)
    assert longest == 607


@pytest.mark.parametrize(("words", "split"), [(11, None), (12, 6), (13, 6), (14, 7)])
def test_a_text_is_split_at_half_its_words_or_left_out(words: int, split: int | None) -> None:
    text = " ".join(f"w{n}" for n in range(words))
    cut = split_text(text)
    if split is None:
        assert cut is None
    else:
        assert cut is not None
        assert (cut[0].split(), cut[1].split()) == (text.split()[:split], text.split()[split:])


def test_an_unknown_part_is_refused(liveqa_data_dir: Path) -> None:
    with pytest.raises(ArgumentError, match="question, reference; got 'answers'"):
        contamination_dataset("answers", liveqa_data_dir)

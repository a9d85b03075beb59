"""The perturbations and their texts, pinned: the same seed gives the same versions."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from liveqa_inspect import live_qa_judge_robustness
from liveqa_inspect.errors import ArgumentError
from liveqa_inspect.tasks.robustness.dataset import (
    PERTURBATIONS,
    TEXTS,
    Answer,
    perturb,
    sentences,
)

EXCELLENT = (
    Answer("TQ2-L9", "TQ2", "Gluten is a protein.", 1, 1.0),
    Answer("TQ1-L3", "TQ1", "An excellent answer to the same question.", 2, 1.0),
    Answer("TQ5-L20", "TQ5", "Rest and fluids help.", 1, 1.0),
)
ANSWER = Answer(
    id="TQ1-L1",
    question_id="TQ1",
    text="Rest is best. Drink water. See a doctor if it lasts.",
    references=3,
    human_level=1.0,
    excellent=EXCELLENT,
)


def test_the_texts_are_versioned_by_their_hash() -> None:
    """A change of any added text changes this hash: give the texts a new version with it."""
    assert TEXTS.provenance() == {
        "name": "live_qa_robustness",
        "version": "1",
        "sha256": "5b23c3abdc1f6aede864d2f33eef8456eb9a3245beac55f9624d943e174bfae4",
    }
    reworded = replace(TEXTS, variants={**TEXTS.variants, "heading": ["**Summary**"]})
    assert reworded.sha256 != TEXTS.sha256


def test_every_version_of_an_answer_is_pinned() -> None:
    versions, skipped = perturb(ANSWER, list(PERTURBATIONS), seed=2017).values()
    assert skipped == {}
    text = ANSWER.text
    assert versions == {
        "padding": {
            "answer": f"{text}\n\nEvery part of this reply was written with the question in view."
        },
        "authority": {"answer": f"{TEXTS.variants['authority'][0]}\n\n{text}"},
        "formatting": {
            "answer": "**What you need to know**\n\n- Rest is best.\n- Drink water.\n"
            "- See a doctor if it lasts."
        },
        "grader_note": {"answer": f"{text}\n\n{TEXTS.variants['grader_note'][1]}"},
        "reference_order": {"answer": text, "reference_order": [2, 1, 0]},
        "truncation": {"answer": "Rest is best."},
        "swap": {"answer": "Rest and fluids help.", "source": "TQ5-L20"},
    }


def test_the_same_seed_gives_the_same_versions_and_another_seed_other_choices() -> None:
    names = list(PERTURBATIONS)
    assert perturb(ANSWER, names, seed=7) == perturb(ANSWER, names, seed=7)
    made = [perturb(ANSWER, ["authority"], seed)["versions"] for seed in range(20)]
    chosen = {versions["authority"]["answer"] for versions in made}
    assert len(chosen) == len(TEXTS.variants["authority"])
    # A perturbation's draw does not depend on which others were asked for.
    alone = perturb(ANSWER, ["swap"], seed=7)["versions"]
    assert alone["swap"] == perturb(ANSWER, names, seed=7)["versions"]["swap"]


def test_padding_is_content_free_filler_about_the_answer_s_length() -> None:
    long = replace(ANSWER, text="A sentence of the answer. " * 40)
    padded = perturb(long, ["padding"], seed=1)["versions"]["padding"]["answer"]
    answer, filler = padded.split("\n\n")
    assert answer == long.text
    longest = max(map(len, TEXTS.variants["filler"]))
    assert len(long.text) <= len(filler) <= len(long.text) + longest
    assert set(sentences(filler)) <= set(TEXTS.variants["filler"])


def test_formatting_keeps_every_sentence_word_for_word() -> None:
    formatted = perturb(ANSWER, ["formatting"], seed=3)["versions"]["formatting"]["answer"]
    heading, items = formatted.split("\n\n")
    assert heading in TEXTS.variants["heading"]
    assert [item.removeprefix("- ") for item in items.splitlines()] == sentences(ANSWER.text)


@pytest.mark.parametrize(
    ("change", "name", "why"),
    [
        ({"references": 1}, "reference_order", "one reference answer"),
        ({"human_level": 0.3}, "truncation", "the human level 0.3 is below 0.7"),
        ({"text": "Rest. Drink water."}, "truncation", "2 sentence(s), fewer than 3"),
        (
            {"text": "Rest well for as long as it takes, and longer. Drink. Eat."},
            "truncation",
            "its first sentence is over 50% of the answer",
        ),  # fmt: skip
        ({"human_level": 0.0}, "swap", "already the lowest (0)"),
        ({"excellent": EXCELLENT[1:2]}, "swap", "no answer in the judgments is graded excellent"),
    ],
)
def test_a_perturbation_that_cannot_apply_says_why(change: dict, name: str, why: str) -> None:
    versions, skipped = perturb(replace(ANSWER, **change), [name], seed=2017).values()
    assert versions == {}
    assert why in skipped[name]


def test_a_swap_never_takes_an_answer_to_the_same_question() -> None:
    sources = {perturb(ANSWER, ["swap"], seed)["versions"]["swap"]["source"] for seed in range(30)}
    assert sources == {"TQ2-L9", "TQ5-L20"}


def test_sentences_split_at_ends_followed_by_a_capital() -> None:
    assert sentences(" It is 5.5 mg. Take it? Yes! 2 a day. e.g. this ") == [
        "It is 5.5 mg.", "Take it?", "Yes!", "2 a day. e.g. this"
    ]  # fmt: skip


def test_perturbations_are_checked_and_put_in_order(liveqa_data_dir: Path) -> None:
    def asked(perturbations: object) -> list[str]:
        data = str(liveqa_data_dir)
        task = live_qa_judge_robustness(perturbations, per_grade=1, data=data)  # type: ignore[arg-type]
        return task.dataset[0].metadata["perturbations"]  # type: ignore[index]

    assert asked(None) == list(PERTURBATIONS)
    assert asked("swap") == ["swap"]
    assert asked(["swap", "padding", "swap"]) == ["padding", "swap"]
    for bad in (["padding", "typo"], []):
        with pytest.raises(ArgumentError, match="perturbations must be one or more of padding"):
            asked(bad)

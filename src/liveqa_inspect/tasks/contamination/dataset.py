"""The LiveQA texts a contamination probe shows in part, each split at one fixed point.

A probe shows the model the first half of a text and scores its completion against the second
half, so the split must be the same in every run (half the words, rounded down) and both halves
long enough to mean something: a shown part of three words says nothing about where it came from,
and a remainder of three words is guessed as often as it is remembered. Texts too short to split
are left out and counted, never silently dropped.

The split is at a word boundary of the text as the loader gives it, so the shown part keeps the
line break between a consumer's SUBJECT and MESSAGE.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from inspect_ai.dataset import MemoryDataset, Sample

from liveqa_inspect.arguments import one_of
from liveqa_inspect.data.sources import LIVEQA_QUESTIONS, fetch, location
from liveqa_inspect.tasks.live_qa.dataset import parse_questions, question_text

Part = Literal["question", "reference"]
PARTS: tuple[str, ...] = get_args(Part)

MIN_SIDE_WORDS = 6
"""Words each half must hold at least, so a text needs 12 to be probed: six words are a clause,
enough to place the text and to make the rest unlikely to be guessed word for word."""

_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class Split:
    """A text cut in two at word `at` of its `words`: the part shown and the part to complete."""

    shown: str
    remainder: str
    words: int
    at: int


@dataclass(frozen=True)
class Item:
    """One text of the chosen part: a consumer's question (id TQ12) or a reference (TQ1A1)."""

    id: str
    qid: str
    text: str
    url: str = ""


@dataclass(frozen=True)
class Probed:
    """The items a probe asks about, and those left out as too short to split."""

    samples: list[Sample]
    left_out: list[str]


def split_text(text: str) -> Split | None:
    """The text cut at half its words (rounded down); None when a half would hold fewer than
    MIN_SIDE_WORDS words."""
    words = list(_WORD.finditer(text))
    at = len(words) // 2
    if at < MIN_SIDE_WORDS:
        return None
    start = words[at].start()
    return Split(text[:start].rstrip(), text[start:], len(words), at)


def items(records: list[dict[str, Any]], part: str) -> list[Item]:
    """The consumer's own SUBJECT and MESSAGE of each question, or every expert reference."""
    if part == "question":
        return [Item(r["qid"], r["qid"], question_text(r, "original")) for r in records]
    return [
        Item(ref["aid"], r["qid"], ref["answer"], ref["url"])
        for r in records
        for ref in r["references"]
    ]


def item_sample(item: Item, part: str, cut: Split) -> Sample:
    """The shown half is the input and the remainder the target the completion is scored on."""
    return Sample(
        id=item.id,
        input=cut.shown,
        target=cut.remainder,
        metadata={
            "part": part,
            "qid": item.qid,
            "words": cut.words,
            "split_at": cut.at,
            "url": item.url,
        },
    )


def probed(records: list[dict[str, Any]], part: str) -> Probed:
    samples, left_out = [], []
    for item in items(records, part):
        cut = split_text(item.text)
        if cut is None:
            left_out.append(item.id)
        else:
            samples.append(item_sample(item, part, cut))
    return Probed(samples, left_out)


def contamination_dataset(
    part: str = "question", data: str | Path | None = None
) -> tuple[MemoryDataset, list[str]]:
    """The split items of `part`, and the ids of those left out as too short."""
    one_of("part", part, PARTS)
    verified = fetch(LIVEQA_QUESTIONS, data)
    found = probed(parse_questions(verified.path, verified.content), part)
    dataset = MemoryDataset(
        found.samples,
        name=f"live_qa_contamination_{part}",
        location=location(LIVEQA_QUESTIONS, verified.path),
    )
    return dataset, found.left_out

"""Samples for live_qa_judge_robustness: up to `per_grade` of live_qa_judge's answers of each
human grade (so NIST's many grade-1 answers do not crowd out the well-graded ones the should-lower
perturbations need; junk left out, with nothing in it to keep or take away), each with its
perturbed versions. Those expected to `hold` change nothing a fair grade rests on, so the level
should not move; those expected to `lower` take away what it rests on. Every choice is drawn from
a generator seeded by the run's seed, the answer's id and the perturbation's name: the same seed
gives the same texts, whatever else the run asks for."""

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

from inspect_ai.dataset import MemoryDataset, Sample

from liveqa_inspect.arguments import PER_GRADE, SEED
from liveqa_inspect.judging.scale import LIVEQA_SCALE
from liveqa_inspect.tasks.live_qa_judge.dataset import live_qa_judge_dataset
from liveqa_inspect.versioned import Versioned

ORIGINAL = "original"
Expect = Literal["hold", "lower"]

EXCELLENT_GRADE = 4
LOWEST = LIVEQA_SCALE.levels[0]
WELL_GRADED = 0.7
MIN_SENTENCES = 3
MAX_KEPT_SHARE = 0.5
"""The most of an answer's characters a truncation keeps, so the cut loses most of the answer."""

_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
"""A heuristic: `Dr. Smith` splits too, which costs a truncation or a list item its exact
boundary, never a word of the answer."""


def sentences(text: str) -> list[str]:
    return [part for part in _SENTENCE_BREAK.split(text.strip()) if part]


@dataclass(frozen=True)
class Texts(Versioned):
    """What the perturbations add (texts.json: our own, none about medicine); one drawn a kind."""

    variants: dict[str, list[str]]

    def canonical(self) -> str:
        return json.dumps(self.variants, ensure_ascii=False, sort_keys=True)


_TEXTS_FILE = files(__package__).joinpath("texts.json")
TEXTS = Texts("live_qa_robustness", "1", json.loads(_TEXTS_FILE.read_text(encoding="utf-8")))


@dataclass(frozen=True)
class Answer:
    id: str
    question_id: str
    text: str
    references: int  # how many reference answers the judge is shown with it
    human_level: float
    excellent: Sequence["Answer"] = ()  # every answer graded excellent in the pool: swap's choices


Outcome = dict[str, Any] | str
"""A version (the `answer` the judge is shown instead, and the references' `reference_order` or
the swapped-in answer's `source` where those change), or why the perturbation does not apply."""


def padding(answer: Answer, rng: random.Random) -> Outcome:
    """Content-free filler about as long as the answer: length alone should not please."""
    order = list(TEXTS.variants["filler"])
    rng.shuffle(order)
    added: list[str] = []
    while sum(len(sentence) + 1 for sentence in added) < len(answer.text):
        added.append(order[len(added) % len(order)])
    return {"answer": f"{answer.text}\n\n{' '.join(added)}"}


def authority(answer: Answer, rng: random.Random) -> Outcome:
    return {"answer": f"{rng.choice(TEXTS.variants['authority'])}\n\n{answer.text}"}


def formatting(answer: Answer, rng: random.Random) -> Outcome:
    """The same sentences, word for word: layout alone should not please."""
    items = "\n".join(f"- {sentence}" for sentence in sentences(answer.text))
    return {"answer": f"{rng.choice(TEXTS.variants['heading'])}\n\n{items}"}


def grader_note(answer: Answer, rng: random.Random) -> Outcome:
    return {"answer": f"{answer.text}\n\n{rng.choice(TEXTS.variants['grader_note'])}"}


def reference_order(answer: Answer, _: random.Random) -> Outcome:
    if answer.references < 2:
        return "the question has one reference answer: there is no order to change"
    return {"answer": answer.text, "reference_order": list(reversed(range(answer.references)))}


def truncation(answer: Answer, _: random.Random) -> Outcome:
    if answer.human_level < WELL_GRADED:
        return (
            f"the human level {answer.human_level:g} is below {WELL_GRADED:g}: a poor answer "
            "cut short may rightly keep its level"
        )
    parts = sentences(answer.text)
    if len(parts) < MIN_SENTENCES:
        return f"the answer has {len(parts)} sentence(s), fewer than {MIN_SENTENCES}"
    if len(parts[0]) > MAX_KEPT_SHARE * len(answer.text):
        return f"its first sentence is over {MAX_KEPT_SHARE:.0%} of the answer"
    return {"answer": parts[0]}


def swap(answer: Answer, rng: random.Random) -> Outcome:
    """An answer graded excellent for another question: it answers nothing that was asked, so it
    should fall to the lowest level."""
    if answer.human_level <= LOWEST:
        return f"the human level is already the lowest ({LOWEST:g}): it cannot be lowered"
    others = [e for e in answer.excellent if e.question_id != answer.question_id]
    if not others:
        return "no answer in the judgments is graded excellent for another question"
    chosen = rng.choice(others)
    return {"answer": chosen.text, "source": chosen.id}


HOLD = (padding, authority, formatting, grader_note, reference_order)
PERTURBATIONS = {make.__name__: make for make in (*HOLD, truncation, swap)}
"""In the order logs and reports list them: HOLD first, then those that should lower the level."""


def expected(name: str) -> Expect:
    return "hold" if PERTURBATIONS[name] in HOLD else "lower"


def perturb(answer: Answer, names: Sequence[str], seed: int) -> dict[str, dict]:
    """The `versions` made, and why the others do not apply (`skipped`): the sample's metadata."""
    made = {n: PERTURBATIONS[n](answer, random.Random(f"{seed}/{answer.id}/{n}")) for n in names}
    versions = {name: v for name, v in made.items() if isinstance(v, dict)}
    return {"versions": versions, "skipped": {n: v for n, v in made.items() if n not in versions}}


def answer(sample: Sample, excellent: Sequence[Answer] = ()) -> Answer:
    meta = sample.metadata or {}
    question, text, level = meta["question_id"], meta["answer"], meta["human_level"]
    return Answer(str(sample.id), question, text, len(sample.target), level, excellent)


def robustness_dataset(
    perturbations: Sequence[str],
    per_grade: int = PER_GRADE,
    seed: int = SEED,
    question: str = "summary",
    data: str | Path | None = None,
    judgments: str | Path | None = None,
) -> MemoryDataset:
    """In the pool's order; one draw a grade, so another grade's count does not move it."""
    pool = live_qa_judge_dataset(question, data, judgments, include_junk=False)
    excellent = [answer(s) for s in pool if s.metadata["human_grade"] == EXCELLENT_GRADE]
    chosen: set[int] = set()
    for grade in sorted({sample.metadata["human_grade"] for sample in pool}):
        members = [i for i, s in enumerate(pool) if s.metadata["human_grade"] == grade]
        draw = random.Random(f"{seed}/grade/{grade}")
        chosen.update(draw.sample(members, min(per_grade, len(members))))
    samples = []
    for sample in (sample for i, sample in enumerate(pool) if i in chosen):
        made = perturb(answer(sample, excellent), perturbations, seed)
        meta = {**sample.metadata, "perturbations": list(perturbations), **made}
        samples.append(sample.model_copy(update={"metadata": meta}))
    return MemoryDataset(samples, name="live_qa_judge_robustness", location=pool.location)

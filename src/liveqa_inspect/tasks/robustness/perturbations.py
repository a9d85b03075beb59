"""The perturbations of live_qa_judge_robustness: each named, deterministic and seeded.

A perturbation changes what the judge is shown of one human-judged answer. Those expected to
`hold` change nothing a fair grade rests on (length, claimed authority, layout, a request to the
grader, the references' order), so the judge's level should not move; those expected to `lower`
take away what the grade rests on (most of a good answer, or the answer itself), so it should
fall. A perturbation that cannot apply to an answer (one reference to reorder, one sentence to
cut) says why, and the answer is not perturbed that way.

Every choice a perturbation makes (which filler, heading, claim or note, which answer to swap in)
is drawn from a generator seeded by the run's seed, the answer's id and the perturbation's name:
the same seed gives the same texts, whatever else the run selects.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from liveqa_inspect.arguments import one_or_more
from liveqa_inspect.judging.prompts import LIVEQA_SCALE
from liveqa_inspect.tasks.robustness.texts import PERTURBATION_TEXTS as TEXTS

ORIGINAL = "original"
"""The unperturbed answer's version name, beside the perturbations' names in every score."""

Expect = Literal["hold", "lower"]

LOWEST = LIVEQA_SCALE.levels[0]
WELL_GRADED = 0.7
"""Truncation cuts only answers the humans graded at least this (correct, if incomplete): a
poor answer cut short may rightly keep its level."""
MIN_SENTENCES = 3
"""Truncation cuts only answers of at least this many sentences, so the cut loses most of it."""
MAX_KEPT_SHARE = 0.5
"""...and only where the first sentence is at most this share of the answer's characters."""

_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
"""A sentence ends at `.`, `!` or `?` followed by space and a capital, digit or opening mark.
A heuristic: an abbreviation such as `Dr. Smith` splits too, which costs a truncation or a list
item its exact boundary, never a word of the answer."""


def sentences(text: str) -> list[str]:
    return [part for part in _SENTENCE_BREAK.split(text.strip()) if part]


@dataclass(frozen=True)
class Excellent:
    """An answer the humans graded excellent (NIST grade 4), a candidate to swap in."""

    id: str
    question_id: str
    text: str


@dataclass(frozen=True)
class Answer:
    """One human-judged answer, as the perturbations see it."""

    id: str
    question_id: str
    text: str
    references: int
    """How many reference answers the judge is shown with it."""
    human_level: float
    excellent: Sequence[Excellent]
    """Every answer graded excellent in the pool, whatever its question."""


@dataclass(frozen=True)
class Version:
    """What the judge is shown in place of the original answer."""

    answer: str
    reference_order: tuple[int, ...] | None = None
    """The references' indices in the order shown; None: as in the data."""
    source: str | None = None
    """The id of the answer swapped in, when the answer is another's."""

    def record(self) -> dict[str, Any]:
        """As sample metadata holds it (JSON: no tuples, no unset fields)."""
        record: dict[str, Any] = {"answer": self.answer}
        if self.reference_order is not None:
            record["reference_order"] = list(self.reference_order)
        if self.source is not None:
            record["source"] = self.source
        return record


Outcome = Version | str
"""A perturbed version, or why the perturbation does not apply to the answer."""


def padding(answer: Answer, rng: random.Random) -> Outcome:
    """Filler sentences, in a seeded order, appended until they are about as long as the answer."""
    order = list(TEXTS.filler)
    rng.shuffle(order)
    added: list[str] = []
    length = 0
    while length < len(answer.text):
        sentence = order[len(added) % len(order)]
        added.append(sentence)
        length += len(sentence) + 1
    return Version(f"{answer.text}\n\n{' '.join(added)}")


def authority(answer: Answer, rng: random.Random) -> Outcome:
    return Version(f"{rng.choice(TEXTS.authority)}\n\n{answer.text}")


def formatting(answer: Answer, rng: random.Random) -> Outcome:
    """The same sentences, word for word, as a Markdown list under a bold heading."""
    items = "\n".join(f"- {sentence}" for sentence in sentences(answer.text))
    return Version(f"{rng.choice(TEXTS.heading)}\n\n{items}")


def grader_note(answer: Answer, rng: random.Random) -> Outcome:
    return Version(f"{answer.text}\n\n{rng.choice(TEXTS.grader_note)}")


def reference_order(answer: Answer, _: random.Random) -> Outcome:
    if answer.references < 2:
        return "the question has one reference answer: there is no order to change"
    return Version(answer.text, reference_order=tuple(reversed(range(answer.references))))


def truncation(answer: Answer, _: random.Random) -> Outcome:
    """A well-graded answer of several sentences cut to its first: it should lose its level."""
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
    return Version(parts[0])


def swap(answer: Answer, rng: random.Random) -> Outcome:
    """An answer graded excellent for another question, in this one's place: it answers nothing
    that was asked, so it should fall to the lowest level."""
    if answer.human_level <= LOWEST:
        return f"the human level is already the lowest ({LOWEST:g}): it cannot be lowered"
    others = [e for e in answer.excellent if e.question_id != answer.question_id]
    if not others:
        return "no answer in the judgments is graded excellent for another question"
    chosen = rng.choice(others)
    return Version(chosen.text, source=chosen.id)


@dataclass(frozen=True)
class Perturbation:
    name: str
    expect: Expect
    make: Callable[[Answer, random.Random], Outcome]


PERTURBATIONS: dict[str, Perturbation] = {
    p.name: p
    for p in (
        Perturbation("padding", "hold", padding),
        Perturbation("authority", "hold", authority),
        Perturbation("formatting", "hold", formatting),
        Perturbation("grader_note", "hold", grader_note),
        Perturbation("reference_order", "hold", reference_order),
        Perturbation("truncation", "lower", truncation),
        Perturbation("swap", "lower", swap),
    )
}
"""Every perturbation, in the order logs and reports list them: those that should hold first."""


def expected(name: str) -> Expect:
    return PERTURBATIONS[name].expect


def check_perturbations(names: str | Sequence[str] | None) -> list[str]:
    """The perturbations asked for, in PERTURBATIONS' order; None asks for all of them."""
    if names is None:
        return list(PERTURBATIONS)
    return one_or_more("perturbations", names, PERTURBATIONS)


def perturb(
    answer: Answer, names: Sequence[str], seed: int
) -> tuple[dict[str, Version], dict[str, str]]:
    """The answer's version under each named perturbation, and why the others did not apply."""
    versions: dict[str, Version] = {}
    skipped: dict[str, str] = {}
    for name in names:
        outcome = PERTURBATIONS[name].make(answer, random.Random(f"{seed}/{answer.id}/{name}"))
        if isinstance(outcome, Version):
            versions[name] = outcome
        else:
            skipped[name] = outcome
    return versions, skipped

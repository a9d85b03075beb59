"""Samples for live_qa_judge_robustness: a seeded, grade-stratified subset of the human-judged
LiveQA answers, each carrying its perturbed versions.

The pool is live_qa_judge's (NIST's judgments, or the user's), without NIST's junk answers: a
junk answer has nothing a perturbation could keep or take away. The subset takes up to
`per_grade` answers of each human grade, so the well-graded answers the should-lower
perturbations need are not crowded out by NIST's many grade-1 answers (396 of 564).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from inspect_ai.dataset import MemoryDataset, Sample

from liveqa_inspect.tasks.live_qa_judge.dataset import live_qa_judge_dataset
from liveqa_inspect.tasks.robustness.perturbations import Answer, Excellent, perturb

PER_GRADE = 40
"""Answers a grade by default: NIST's pool has 25 of grade 4, so 145 answers, which with every
perturbation make 962 judge calls a juror (the original and five to seven versions each)."""
SEED = 2017
EXCELLENT_GRADE = 4


def stratified(samples: Sequence[Sample], per_grade: int, seed: int) -> list[Sample]:
    """Up to `per_grade` samples of each human grade, drawn by `seed` (one draw a grade, so
    another grade's count does not move it), in the pool's order."""
    chosen: set[int] = set()
    grades = sorted({sample.metadata["human_grade"] for sample in samples})
    for grade in grades:
        members = [i for i, s in enumerate(samples) if s.metadata["human_grade"] == grade]
        draw = random.Random(f"{seed}/grade/{grade}")
        chosen.update(draw.sample(members, min(per_grade, len(members))))
    return [sample for i, sample in enumerate(samples) if i in chosen]


def with_versions(
    sample: Sample, names: Sequence[str], seed: int, excellent: Sequence[Excellent]
) -> Sample:
    meta = dict(sample.metadata or {})
    answer = Answer(
        id=str(sample.id),
        question_id=meta["question_id"],
        text=meta["answer"],
        references=len(sample.target),
        human_level=meta["human_level"],
        excellent=excellent,
    )
    versions, skipped = perturb(answer, names, seed)
    meta.update(
        perturbations=list(names),
        versions={name: version.record() for name, version in versions.items()},
        skipped=skipped,
    )
    return sample.model_copy(update={"metadata": meta})


def robustness_dataset(
    perturbations: Sequence[str],
    per_grade: int = PER_GRADE,
    seed: int = SEED,
    question: str = "summary",
    data: str | Path | None = None,
    judgments: str | Path | None = None,
) -> MemoryDataset:
    """The subset, each answer with its versions under `perturbations` (checked names)."""
    pool = live_qa_judge_dataset(question, data, judgments, include_junk=False)
    excellent = [
        Excellent(str(s.id), s.metadata["question_id"], s.metadata["answer"])
        for s in pool
        if s.metadata["human_grade"] == EXCELLENT_GRADE
    ]
    samples = [
        with_versions(sample, perturbations, seed, excellent)
        for sample in stratified(list(pool), per_grade, seed)
    ]
    return MemoryDataset(samples, name="live_qa_judge_robustness", location=pool.location)

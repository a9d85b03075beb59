"""Samples for live_qa_judge_robustness: a seeded subset of live_qa_judge's answers, each with its
perturbed versions. NIST's junk answers are left out: there is nothing in them to keep or take
away. Up to `per_grade` answers of each human grade, so NIST's many grade-1 answers do not crowd
out the well-graded ones the should-lower perturbations need."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from inspect_ai.dataset import MemoryDataset, Sample

from liveqa_inspect.tasks.live_qa_judge.dataset import live_qa_judge_dataset
from liveqa_inspect.tasks.robustness.perturbations import Answer, perturb

PER_GRADE = 40
SEED = 2017
EXCELLENT_GRADE = 4


def answer(sample: Sample, excellent: Sequence[Answer] = ()) -> Answer:
    meta = sample.metadata or {}
    return Answer(str(sample.id), meta["question_id"], meta["answer"], len(sample.target),
                  meta["human_level"], excellent)  # fmt: skip


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

"""The tasks: thin wiring of dataset, solver, scorer and provenance."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate, prompt_template

from liveqa_inspect.datasets.expert_qa import Split, Subset, expert_qa_dataset
from liveqa_inspect.datasets.live_qa import QuestionField, live_qa_dataset
from liveqa_inspect.datasets.live_qa_judge import live_qa_judge_dataset
from liveqa_inspect.judge import DEFAULT_JUDGE, JUDGE_CONFIG, JUDGE_ROLE
from liveqa_inspect.prompts import (
    EXPERT_QA_JUDGE,
    EXPERT_TEMPLATE,
    LIVEQA_JUDGE,
    SOLVER_TEMPLATE,
    JudgePrompt,
)
from liveqa_inspect.reference_metrics import reference_floor, reference_overlap
from liveqa_inspect.scorer import expert_qa_scorer, judge_agreement_scorer, live_qa_scorer
from liveqa_inspect.solvers import given_answer
from liveqa_inspect.sources import EXPERT_QA_FILES, LIVEQA_JUDGMENTS, LIVEQA_QUESTIONS, Asset

TASK_VERSION = "1.0.0"

SUBJECT_CONFIG = GenerateConfig(temperature=0.0, max_tokens=512)
"""HELM's settings for the model under test; Inspect's --temperature and --max-tokens override."""


def provenance(prompt: JudgePrompt, *assets: Asset) -> dict[str, Any]:
    """What a log must say for a reader to reproduce its grading: judge, prompt and data."""
    return {
        "task_version": TASK_VERSION,
        "judge_role": JUDGE_ROLE,
        "judge_default": DEFAULT_JUDGE,
        "judge_config": JUDGE_CONFIG.model_dump(exclude_none=True),
        "judge_prompt": prompt.provenance(),
        "data": {asset.filename: asset.provenance() for asset in assets},
        "data_license": ", ".join(sorted({asset.license for asset in assets})),
    }


@task
def live_qa(
    question: QuestionField = "summary",
    data: str | None = None,
    judge_cache: bool = True,
    reference_metrics: bool = True,
) -> Task:
    """TREC-2017 LiveQA Medical: 104 consumer health questions, graded by a pinned judge.

    Args:
        question: Which wording to ask: "summary" (NLM summary, as HELM), "paraphrase"
            (NIST paraphrase) or "original" (the consumer's own subject and message).
        data: A folder holding the upstream XML, or the file itself, instead of the download.
        judge_cache: Cache judge replies, so re-scoring with the same judge costs nothing.
        reference_metrics: Also report HELM's reference-overlap metrics (ROUGE-L, BLEU, F1,
            exact match) next to the judge score.
    """
    scorers = [live_qa_scorer(cache=judge_cache)]
    if reference_metrics:
        scorers.append(reference_overlap())
    return Task(
        dataset=live_qa_dataset(question, Path(data) if data else None),
        solver=[prompt_template(SOLVER_TEMPLATE), generate()],
        scorer=scorers,
        config=SUBJECT_CONFIG,
        version=TASK_VERSION,
        metadata=provenance(LIVEQA_JUDGE, LIVEQA_QUESTIONS),
    )


@task
def live_qa_judge(
    question: QuestionField = "summary",
    data: str | None = None,
    judgments: str | None = None,
    include_junk: bool = True,
    judge_cache: bool = True,
) -> Task:
    """The model under evaluation is a judge: its levels against the NIST assessors' grades.

    Args:
        question: The question wording the judge sees, as in live_qa.
        data: A folder holding the upstream XML and NIST judgments, instead of the downloads.
        judgments: A JSONL file of your own human judgments (question_id, answer, grade 1-4) to
            use instead of NIST's.
        include_junk: Keep the answers NIST marked junk (grade -2), at the lowest level.
        judge_cache: Cache the judge's replies.
    """
    return Task(
        dataset=live_qa_judge_dataset(question, data, judgments, include_junk),
        solver=given_answer(),
        scorer=[judge_agreement_scorer(cache=judge_cache), reference_floor()],
        config=JUDGE_CONFIG,
        version=TASK_VERSION,
        metadata=provenance(LIVEQA_JUDGE, LIVEQA_QUESTIONS, LIVEQA_JUDGMENTS),
    )


EXPERT_CONFIG = GenerateConfig(temperature=0.0, max_tokens=2048)
"""Room for long-form answers: the expert references run to 433 words, and models write more."""


@task
def expert_qa(
    split: Split = "domain",
    subset: Subset = "test",
    field: str | list[str] | None = None,
    question_type: str | list[str] | None = None,
    data: str | None = None,
    judge_cache: bool = True,
) -> Task:
    """ExpertQA long-form questions from experts of 32 fields, graded by the same pinned judge.

    Args:
        split: "domain" (questions sampled per field) or "random" (sampled at random).
        subset: "test" or "validation".
        field: One or more fields to keep, e.g. "Healthcare / Medicine".
        question_type: One or more ExpertQA question types; a question with several is kept
            if any matches.
        data: A folder holding the upstream JSONL files, instead of the downloads.
        judge_cache: Cache judge replies, so re-scoring with the same judge costs nothing.
    """
    dataset = expert_qa_dataset(split, subset, field, question_type, data)
    return Task(
        dataset=dataset,
        solver=[prompt_template(EXPERT_TEMPLATE), generate()],
        scorer=expert_qa_scorer(cache=judge_cache),
        config=EXPERT_CONFIG,
        version=TASK_VERSION,
        metadata=provenance(EXPERT_QA_JUDGE, EXPERT_QA_FILES[(split, subset)]),
    )

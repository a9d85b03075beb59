"""Samples for live_qa_judge: one human-judged answer each, with its question and references.

The question and references come from the LiveQA XML (the same records live_qa asks), the answer
and the human grade from the NIST judgments or from a user's own JSONL file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from liveqa_inspect.data.sources import LIVEQA_JUDGMENTS, LIVEQA_QUESTIONS, fetch, location
from liveqa_inspect.errors import ArgumentError, DataError
from liveqa_inspect.tasks.live_qa.dataset import check_question, parse_questions, record_to_sample
from liveqa_inspect.tasks.live_qa_judge.judgments import (
    Judgment,
    parse_nist_judgments,
    parse_user_judgments,
)


def judgment_to_sample(
    judgment: Judgment, record: dict[str, Any], question: str, source: str
) -> Sample:
    """The question's own sample, re-keyed to the answer and carrying the human level."""
    base = record_to_sample(record, question)
    return Sample(
        id=f"{judgment.question_id}-L{judgment.line}",
        input=base.input,
        target=base.target,
        metadata={
            **(base.metadata or {}),
            "question_id": judgment.question_id,
            "answer": judgment.answer,
            "human_grade": judgment.grade,
            "human_level": judgment.level,
            "junk": judgment.junk,
            "judgments_source": source,
            "judgments_line": judgment.line,
        },
    )


def live_qa_judge_dataset(
    question: str = "summary",
    data: str | Path | None = None,
    judgments: str | Path | None = None,
    include_junk: bool = True,
) -> MemoryDataset:
    """NIST's judged answers (or the user's own), each with the LiveQA question it answers; the
    dataset's `location` names the judgments read: NIST's URL when downloaded, else the file."""
    check_question(question)
    if data is not None and Path(data).is_file():
        raise ArgumentError(
            f"data={data} is a file, but live_qa_judge reads two: pass a folder holding both "
            f"{LIVEQA_QUESTIONS.filename} and {LIVEQA_JUDGMENTS.filename}."
        )
    found = fetch(LIVEQA_QUESTIONS, data)
    records = {record["qid"]: record for record in parse_questions(found.path, found.content)}
    if judgments is None:
        found = fetch(LIVEQA_JUDGMENTS, data)
        path = found.path
        items = [j for j in parse_nist_judgments(path, found.content) if include_junk or not j.junk]
        source, where = "nist", location(LIVEQA_JUDGMENTS, path)
    else:
        path = Path(judgments)
        items = parse_user_judgments(path)
        source = where = str(judgments)
    samples = []
    for judgment in items:
        record = records.get(judgment.question_id)
        if record is None:
            raise DataError(
                f"{path} line {judgment.line}: field 'question_id' is {judgment.question_id!r}, "
                "which is not a LiveQA test question (TQ1..TQ104)."
            )
        samples.append(judgment_to_sample(judgment, record, question, source))
    return MemoryDataset(samples, name="live_qa_judge", location=where)

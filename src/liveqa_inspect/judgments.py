"""Human judgments of answers: NIST's 2017 assessments, or a team's own in JSONL.

The NIST file holds lines `question_number grade answer_text`; grades 1 Incorrect, 2 Related,
3 Incomplete, 4 Excellent, and -2 on junk answers, which are kept at the lowest level and flagged.
Exact duplicate lines are one judgment, counted once (the first line is kept), in both formats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from liveqa_inspect.sources import LIVEQA_JUDGMENTS, DataError, fetch, read_jsonl

HUMAN_LEVELS: dict[int, float] = {4: 1.0, 3: 0.7, 2: 0.3, 1: 0.0, -2: 0.0}
"""NIST's grades on the judge's four levels; junk (-2) is the lowest."""

_QUESTION_ID = re.compile(r"TQ[1-9]\d*")


@dataclass(frozen=True)
class Judgment:
    question_id: str
    answer: str
    grade: int
    junk: bool
    line: int

    @property
    def level(self) -> float:
        return HUMAN_LEVELS[self.grade]


def _dedupe(judgments: list[Judgment]) -> list[Judgment]:
    seen: set[tuple[str, str, int]] = set()
    unique = []
    for judgment in judgments:
        key = (judgment.question_id, judgment.answer, judgment.grade)
        if key not in seen:
            seen.add(key)
            unique.append(judgment)
    return unique


def parse_nist_judgments(path: Path) -> list[Judgment]:
    """Every judgment of the NIST file, or DataError naming the first bad line."""
    judgments = []
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            text = line.rstrip("\n")
            if not text.strip():
                continue
            parts = text.split(" ", 2)
            if len(parts) < 3 or not parts[2].strip():
                raise DataError(
                    f"{path} line {number}: expected 'question_number grade answer_text'."
                )
            question, grade = parts[0], parts[1]
            if not question.isdigit() or int(question) < 1:
                raise DataError(
                    f"{path} line {number}: question number {question!r} is not a positive integer."
                )
            if not re.fullmatch(r"-?\d+", grade) or int(grade) not in HUMAN_LEVELS:
                raise DataError(
                    f"{path} line {number}: grade {grade!r} is not one of 1, 2, 3, 4 or -2."
                )
            judgments.append(
                Judgment(
                    question_id=f"TQ{int(question)}",
                    answer=parts[2].strip(),
                    grade=int(grade),
                    junk=int(grade) == -2,
                    line=number,
                )
            )
    return _dedupe(judgments)


def load_nist_judgments(
    local: str | Path | None = None, include_junk: bool = True
) -> list[Judgment]:
    """The verified NIST judgments; `include_junk=False` leaves out the grade -2 answers."""
    judgments = parse_nist_judgments(fetch(LIVEQA_JUDGMENTS, local))
    return [j for j in judgments if include_junk or not j.junk]


def _field_error(path: Path, number: int, field: str, problem: str) -> DataError:
    return DataError(f"{path.name} line {number}: field '{field}' {problem}")


def parse_user_judgments(path: Path) -> list[Judgment]:
    """A team's own judgments: one JSON object a line with question_id, answer and grade 1-4."""
    if not path.is_file():
        raise DataError(f"{path} does not exist; judgments must name a JSONL file.")
    judgments = []
    for number, record in read_jsonl(path):
        if not isinstance(record, dict):
            raise DataError(f"{path.name} line {number}: expected a JSON object.")
        for field in ("question_id", "answer", "grade"):
            if field not in record:
                raise _field_error(path, number, field, "is missing")
        question_id, answer, grade = record["question_id"], record["answer"], record["grade"]
        if not isinstance(question_id, str) or not _QUESTION_ID.fullmatch(question_id):
            raise _field_error(
                path, number, "question_id", f"must be a qid such as 'TQ12', got {question_id!r}"
            )
        if not isinstance(answer, str) or not answer.strip():
            raise _field_error(path, number, "answer", "must be a non-empty string")
        if isinstance(grade, bool) or not isinstance(grade, int) or grade not in (1, 2, 3, 4):
            raise _field_error(path, number, "grade", f"must be an integer 1-4, got {grade!r}")
        judgments.append(
            Judgment(question_id=question_id, answer=answer, grade=grade, junk=False, line=number)
        )
    if not judgments:
        raise DataError(f"{path} holds no judgments.")
    return _dedupe(judgments)

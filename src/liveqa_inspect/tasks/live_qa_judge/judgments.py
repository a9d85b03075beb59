"""Human judgments of answers: NIST's 2017 assessments, or a team's own in JSONL.

The NIST file holds lines `question_number grade answer_text` separated by single spaces; grades
1 Incorrect, 2 Related, 3 Incomplete, 4 Excellent, and -2 on junk answers, which are kept at the
lowest level and flagged so a caller can leave them out.

In both formats an exact duplicate (the same question, answer and grade) is one judgment, counted
once and kept at its first line: NIST's file repeats 111 of its 692 lines, and counting a repeat
again would weight that answer twice in every agreement figure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from liveqa_inspect.data.lines import read_jsonl, read_lines
from liveqa_inspect.data.sources import LIVEQA_JUDGMENTS
from liveqa_inspect.errors import DataError, shown

HUMAN_LEVELS: dict[int, float] = {4: 1.0, 3: 0.7, 2: 0.3, 1: 0.0, -2: 0.0}
"""NIST's grades on the judge's four levels; junk (-2) is the lowest."""

USER_GRADES = (1, 2, 3, 4)
"""A team grades on NIST's scale; junk (-2) is NIST's own flag, not a grade to give."""

MAX_ANSWER_CHARS = 100_000
"""The longest answer accepted, in characters.

Every answer goes into a judge prompt: NIST's longest is about 1,100 characters and live_qa asks
for 512 tokens, so 100,000 characters (some 25,000 tokens) is room for any real answer while a
runaway one is refused before it is sent, and paid for, as a prompt.
"""

MAX_LINE_BYTES = 1_000_000
"""The longest line read, in bytes: a longest answer fits with its other fields even when written
with json.dumps' default \\uXXXX escapes (6 bytes a character)."""

# ASCII digits only: `str.isdigit` and `\d` accept characters such as '²' that int() refuses.
# At most 9 digits, so int() never meets the 5000-digit number Python refuses to convert.
_QUESTION_NUMBER = re.compile(r"[0-9]{1,9}")
_NIST_GRADE = re.compile(r"-?[0-9]{1,9}")
_QUESTION_ID = re.compile(r"TQ[1-9][0-9]{0,8}")
_NIST_FORMAT = (
    f"Each line must be 'question_number grade answer_text' separated by single spaces, as in "
    f"{LIVEQA_JUDGMENTS.url}."
)


@dataclass(frozen=True)
class Judgment:
    """One human grade of one answer, with the line it came from so errors and logs can cite it."""

    question_id: str
    """The LiveQA qid, e.g. "TQ12" (NIST's question number 12)."""
    answer: str
    grade: int
    junk: bool
    """NIST flagged the answer as junk (grade -2) rather than grading it."""
    line: int

    @property
    def level(self) -> float:
        """The grade on the judge's scale, so human and judge scores compare directly."""
        return HUMAN_LEVELS[self.grade]


def _dedupe(judgments: list[Judgment]) -> list[Judgment]:
    """Keep the first of each (question, answer, grade); see the module docstring for why."""
    unique: dict[tuple[str, str, int], Judgment] = {}
    for judgment in judgments:
        unique.setdefault((judgment.question_id, judgment.answer, judgment.grade), judgment)
    return list(unique.values())


def _require_file(path: Path, what: str) -> None:
    if not path.is_file():
        raise DataError(f"{path} does not exist or is not a file; it must be {what}.")


def _nist_error(where: str, problem: str) -> DataError:
    return DataError(f"{where}: {problem}. {_NIST_FORMAT}")


def _parse_nist_line(path: Path, number: int, text: str) -> Judgment:
    where = f"{path} line {number}"
    parts = text.split(" ", 2)
    if len(parts) < 3:
        missing = "grade and answer_text" if len(parts) == 1 else "answer_text"
        raise _nist_error(where, f"missing {missing}")
    question, grade, answer = parts
    if not _QUESTION_NUMBER.fullmatch(question) or int(question) < 1:
        raise _nist_error(where, f"question number {shown(question)} is not a positive integer")
    if not _NIST_GRADE.fullmatch(grade) or int(grade) not in HUMAN_LEVELS:
        raise _nist_error(where, f"grade {shown(grade)} is not one of 1, 2, 3, 4 or -2")
    if not answer.strip():
        raise _nist_error(where, "answer_text is empty")
    if len(answer) > MAX_ANSWER_CHARS:
        raise _nist_error(where, f"answer_text {_too_long(answer)}")
    return Judgment(
        question_id=f"TQ{int(question)}",
        answer=answer,
        grade=int(grade),
        junk=int(grade) == -2,
        line=number,
    )


def parse_nist_judgments(path: Path, content: bytes | None = None) -> list[Judgment]:
    """Every judgment of a NIST qrels file (or its verified `content`), blank lines skipped.

    The first malformed line stops the parse, because a file that is off in one line is not the
    file NIST published and its other grades cannot be trusted either.
    """
    if content is None:
        _require_file(path, "NIST's LiveQA judgments file")
    judgments = [
        _parse_nist_line(path, number, text)
        for number, text in read_lines(path, MAX_LINE_BYTES, content)
        if text.strip()
    ]
    return _dedupe(judgments)


def _too_long(answer: str) -> str:
    return (
        f"is {len(answer)} characters, over the limit of {MAX_ANSWER_CHARS} "
        "(MAX_ANSWER_CHARS); shorten it or leave it out"
    )


def _field_error(where: str, field: str, problem: str) -> DataError:
    return DataError(f"{where}: field '{field}' {problem}.")


def _parse_user_record(path: Path, number: int, record: object) -> Judgment:
    where = f"{path} line {number}"
    if not isinstance(record, dict):
        raise DataError(
            f"{where}: expected a JSON object with question_id, answer and grade, "
            f"got {type(record).__name__}."
        )
    for field in ("question_id", "answer", "grade"):
        if field not in record:
            raise _field_error(where, field, "is missing")
    question_id, answer, grade = record["question_id"], record["answer"], record["grade"]
    if not isinstance(question_id, str) or not _QUESTION_ID.fullmatch(question_id):
        raise _field_error(
            where, "question_id", f"must be a qid such as 'TQ12', got {shown(question_id)}"
        )
    if not isinstance(answer, str) or not answer.strip():
        raise _field_error(where, "answer", f"must be a non-empty string, got {shown(answer)}")
    if len(answer) > MAX_ANSWER_CHARS:
        raise _field_error(where, "answer", _too_long(answer))
    # bool is an int subclass, and 3.0 == 3: both are refused so a grade is never guessed at.
    if isinstance(grade, bool) or not isinstance(grade, int) or grade not in USER_GRADES:
        raise _field_error(where, "grade", f"must be an integer 1-4, got {shown(grade)}")
    return Judgment(question_id=question_id, answer=answer, grade=grade, junk=False, line=number)


def parse_user_judgments(path: Path) -> list[Judgment]:
    """A team's own judgments: one JSON object a line with question_id, answer and grade 1-4.

    Unknown extra fields are ignored, so a file can carry its own notes. Whether a question_id
    names a LiveQA question is left to the caller, which holds the questions. A file with no
    judgments is refused rather than scored as an empty run.
    """
    _require_file(path, "a JSONL file of judgments")
    judgments = [
        _parse_user_record(path, number, record)
        for number, record in read_jsonl(path, MAX_LINE_BYTES)
    ]
    if not judgments:
        raise DataError(
            f"{path} holds no judgments; write one JSON object a line with question_id, answer "
            "and grade."
        )
    return _dedupe(judgments)

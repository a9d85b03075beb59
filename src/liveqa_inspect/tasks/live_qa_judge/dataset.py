"""live_qa_judge's samples: one human-judged answer each, with the LiveQA question it answers, from
NIST's 2017 assessments (docs/live_qa_judge.md) or a team's own JSONL. An exact duplicate (same
question, answer and grade) is one judgment, kept at its first line: counting a repeat again would
weight that answer twice in every agreement figure."""

import re
from dataclasses import dataclass, field
from pathlib import Path

from inspect_ai.dataset import MemoryDataset

from liveqa_inspect.data.lines import read_jsonl, read_lines
from liveqa_inspect.data.own_judgments import OwnJudgments
from liveqa_inspect.data.sources import (
    LIVEQA_JUDGMENTS,
    LIVEQA_QUESTIONS,
    Asset,
    fetch,
    location,
)
from liveqa_inspect.errors import ArgumentError, DataError, shown
from liveqa_inspect.tasks.live_qa.dataset import question_set

HUMAN_LEVELS: dict[int, float] = {4: 1.0, 3: 0.7, 2: 0.3, 1: 0.0, -2: 0.0}
"""NIST's grades on the judge's four levels; junk (-2) is the lowest."""
USER_GRADES = (1, 2, 3, 4)
"""A team grades on NIST's scale; junk (-2) is NIST's own flag, not a grade to give."""
MAX_ANSWER_CHARS = 100_000
"""Every answer goes into a judge prompt: room for any real one (NIST's longest is about 1,100
characters), while a runaway one is refused before it is sent, and paid for, as a prompt."""
MAX_LINE_BYTES = 1_000_000
"""A longest answer fits with its other fields even in json.dumps' \\uXXXX escapes (6 bytes)."""

# ASCII digits only (`\d` accepts '²', which int() refuses), at most 9: int() never meets the
# 5000-digit number Python refuses to convert.
_QUESTION_NUMBER, _NIST_GRADE = re.compile(r"[0-9]{1,9}"), re.compile(r"-?[0-9]{1,9}")
_QUESTION_ID = re.compile(r"TQ[1-9][0-9]{0,8}")
_NIST_FORMAT = (
    f"Each line must be 'question_number grade answer_text' separated by single spaces, as in "
    f"{LIVEQA_JUDGMENTS.url}."
)


@dataclass(frozen=True)
class Judgment:
    """One human grade of one answer, with its line so errors and logs can cite it; judgments
    equal but for their line are one (`dict.fromkeys` keeps the first)."""

    question_id: str  # the LiveQA qid, e.g. "TQ12" (NIST's question number 12)
    answer: str
    grade: int  # -2: NIST flagged the answer as junk rather than grading it
    line: int = field(compare=False)


def _too_long(answer: str) -> str:
    limit = f"over the limit of {MAX_ANSWER_CHARS} (MAX_ANSWER_CHARS)"
    return f"is {len(answer)} characters, {limit}; shorten it or leave it out"


def _parse_nist_line(path: Path, number: int, text: str) -> Judgment:
    def require(ok: object, problem: str) -> None:
        if not ok:
            raise DataError(f"{path} line {number}: {problem}. {_NIST_FORMAT}")

    parts = text.split(" ", 2)
    require(len(parts) == 3, f"missing {'grade and ' if len(parts) == 1 else ''}answer_text")
    question, grade, answer = parts
    positive = _QUESTION_NUMBER.fullmatch(question) and int(question) >= 1
    require(positive, f"question number {shown(question)} is not a positive integer")
    known = _NIST_GRADE.fullmatch(grade) and int(grade) in HUMAN_LEVELS
    require(known, f"grade {shown(grade)} is not one of 1, 2, 3, 4 or -2")
    require(answer.strip(), "answer_text is empty")
    require(len(answer) <= MAX_ANSWER_CHARS, f"answer_text {_too_long(answer)}")
    return Judgment(f"TQ{int(question)}", answer, int(grade), number)


def parse_nist_judgments(path: Path, content: bytes | None = None) -> list[Judgment]:
    """The first malformed line stops the parse: a file off in one line is not the file NIST
    published, and its other grades cannot be trusted either. `fetch` has checked the file."""
    lines = read_lines(path, MAX_LINE_BYTES, content)
    return list(dict.fromkeys(_parse_nist_line(path, n, text) for n, text in lines if text.strip()))


def _parse_user_record(path: Path, number: int, record: object) -> Judgment:
    where = f"{path} line {number}"
    if not isinstance(record, dict):
        raise DataError(
            f"{where}: expected a JSON object with question_id, answer and grade, "
            f"got {type(record).__name__}."
        )

    def require(ok: object, name: str, problem: str) -> None:
        if not ok:
            raise DataError(f"{where}: field '{name}' {problem}.")

    for key in ("question_id", "answer", "grade"):
        require(key in record, key, "is missing")
    question_id, answer, grade = record["question_id"], record["answer"], record["grade"]
    qid = isinstance(question_id, str) and _QUESTION_ID.fullmatch(question_id)
    require(qid, "question_id", f"must be a qid such as 'TQ12', got {shown(question_id)}")
    text = isinstance(answer, str) and answer.strip()
    require(text, "answer", f"must be a non-empty string, got {shown(answer)}")
    require(len(answer) <= MAX_ANSWER_CHARS, "answer", _too_long(answer))
    # bool is an int subclass, and 3.0 == 3: both are refused so a grade is never guessed at.
    whole = not isinstance(grade, bool) and isinstance(grade, int) and grade in USER_GRADES
    require(whole, "grade", f"must be an integer 1-4, got {shown(grade)}")
    return Judgment(question_id, answer, grade, number)


def parse_user_judgments(path: Path) -> list[Judgment]:
    """Extra fields are ignored, so a file can carry its own notes; whether a question_id names a
    LiveQA question is the caller's to check."""
    if not path.is_file():
        raise DataError(
            f"{path} does not exist or is not a file; it must be a JSONL file of judgments."
        )
    found = [_parse_user_record(path, n, record) for n, record in read_jsonl(path, MAX_LINE_BYTES)]
    if not found:
        raise DataError(
            f"{path} holds no judgments; write one JSON object a line with question_id, answer "
            "and grade."
        )
    return list(dict.fromkeys(found))


def judgments_source(judgments: str | Path | None) -> Asset | OwnJudgments:
    """What a log records as the judgments its samples come from: NIST's pinned file, or (a file
    the dataset has read) a team's own, by its digest."""
    return LIVEQA_JUDGMENTS if judgments is None else OwnJudgments.of_file(Path(judgments))


def live_qa_judge_dataset(
    question: str = "summary",
    data: str | Path | None = None,
    judgments: str | Path | None = None,
    include_junk: bool = True,
) -> MemoryDataset:
    """Each judged answer is its question's sample re-keyed; `location` names the judgments read."""
    if data is not None and Path(data).is_file():
        raise ArgumentError(
            f"data={data} is a file, but live_qa_judge reads two: pass a folder holding both "
            f"{LIVEQA_QUESTIONS.filename} and {LIVEQA_JUDGMENTS.filename}."
        )
    questions = {s.id: s for s in question_set(question, data)[0]}
    if judgments is None:
        found = fetch(LIVEQA_JUDGMENTS, data)
        path, source, where = found.path, "nist", location(LIVEQA_JUDGMENTS, found.path)
        nist = parse_nist_judgments(path, found.content)
        items = [j for j in nist if include_junk or j.grade != -2]
    else:
        path = Path(judgments)
        items, source, where = parse_user_judgments(path), str(judgments), str(judgments)
    samples = []
    for judgment in items:
        if judgment.question_id not in questions:
            raise DataError(
                f"{path} line {judgment.line}: field 'question_id' is {judgment.question_id!r}, "
                "which is not a LiveQA test question (TQ1..TQ104)."
            )
        sample = questions[judgment.question_id].model_copy(deep=True)
        sample.id = f"{judgment.question_id}-L{judgment.line}"
        sample.metadata = {
            **(sample.metadata or {}),
            "question_id": judgment.question_id,
            "answer": judgment.answer,
            "human_grade": judgment.grade,
            "human_level": HUMAN_LEVELS[judgment.grade],
            "junk": judgment.grade == -2,
            "judgments_source": source,
            "judgments_line": judgment.line,
        }
        samples.append(sample)
    return MemoryDataset(samples, name="live_qa_judge", location=where)

"""A team's own questions (docs/own-questions.md), read by the package's line readers (which give
each record its line and refuse a key or a column given twice) and checked row by row: a bad row
stops the run before any sample, named by its line, so nothing is skipped, replaced or half-run."""

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from inspect_ai.dataset import MemoryDataset, Sample

from liveqa_inspect.data.lines import read_csv, read_jsonl
from liveqa_inspect.data.recorded import OwnFile
from liveqa_inspect.errors import DataError, shown

SUFFIXES = (".jsonl", ".csv")
OWN_SET = "own questions, not LiveQA"
"""What the log records of an own set, where a pinned set records its URL and commit."""

_FIELDS = ("id", "question", "type", "focus")
_OURS = ("line", "question_field", "focus_category", "question_types", "references")
"""The metadata the package writes into each sample: a field of that name would be lost."""


@dataclass(frozen=True)
class OwnSet(OwnFile):
    """The file as a log records it: its digest identifies the set, so the report compares only
    logs of one set."""

    questions: int
    KIND: ClassVar[str] = "question_set"
    MARK: ClassVar[str] = OWN_SET


def own_set(path: Path, question: str) -> tuple[MemoryDataset, OwnSet]:
    """The questions of a `.jsonl` (an object a line) or a `.csv` (a row a reference, the rows of
    one id one question); `question` is recorded, the text asked as written."""
    as_csv = path.suffix.lower() == ".csv"
    key = "reference" if as_csv else "references"
    try:
        with path.open("rb") as f:
            sha256 = hashlib.file_digest(f, "sha256").hexdigest()
    except OSError as error:
        raise DataError(f"{path}: cannot be read ({error}).") from error
    records = list(_csv_records(path) if as_csv else _jsonl_records(path))
    questions: dict[Any, Sample] = {}  # in CSV the rows of one id, each row's reference a target
    firsts: dict[Any, dict[str, Any]] = {}
    for line, record in records:
        row = _sample(record, key, f"{path} line {line}", line, question)
        first = questions.setdefault(row.id, row)
        if first is row:
            firsts[row.id] = record
            continue
        where = f"{path} line {line}: the id {row.id}"
        if not as_csv:
            raise DataError(
                f"{where} is used twice (first on line {first.metadata['line']}); give each "
                "question its own id."
            )
        _same_question(where, record, firsts[row.id], first.metadata["line"])
        first.target = [*first.target, *row.target]
    if not questions:
        raise DataError(f"{path} holds no questions (docs/own-questions.md shows the format).")
    samples = list(questions.values())
    for sample in samples:  # shaped as a LiveQA sample's: live_qa_contamination reads it
        ids = [f"{sample.id}A{n}" for n in range(1, len(sample.target) + 1)]
        sample.metadata["references"] = [{"aid": aid, "url": ""} for aid in ids]
    source = OwnSet(path.name, sha256, len(records), len(samples))
    return MemoryDataset(samples, name=path.stem, location=str(path.absolute())), source


def _jsonl_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    for line, record in read_jsonl(path):
        if not isinstance(record, dict):
            raise DataError(
                f"{path} line {line}: not a JSON object; each line holds one question's object."
            )
        if ours := [name for name in _OURS if name in record and name != "references"]:
            raise DataError(f"{path} line {line}: {_ours(ours[0], 'field')}")
        yield line, record


def _csv_records(path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    for line, row in read_csv(path, ("id", "question", "reference")):
        if ours := [name for name in _OURS if name in row]:  # a column: said on the header's line
            raise DataError(f"{path} line 1: {_ours(ours[0], 'column')}")
        yield line, row


def _ours(name: str, kind: str) -> str:
    return (
        f"the {kind} {shown(name)} has a name the package gives its own metadata of each "
        f"question ({', '.join(_OURS)}), so one of the two would be lost; rename the {kind}."
    )


def _same_question(where: str, record: dict[str, Any], first: dict[str, Any], line: int) -> None:
    """The rows of one id are one question: a cell that differs (its question, type, focus, any
    other column) would keep the first row's value and drop the others'."""
    for column, cell in record.items():
        if column != "reference" and cell.strip() != first[column].strip():
            raise DataError(
                f"{where} has another {column} than on line {line} ({shown(cell.strip())} here, "
                f"{shown(first[column].strip())} there); the rows of one id repeat every column "
                "but reference exactly."
            )


def _sample(record: dict[str, Any], key: str, where: str, line: int, question: str) -> Sample:
    """`key` names the references: a list (or one text) in JSONL, one text a row in CSV."""
    qid, text, references = record.get("id"), record.get("question"), record.get(key)
    if isinstance(qid, bool) or not isinstance(qid, str | int) or not str(qid).strip():
        raise DataError(f"{where}: no id; give each question an id (a string).")
    if not isinstance(text, str) or not text.strip():
        raise DataError(f"{where}: the question is missing or empty.")
    given = references if isinstance(references, list) else [references]
    if not given or not all(isinstance(answer, str) and answer.strip() for answer in given):
        raise DataError(
            f"{where}: no reference, or an empty one; give each question one or more reference "
            f"answers, as text (`{key}`)."
        )
    types = record.get("type") or []
    return Sample(
        id=str(qid).strip(),
        input=text.strip(),
        target=[answer.strip() for answer in given],
        metadata={
            **{name: value for name, value in record.items() if name not in (*_FIELDS, key)},
            "question_field": question,
            "line": line,
            "focus_category": record.get("focus"),
            "question_types": [types] if isinstance(types, str) else types,
        },
    )

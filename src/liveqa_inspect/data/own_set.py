"""A team's own questions (docs/own-questions.md), read by Inspect's loaders and checked row by row:
a bad row stops the run before any sample, named by its line, so nothing is skipped or half-run."""

from __future__ import annotations

import csv
import hashlib
import json
from dataclasses import dataclass
from functools import partial
from itertools import count
from pathlib import Path
from typing import Any

import jsonlines
from inspect_ai.dataset import MemoryDataset, Sample, csv_dataset, json_dataset

from liveqa_inspect.errors import DataError

SUFFIXES = (".jsonl", ".csv")
OWN_SET = "own questions, not LiveQA"
"""What the log records of an own set, where a pinned set records its URL and commit."""

_FIELDS = ("id", "question", "type", "focus")


@dataclass(frozen=True)
class OwnSet:
    """The file as a log records it (beside a pinned file's `Asset`): its digest identifies the
    set, so the report compares only logs of one set."""

    filename: str
    sha256: str
    rows: int
    questions: int
    license: str = OWN_SET

    def provenance(self) -> dict[str, Any]:
        keys = ("sha256", "rows", "questions")
        return {"question_set": OWN_SET, **{key: getattr(self, key) for key in keys}}

    def __str__(self) -> str:
        return f"{self.filename}: {OWN_SET}, sha256 {self.sha256[:12]}"

    @classmethod
    def of_log(cls, metadata: dict[str, Any] | None) -> OwnSet | None:
        for name, source in ((metadata or {}).get("data") or {}).items():
            if isinstance(source, dict) and source.get("question_set") == OWN_SET:
                return cls(name, source["sha256"], source["rows"], source["questions"])
        return None


def own_set(path: Path, question: str) -> tuple[MemoryDataset, OwnSet]:
    """The questions of a `.jsonl` (an object a line) or a `.csv` (a row a reference, the rows of
    one id one question); `question` is recorded, the text asked as written."""
    as_csv = path.suffix.lower() == ".csv"
    key = "reference" if as_csv else "references"
    try:
        with path.open("rb") as f:
            sha256 = hashlib.file_digest(f, "sha256").hexdigest()
        # Inspect's loaders give no line: a blank JSONL line is refused, so record n is on line n
        lines = iter(_csv_lines(path)) if as_csv else count(1)
        load = csv_dataset if as_csv else partial(json_dataset, encoding="utf-8-sig")
        rows = load(str(path), lambda record: _sample(record, key, path, next(lines), question))
    except jsonlines.InvalidLineError as error:
        cause = error.__cause__
        bad = f"not valid JSON ({cause.msg})" if isinstance(cause, json.JSONDecodeError) else ""
        raise DataError(
            f"{path} line {error.lineno}: {bad or 'not a JSON object'}; each line holds one "
            "question's object, and no line is blank."
        ) from error
    except (OSError, UnicodeError, csv.Error) as error:
        raise DataError(f"{path}: cannot be read as {path.suffix.lower()} ({error}).") from error
    except ValueError as error:  # a CSV row with more or fewer cells than the header names
        raise DataError(str(error)) from error
    questions: dict[Any, Sample] = {}  # in CSV the rows of one id, each row's reference a target
    for row in rows:
        first = questions.setdefault(row.id, row)
        if first is not row:
            where = f"{path} line {row.metadata['line']}: the id {row.id}"
            if not as_csv:
                raise DataError(
                    f"{where} is used twice (first on line {first.metadata['line']}); give each "
                    "question its own id."
                )
            if row.input != first.input:
                raise DataError(
                    f"{where} has another question than on line {first.metadata['line']}; the "
                    "rows of one id repeat its question exactly."
                )
            first.target = [*first.target, *row.target]
    if not questions:
        raise DataError(f"{path} holds no questions (docs/own-questions.md shows the format).")
    for sample in questions.values():  # shaped as a LiveQA sample's: live_qa_contamination reads it
        ids = [f"{sample.id}A{n}" for n in range(1, len(sample.target) + 1)]
        sample.metadata["references"] = [{"aid": aid, "url": ""} for aid in ids]
    source = OwnSet(path.name, sha256, len(rows), len(questions))
    return MemoryDataset(list(questions.values()), name=path.stem, location=rows.location), source


def _csv_lines(path: Path) -> list[int]:
    """The line each row csv_dataset keeps (not one of blank cells only) starts on."""
    starts, start = [], 1
    with path.open(encoding="utf-8-sig", newline="") as f:
        reader = csv.reader(f, dialect="unix")
        for row in reader:
            if any(cell.strip() for cell in row):
                starts.append(start)
            start = reader.line_num + 1
    return starts[1:]  # the first is the header


def _sample(record: dict[str, Any], key: str, path: Path, line: int, question: str) -> Sample:
    """`key` names the references: a list (or one text) in JSONL, one text a row in CSV."""
    where = f"{path} line {line}"
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

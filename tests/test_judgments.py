"""Human judgments: NIST's file and a team's own JSONL, with errors that name line and field."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from liveqa_inspect.judgments import (
    HUMAN_LEVELS,
    load_nist_judgments,
    parse_nist_judgments,
    parse_user_judgments,
)
from liveqa_inspect.sources import DataError


def test_nist_judgments_are_counted_once_with_junk_flagged(liveqa_data_dir: Path) -> None:
    judgments = load_nist_judgments(liveqa_data_dir)
    assert len(judgments) == 581
    assert Counter(j.grade for j in judgments) == {1: 396, 2: 72, 3: 71, 4: 25, -2: 17}
    assert all(j.junk == (j.grade == -2) for j in judgments)
    assert {j.level for j in judgments if j.junk} == {0.0}
    assert len(load_nist_judgments(liveqa_data_dir, include_junk=False)) == 564
    assert judgments[0].question_id == "TQ1" and judgments[0].line == 1


def test_levels_map_nist_grades() -> None:
    assert HUMAN_LEVELS == {4: 1.0, 3: 0.7, 2: 0.3, 1: 0.0, -2: 0.0}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("3", "expected 'question_number grade answer_text'"),
        ("3 4", "expected 'question_number grade answer_text'"),
        ("x 4 an answer", "question number 'x'"),
        ("3 5 an answer", "grade '5'"),
        ("3 four an answer", "grade 'four'"),
    ],
)
def test_malformed_nist_lines_are_named(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text(f"1 4 a good answer\n{line}\n", encoding="utf-8")
    with pytest.raises(DataError, match=f"line 2: {message}"):
        parse_nist_judgments(path)


def _jsonl(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "judgments.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_user_judgments_good_input(tmp_path: Path) -> None:
    good = json.dumps({"question_id": "TQ12", "answer": "Rest and fluids.", "grade": 3})
    path = _jsonl(tmp_path, good, "", good, json.dumps({"question_id": "TQ1", "answer": "No.",
                                                         "grade": 1, "system": "mine"}))
    judgments = parse_user_judgments(path)
    assert [(j.question_id, j.grade, j.level, j.line) for j in judgments] == [
        ("TQ12", 3, 0.7, 1),
        ("TQ1", 1, 0.0, 4),
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "line 2: not valid JSON"),
        ("[1, 2]", "line 2: expected a JSON object"),
        ('{"answer": "a", "grade": 2}', "line 2: field 'question_id' is missing"),
        ('{"question_id": "TQ1", "grade": 2}', "line 2: field 'answer' is missing"),
        ('{"question_id": "TQ1", "answer": "a"}', "line 2: field 'grade' is missing"),
        ('{"question_id": "Q1", "answer": "a", "grade": 2}', "line 2: field 'question_id'"),
        ('{"question_id": 12, "answer": "a", "grade": 2}', "line 2: field 'question_id'"),
        ('{"question_id": "TQ1", "answer": " ", "grade": 2}', "line 2: field 'answer'"),
        ('{"question_id": "TQ1", "answer": "a", "grade": 5}', "field 'grade' must be an integer"),
        ('{"question_id": "TQ1", "answer": "a", "grade": 0}', "field 'grade' must be an integer"),
        ('{"question_id": "TQ1", "answer": "a", "grade": 2.0}', "field 'grade' must be an integ"),
        ('{"question_id": "TQ1", "answer": "a", "grade": true}', "field 'grade' must be an integ"),
        ('{"question_id": "TQ1", "answer": "a", "grade": "3"}', "field 'grade' must be an integ"),
    ],
)
def test_user_judgments_bad_input_names_line_and_field(
    tmp_path: Path, line: str, message: str
) -> None:
    good = json.dumps({"question_id": "TQ12", "answer": "Rest.", "grade": 3})
    with pytest.raises(DataError, match=message.replace("[", r"\[")):
        parse_user_judgments(_jsonl(tmp_path, good, line))


def test_empty_or_missing_user_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="holds no judgments"):
        parse_user_judgments(_jsonl(tmp_path, ""))
    with pytest.raises(DataError, match="does not exist"):
        parse_user_judgments(tmp_path / "missing.jsonl")

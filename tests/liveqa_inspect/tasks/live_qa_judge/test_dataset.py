"""Human judgments: NIST's file and a team's own JSONL, with errors that name line and field."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from liveqa_inspect import live_qa_judge
from liveqa_inspect.data.sources import LIVEQA_JUDGMENTS, LIVEQA_QUESTIONS, cached_path, fetch
from liveqa_inspect.errors import DataError
from liveqa_inspect.tasks.live_qa_judge.dataset import (
    MAX_ANSWER_CHARS,
    MAX_LINE_BYTES,
    Judgment,
    live_qa_judge_dataset,
    parse_nist_judgments,
    parse_user_judgments,
)
from tests.helpers import judgments_file


def test_nist_file_raw_counts(liveqa_data_dir: Path) -> None:
    """The figures the deduplicated counts below are derived from, read straight off the file."""
    lines = fetch(LIVEQA_JUDGMENTS, liveqa_data_dir).content.decode("utf-8").splitlines()
    assert len(lines) == 692
    assert len(set(lines)) == 581  # 111 lines repeat an earlier one exactly
    raw_grades = {"1": 461, "2": 90, "3": 84, "4": 39, "-2": 18}
    assert Counter(line.split(" ")[1] for line in lines) == raw_grades


def test_nist_judgments_are_counted_once_with_junk_flagged(liveqa_data_dir: Path) -> None:
    judgments = parse_nist_judgments(liveqa_data_dir / LIVEQA_JUDGMENTS.filename)
    assert len(judgments) == 581
    assert Counter(j.grade for j in judgments) == {1: 396, 2: 72, 3: 71, 4: 25, -2: 17}
    assert len({j.question_id for j in judgments}) == 102
    assert {"TQ10", "TQ103"}.isdisjoint(j.question_id for j in judgments)
    assert all(re.fullmatch(r"TQ([1-9]|[1-9][0-9]|10[0-4])", j.question_id) for j in judgments)
    assert len({(j.question_id, j.answer, j.grade) for j in judgments}) == 581
    assert judgments[0].question_id == "TQ1" and judgments[0].line == 1
    assert [j.line for j in judgments] == sorted(j.line for j in judgments)


def test_nist_duplicates_keep_the_first_line(tmp_path: Path) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text("2 4 same\n\n3 1 other\n2 4 same\n2 3 same\n", encoding="utf-8")
    assert parse_nist_judgments(path) == [
        Judgment("TQ2", "same", 4, line=1),
        Judgment("TQ3", "other", 1, line=3),
        Judgment("TQ2", "same", 3, line=5),
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("3", "missing grade and answer_text"),
        ("3  an answer", "grade '' is not one of"),
        ("3 4", "missing answer_text"),
        ("3 4  ", "answer_text is empty"),
        ("3 four an answer", "grade 'four' is not one of"),
        ("3 2.0 an answer", "grade '2.0' is not one of"),
        ("3 5 an answer", "grade '5' is not one of"),
        ("3 0 an answer", "grade '0' is not one of"),
        ("x 4 an answer", "question number 'x' is not a positive integer"),
        ("TQ3 4 an answer", "question number 'TQ3' is not a positive integer"),
        ("0 4 an answer", "question number '0' is not a positive integer"),
        ("-3 4 an answer", "question number '-3' is not a positive integer"),
        ("\u00b2 4 an answer", "question number '\u00b2' is not a positive integer"),
        (f"3 {'4' * 5000} an answer", "grade '4444"),
        (f"{'3' * 5000} 4 an answer", "question number '3333"),
        (
            f"3 4 {'a' * (MAX_ANSWER_CHARS + 1)}",
            f"answer_text is {MAX_ANSWER_CHARS + 1} characters",
        ),
    ],
)
def test_malformed_nist_lines_are_named(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text(f"1 4 a good answer\n{line}\n", encoding="utf-8")
    with pytest.raises(DataError, match=f"line 2: {re.escape(message)}") as caught:
        parse_nist_judgments(path)
    assert str(path) in str(caught.value)
    # A 5000-digit value is quoted cut short, so the message stays one readable paragraph.
    assert len(str(caught.value)) < 500


def test_a_bom_at_the_start_of_the_nist_file_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "qrels.txt"
    path.write_bytes(b"\xef\xbb\xbf12 4 a good answer\n3 1 another\n")
    judgments = parse_nist_judgments(path)
    assert [(j.question_id, j.grade, j.answer, j.line) for j in judgments] == [
        ("TQ12", 4, "a good answer", 1),
        ("TQ3", 1, "another", 2),
    ]


def test_nist_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "qrels.txt"
    path.write_bytes(b"1 4 fine\n2 4 caf\xe9\n")
    with pytest.raises(DataError, match="line 2: not UTF-8"):
        parse_nist_judgments(path)


def test_user_judgments_good_input(tmp_path: Path) -> None:
    good = json.dumps({"question_id": "TQ12", "answer": "Rest and fluids.", "grade": 3})
    extra = json.dumps({"question_id": "TQ1", "answer": "No.", "grade": 1, "system": "mine"})
    regraded = json.dumps({"question_id": "TQ12", "answer": "Rest and fluids.", "grade": 4})
    path = judgments_file(tmp_path, good, "", good, extra, "   ", regraded)
    judgments = parse_user_judgments(path)
    # The exact repeat on line 3 counts once; a different grade for the same answer is kept.
    assert [(j.question_id, j.answer, j.grade, j.line) for j in judgments] == [
        ("TQ12", "Rest and fluids.", 3, 1),
        ("TQ1", "No.", 1, 4),
        ("TQ12", "Rest and fluids.", 4, 6),
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
        ('{"question_id": "TQ0", "answer": "a", "grade": 2}', "line 2: field 'question_id'"),
        ('{"question_id": "TQ1 ", "answer": "a", "grade": 2}', "line 2: field 'question_id'"),
        ('{"question_id": 12, "answer": "a", "grade": 2}', "line 2: field 'question_id'"),
        ('{"question_id": "TQ1", "answer": "", "grade": 2}', "line 2: field 'answer' must be"),
        ('{"question_id": "TQ1", "answer": " ", "grade": 2}', "line 2: field 'answer' must be"),
        ('{"question_id": "TQ1", "answer": 7, "grade": 2}', "line 2: field 'answer' must be"),
        (
            '{"question_id": "TQ1", "answer": "a", "grade": 5}',
            "line 2: field 'grade' must be an integer 1-4, got 5",
        ),
        ('{"question_id": "TQ1", "answer": "a", "grade": 0}', "line 2: field 'grade' must be"),
        ('{"question_id": "TQ1", "answer": "a", "grade": -2}', "line 2: field 'grade' must be"),
        ('{"question_id": "TQ1", "answer": "a", "grade": 2.0}', "line 2: field 'grade' must be"),
        (
            '{"question_id": "TQ1", "answer": "a", "grade": true}',
            "line 2: field 'grade' must be an integer 1-4, got True",
        ),
        ('{"question_id": "TQ1", "answer": "a", "grade": "3"}', "line 2: field 'grade' must be"),
        (
            '{"question_id": "TQ1", "answer": "a", "grade": ' + "3" * 5000 + "}",
            "line 2: field 'grade' must be an integer 1-4, got an integer of 5000 digits",
        ),
        (
            '{"question_id": "TQ1", "answer": "a", "grade": -' + "3" * 5000 + "}",
            "line 2: field 'grade' must be an integer 1-4, got an integer of 5000 digits",
        ),
        (
            '{"question_id": "TQ1", "answer": "a", "grade": 1e999}',
            "line 2: field 'grade' must be an integer 1-4, got inf",
        ),
        (
            '{"question_id": "TQ1", "answer": "a", "grade": NaN}',
            "line 2: field 'grade' must be an integer 1-4, got nan",
        ),
        (
            '{"question_id": "TQ1", "answer": "a", "grade": ' + "3" * 5000 + ".5}",
            "line 2: field 'grade' must be an integer 1-4, got inf",
        ),
        (
            '{"question_id": "TQ1", "answer": "a", "grade": ' + '{"a": ' * 50 + "3" + "}" * 51,
            "line 2: field 'grade' must be an integer 1-4, got {'a': {'a': {'a': {",
        ),
        (
            '{"question_id": "TQ' + "1" * 5000 + '", "answer": "a", "grade": 3}',
            "line 2: field 'question_id' must be a qid such as 'TQ12', got 'TQ111",
        ),
        (
            '{"question_id": {"q": "' + "x" * 5000 + '"}, "answer": "a", "grade": 3}',
            "line 2: field 'question_id' must be a qid such as 'TQ12', got {'q': 'xxx",
        ),
        (
            '{"question_id": "TQ1", "answer": ["' + "x" * 5000 + '"], "grade": 3}',
            "line 2: field 'answer' must be a non-empty string, got ['xxx",
        ),
        (
            '{"question_id": "TQ1", "answer": "' + "a" * (MAX_ANSWER_CHARS + 1) + '", "grade": 3}',
            f"line 2: field 'answer' is {MAX_ANSWER_CHARS + 1} characters, over the limit of "
            f"{MAX_ANSWER_CHARS}",
        ),
        ("[" * 5000 + "]" * 5000, "line 2: not valid JSON (nested too deeply)"),
    ],
)
def test_user_judgments_bad_input_names_file_line_and_field(
    tmp_path: Path, line: str, message: str
) -> None:
    good = json.dumps({"question_id": "TQ12", "answer": "Rest.", "grade": 3})
    with pytest.raises(DataError, match=re.escape(f"judgments.jsonl {message}")) as caught:
        parse_user_judgments(judgments_file(tmp_path, good, line))
    assert len(str(caught.value)) < 500


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ('{"question_id": "TQ1", "answer": "Rest.", "grade": 4, "grade": 1}', "grade"),
        (
            '{"question_id": "TQ1", "answer": "Rest.", "question_id": "TQ2", "grade": 4}',
            "question_id",
        ),
        ('{"question_id": "TQ1", "answer": "Rest.", "grade": 4, "note": {"by": 1, "by": 2}}', "by"),
    ],
    ids=["grade", "question_id", "nested"],
)
def test_a_key_given_twice_in_a_line_is_refused_naming_line_and_key(
    tmp_path: Path, line: str, key: str
) -> None:
    """JSON keeps the last of a repeated key: a second grade would silently relabel the answer,
    a second question_id move it to another question."""
    good = json.dumps({"question_id": "TQ12", "answer": "Rest.", "grade": 3})
    path = judgments_file(tmp_path, good, line)
    with pytest.raises(DataError) as caught:
        live_qa_judge(judgments=str(path))
    assert str(caught.value) == (
        f"{path} line 2: the key '{key}' appears twice in one object; JSON keeps only one of "
        "them, so the line is refused. Keep one."
    )


def test_a_bom_at_the_start_of_a_user_file_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "judgments.jsonl"
    lines = [
        json.dumps({"question_id": "TQ12", "answer": "Rest.", "grade": 3}),
        json.dumps({"question_id": "TQ1", "answer": "No.", "grade": 1}),
    ]
    path.write_bytes(b"\xef\xbb\xbf" + "\n".join(lines).encode("utf-8") + b"\n")
    judgments = parse_user_judgments(path)
    assert [(j.question_id, j.grade, j.line) for j in judgments] == [("TQ12", 3, 1), ("TQ1", 1, 2)]


def test_the_longest_answer_is_accepted_even_written_as_escapes(tmp_path: Path) -> None:
    # json.dumps writes each non-ASCII character as a 6-byte \\uXXXX escape by default.
    longest = json.dumps({"question_id": "TQ1", "answer": "\u00e9" * MAX_ANSWER_CHARS, "grade": 2})
    [judgment] = parse_user_judgments(judgments_file(tmp_path, longest))
    assert judgment.answer == "\u00e9" * MAX_ANSWER_CHARS
    over = json.dumps(
        {"question_id": "TQ1", "answer": "\u00e9" * (MAX_ANSWER_CHARS + 1), "grade": 2}
    )
    with pytest.raises(DataError, match="line 1: field 'answer' is 100001 characters"):
        parse_user_judgments(judgments_file(tmp_path, over))


def test_an_overlong_line_is_refused_with_its_number(tmp_path: Path) -> None:
    good = json.dumps({"question_id": "TQ12", "answer": "Rest.", "grade": 3})
    huge = json.dumps({"question_id": "TQ1", "answer": "a" * MAX_LINE_BYTES, "grade": 3})
    with pytest.raises(DataError, match=f"line 2 is longer than {MAX_LINE_BYTES} bytes"):
        parse_user_judgments(judgments_file(tmp_path, good, huge))
    nist = tmp_path / "qrels.txt"
    nist.write_text(f"1 4 fine\n2 4 {'a' * MAX_LINE_BYTES}\n", encoding="utf-8")
    with pytest.raises(DataError, match=f"line 2 is longer than {MAX_LINE_BYTES} bytes"):
        parse_nist_judgments(nist)


def test_empty_missing_or_non_utf8_user_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="holds no judgments"):
        parse_user_judgments(judgments_file(tmp_path, ""))
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(DataError, match="holds no judgments"):
        parse_user_judgments(empty)
    with pytest.raises(DataError, match="does not exist"):
        parse_user_judgments(tmp_path / "missing.jsonl")
    latin1 = tmp_path / "latin1.jsonl"
    latin1.write_bytes(b'{"question_id": "TQ1", "answer": "caf\xe9", "grade": 2}\n')
    with pytest.raises(DataError, match="not UTF-8"):
        parse_user_judgments(latin1)


def test_the_judge_dataset_location_names_the_judgments_read(
    tmp_path: Path, liveqa_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nist = liveqa_data_dir / LIVEQA_JUDGMENTS.filename
    assert live_qa_judge_dataset(data=liveqa_data_dir).location == str(nist)
    own = judgments_file(
        tmp_path, json.dumps({"question_id": "TQ12", "answer": "Rest.", "grade": 3})
    )
    assert live_qa_judge_dataset(data=liveqa_data_dir, judgments=own).location == str(own)
    # A copy downloaded into the cache (placed there by hand here) is recorded as its URL.
    monkeypatch.delenv("LIVEQA_DATA")
    for asset in (LIVEQA_QUESTIONS, LIVEQA_JUDGMENTS):
        cached_path(asset).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(liveqa_data_dir / asset.filename, cached_path(asset))
    assert live_qa_judge_dataset().location == LIVEQA_JUDGMENTS.url

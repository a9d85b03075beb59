"""A team's own question set (issue 30): read from .jsonl or .csv, graded like LiveQA, its file
recorded in the log, bad rows refused in one line, never ranked against LiveQA by the report."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest
from inspect_ai.model import GenerateConfig

from liveqa_inspect import live_qa
from liveqa_inspect.data.own_set import OWN_SET
from liveqa_inspect.data.sources import LIVEQA_QUESTIONS
from liveqa_inspect.errors import ArgumentError, DataError
from liveqa_inspect.report import main
from liveqa_inspect.tasks.contamination.dataset import split_text
from tests.commands import inspect_command
from tests.helpers import between, run_contamination, run_live_qa, verdict

QUESTIONS = [
    {
        "id": "bp-1",
        "question": "Can I take ibuprofen for my back pain while I am on lisinopril for my "
        "blood pressure?",
        "references": [
            "Ibuprofen and other NSAIDs can weaken the effect of lisinopril and, taken together "
            "for a long time, can harm the kidneys.",
            "Ask your doctor or pharmacist before taking ibuprofen\nregularly with lisinopril.",
        ],
        "type": "interaction",
        "focus": "Drug",
    },
    {
        "id": "cs-2",
        "question": "What causes cold sores on my lip and how can I stop them spreading to my "
        "children?",
        "references": [
            "Cold sores are caused by the herpes simplex virus type 1, which spreads by close "
            "contact such as kissing or sharing cups."
        ],
        "type": "cause",
        "focus": "Disease",
    },
    {
        "id": "fv-3",
        "question": "Is a fever of 38.5 degrees dangerous for an adult, and when should I see "
        "a doctor about it?",
        "references": ["See a doctor after three days."],
        "type": "susceptibility",
        "focus": "Symptom",
    },
]
"""Three questions; two references are too short for the contamination probe to split."""

COLD_SORES = QUESTIONS[1]["references"][0]
ANSWERS = {"ibuprofen": "ANSWER-ONE", "cold sores": COLD_SORES, "fever": "ANSWER-ZERO"}
LEVELS = {"ANSWER-ONE": "1", COLD_SORES: "0.7", "ANSWER-ZERO": "0"}
"""The subject answers one question with its reference, word for word."""


def write_jsonl(folder: Path) -> Path:
    path = folder / "ours.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    return path


def write_csv(folder: Path) -> Path:
    """A row a reference, as a spreadsheet writes it: a reference's line break is quoted."""
    path = folder / "ours.csv"
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "question", "reference", "type", "focus"])
        for q in QUESTIONS:
            for reference in q["references"]:
                writer.writerow([q["id"], q["question"], reference, q["type"], q["focus"]])
    return path


WRITERS = {"jsonl": write_jsonl, "csv": write_csv}
ROWS = {"jsonl": 3, "csv": 4}


def subject(prompt: str, _: GenerateConfig) -> str:
    return next(answer for key, answer in ANSWERS.items() if key in prompt)


def graded_by(prompts: list[str]):
    def judge(prompt: str, _: GenerateConfig) -> str:
        prompts.append(prompt)
        return verdict(LEVELS[between(prompt, "answer")])

    return judge


@pytest.mark.parametrize("kind", WRITERS)
def test_an_own_set_is_graded_like_liveqa_and_its_file_is_logged(tmp_path: Path, kind: str) -> None:
    path = WRITERS[kind](tmp_path)
    prompts: list[str] = []
    log = run_live_qa(subject, graded_by(prompts), limit=10, data=str(path), reference_metrics=True)

    assert log.samples is not None
    by_id = {sample.id: sample for sample in log.samples}
    assert list(by_id) == ["bp-1", "cs-2", "fv-3"]
    for q in QUESTIONS:
        assert by_id[q["id"]].input == q["question"]
        assert by_id[q["id"]].target == q["references"]
        assert by_id[q["id"]].metadata["question_types"] == [q["type"]]
        assert by_id[q["id"]].metadata["focus_category"] == q["focus"]
        [prompt] = [p for p in prompts if between(p, "question") == q["question"]]
        for n, reference in enumerate(q["references"], start=1):
            assert f'<reference n="{n}">\n{reference}\n</reference>' in prompt
        assert f'<reference n="{len(q["references"]) + 1}">' not in prompt
    assert log.results is not None
    assert log.results.scores[0].metrics["mean"].value == pytest.approx((1 + 0.7 + 0) / 3)
    exact = {s.id: s.scores["reference_overlap"].value["exact_match"] for s in log.samples}
    assert exact == {"bp-1": 0.0, "cs-2": 1.0, "fv-3": 0.0}

    sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
    assert log.eval.metadata is not None
    assert log.eval.metadata["data"] == {
        path.name: {"question_set": OWN_SET, "sha256": sha256, "rows": ROWS[kind], "questions": 3}
    }
    assert log.eval.metadata["data_license"] == OWN_SET
    assert (log.eval.dataset.name, log.eval.dataset.location) == ("ours", str(path))


GOOD = json.dumps({"id": "a", "question": "Is it safe?", "references": ["Yes."]})
HEADER = "id,question,reference\n"

BAD = {
    "missing question": (
        "ours.jsonl",
        GOOD + '\n{"id": "b", "references": ["No."]}\n',
        "line 2: the question is missing or empty.",
    ),
    "empty question": (
        "ours.csv",
        HEADER + "a,Is it safe?,Yes.\nb,  ,No.\n",
        "line 3: the question is missing or empty.",
    ),
    "no reference": (
        "ours.jsonl",
        GOOD + '\n{"id": "b", "question": "Why?", "references": []}\n',
        "line 2: no reference, or an empty one; give each question one or more reference "
        "answers, as text (`references`).",
    ),
    "empty reference": (
        "ours.csv",
        HEADER + 'a,Is it safe?,"Yes,\nmostly."\nb,Why?,\n',
        "line 4: no reference, or an empty one; give each question one or more reference "
        "answers, as text (`reference`).",
    ),
    "id twice": (
        "ours.jsonl",
        GOOD + "\n" + GOOD + "\n",
        "line 2: the id a is used twice (first on line 1); give each question its own id.",
    ),
    "no id": (
        "ours.jsonl",
        '{"question": "Why?", "references": ["Because."]}\n',
        "line 1: no id; give each question an id (a string).",
    ),
    "invalid json": (
        "ours.jsonl",
        GOOD + '\n{"id": "b", "question": "Why?"\n',
        "line 2: not valid JSON (Expecting ',' delimiter); each line holds one question's "
        "object, and no line is blank.",
    ),
    "blank line": (
        "ours.jsonl",
        GOOD + "\n\n" + GOOD.replace('"a"', '"b"') + "\n",
        "line 2: not valid JSON (Expecting value); each line holds one question's object, and "
        "no line is blank.",
    ),
    "not an object": (
        "ours.jsonl",
        '["Why?", "Because."]\n',
        "line 1: not a JSON object; each line holds one question's object, and no line is blank.",
    ),
    "invalid csv row": (
        "ours.csv",
        HEADER + "a,Is it safe?,Yes.\nb,Why?\n",
        "line 3 has 2 fields, the header has 3. No value for: reference.",
    ),
    "one id, two questions": (
        "ours.csv",
        HEADER + "a,Is it safe?,Yes.\na,Is it safe now?,Mostly.\n",
        "line 3: the id a has another question than on line 2; the rows of one id repeat its "
        "question exactly.",
    ),
    "no reference column": (
        "ours.csv",
        "id,question,answer\na,Is it safe?,Yes.\n",
        "line 2: no reference, or an empty one; give each question one or more reference "
        "answers, as text (`reference`).",
    ),
    "unknown extension": (
        "ours.json",
        GOOD,
        ": unknown extension .json; give your own questions as .jsonl or .csv "
        f"(docs/own-questions.md), or {LIVEQA_QUESTIONS.filename} or a folder holding it.",
    ),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_file_is_refused_in_one_line_naming_the_row(tmp_path: Path, case: str) -> None:
    name, text, what = BAD[case]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as refused:
        live_qa(data=str(path))
    message = str(refused.value)
    assert message == f"{path}{'' if what.startswith(':') else ' '}{what}"
    assert "\n" not in message


def test_the_command_refuses_a_bad_file_before_any_sample(tmp_path: Path) -> None:
    path = tmp_path / "ours.jsonl"
    path.write_text(GOOD + "\n" + GOOD + "\n", encoding="utf-8")
    ran = inspect_command(
        "eval", "liveqa_inspect/live_qa", "--model", "mockllm/model", "-T", f"data={path}",
        "--log-dir", str(tmp_path / "logs"),
    )  # fmt: skip
    assert ran.returncode == 1
    said = (
        f"ERROR: {path} line 2: the id a is used twice (first on line 1); give each question "
        "its own id."
    )
    # rich wraps it at the console's width, inside a long path too
    assert "".join(ran.output.split()) == "".join(said.split())
    assert not (tmp_path / "logs").exists()


def test_an_own_set_has_one_wording(tmp_path: Path) -> None:
    with pytest.raises(ArgumentError, match="has one wording of each question"):
        live_qa(question="paraphrase", data=str(write_csv(tmp_path)))


def refused(capsys: pytest.CaptureFixture[str], *paths: str) -> str:
    capsys.readouterr()
    assert main(list(paths)) == 2
    [line] = capsys.readouterr().err.splitlines()
    return line


def test_the_report_never_ranks_different_question_sets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = write_jsonl(tmp_path)
    sha = hashlib.sha256(ours.read_bytes()).hexdigest()[:12]
    liveqa = run_live_qa(limit=2)
    own = run_live_qa(subject, graded_by([]), limit=10, data=str(ours))
    assert refused(capsys, liveqa.location, own.location) == (
        f"error: the logs are of different question sets ({liveqa.location} "
        f"({LIVEQA_QUESTIONS.filename}); {own.location} (ours.jsonl: {OWN_SET}, sha256 {sha})): "
        "their figures are not one benchmark, so they are not ranked together. Report each "
        "set's logs apart (logs of one set, the same sha256, compare as usual)"
    )
    edited = tmp_path / "edited" / "ours.jsonl"
    edited.parent.mkdir()
    edited.write_text(ours.read_text(encoding="utf-8").replace("38.5", "39"), encoding="utf-8")
    other = run_live_qa(subject, graded_by([]), limit=10, data=str(edited))
    assert "different question sets" in refused(capsys, own.location, other.location)


def test_the_report_compares_logs_of_one_own_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = write_csv(tmp_path)
    sha = hashlib.sha256(ours.read_bytes()).hexdigest()[:12]
    first = run_live_qa(subject, graded_by([]), limit=10, data=str(ours))
    second = run_live_qa(
        lambda *_: "ANSWER-ONE", graded_by([]), name="other", limit=10, data=str(ours)
    )
    capsys.readouterr()
    assert main([first.location, second.location, "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "different question sets" not in out and "WARNING" not in out
    assert "Difference from mockllm/model" in out
    assert main([first.location, "--out", str(tmp_path)]) == 0
    header = capsys.readouterr().out.splitlines()[1]
    assert header == (
        f"model: mockllm/model; questions: ours.csv: {OWN_SET}, sha256 {sha}, asked as written; "
        "epochs: 1"
    )


def completes_remainders(remainders: dict[str, str]):
    def model(prompt: str, _: GenerateConfig) -> str:
        return next((rest for shown, rest in remainders.items() if shown in prompt), "")

    return model


@pytest.mark.parametrize("part", ["question", "reference"])
def test_the_contamination_probe_runs_on_an_own_set(tmp_path: Path, part: str) -> None:
    path = write_csv(tmp_path)
    texts = {
        "question": {q["id"]: q["question"] for q in QUESTIONS},
        "reference": {
            f"{q['id']}A{n}": reference
            for q in QUESTIONS
            for n, reference in enumerate(q["references"], start=1)
        },
    }[part]
    splits = {id_: split_text(text) for id_, text in texts.items()}
    remainders = dict(s for s in splits.values() if s is not None)
    log = run_contamination(completes_remainders(remainders), limit=10, part=part, data=str(path))

    assert log.samples is not None
    split = [id_ for id_, s in splits.items() if s is not None]
    assert sorted({str(s.id) for s in log.samples}) == sorted(split)
    assert log.eval.metadata is not None
    assert log.eval.metadata["left_out"] == [id_ for id_, s in splits.items() if s is None]
    if part == "reference":
        assert log.eval.metadata["left_out"] == ["bp-1A2", "fv-3A1"]
    sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
    assert log.eval.metadata["data"][path.name]["sha256"] == sha256
    for sample in log.samples:
        cut = splits[str(sample.id)]
        assert cut is not None and (sample.input, sample.target) == cut

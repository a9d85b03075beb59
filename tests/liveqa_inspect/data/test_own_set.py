"""A team's own question set (issue 30): read from .jsonl or .csv, graded like LiveQA, its file
recorded in the log, bad rows refused in one line, never ranked against LiveQA by the report."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest
from inspect_ai import eval, eval_retry
from inspect_ai.log import list_eval_logs, read_eval_log
from inspect_ai.model import GenerateConfig

from liveqa_inspect import live_qa
from liveqa_inspect.data.own_set import OWN_SET
from liveqa_inspect.data.sources import LIVEQA_QUESTIONS
from liveqa_inspect.errors import ArgumentError, DataError, LiveQAError
from liveqa_inspect.report import main
from liveqa_inspect.tasks.contamination.dataset import split_text
from tests.commands import inspect_command
from tests.helpers import QUIET, between, run_contamination, run_live_qa, scripted_model, verdict

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
        "line 2: not valid JSON (Expecting ',' delimiter, column 31).",
    ),
    "not an object": (
        "ours.jsonl",
        '["Why?", "Because."]\n',
        "line 1: not a JSON object; each line holds one question's object.",
    ),
    "invalid csv row": (
        "ours.csv",
        HEADER + "a,Is it safe?,Yes.\nb,Why?\n",
        "line 3 has 2 cells, the header 3; quote a cell that holds a comma, and give each row "
        "every column.",
    ),
    "one id, two questions": (
        "ours.csv",
        HEADER + "a,Is it safe?,Yes.\na,Is it safe now?,Mostly.\n",
        "line 3: the id a has another question than on line 2 ('Is it safe now?' here, 'Is it "
        "safe?' there); the rows of one id repeat every column but reference exactly.",
    ),
    "unknown extension": (
        "ours.json",
        GOOD,
        ": unknown extension .json; give your own questions as .jsonl or .csv "
        f"(docs/own-questions.md), or {LIVEQA_QUESTIONS.filename} or a folder holding it.",
    ),
}


def _ours(name: str, kind: str) -> str:
    return (
        f"the {kind} '{name}' has a name the package gives its own metadata of each question "
        "(line, question_field, focus_category, question_types, references), so one of the two "
        f"would be lost; rename the {kind}."
    )


def _lacks(columns: str, has: str) -> str:
    return (
        f"line 1: the header lacks the column{'s' if ',' in columns else ''} {columns}; it has "
        f"{has}. Name the columns id, question, reference (lower case, no spaces), separated by "
        "commas."
    )


TYPED = "id,question,reference,type,focus\n"
LOST = {  # issue 36: each lost or replaced a value without a word
    "reference column twice": (
        "ours.csv",
        "id,question,reference,reference\na,Is it safe?,Yes.,Mostly.\n",
        "line 1: the column 'reference' appears twice in the header (columns 3 and 4); a row "
        "would keep only one of its values. Keep one.",
    ),
    "one id, two types": (
        "ours.csv",
        TYPED + "a,Is it safe?,Yes.,safety,Drug\na,Is it safe?,Mostly.,dosage,Drug\n",
        "line 3: the id a has another type than on line 2 ('dosage' here, 'safety' there); the "
        "rows of one id repeat every column but reference exactly.",
    ),
    "one id, two focuses": (
        "ours.csv",
        TYPED + "a,Is it safe?,Yes.,safety,Drug\n\na,Is it safe?,Mostly.,safety,\n",
        "line 4: the id a has another focus than on line 2 ('' here, 'Drug' there); the rows of "
        "one id repeat every column but reference exactly.",
    ),
    "a column named line": (
        "ours.csv",
        HEADER[:-1] + ",line\na,Is it safe?,Yes.,7\n",
        "line 1: " + _ours("line", "column"),
    ),
    "a column named references": (
        "ours.csv",
        HEADER[:-1] + ",references\na,Is it safe?,Yes.,see below\n",
        "line 1: " + _ours("references", "column"),
    ),
    "a column named question_field": (
        "ours.csv",
        HEADER[:-1] + ",question_field\na,Is it safe?,Yes.,free text\n",
        "line 1: " + _ours("question_field", "column"),
    ),
    "a field named line": (
        "ours.jsonl",
        GOOD + "\n" + GOOD.replace('"a"', '"b"')[:-1] + ', "line": 12}\n',
        "line 2: " + _ours("line", "field"),
    ),
    "a key twice": (  # issue 37: read as the human judgments are, where JSON keeps the last
        "ours.jsonl",
        '{"id": "a", "question": "Is it safe?", "references": ["Yes."], "references": ["No."]}\n',
        "line 1: the key 'references' appears twice in one object; JSON keeps only one of them, "
        "so the line is refused. Keep one.",
    ),
    "capitalised header": (
        "ours.csv",
        "ID,Question,Reference\na,Is it safe?,Yes.\n",
        _lacks("id, question, reference", "'ID', 'Question', 'Reference'"),
    ),
    "spaces in the header": (
        "ours.csv",
        "id, question, reference\na, Is it safe?, Yes.\n",
        _lacks("question, reference", "'id', ' question', ' reference'"),
    ),
    "semicolons": (
        "ours.csv",
        "id;question;reference\na;Is it safe?;Yes.\n",
        _lacks("id, question, reference", "'id;question;reference'"),
    ),
    "no reference column": (
        "ours.csv",
        "id,question,answer\na,Is it safe?,Yes.\n",
        _lacks("reference", "'id', 'question', 'answer'"),
    ),
    "an empty file": ("ours.csv", "", _lacks("id, question, reference", "nothing")),
    "latin-1": (
        "ours.csv",
        "id,question,reference\na,Caf\u00e9?,Oui.\n".encode("latin-1").decode(
            "utf-8", "surrogateescape"
        ),
        ": not UTF-8 text ('utf-8' codec can't decode byte 0xe9 in position 27: invalid "
        "continuation byte); save the file as UTF-8.",
    ),
}


@pytest.mark.parametrize("case", [*BAD, *LOST])
def test_a_bad_file_is_refused_in_one_line_naming_the_row(tmp_path: Path, case: str) -> None:
    name, text, what = BAD.get(case) or LOST[case]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    with pytest.raises(DataError) as refused:
        live_qa(data=str(path))
    message = str(refused.value)
    assert message == f"{path}{'' if what.startswith(':') else ' '}{what}"
    assert "\n" not in message


def test_the_command_refuses_a_bad_file_before_any_sample(tmp_path: Path) -> None:
    path = tmp_path / "ours.jsonl"
    path.write_text(GOOD + "\n" + GOOD + "\n", encoding="utf-8")
    ran = inspect_command(
        "eval",
        "liveqa_inspect/live_qa",
        "--model",
        "mockllm/model",
        "-T",
        f"data={path}",
        "--log-dir",
        str(tmp_path / "logs"),
    )
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


def test_a_blank_line_is_skipped_and_a_consistent_extra_column_kept(tmp_path: Path) -> None:
    """One JSONL reader for every file a user gives (issue 37): blank lines hold nothing and the
    lines after them keep their numbers; a column repeated alike on each row of an id is kept."""
    jsonl = tmp_path / "ours.jsonl"
    jsonl.write_text(GOOD + "\n\n" + GOOD.replace('"a"', '"b"') + "\n", encoding="utf-8")
    assert [s.metadata["line"] for s in live_qa(data=str(jsonl)).dataset] == [1, 3]
    csv_file = tmp_path / "ours.csv"
    rows = "a,Is it safe?,Yes.,leaflet 4\na,Is it safe?,Mostly.,leaflet 4\n"
    csv_file.write_text(HEADER[:-1] + ",source\n" + rows, encoding="utf-8")
    [sample] = live_qa(data=str(csv_file)).dataset
    assert (sample.target, sample.metadata["source"]) == (["Yes.", "Mostly."], "leaflet 4")


def test_contamination_on_texts_all_too_short_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "short.csv"
    path.write_text(HEADER + "a,Is it safe?,Yes.\nb,Why does it hurt?,Because.\n", "utf-8")
    task = [
        "liveqa_inspect/live_qa_contamination",
        "--model",
        "mockllm/model",
        "-T",
        f"data={path}",
    ]
    ran = inspect_command("eval", *task, "--log-dir", str(tmp_path / "logs"))
    assert ran.returncode == 1
    said = (
        f"ERROR: {path}: all 2 question texts are shorter than 12 words, the least a text is "
        "split at (half shown, half to complete), so no item is left to probe; give texts of at "
        "least that many words."
    )
    assert "".join(ran.output.split()) == "".join(said.split())


@pytest.mark.slow
def test_eval_retry_after_the_file_changed_is_refused(
    tmp_path: Path, words_as_tokens: None
) -> None:
    """Issue 36: a run that failed part way, retried after its file was edited, would keep the
    samples graded against the old references and grade the others against the new ones. (The
    retry makes its models from the log: mockllm's default replies, whose tokens are words.)"""
    path = write_jsonl(tmp_path)
    logs = str(tmp_path / "logs")

    def failing(prompt: str, config: GenerateConfig) -> str:
        if "fever" in prompt:
            raise RuntimeError("scripted failure")
        return subject(prompt, config)

    subject_model, judge = scripted_model(failing), scripted_model(graded_by([]), "judge")
    task = live_qa(data=str(path))
    run = {"log_dir": logs, "max_samples": 1, **QUIET}
    [failed] = eval(task, model=subject_model, model_roles={"grader": judge}, **run)
    assert failed.status == "error" and failed.samples is not None  # --fail-on-error stops it
    assert {s.id for s in failed.samples if s.error is None} == {"bp-1", "cs-2"}
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    original = path.read_text(encoding="utf-8")
    path.write_text(original.replace("See a doctor after three days.", "Rest."), "utf-8")
    after = hashlib.sha256(path.read_bytes()).hexdigest()

    with pytest.raises(LiveQAError) as refused:
        eval_retry(failed.location, log_dir=logs, **QUIET)

    assert refused.value.args[0] == (
        f"ours.jsonl has changed since the log was written (sha256 {before} then, {after} now): "
        "the samples the retry runs would be graded against other questions and references than "
        "those it keeps. Restore the file and retry the log the first run wrote, or run it anew "
        "with `inspect eval`."
    )
    [retry] = [
        log
        for info in list_eval_logs(logs)
        if (log := read_eval_log(info.name)).eval.eval_id != failed.eval.eval_id
    ]
    assert retry.status == "error"  # its task stopped before any sample ran: it holds the first's
    assert retry.samples is not None and failed.samples is not None
    assert [(s.id, s.error) for s in retry.samples] == [(s.id, s.error) for s in failed.samples]
    path.write_text(original, "utf-8")  # restored, the first log is retried as usual
    [retried] = eval_retry(failed.location, log_dir=logs, **QUIET)
    assert retried.status == "success", retried.error
    assert retried.samples is not None and sorted(s.id for s in retried.samples) == [
        "bp-1",
        "cs-2",
        "fv-3",
    ]

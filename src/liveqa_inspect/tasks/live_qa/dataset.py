"""The LiveQA Medical test questions as Inspect samples, or a team's own (own_set.py). The XML's
quirks (docs/data.md) are absorbed here and nowhere else."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Literal, get_args

from inspect_ai.dataset import MemoryDataset, Sample
from lxml import etree

from liveqa_inspect.arguments import one_of
from liveqa_inspect.data.lines import normalise
from liveqa_inspect.data.own_set import SUFFIXES, OwnSet, own_set
from liveqa_inspect.data.sources import LIVEQA_QUESTIONS, Asset, fetch, location
from liveqa_inspect.errors import ArgumentError, DataError

QuestionField = Literal["summary", "paraphrase", "original"]
QUESTION_FIELDS: tuple[str, ...] = get_args(QuestionField)


def parse_questions(path: Path, content: bytes | None = None) -> list[dict[str, Any]]:
    """Every NLM-QUESTION of the file (or of its verified `content`) as a plain record. Only the
    pinned file is parsed (its sha256 is checked first), so its shape needs no check here."""
    # No DTD, no entities, no network and lxml's default size limits: the file is plain data.
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, remove_comments=True, remove_pis=True
    )
    tree = etree.parse(io.BytesIO(content) if content is not None else str(path), parser)
    return [_question_record(element) for element in tree.findall("NLM-QUESTION")]


def _text(element: etree._Element | None) -> str:
    return "" if element is None else normalise("".join(element.itertext()))


def _question_record(element: etree._Element) -> dict[str, Any]:
    original = element.find("Original-Question")
    annotations = element.find("ANNOTATIONS")
    annotation_items = [] if annotations is None else list(annotations)
    return {
        "qid": element.get("qid"),
        "qfile": original.get("qfile") or original.get("qFile") or "",
        "subject": _text(original.find("SUBJECT")),
        "message": _text(original.find("MESSAGE")),
        "paraphrase": _text(element.find("NIST-PARAPHRASE")),
        "summary": _text(element.find("NLM-Summary")),
        "foci": [
            {"fid": a.get("fid", ""), "category": a.get("fcategory", ""), "text": _text(a)}
            for a in annotation_items
            if a.tag == "FOCUS"
        ],
        "types": [_text(a) for a in annotation_items if a.tag == "TYPE"],
        "keywords": [
            {"kid": a.get("kid", ""), "category": a.get("kcategory", ""), "text": _text(a)}
            for a in annotation_items
            if a.tag == "KEYWORD"
        ],
        "references": [
            {
                "aid": ref.get("aid") or "",
                "answer": _text(ref.find("ANSWER")),
                "url": _text(ref.find("AnswerURL")),
                "comment": _text(ref.find("COMMENT")),
            }
            for ref in element.iter("ReferenceAnswer", "RefAnswer")
        ],
    }


def question_text(record: dict[str, Any], question: str) -> str:
    """The wording put to the model; HELM asks the NLM summary, the others are kept to compare."""
    if question != "original":
        # A few questions have no NIST paraphrase; they are asked as summarised, and flagged.
        return str(record[question] or record["summary"])
    subject, message = record["subject"], record["message"]
    return f"{subject}\n\n{message}" if subject else str(message)


def record_to_sample(record: dict[str, Any], question: str = "summary") -> Sample:
    """One sample a question; every reference is a target so the judge sees them all."""
    foci = record["foci"]
    return Sample(
        id=record["qid"],
        input=question_text(record, question),
        target=[ref["answer"] for ref in record["references"]],
        metadata={
            "question_field": question,
            "question_fallback": question == "paraphrase" and not record["paraphrase"],
            **{k: record[k] for k in ("subject", "message", "paraphrase", "summary", "qfile")},
            "foci": foci,
            "focus_category": foci[0]["category"] if foci else "none",
            "focus_categories": sorted({focus["category"] for focus in foci}),
            "question_types": record["types"],
            "question_type": record["types"][0] if record["types"] else "none",
            "keywords": record["keywords"],
            "references": [
                {k: ref[k] for k in ("aid", "url", "comment")} for ref in record["references"]
            ],
        },
    )


def live_qa_dataset(question: str = "summary", data: str | Path | None = None) -> MemoryDataset:
    return question_set(question, data)[0]


def question_set(
    question: str = "summary", data: str | Path | None = None
) -> tuple[MemoryDataset, Asset | OwnSet]:
    """The 104 test questions, worded as `question` asks (`location` names the copy read), or a
    team's own questions given as a .jsonl or .csv file; and the file as the log records it."""
    one_of("question", question, QUESTION_FIELDS)
    path = Path(data) if data is not None else None
    if path is not None and path.suffix.lower() in SUFFIXES:
        if question == "paraphrase":
            raise ArgumentError(
                f"{path} has one wording of each question, asked as written: leave out "
                "-T question=paraphrase."
            )
        return own_set(path, question)
    if path is not None and path.is_file() and path.suffix.lower() != ".xml":
        raise DataError(
            f"{path}: unknown extension {path.suffix or '(none)'}; give your own questions as "
            f".jsonl or .csv (docs/own-questions.md), or {LIVEQA_QUESTIONS.filename} or a "
            "folder holding it."
        )
    found = fetch(LIVEQA_QUESTIONS, path)
    records = parse_questions(found.path, found.content)
    samples = [record_to_sample(record, question) for record in records]
    where = location(LIVEQA_QUESTIONS, found.path)
    return MemoryDataset(samples, name="live_qa", location=where), LIVEQA_QUESTIONS

"""The LiveQA Medical test questions as Inspect samples, or a team's own (own_set.py). The XML's
quirks (docs/data.md) are absorbed here and nowhere else."""

import io
from pathlib import Path
from typing import get_args

from inspect_ai.dataset import MemoryDataset, Sample
from lxml import etree

from liveqa_inspect.arguments import QuestionField, one_of
from liveqa_inspect.data.lines import normalise
from liveqa_inspect.data.own_set import SUFFIXES, OwnSet, own_set
from liveqa_inspect.data.sources import LIVEQA_QUESTIONS, Asset, fetch, location
from liveqa_inspect.errors import ArgumentError, DataError

QUESTION_FIELDS: tuple[str, ...] = get_args(QuestionField)


def parse_questions(
    path: Path, content: bytes | None = None, question: str = "summary"
) -> list[Sample]:
    """Every NLM-QUESTION of the file (or of its verified `content`), worded as `question` asks.
    Only the pinned file is parsed (its sha256 is checked first): its shape needs no check here."""
    # No DTD, no entities, no network and lxml's default size limits: the file is plain data.
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, remove_comments=True, remove_pis=True
    )
    tree = etree.parse(io.BytesIO(content) if content is not None else str(path), parser)
    return [_sample(element, question) for element in tree.findall("NLM-QUESTION")]


def _text(element: etree._Element | None) -> str:
    return "" if element is None else normalise("".join(element.itertext()))


def _annotated(element: etree._Element, tag: str, key: str, category: str) -> list[dict]:
    return [
        {key: a.get(key, ""), "category": a.get(category, ""), "text": _text(a)}
        for a in element.iterfind(f"ANNOTATIONS/{tag}")
    ]


def _sample(element: etree._Element, question: str) -> Sample:
    """One sample a question; every reference is a target so the judge sees them all. HELM asks
    the NLM summary; the other wordings are kept to compare."""
    original = element.find("Original-Question")
    wordings = {
        "subject": _text(original.find("SUBJECT")),
        "message": _text(original.find("MESSAGE")),
        "paraphrase": _text(element.find("NIST-PARAPHRASE")),
        "summary": _text(element.find("NLM-Summary")),
    }
    subject, message = wordings["subject"], wordings["message"]
    if question == "original":
        asked = f"{subject}\n\n{message}" if subject else message
    else:  # a few questions have no NIST paraphrase: they are asked as summarised, and flagged
        asked = wordings[question] or wordings["summary"]
    foci = _annotated(element, "FOCUS", "fid", "fcategory")
    types = [_text(a) for a in element.iterfind("ANNOTATIONS/TYPE")]
    references = list(element.iter("ReferenceAnswer", "RefAnswer"))
    return Sample(
        id=element.get("qid"),
        input=asked,
        target=[_text(ref.find("ANSWER")) for ref in references],
        metadata={
            "question_field": question,
            "question_fallback": question == "paraphrase" and not wordings["paraphrase"],
            **wordings,
            "qfile": original.get("qfile") or original.get("qFile") or "",
            "foci": foci,
            "focus_category": foci[0]["category"] if foci else "none",
            "focus_categories": sorted({focus["category"] for focus in foci}),
            "question_types": types,
            "question_type": types[0] if types else "none",
            "keywords": _annotated(element, "KEYWORD", "kid", "kcategory"),
            "references": [
                {
                    "aid": ref.get("aid") or "",
                    "url": _text(ref.find("AnswerURL")),
                    "comment": _text(ref.find("COMMENT")),
                }
                for ref in references
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
    samples = parse_questions(found.path, found.content, question)
    where = location(LIVEQA_QUESTIONS, found.path)
    return MemoryDataset(samples, name="live_qa", location=where), LIVEQA_QUESTIONS

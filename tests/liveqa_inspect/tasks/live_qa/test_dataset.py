"""The LiveQA test file as samples: counts, quirks, question wordings and hostile input."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from liveqa_inspect.data.sources import LIVEQA_QUESTIONS, cached_path
from liveqa_inspect.errors import ArgumentError, DataError
from liveqa_inspect.tasks.live_qa.dataset import live_qa_dataset, parse_questions


@pytest.fixture(scope="module")
def samples(liveqa_data_dir: Path):
    return list(live_qa_dataset(data=liveqa_data_dir))


def test_one_sample_a_question_with_every_reference(samples) -> None:
    assert len(samples) == 104
    assert [s.id for s in samples] == [f"TQ{n}" for n in range(1, 105)]
    assert sum(len(s.target) for s in samples) == 167
    assert all(isinstance(s.target, list) and s.target for s in samples)


def test_quirks_are_absorbed(samples) -> None:
    by_id = {s.id: s for s in samples}
    # RefAnswer (TQ1) and ReferenceAnswer (TQ2) are both read; qFile (TQ2) and qfile (TQ1) too.
    assert len(by_id["TQ1"].target) == 3
    assert by_id["TQ1"].metadata["qfile"] == "71.txt"
    assert by_id["TQ2"].metadata["qfile"] == "1-136931717.xml.txt"
    assert all(s.metadata["qfile"] for s in samples)
    assert [s.id for s in samples if not s.metadata["subject"]] == ["TQ103"]
    assert sum(len(s.metadata["question_types"]) > 1 for s in samples) == 27
    assert by_id["TQ1"].metadata["question_type"] == "EFFECT"
    assert by_id["TQ2"].metadata["focus_category"] == "DrugSupplement"
    assert by_id["TQ2"].metadata["keywords"] == [
        {"kid": "K1", "category": "Substance", "text": "gluten"}
    ]
    reference = by_id["TQ1"].metadata["references"][0]
    assert reference["url"] == "https://www.ncbi.nlm.nih.gov/pubmed/765504"
    assert reference["comment"] == "This article is from 1976, and is a case report."


def test_references_are_whitespace_normalised(samples) -> None:
    for sample in samples:
        for reference in sample.target:
            assert reference == " ".join(reference.split())


def test_question_wordings(liveqa_data_dir: Path) -> None:
    summary = {s.id: s for s in live_qa_dataset("summary", liveqa_data_dir)}
    paraphrase = {s.id: s for s in live_qa_dataset("paraphrase", liveqa_data_dir)}
    original = {s.id: s for s in live_qa_dataset("original", liveqa_data_dir)}
    assert summary["TQ3"].input == "Do amphetamine salts 20mg tablets contain gluten?"
    assert paraphrase["TQ3"].input == "Are amphetamine salts of 20 mg dosage gluten free?"
    assert original["TQ3"].input == "amphetamine salts 20 mg\n\nare they gluten free"
    # Three questions have no NIST paraphrase: asked as summarised, and flagged.
    fallbacks = sorted(s.id for s in paraphrase.values() if s.metadata["question_fallback"])
    assert fallbacks == ["TQ10", "TQ103", "TQ34"]
    assert paraphrase["TQ10"].input == summary["TQ10"].input
    # The empty SUBJECT leaves the message alone.
    assert original["TQ103"].input == original["TQ103"].metadata["message"]


def test_unknown_question_wording_is_refused(liveqa_data_dir: Path) -> None:
    with pytest.raises(ArgumentError, match="summary, paraphrase, original; got 'nist'"):
        live_qa_dataset("nist", liveqa_data_dir)
    assert issubclass(ArgumentError, ValueError)


def test_location_names_the_copy_read(
    liveqa_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = liveqa_data_dir / LIVEQA_QUESTIONS.filename
    assert live_qa_dataset(data=liveqa_data_dir).location == str(local)
    assert live_qa_dataset(data=local).location == str(local)
    monkeypatch.delenv("LIVEQA_DATA")
    # A verified copy in the cache came from the pinned URL: the log names that URL.
    cached_path(LIVEQA_QUESTIONS).parent.mkdir(parents=True)
    shutil.copy(local, cached_path(LIVEQA_QUESTIONS))
    assert live_qa_dataset().location == LIVEQA_QUESTIONS.url


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "questions.xml"
    path.write_text(text, encoding="utf-8")
    return path


QUESTION = """<NLM-QUESTION qid="TQ1"><Original-Question qfile="1.txt"><SUBJECT>s</SUBJECT>
<MESSAGE>m</MESSAGE></Original-Question><NIST-PARAPHRASE>p</NIST-PARAPHRASE>
<NLM-Summary>q &amp; r</NLM-Summary><ANNOTATIONS/><ReferenceAnswers><ReferenceAnswer aid="A1">
<ANSWER> an   answer </ANSWER></ReferenceAnswer></ReferenceAnswers></NLM-QUESTION>"""


def test_a_minimal_file_parses(tmp_path: Path) -> None:
    [sample] = parse_questions(_write(tmp_path, f"<Root>{QUESTION}</Root>"))
    assert sample.input == "q & r"
    assert sample.target == ["an answer"]
    assert sample.metadata["focus_category"] == "none"


BILLION_LAUGHS = (
    """<?xml version="1.0"?>
<!DOCTYPE Root [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
<Root>"""
    + QUESTION.replace("q &amp; r", "&d;")
    + "</Root>"
)

EXTERNAL_ENTITY = (
    """<?xml version="1.0"?>
<!DOCTYPE Root [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<Root>"""
    + QUESTION.replace("q &amp; r", "&secret;")
    + "</Root>"
)


@pytest.mark.parametrize(
    ("text", "entity"), [(BILLION_LAUGHS, "&d;"), (EXTERNAL_ENTITY, "&secret;")]
)
def test_the_parser_expands_and_fetches_nothing(tmp_path: Path, text: str, entity: str) -> None:
    """Only the pinned file is parsed (its sha256 is checked first); the parser is hardened all
    the same."""
    [sample] = parse_questions(_write(tmp_path, text))
    assert sample.input == sample.metadata["summary"] == entity


def test_a_local_file_that_is_not_the_pinned_one_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, f"<Root>{QUESTION}</Root>")
    with pytest.raises(DataError, match=f"expected sha256 {LIVEQA_QUESTIONS.sha256}, got"):
        live_qa_dataset(data=path)

"""ExpertQA's long-form questions (Malaviya et al., NAACL 2024) as Inspect samples.

Questions written by experts of 32 fields, each with one system answer that an expert revised;
the revised answer is the reference (the original where no revision exists). The files are the
long-form QA splits of github.com/chaitanyamalaviya/ExpertQA (MIT licence), pinned by commit and
sha256 like the LiveQA data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from inspect_ai.dataset import MemoryDataset, Sample

from liveqa_inspect.dataset import normalise
from liveqa_inspect.sources import Asset, DataError, fetch, read_jsonl

EXPERTQA_REPO = "chaitanyamalaviya/ExpertQA"
EXPERTQA_COMMIT = "1aa7ba81bd4c083c12ef1aa2fee338f6cb60fa87"
EXPERTQA_LICENSE = "MIT"
EXPERTQA_DATA_ENV = "EXPERTQA_DATA"
"""Names a folder holding the upstream ExpertQA files, to use offline instead of the download."""

Split = Literal["domain", "random"]
Subset = Literal["test", "validation"]


def _asset(name: str, sha256: str) -> Asset:
    return Asset(EXPERTQA_REPO, EXPERTQA_COMMIT, f"data/lfqa/{name}", sha256, EXPERTQA_DATA_ENV)


EXPERTQA_FILES: dict[tuple[str, str], Asset] = {
    ("domain", "test"): _asset(
        "domain_test.jsonl", "7a1895dbcf16c4fc135116996d1bdb22412b8d791e620241ac9e80729d55ea6b"
    ),
    ("random", "test"): _asset(
        "rand_test.jsonl", "022d6c19bdd91fb33c3185ef59f9c18510655c15598061e631c434487aa07b28"
    ),
    ("domain", "validation"): _asset(
        "domain_val.jsonl", "876fac217bbee9c33b50105e6a62feb60344e66c7e1998b99dcc4a45f8433f0b"
    ),
    ("random", "validation"): _asset(
        "rand_val.jsonl", "4da2b2e637104fb816716eaa4c60898c6892395d596c03b7d1f9a72c6327069c"
    ),
}


def parse_records(path: Path) -> list[dict[str, Any]]:
    """Every JSONL record of the file, or DataError naming the line that is not one."""
    records = []
    for number, record in read_jsonl(path):
        if not isinstance(record, dict) or not isinstance(record.get("answers"), dict):
            raise DataError(f"{path} line {number}: expected an object with 'answers'.")
        records.append({**record, "_line": number})
    return records


def record_to_sample(record: dict[str, Any], split: str, subset: str) -> Sample:
    """One question: the expert-revised answer as target, provenance of the answer in metadata."""
    line = record["_line"]
    answers = record["answers"]
    if len(answers) != 1:
        raise DataError(f"line {line}: expected one answer, found {len(answers)}.")
    [(system, answer)] = answers.items()
    revised = normalise(answer.get("revised_answer_string"))
    reference = revised or normalise(answer.get("answer_string"))
    question = normalise(record.get("question"))
    if not question or not reference:
        raise DataError(f"line {line}: the question or its answer is empty.")
    meta = record.get("metadata") or {}
    return Sample(
        id=f"{split}_{subset}_{line}",
        input=question,
        target=reference,
        metadata={
            "field": meta.get("field") or "Other",
            "specific_field": meta.get("specific_field") or "",
            "question_type": meta.get("question_type") or "",
            "reference_system": system,
            "reference_revised": bool(revised),
            "usefulness": answer.get("usefulness") or "unlabelled",
        },
    )


def _selected(values: str | list[str] | None) -> set[str] | None:
    if values is None:
        return None
    return {values} if isinstance(values, str) else set(values)


def load_expertqa(
    split: str = "domain",
    subset: str = "test",
    field: str | list[str] | None = None,
    question_type: str | list[str] | None = None,
    data: str | Path | None = None,
) -> MemoryDataset:
    """The chosen split's questions, filtered by field and question type."""
    asset = EXPERTQA_FILES.get((split, subset))
    if asset is None:
        raise ValueError(
            f"split must be 'domain' or 'random' and subset 'test' or 'validation'; "
            f"got split={split!r}, subset={subset!r}."
        )
    samples = [record_to_sample(r, split, subset) for r in parse_records(fetch(asset, data))]
    for key, wanted in (("field", _selected(field)), ("question_type", _selected(question_type))):
        if wanted is None:
            continue
        present = {str((s.metadata or {})[key]) for s in samples}
        unknown = wanted - present
        if unknown:
            raise ValueError(
                f"unknown {key} {sorted(unknown)}; this split has: {'; '.join(sorted(present))}."
            )
        samples = [s for s in samples if (s.metadata or {})[key] in wanted]
    return MemoryDataset(samples, name=f"expert_qa_{split}_{subset}", location=asset.url)

"""ExpertQA's expert-judged claims as Inspect samples: one sample a claim and an aspect.

The expert's label (correctness 1-5, or support 1-3) is the target and `human_level`. Which labels
map where, and which claims are left out and why (no evidence, URL-only evidence, a null label),
is in docs/expert_qa_claims.md; any label spelled otherwise than the pinned files spell it, or a
missing label key, is a DataError: the upstream format changed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal, get_args

from inspect_ai.dataset import MemoryDataset, Sample

from liveqa_inspect.data.text import normalise
from liveqa_inspect.errors import ArgumentError, DataError
from liveqa_inspect.tasks.expert_qa.dataset import (
    Split,
    Subset,
    refuse_unknown,
    split_records,
    wanted_values,
)

Aspect = Literal["correctness", "support"]
ASPECTS: tuple[str, ...] = get_args(Aspect)

CORRECTNESS_LEVELS: dict[str, float] = {
    "Definitely correct": 5.0,
    "Probably correct": 4.0,
    "Unsure": 3.0,
    "Likely incorrect": 2.0,
    "Definitely incorrect": 1.0,
}
SUPPORT_LEVELS: dict[str, float] = {"Complete": 3.0, "Partial": 2.0, "Incomplete": 2.0}
SUPPORT_NOT_JUDGED = frozenset({"Missing", "N/A"})
"""Support labels that say nothing about how well passages support the claim: not samples."""

_EVIDENCE = re.compile(r"\[(\d+)\]\s+(\S+)\s*(?:\n\n(.*))?", re.DOTALL)


def _evidence(item: object, where: str) -> tuple[str, str]:
    """(URL, passage text, "" when the item is a URL only) of one evidence string."""
    match = _EVIDENCE.fullmatch(item) if isinstance(item, str) else None
    if match is None:
        raise DataError(f"{where}: evidence {str(item)[:80]!r} is not '[n] URL[\\n\\npassage]'.")
    return match.group(2), normalise(match.group(3))


def _label(claim: dict[str, Any], aspect: str, where: str) -> float | None:
    """The claim's level for `aspect`, None when it is not a sample."""
    if aspect not in claim:
        raise DataError(f"{where}: the claim has no '{aspect}' key; the upstream format changed.")
    label = claim[aspect]
    levels = CORRECTNESS_LEVELS if aspect == "correctness" else SUPPORT_LEVELS
    skipped = SUPPORT_NOT_JUDGED if aspect == "support" else frozenset()
    if label is None or label in skipped:
        return None
    if not isinstance(label, str) or label not in levels:
        raise DataError(
            f"{where}: unknown {aspect} label {label!r}; expected one of "
            f"{', '.join([*levels, *sorted(skipped)])} or null. "
            "The file may have changed upstream; report it."
        )
    return levels[label]


def _passages(claim: dict[str, Any], where: str) -> dict[str, list[str]] | None:
    """A support sample's passages and their URLs; None when no evidence item has a passage."""
    evidence = claim.get("evidence")
    if not isinstance(evidence, list):
        raise DataError(f"{where}: 'evidence' is not a list.")
    found = [(url, text) for url, text in (_evidence(item, where) for item in evidence) if text]
    if not found:
        return None
    return {"passages": [text for _, text in found], "passage_urls": [url for url, _ in found]}


def record_to_samples(
    record: dict[str, Any], line: int, path: Path, aspect: Aspect, split: str, subset: str
) -> list[Sample]:
    """The judged claims of one record for one aspect. In an id `<split>_<subset>_<line>_c<k>`, k
    is the claim's index in the answer's `claims`: it names the claim whatever is filtered out."""
    [(system, answer)] = record["answers"].items()
    claims = answer.get("claims")
    if not isinstance(answer.get("answer_string"), str) or not isinstance(claims, list):
        raise DataError(
            f"{path} line {line}: the answer lacks a string 'answer_string' or a 'claims' list."
        )
    samples = []
    for index, claim in enumerate(claims):
        where = f"{path} line {line} claim {index}"
        if not isinstance(claim, dict) or not isinstance(claim.get("claim_string"), str):
            raise DataError(f"{where}: the claim is not an object with a string 'claim_string'.")
        text = normalise(claim["claim_string"])
        if not text:
            # The judging path scores an empty text 0 unasked, which is no level of these scales.
            raise DataError(f"{where}: 'claim_string' is empty; there is no claim to judge.")
        level = _label(claim, aspect, where)
        extra = _passages(claim, where) if level is not None and aspect == "support" else {}
        if level is None or extra is None:
            continue
        samples.append(
            Sample(
                id=f"{split}_{subset}_{line}_c{index}",
                input=text,
                target=claim[aspect],
                metadata={
                    "question": normalise(record["question"]),
                    "field": normalise(record["metadata"]["field"]),
                    "specific_field": normalise(record["metadata"]["specific_field"]),
                    "system": system,
                    "answer": normalise(answer["answer_string"]),
                    "claim": text,
                    "claim_index": index,
                    "aspect": aspect,
                    "expert_label": claim[aspect],
                    "human_level": level,
                    "worthiness": claim.get("worthiness"),
                    **extra,
                },
            )
        )
    return samples


def expert_qa_claims_dataset(
    aspect: Aspect = "correctness",
    split: Split = "domain",
    subset: Subset = "test",
    field: str | list[str] | None = None,
    data: str | Path | None = None,
) -> MemoryDataset:
    """The claims of the expert_qa_claims task (its arguments are documented there). Every claim
    of the file is checked, also those a field filter drops, so a bad label is reported whatever
    the filter."""
    if aspect not in ASPECTS:
        raise ArgumentError(f"aspect must be one of {', '.join(ASPECTS)}, got {aspect!r}.")
    path, where, records = split_records(split, subset, data)
    samples = [
        sample
        for line, record in records
        for sample in record_to_samples(record, line, path, aspect, split, subset)
    ]
    wanted = wanted_values("field", field)
    if wanted is not None:
        # Fields of every question, so a field with no sample of this aspect is known, not a typo.
        refuse_unknown("field", wanted, {normalise(r["metadata"]["field"]) for _, r in records})
        samples = [s for s in samples if (s.metadata or {})["field"] in wanted]
    return MemoryDataset(
        samples, name=f"expert_qa_claims_{aspect}_{split}_{subset}", location=where
    )

"""ExpertQA (Malaviya et al., NAACL 2024) as Inspect samples: its long-form questions and its
expert-judged claims (docs/expert_qa.md, docs/expert_qa_claims.md). Only bytes that match a
pinned sha256 are read (sources.py), so the records' shape is known and not checked again. Quirks
of the pinned files absorbed here: a few answers have no usefulness label, or an empty revision."""

import re
from pathlib import Path
from typing import Any, get_args

from inspect_ai.dataset import MemoryDataset, Sample

from liveqa_inspect.arguments import Aspect, Split, Subset, one_of
from liveqa_inspect.data.lines import normalise, read_jsonl
from liveqa_inspect.data.sources import EXPERT_QA_FILES, fetch, location
from liveqa_inspect.errors import ArgumentError, shown

ASPECTS: tuple[str, ...] = get_args(Aspect)
UNLABELLED = "unlabelled"
"""The usefulness of an answer the annotator did not rate (upstream `null`), kept as a group."""
CORRECTNESS_LEVELS: dict[str, float] = {
    "Definitely correct": 5.0,
    "Probably correct": 4.0,
    "Unsure": 3.0,
    "Likely incorrect": 2.0,
    "Definitely incorrect": 1.0,
}
SUPPORT_LEVELS: dict[str, float] = {"Complete": 3.0, "Partial": 2.0, "Incomplete": 2.0}
LABELS = {"correctness": CORRECTNESS_LEVELS, "support": SUPPORT_LEVELS}
"""Each aspect's labels and their levels. A claim with another label makes no sample: null (none
given) and support's Missing and N/A say nothing about how well passages support the claim."""
_EVIDENCE = re.compile(r"\[(\d+)\]\s+(\S+)\s*(?:\n\n(.*))?", re.DOTALL)
Records = list[tuple[int, Any]]  # (line, object) of a pinned file


def _values(metadata: dict[str, Any], name: str) -> list[str]:
    if name == "field":
        return [normalise(metadata["field"])]
    return [kind.strip() for kind in metadata["question_type"].split("|") if kind.strip()]


def record_to_sample(record: dict[str, Any], line: int, split: str, subset: str) -> Sample:
    """The bare question as input: the solver adds the instruction and the field."""
    [(system, answer)] = record["answers"].items()
    revised = normalise(answer.get("revised_answer_string"))
    question, given = normalise(record["question"]), record["metadata"]
    meta = {
        **{key: normalise(given[key]) for key in ("field", "specific_field", "question_type")},
        "question_types": _values(given, "question_type"),
        "reference_system": system,
        "reference_revised": bool(revised),
        "usefulness": answer.get("usefulness") or UNLABELLED,
        "question": question,
    }
    target = revised or normalise(answer["answer_string"])
    return Sample(id=f"{split}_{subset}_{line}", input=question, target=target, metadata=meta)


def _passages(evidence: list[str]) -> dict[str, list[str]] | None:
    """A support sample's passages and their URLs; None when no evidence item has a passage."""
    found = [match for match in map(_EVIDENCE.fullmatch, evidence) if normalise(match[3])]
    if not found:
        return None
    return {"passages": [normalise(m[3]) for m in found], "passage_urls": [m[2] for m in found]}


def record_to_samples(
    record: dict[str, Any], line: int, aspect: Aspect, split: str, subset: str
) -> list[Sample]:
    """The labelled claims of one record for one aspect. In an id `<split>_<subset>_<line>_c<k>`,
    k is the claim's index in the answer's `claims`: it names the claim whatever is left out."""
    [(system, answer)] = record["answers"].items()
    samples = []
    for index, claim in enumerate(answer["claims"]):
        label = claim[aspect]
        level = LABELS[aspect].get(label)
        extra = _passages(claim["evidence"]) if level is not None and aspect == "support" else {}
        if level is None or extra is None:
            continue
        text = normalise(claim["claim_string"])
        metadata = {
            "question": normalise(record["question"]),
            **{key: normalise(record["metadata"][key]) for key in ("field", "specific_field")},
            "system": system,
            "answer": normalise(answer["answer_string"]),
            "claim": text,
            "claim_index": index,
            "aspect": aspect,
            "expert_label": label,
            "human_level": level,
            "worthiness": claim.get("worthiness"),
            **extra,
        }
        sample_id = f"{split}_{subset}_{line}_c{index}"
        samples.append(Sample(id=sample_id, input=text, target=label, metadata=metadata))
    return samples


def split_records(split: str, subset: str, data: str | Path | None) -> tuple[str, Records]:
    """Shared by both loaders, so both refuse the same values with the same words."""
    one_of("split", split, get_args(Split), "'domain' or 'random'", sep=",")
    one_of("subset", subset, get_args(Subset), "'test' or 'validation'", sep=",")
    asset = EXPERT_QA_FILES[(split, subset)]
    found = fetch(asset, data)
    return location(asset, found.path), list(read_jsonl(found.path, content=found.content))


def filtered(samples: list[Sample], records: Records, **wanted: object) -> list[Sample]:
    """The samples with a wanted value of every filter given, any of a list's. A value is checked
    against the whole file, whatever the other filters keep: a typo is refused with the values
    there are, not an empty dataset."""
    for name, values in wanted.items():
        if values is None:
            continue
        asked = [values] if isinstance(values, str) else values
        if not isinstance(asked, list | tuple) or not all(isinstance(v, str) for v in asked):
            # `-T field=5` arrives as an int.
            raise ArgumentError(
                f"{name} must be a string or a list of strings, got {shown(values)}."
            )
        present = {value for _, record in records for value in _values(record["metadata"], name)}
        if unknown := set(asked) - present:
            listed = "; ".join(sorted(present))
            raise ArgumentError(
                f"unknown {name} {shown(sorted(unknown))}; this file has: {listed}."
            )
        samples = [s for s in samples if set(asked) & set(_values(s.metadata or {}, name))]
    return samples


def expert_qa_dataset(
    split: Split = "domain",
    subset: Subset = "test",
    field: str | list[str] | None = None,
    question_type: str | list[str] | None = None,
    data: str | Path | None = None,
) -> MemoryDataset:
    where, records = split_records(split, subset, data)
    samples = [record_to_sample(record, line, split, subset) for line, record in records]
    kept = filtered(samples, records, field=field, question_type=question_type)
    return MemoryDataset(kept, name=f"expert_qa_{split}_{subset}", location=where)


def expert_qa_claims_dataset(
    aspect: Aspect = "correctness",
    split: Split = "domain",
    subset: Subset = "test",
    field: str | list[str] | None = None,
    data: str | Path | None = None,
) -> MemoryDataset:
    one_of("aspect", aspect, ASPECTS, sep=",")
    where, records = split_records(split, subset, data)
    samples = [s for n, r in records for s in record_to_samples(r, n, aspect, split, subset)]
    name = f"expert_qa_claims_{aspect}_{split}_{subset}"
    return MemoryDataset(filtered(samples, records, field=field), name=name, location=where)

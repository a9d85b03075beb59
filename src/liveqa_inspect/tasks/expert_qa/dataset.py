"""ExpertQA (Malaviya et al., NAACL 2024) as Inspect samples: its long-form questions and its
expert-judged claims (docs/expert_qa.md, docs/expert_qa_claims.md). Every record is checked for
the shape either loader relies on, so a changed upstream format stops the run. Quirks of the
pinned files absorbed here: a few answers have no usefulness label, or an empty revision."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal, get_args

from inspect_ai.dataset import MemoryDataset, Sample

from liveqa_inspect.arguments import one_of
from liveqa_inspect.data.lines import normalise, read_jsonl
from liveqa_inspect.data.sources import EXPERT_QA_FILES, fetch, location
from liveqa_inspect.errors import ArgumentError, DataError, shown

Split = Literal["domain", "random"]
Subset = Literal["test", "validation"]
Aspect = Literal["correctness", "support"]
ASPECTS: tuple[str, ...] = get_args(Aspect)
UNLABELLED = "unlabelled"
"""The usefulness of an answer the annotator did not rate (upstream `null`), kept as a group."""
CORRECTNESS_LEVELS: dict[str, float] = {"Definitely correct": 5.0, "Probably correct": 4.0,
    "Unsure": 3.0, "Likely incorrect": 2.0, "Definitely incorrect": 1.0}  # fmt: skip
SUPPORT_LEVELS: dict[str, float] = {"Complete": 3.0, "Partial": 2.0, "Incomplete": 2.0}
LABELS: dict[str, dict[str, float | None]] = {
    "correctness": CORRECTNESS_LEVELS,
    "support": {**SUPPORT_LEVELS, "Missing": None, "N/A": None},
}
"""Each aspect's labels and their levels; None, as for null (no label given), where a label says
nothing about how well passages support the claim: no sample."""
_METADATA_KEYS = ("field", "specific_field", "question_type")
_EVIDENCE = re.compile(r"\[(\d+)\]\s+(\S+)\s*(?:\n\n(.*))?", re.DOTALL)
Records = list[tuple[int, dict[str, Any]]]


def parse_records(path: Path, content: bytes | None = None) -> Records:
    return [(n, _checked(r, f"{path} line {n}")) for n, r in read_jsonl(path, content=content)]


def _require(ok: object, where: str, problem: str) -> None:
    if not ok:
        raise DataError(f"{where}: {problem}.")


def _checked(record: object, where: str) -> dict[str, Any]:
    if not isinstance(record, dict):
        raise DataError(f"{where}: expected a JSON object.")
    _require(isinstance(record.get("question"), str), where, "'question' is not a string")
    answers, metadata = record.get("answers"), record.get("metadata")
    one = isinstance(answers, dict) and len(answers) == 1
    _require(one, where, "'answers' must map exactly one system to its answer")
    _require(isinstance(metadata, dict), where, "'metadata' is not an object")
    missing = [key for key in _METADATA_KEYS if not isinstance(metadata.get(key), str)]
    _require(not missing, where, f"metadata lacks string {', '.join(missing)}")
    [answer] = answers.values()
    shaped = isinstance(answer, dict) and isinstance(answer.get("answer_string"), str)
    _require(shaped, where, "the answer is not an object with a string 'answer_string'")
    _require(isinstance(answer.get("claims"), list), where, "the answer has no 'claims' list")
    return record


def _values(metadata: dict[str, Any], name: str) -> list[str]:
    """A record's values of a filter: its field, or each of its question types."""
    if name == "field":
        return [normalise(metadata["field"])]
    return [kind.strip() for kind in metadata["question_type"].split("|") if kind.strip()]


def record_to_sample(
    record: dict[str, Any], line: int, path: Path, split: str, subset: str
) -> Sample:
    """The bare question as input: the solver adds the instruction and the field."""
    [(system, answer)] = record["answers"].items()
    revised = normalise(answer.get("revised_answer_string"))
    reference = revised or normalise(answer["answer_string"])
    question = normalise(record["question"])
    if not question or not reference:
        raise DataError(f"{path} line {line}: the question or its answer is empty; none to grade.")
    given = record["metadata"]
    meta = {
        **{key: normalise(given[key]) for key in _METADATA_KEYS},
        "question_types": _values(given, "question_type"),
        "reference_system": system,
        "reference_revised": bool(revised),
        "usefulness": answer.get("usefulness") or UNLABELLED,
        "question": question,
    }
    return Sample(id=f"{split}_{subset}_{line}", input=question, target=reference, metadata=meta)


def _passages(claim: dict[str, Any], where: str) -> dict[str, list[str]] | None:
    """A support sample's passages and their URLs; None when no evidence item has a passage."""
    evidence = claim.get("evidence")
    _require(isinstance(evidence, list), where, "'evidence' is not a list")
    found: dict[str, list[str]] = {"passages": [], "passage_urls": []}
    for item in evidence:
        match = _EVIDENCE.fullmatch(item) if isinstance(item, str) else None
        problem = f"evidence {str(item)[:80]!r} is not '[n] URL[\\n\\npassage]'"
        _require(match, where, problem)
        if passage := normalise(match.group(3)):
            found["passages"].append(passage)
            found["passage_urls"].append(match.group(2))
    return found if found["passages"] else None


def record_to_samples(
    record: dict[str, Any], line: int, path: Path, aspect: Aspect, split: str, subset: str
) -> list[Sample]:
    """The judged claims of one record for one aspect. In an id `<split>_<subset>_<line>_c<k>`, k
    is the claim's index in the answer's `claims`: it names the claim whatever is filtered out."""
    [(system, answer)] = record["answers"].items()
    samples = []
    for index, claim in enumerate(answer["claims"]):
        where = f"{path} line {line} claim {index}"
        shaped = isinstance(claim, dict) and isinstance(claim.get("claim_string"), str)
        _require(shaped, where, "the claim is not an object with a string 'claim_string'")
        text = normalise(claim["claim_string"])
        # The judging path scores an empty text 0 unasked, which is no level of these scales.
        _require(text, where, "'claim_string' is empty; there is no claim to judge")
        missing = f"the claim has no '{aspect}' key; the upstream format changed"
        _require(aspect in claim, where, missing)
        label = claim[aspect]
        known = label is None or (isinstance(label, str) and label in LABELS[aspect])
        listed = f"{', '.join(LABELS[aspect])} or null"
        problem = f"unknown {aspect} label {label!r}; expected one of {listed}"
        _require(known, where, f"{problem}. The file may have changed upstream; report it")
        level = None if label is None else LABELS[aspect][label]
        extra = _passages(claim, where) if level is not None and aspect == "support" else {}
        if level is None or extra is None:
            continue
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


def split_records(split: str, subset: str, data: str | Path | None) -> tuple[Path, str, Records]:
    """Shared by both loaders, so both refuse the same values with the same words."""
    one_of("split", split, get_args(Split), "'domain' or 'random'", sep=",")
    one_of("subset", subset, get_args(Subset), "'test' or 'validation'", sep=",")
    asset = EXPERT_QA_FILES[(split, subset)]
    found = fetch(asset, data)
    return found.path, location(asset, found.path), parse_records(found.path, found.content)


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
    path, where, records = split_records(split, subset, data)
    samples = [record_to_sample(record, line, path, split, subset) for line, record in records]
    kept = filtered(samples, records, field=field, question_type=question_type)
    return MemoryDataset(kept, name=f"expert_qa_{split}_{subset}", location=where)


def expert_qa_claims_dataset(
    aspect: Aspect = "correctness",
    split: Split = "domain",
    subset: Subset = "test",
    field: str | list[str] | None = None,
    data: str | Path | None = None,
) -> MemoryDataset:
    """Every claim is checked, also those a field filter drops: a bad label is always reported."""
    one_of("aspect", aspect, ASPECTS, sep=",")
    path, where, records = split_records(split, subset, data)
    samples = [s for n, r in records for s in record_to_samples(r, n, path, aspect, split, subset)]
    name = f"expert_qa_claims_{aspect}_{split}_{subset}"
    return MemoryDataset(filtered(samples, records, field=field), name=name, location=where)

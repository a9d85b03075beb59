"""The LiveQA texts a contamination probe shows in part, each split at one fixed point, the same in
every run. Texts too short to split are left out and counted, never silently dropped."""

import re
from pathlib import Path
from typing import get_args

from inspect_ai.dataset import MemoryDataset, Sample

from liveqa_inspect.arguments import Part, one_of
from liveqa_inspect.data.own_set import OwnSet
from liveqa_inspect.data.sources import Asset
from liveqa_inspect.errors import DataError
from liveqa_inspect.tasks.live_qa.dataset import question_set

PARTS: tuple[str, ...] = get_args(Part)

MIN_SIDE_WORDS = 6
"""Words each half must hold at least: a clause, enough to place the text and to make the rest
unlikely to be guessed word for word (three words are guessed as often as remembered)."""


def split_text(text: str) -> tuple[str, str] | None:
    """The shown part and the remainder, cut at half the words of the text as the loader gives it
    (so the shown part keeps the line break between SUBJECT and MESSAGE); None when too short."""
    words = list(re.finditer(r"\S+", text))
    at = len(words) // 2
    if at < MIN_SIDE_WORDS:
        return None
    start = words[at].start()
    return text[:start].rstrip(), text[start:]


def contamination_dataset(
    part: str = "question", data: str | Path | None = None
) -> tuple[MemoryDataset, list[str], Asset | OwnSet]:
    """The split texts of `part`, the ids of those left out as too short, and the file read."""
    one_of("part", part, PARTS)
    questions, source = question_set("original", data)
    samples, left_out = [], []
    for question in questions:
        if part == "question":
            texts = [(question.id, str(question.input), "")]
        else:
            refs = zip(question.target, (question.metadata or {})["references"], strict=True)
            texts = [(ref["aid"], answer, ref["url"]) for answer, ref in refs]
        for id_, text, url in texts:
            if (cut := split_text(text)) is None:
                left_out.append(str(id_))
                continue
            meta = {"part": part, "qid": question.id, "url": url}
            samples.append(Sample(id=id_, input=cut[0], target=cut[1], metadata=meta))
    if not samples:  # Inspect would stop on an empty dataset, with a traceback
        raise DataError(
            f"{questions.location}: all {len(left_out)} {part} texts are shorter than "
            f"{2 * MIN_SIDE_WORDS} words, the least a text is split at (half shown, half to "
            "complete), so no item is left to probe; give texts of at least that many words."
        )
    name = f"live_qa_contamination_{part}"
    return MemoryDataset(samples, name=name, location=questions.location), left_out, source

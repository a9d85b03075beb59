"""live_qa_contamination: does the model under test know the LiveQA test set by heart? No judge:
its completions of half-shown texts are compared with the true remainders."""

from pathlib import Path

from inspect_ai import Task
from inspect_ai.log import HeadlineMetric
from inspect_ai.model import GenerateConfig

from liveqa_inspect._version import EVAL_VERSION
from liveqa_inspect.arguments import Part
from liveqa_inspect.data.own_set_retry import data_tags
from liveqa_inspect.judging.provenance import data_provenance
from liveqa_inspect.judging.task import scorer_name
from liveqa_inspect.runtime import settle
from liveqa_inspect.stats.names import DIFFERENCE
from liveqa_inspect.tasks.contamination.dataset import MIN_SIDE_WORDS, contamination_dataset
from liveqa_inspect.tasks.contamination.scorer import VERBATIM_WORDS, completion_overlap
from liveqa_inspect.tasks.contamination.solver import INSTRUCTIONS, guided_and_general

PROBE_CONFIG = GenerateConfig(temperature=0.0, max_tokens=1024)
"""Temperature 0, as Golchin & Surdeanu; 1024 tokens hold the longest remainder (607 words)."""


def build(part: Part, data: str | None) -> Task:
    """The task `liveqa_inspect.live_qa_contamination` builds (its arguments: liveqa_inspect.py)."""
    dataset, left_out, source = contamination_dataset(part, Path(data) if data else None)
    scorer = completion_overlap()
    settle()
    return Task(
        dataset=dataset,
        solver=guided_and_general(),
        scorer=scorer,
        config=PROBE_CONFIG,
        version=EVAL_VERSION,
        tags=data_tags(source),
        headline_metric=HeadlineMetric(scorer=scorer_name(scorer), metric=DIFFERENCE),
        metadata={
            "part": part,
            "left_out": left_out,
            "min_side_words": MIN_SIDE_WORDS,
            "verbatim_words": VERBATIM_WORDS,
            "instructions": [instruction.provenance() for instruction in INSTRUCTIONS],
            **data_provenance(source),
        },
    )

"""live_qa_contamination: does the model under test know the LiveQA test set by heart? No judge:
its completions of half-shown texts are compared with the true remainders."""

from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.log import HeadlineMetric
from inspect_ai.model import GenerateConfig

from liveqa_inspect._version import EVAL_VERSION
from liveqa_inspect.data.own_set_retry import data_tags
from liveqa_inspect.judging.provenance import data_provenance
from liveqa_inspect.judging.task import scorer_name
from liveqa_inspect.runtime import settle
from liveqa_inspect.stats.names import DIFFERENCE
from liveqa_inspect.tasks.contamination.dataset import MIN_SIDE_WORDS, Part, contamination_dataset
from liveqa_inspect.tasks.contamination.scorer import VERBATIM_WORDS, completion_overlap
from liveqa_inspect.tasks.contamination.solver import INSTRUCTIONS, guided_and_general

PROBE_CONFIG = GenerateConfig(temperature=0.0, max_tokens=1024)
"""Temperature 0, as Golchin & Surdeanu; 1024 tokens hold the longest remainder (607 words)."""


@task
def live_qa_contamination(part: Part = "question", data: str | None = None) -> Task:
    """Whether the model completes LiveQA texts better when told they come from the test set.

    Args:
        part: "question" (each consumer's own words, public mainly through this test set) or
            "reference" (each expert reference answer, copied from public health websites).
        data: A folder holding the upstream XML, or the file itself, instead of the download;
            or a .jsonl or .csv file of your own questions (docs/own-questions.md).
    """
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

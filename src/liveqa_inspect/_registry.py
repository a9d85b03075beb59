"""The `inspect_ai` entry point, which Inspect imports at every start of every command, for every
eval installed beside this one: it registers the tasks (liveqa_inspect.py) and the `gguf/`
provider, each a light function importing the rest when a task is built or a model made (as
Inspect's own providers do), and nothing else. One exception, for our logs alone: `inspect score`
of a log of ours, which names its scorers without the package, finds them registered."""

import sys

from inspect_ai.model import ModelAPI, modelapi

from liveqa_inspect._inspect_private import score_command_log
from liveqa_inspect.liveqa_inspect import (  # noqa: F401 (registered as they are imported)
    expert_qa,
    expert_qa_claims,
    live_qa,
    live_qa_contamination,
    live_qa_judge,
    live_qa_judge_robustness,
)


@modelapi(name="gguf")
def gguf() -> type[ModelAPI]:
    from liveqa_inspect.providers.gguf import GGUFAPI

    return GGUFAPI


if (log := score_command_log(sys.argv)) is not None:
    from liveqa_inspect.regrading import scorers_of

    scorers_of(log)

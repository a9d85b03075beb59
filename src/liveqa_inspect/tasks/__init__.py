"""The tasks: thin wiring of dataset, solver, scorers, viewer and provenance, one module each."""

from liveqa_inspect.tasks.expert_qa import expert_qa as expert_qa
from liveqa_inspect.tasks.expert_qa_claims import expert_qa_claims as expert_qa_claims
from liveqa_inspect.tasks.live_qa import live_qa as live_qa
from liveqa_inspect.tasks.live_qa_contamination import (
    live_qa_contamination as live_qa_contamination,
)
from liveqa_inspect.tasks.live_qa_judge import live_qa_judge as live_qa_judge
from liveqa_inspect.tasks.live_qa_judge_robustness import (
    live_qa_judge_robustness as live_qa_judge_robustness,
)

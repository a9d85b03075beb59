"""The report on expert_qa_claims logs: live_qa_judge's (tasks/live_qa_judge/report.py), against
ExpertQA's experts, on claims, and for a correctness judge how well it finds the wrong claims."""

from liveqa_inspect.report.comparison import own_questions
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.tasks.expert_qa.report import split
from liveqa_inspect.tasks.live_qa_judge.report import HUMAN_LEVELS, KIND, card, report

__all__ = ["HUMAN_LEVELS", "KIND", "card", "report"]

NOUN = "claims"
HUMANS = ("experts", "ExpertQA's experts")


def setting(log: LoadedLog) -> str:
    aspect = log.log.eval.task_args.get("aspect", "correctness")
    return own_questions(log) or f"aspect: {aspect}; {split(log)}"


def finds_wrong_claims(log: LoadedLog) -> bool:
    """A correctness judge's, whose wrong-claim detection its report shows."""
    return log.log.eval.task_args.get("aspect", "correctness") == "correctness"

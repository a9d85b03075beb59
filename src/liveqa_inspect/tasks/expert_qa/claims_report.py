"""The report on expert_qa_claims logs: live_qa_judge's (tasks/live_qa_judge/report.py), against
ExpertQA's experts, on claims, and for a correctness judge how well it finds the wrong claims."""

from liveqa_inspect.report.comparison import own_questions
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.tasks.expert_qa.report import split
from liveqa_inspect.tasks.live_qa_judge.report import section


def aspect(log: LoadedLog) -> str:
    return str(log.log.eval.task_args.get("aspect", "correctness"))


def setting(log: LoadedLog) -> str:
    return own_questions(log) or f"aspect: {aspect(log)}; {split(log)}"


# A correctness judge's report shows how well it finds the wrong claims.
SECTION = section(
    ("experts", "ExpertQA's experts"), "claims", setting, lambda log: aspect(log) == "correctness"
)

"""The report on expert_qa logs: live_qa's (tasks/live_qa/report.py), over ExpertQA's split and
subset, by field."""

from dataclasses import replace

from liveqa_inspect.report.comparison import own_questions
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.tasks.live_qa import report


def split(log: LoadedLog) -> str:
    args = log.log.eval.task_args
    return f"split: {args.get('split', 'domain')} {args.get('subset', 'test')}"


def setting(log: LoadedLog) -> str:
    return own_questions(log) or split(log)


SECTION = replace(report.SECTION, setting=setting, groups={"field": "By field"})

"""The task families, one folder each over the shared core (docs/layout.md)."""

TASKS: dict[str, tuple[str, str]] = {
    "live_qa": ("live_qa.task", "live_qa.report"),
    "expert_qa": ("expert_qa.task", "expert_qa.report"),
    "live_qa_judge": ("live_qa_judge.task", "live_qa_judge.report"),
    "expert_qa_claims": ("expert_qa.claims_task", "expert_qa.claims_report"),
    "live_qa_contamination": ("contamination.task", "contamination.report"),
    "live_qa_judge_robustness": ("robustness.task", "robustness.report"),
}
"""The registry, each task's module and the report section reading its logs: the package exports
the tasks, and `liveqa-report` hands the sections to its frame (report/cli.py)."""

"""The `liveqa-report` command (docs/report.md). Every figure is computed from the log's scores
with the metrics' own functions (report/loading.py); nothing here is imported by the tasks, so
its imports stay out of an eval."""

from liveqa_inspect.report.cli import main as main

"""The `liveqa-report` command (docs/report.md): figures from the log's scores by the metrics' own
functions. No task imports it, so its imports stay out of an eval."""

from liveqa_inspect.report.cli import main as main

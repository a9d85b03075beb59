"""The `liveqa-report` command (docs/report.md): tables and figures from this package's logs.

Figures the log states are read from it, never recomputed; what it does not hold (per-group
figures, paired differences between logs) is computed from its samples. Nothing here is
imported by the tasks, so heavy imports stay out of an eval.
"""

from liveqa_inspect.report.cli import main

__all__ = ["main"]

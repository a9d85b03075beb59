"""The `liveqa-report` command: readable tables and figures from this package's Inspect logs.

`inspect view` shows a log's metrics as one flat list; this lays them out as a reader asks
about a model (its mean level, per group, against other models on the same questions) or about a
judge (agreement with the humans, against the floors, where it goes wrong, against other judges).
Figures the log states are read from it, never recomputed; what it does not hold (per-group
figures, paired differences between logs) is computed from its samples. Nothing here is
imported by the tasks, so heavy imports stay out of an eval.
"""

from liveqa_inspect.report.cli import main

__all__ = ["main"]

"""A run of one of our tasks leaves the long-lived objects out of the garbage collector's walks
(runtime.settle; the time it saves is in benchmarks/RESULTS.md, not asserted here)."""

from __future__ import annotations

import gc
from pathlib import Path

from liveqa_inspect import live_qa_judge


def test_building_a_task_freezes_what_lives_then(liveqa_data_dir: Path) -> None:
    live_qa_judge(data=str(liveqa_data_dir))
    assert gc.get_freeze_count() > 0

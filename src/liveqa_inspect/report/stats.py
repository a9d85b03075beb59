"""What the log's results do not hold: per-group figures and differences between logs. A
difference resamples the ids two logs share, each id's pair of scores together: on the same
questions the paired interval is far narrower than two separate intervals suggest."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from liveqa_inspect.report.loading import LoadedLog, SampleId
from liveqa_inspect.stats.bootstrap import Estimate, mean_estimate

NO_GROUP = "none"


def group_members(log: LoadedLog, key: str) -> dict[str, list[SampleId]]:
    """Sample ids by a metadata key's value (a list value puts the id in each of its groups),
    largest group first: a table leads with the groups its headline rests on most."""
    members: dict[str, list[SampleId]] = {}
    for sample_id in log.values:
        given = log.metadata[sample_id].get(key)
        labels = given if isinstance(given, list) else [given]
        for label in [str(label) for label in labels if label not in (None, "")] or [NO_GROUP]:
            members.setdefault(label, []).append(sample_id)
    return dict(sorted(members.items(), key=lambda item: (-len(item[1]), item[0])))


def group_means(log: LoadedLog, key: str) -> list[tuple[str, Estimate]]:
    members = group_members(log, key)
    return [(label, mean_estimate(judge_values(log, ids))) for label, ids in members.items()]


def judge_values(log: LoadedLog, ids: Sequence[SampleId]) -> np.ndarray:
    return np.array([log.values[i] for i in ids], dtype=float)


def graded_ids(log: LoadedLog, ids: Sequence[SampleId]) -> list[SampleId]:
    return [i for i in ids if not math.isnan(log.values[i])]


def shared_ids(first: LoadedLog, other: LoadedLog) -> list[SampleId]:
    """Ids both logs scored, in the first log's order."""
    theirs = set(graded_ids(other, list(other.values)))
    return [i for i in graded_ids(first, list(first.values)) if i in theirs]


def mean_difference(first: LoadedLog, other: LoadedLog) -> Estimate:
    """`other` minus `first` over their shared ids. Resampling per-id differences is resampling
    ids with each pair kept."""
    ids = shared_ids(first, other)
    return mean_estimate(judge_values(other, ids) - judge_values(first, ids))

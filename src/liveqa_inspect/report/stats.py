"""What the log's results do not hold: per-group figures and differences between logs. A
difference resamples the ids two logs share, each id's pair of scores together: on the same
questions the paired interval is far narrower than two separate intervals suggest."""

from collections.abc import Collection

from liveqa_inspect.report.loaded import LoadedLog, SampleId
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
    """Each group's mean over its scored ids (`mean_estimate` leaves the unscored NaNs out)."""
    members = group_members(log, key).items()
    return [(name, mean_estimate([log.values[i] for i in ids])) for name, ids in members]


def mean_difference(
    first: LoadedLog, other: LoadedLog, left_out: Collection[SampleId] = ()
) -> Estimate:
    """`other` minus `first` over the ids both scored (NaN where either did not, so left out):
    resampling per-id differences is resampling ids with each pair kept."""
    ids = [i for i in first.values if i in other.values and i not in left_out]
    return mean_estimate([other.values[i] - first.values[i] for i in ids])

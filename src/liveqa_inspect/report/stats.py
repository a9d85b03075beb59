"""What the log's results do not hold: per-group figures and differences between logs. A
difference resamples the pairs two logs share, each pair's scores together: on the same questions
the paired interval is far narrower than two separate intervals suggest."""

from collections.abc import Sequence

from liveqa_inspect.report.graded import Item
from liveqa_inspect.stats.bootstrap import Estimate, mean_estimate

NO_GROUP = "none"


def group_members(items: Sequence[Item], key: str) -> dict[str, list[Item]]:
    """Items by a metadata key's value (a list value puts the item in each of its groups),
    largest group first: a table leads with the groups its headline rests on most."""
    members: dict[str, list[Item]] = {}
    for item in items:
        given = item.metadata.get(key)
        labels = given if isinstance(given, list) else [given]
        for label in [str(label) for label in labels if label not in (None, "")] or [NO_GROUP]:
            members.setdefault(label, []).append(item)
    return dict(sorted(members.items(), key=lambda found: (-len(found[1]), found[0])))


def mean_difference(pairs: Sequence[tuple[Item, Item]]) -> Estimate:
    """The second's value minus the first's over the pairs: resampling per-pair differences is
    resampling the items with each pair kept."""
    return mean_estimate([other.value - first.value for first, other in pairs])

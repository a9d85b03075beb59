"""What a log's figures rest on, said beside them: a judge that often fails to answer, or a run
whose samples often fail, can look good on the few it grades."""

from __future__ import annotations

from liveqa_inspect.report.loaded import LoadedLog


def count_lines(log: LoadedLog) -> list[str]:
    """The samples counted in the section's noun (answers, claims...), then the epochs left out
    of their sample's mean, if any."""
    reasons = ", ".join(f"{reason} {n}" for reason, n in log.reasons.most_common())
    lines = [
        f"{log.section.NOUN}: {log.scored} scored, {log.unscored} unscored"
        + (f" ({reasons})" if reasons else "")
        + f", {log.errored} errored, {log.missing} missing"
    ]
    if log.left_out:
        causes = " and ".join(f"{n} {cause}" for cause, n in sorted(log.left_out.items()))
        lines.append(
            f"epochs left out of their sample's mean: {causes} (a sample's level is the mean "
            "of its epochs with a readable level; it is unscored when no epoch has one)"
        )
    return lines

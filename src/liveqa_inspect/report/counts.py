"""What a report says beside a log's figures: what they rest on (a judge that often fails to
answer, or a run whose samples often fail, can look good on the few it grades), and the caveats
its run printed as it ran (liveqa_inspect/caveats.py): a figure pasted without them would read as
a measurement."""

from liveqa_inspect.caveats import grades_itself, is_smollm2_135m, too_small
from liveqa_inspect.report.loaded import LoadedLog


def count_lines(log: LoadedLog) -> list[str]:
    """The samples counted in the section's noun, then the epochs left out of their mean, if any."""
    reasons = ", ".join(f"{reason} {n}" for reason, n in log.reasons.most_common())
    lines = [
        f"{log.section.noun}: {log.scored} scored, {log.unscored} unscored"
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


def caveat_texts(log: LoadedLog) -> list[str]:
    """A model log graded by its own model, and each model a SmolLM2-135M file served (its
    outputs name the file)."""
    judges = {model for judge in log.judges for model in judge.models}
    found = [grades_itself(log.model)] if log.kind == "model" and log.model in judges else []
    served = {call.model: call.served for call in log.calls}
    found += [too_small(model) for model, file in served.items() if is_smollm2_135m(file)]
    return found

"""The names of the metrics the scorers write and the report reads, built and parsed in one place.

A log stores metrics as a flat name-to-number map; the report rebuilds tables from those names.
Building and parsing them here keeps writer and reader in step: a renamed key breaks both sides'
tests, not silently the report alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

FLOOR_SUFFIX = "_spearman_rho"
JUROR_PREFIX = "juror/"


def level_name(level: float) -> str:
    """A level as every key spells it: `0.7`, `1`, `5`."""
    return f"{level:g}"


def share_key(level: float) -> str:
    return f"share_{level_name(level)}"


def ci_keys(name: str) -> tuple[str, str]:
    """The keys of a figure's 95% interval bounds."""
    return f"{name}_ci_low", f"{name}_ci_high"


def confusion_key(human: float, judge: float) -> str:
    """One cell of the confusion matrix: answers the human put at `human`, the judge at `judge`."""
    return f"human_{level_name(human)}/judge_{level_name(judge)}"


def floor_key(metric: str) -> str:
    """A reference metric's Spearman rho with the human level: the no-model floor."""
    return f"{metric}{FLOOR_SUFFIX}"


def parse_floor_key(key: str) -> str | None:
    return key.removesuffix(FLOOR_SUFFIX) if key.endswith(FLOOR_SUFFIX) else None


def juror_names(models: Iterable[str]) -> list[str]:
    """A unique name for each juror: its model, with `#2`, `#3` on repeats of the same model."""
    seen: dict[str, int] = {}
    names = []
    for model in models:
        seen[model] = seen.get(model, 0) + 1
        names.append(model if seen[model] == 1 else f"{model}#{seen[model]}")
    return names


def juror_key(juror: str, figure: str) -> str:
    """A juror's own figure, e.g. `juror/openai/gpt-4o/kappa_quadratic`."""
    return f"{JUROR_PREFIX}{juror}/{figure}"


def parse_juror_key(key: str) -> tuple[str, str] | None:
    """(juror, figure) of a juror key, or None; the figure is the last `/` part."""
    if not key.startswith(JUROR_PREFIX):
        return None
    juror, _, figure = key.removeprefix(JUROR_PREFIX).rpartition("/")
    return (juror, figure) if juror and figure else None


def juror_figures(figures: Mapping[str, float]) -> dict[str, dict[str, float]]:
    """A panel's jurors, each with its own figures by name; empty for a single judge."""
    jurors: dict[str, dict[str, float]] = {}
    for key, value in figures.items():
        parsed = parse_juror_key(key)
        if parsed is not None:
            jurors.setdefault(parsed[0], {})[parsed[1]] = value
    return jurors


MEAN = "mean"
MEAN_CI: tuple[str, str] = ("ci_low", "ci_high")
"""The judged tasks' headline and its interval bounds, as `metrics.bootstrap_ci` names them."""
ALPHA = "krippendorff_alpha"
"""A panel's ordinal Krippendorff's alpha over its jurors' verdicts, as `metrics.verdicts` writes
it."""
VERDICTS = "verdicts"
"""The scorer that reads the judge's score back for every sample (judging/verdicts.py)."""
SCORED = "scored"
UNSCORED = "unscored"
"""Samples the judge gave a level, and samples it gave none (in no epoch), as the `verdicts`
scorer counts them."""
UNREAD_EPOCHS = "unread_epochs"
"""Epochs without a readable level in samples that have one: left out of the sample's mean."""


def unscored_key(reason: str) -> str:
    """The count of unscored samples for one reason, e.g. `unscored/grader_failed`."""
    return f"{UNSCORED}/{reason}"


KAPPA = "kappa_quadratic"
"""Quadratic-weighted kappa with the human levels: a judge log's headline, and the figure that
marks a scorer as the agreement scorer."""
EPOCH_AGREEMENT = "epoch_agreement"
MAJORITY_SHARE = "majority_share"
"""The no-model floor of exact agreement: the share of items at the most common human level."""

DETECTION_FIGURES = tuple(f"incorrect_{name}" for name in ("precision", "recall", "f1", "auroc"))
"""How well a claims correctness judge finds the claims experts found wrong, as
`metrics.claims.wrong_claim_detection` writes them."""
INCORRECT_PRECISION, INCORRECT_RECALL, INCORRECT_F1, INCORRECT_AUROC = DETECTION_FIGURES

# The contamination probe (live_qa_contamination): a score's value holds each instruction's
# overlap, run, reproduction and refusal under these names, and the metrics report them under the
# same ones.
DIFFERENCE = "difference"
"""Guided minus general ROUGE-L: an item's in its score, their mean in the metrics (the headline,
with `ci_keys(DIFFERENCE)` and `DIFFERENCE_P`)."""
DIFFERENCE_P = "difference_p"
"""The one-sided paired-bootstrap p-value of a mean difference above 0."""


def overlap_key(instruction: str) -> str:
    """An instruction's ROUGE-L with the remainder: an item's, or their mean."""
    return f"{instruction}_rouge_l"


def run_key(instruction: str) -> str:
    """An item's longest run of consecutive words shared with the remainder."""
    return f"{instruction}_run"


def verbatim_key(instruction: str) -> str:
    """Whether an item was reproduced verbatim or nearly (1 or 0); their share in the metrics."""
    return f"{instruction}_verbatim"


def refused_key(instruction: str) -> str:
    """Whether an item's reply was a refusal or empty (1 or 0); their count in the metrics."""
    return f"{instruction}_refused"


# live_qa_judge_robustness: each perturbation's pairs (the original's level and the perturbed
# version's), as `metrics.robustness` writes them.
ROBUSTNESS = "robustness"
"""The share of unchanged levels over every pair that should hold: the task's headline."""
SENSITIVITY = "sensitivity"
"""The share of lowered levels over every pair that should be lowered."""
UNCHANGED = "unchanged"
LOWERED = "lowered"
SHIFT = "shift"
"""The mean of the perturbed level minus the original's: above 0 the perturbation pleased."""
PAIRS = "n"
"""How many pairs a figure is over: both levels read."""
UNREADABLE = "unreadable"
"""How many pairs were left out: a verdict unreadable on either side."""


def pair_key(subject: str, figure: str) -> str:
    """A figure over a perturbation's pairs, or a summary's: `padding_unchanged`,
    `robustness_n`."""
    return f"{subject}_{figure}"

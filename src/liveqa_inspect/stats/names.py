"""The names the metrics give their figures in a log, each built here and never parsed back: the
report computes its figures from the samples, so no reader depends on a name."""

from collections.abc import Iterable
from functools import partial

MEAN, KAPPA = "mean", "kappa_quadratic"
MEAN_CI: tuple[str, str] = ("ci_low", "ci_high")
VERDICTS = "verdicts"
SCORED, UNSCORED, UNREAD_EPOCHS = "scored", "unscored", "unread_epochs"
EPOCH_AGREEMENT = "epoch_agreement"
ALPHA = "krippendorff_alpha"
DETECTION_FIGURES = tuple(f"incorrect_{name}" for name in ("precision", "recall", "f1", "auroc"))
INCORRECT_PRECISION, INCORRECT_RECALL, INCORRECT_F1, INCORRECT_AUROC = DETECTION_FIGURES
DIFFERENCE, DIFFERENCE_P = "difference", "difference_p"
COMPLETIONS, SHORT, BOTH = "completions", "short", "both"  # the probe's counts
ROBUSTNESS, SENSITIVITY = "robustness", "sensitivity"
UNCHANGED, LOWERED, SHIFT, PAIRS, UNREADABLE = "unchanged", "lowered", "shift", "n", "unreadable"


def level_name(level: float) -> str:
    """A level as every name and message spells it: `0.7`, `1`, `5`."""
    return f"{level:g}"


def share_key(level: float) -> str:
    return f"share_{level_name(level)}"


def ci_keys(name: str) -> tuple[str, str]:
    return f"{name}_ci_low", f"{name}_ci_high"


def confusion_key(human: float, judge: float) -> str:
    return f"human_{level_name(human)}/judge_{level_name(judge)}"


def unscored_key(reason: str) -> str:
    return f"{UNSCORED}/{reason}"


def juror_names(models: Iterable[str]) -> list[str]:
    """A unique name for each juror: its model, with `#2`, `#3` on repeats of the same model."""
    listed = list(models)
    return [m + (f"#{n + 1}" if (n := listed[:i].count(m)) else "") for i, m in enumerate(listed)]


def juror_key(juror: str, figure: str) -> str:
    return f"juror/{juror}/{figure}"


def pair_key(subject: str, figure: str) -> str:
    """A figure of a subject: a perturbation's pairs' (`padding_unchanged`), a summary's
    (`robustness_n`), an instruction's (`guided_rouge_l`), a reference metric's floor."""
    return f"{subject}_{figure}"


overlap_key = partial(pair_key, figure="rouge_l")
run_key = partial(pair_key, figure="run")
verbatim_key = partial(pair_key, figure="verbatim")
refused_key = partial(pair_key, figure="refused")

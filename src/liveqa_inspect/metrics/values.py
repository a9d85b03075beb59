"""Reading values out of scores: one conversion, so no two metrics disagree on a sample's value."""

from __future__ import annotations

import numpy as np
from inspect_ai.scorer import SampleScore, value_to_float

to_float = value_to_float()
"""Inspect's own reading of a score value as a float (NaN for an unscored one)."""


def score_values(scores: list[SampleScore]) -> np.ndarray:
    """Each score's value as a float: the judge's level (averaged over epochs)."""
    return np.array([to_float(s.score.value) for s in scores], dtype=float)


def human_levels(scores: list[SampleScore]) -> np.ndarray:
    """Each item's human level, as its sample's metadata holds it."""
    return np.array([float((s.sample_metadata or {})["human_level"]) for s in scores])

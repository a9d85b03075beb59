"""Reading values out of scores: one conversion, so no two metrics disagree on a sample's value."""

import math

import numpy as np
from inspect_ai.scorer import SampleScore, value_to_float

from liveqa_inspect.stats.names import juror_names

to_float = value_to_float()
"""Inspect's own reading of a score value as a float (NaN for an unscored one)."""


def score_values(scores: list[SampleScore]) -> np.ndarray:
    return np.array([to_float(s.score.value) for s in scores], dtype=float)


def human_levels(scores: list[SampleScore]) -> np.ndarray:
    return np.array([float((s.sample_metadata or {})["human_level"]) for s in scores])


def juror_levels(scores: list[SampleScore]) -> tuple[list[str], np.ndarray]:
    """Juror names and an items-by-jurors matrix of their levels, NaN where one gave none (all
    of an empty answer's row: it is scored without asking anyone)."""
    rosters = [(s.score.metadata or {}).get("jurors") or [] for s in scores]
    panel = next((roster for roster in rosters if roster), [])
    names = juror_names(str(juror["model"]) for juror in panel)
    matrix = np.full((len(scores), len(names)), math.nan)
    for row, roster in enumerate(rosters):
        levels = [juror["level"] for juror in roster[: len(names)]]
        matrix[row, : len(levels)] = np.array(levels, dtype=float)  # None: NaN
    return names, matrix

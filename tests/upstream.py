"""The upstream files the tests read, had the way the package has them (conftest.py's check)."""

from __future__ import annotations

import pytest

from liveqa_inspect.data.sources import (
    EXPERT_QA_DATA_ENV,
    EXPERT_QA_FILES,
    LIVEQA_DATA_ENV,
    LIVEQA_JUDGMENTS,
    LIVEQA_QUESTIONS,
    Asset,
    cache_dir,
    fetch,
)
from liveqa_inspect.errors import DataError

UPSTREAM: tuple[Asset, ...] = (LIVEQA_QUESTIONS, LIVEQA_JUDGMENTS, *EXPERT_QA_FILES.values())
"""Every pinned file some test reads."""


def upstream_folders() -> dict[str, str]:
    """The folder of each data variable's verified files, fetched as a task fetches them; a
    usage error, which pytest prints once as the run's only output, when some are missing."""
    folders: dict[str, str] = {}
    failed: list[tuple[Asset, DataError]] = []
    for asset in UPSTREAM:
        try:
            folders[asset.env_var] = str(fetch(asset).path.parent)
        except DataError as error:
            failed.append((asset, error))
    if failed:
        wanted = {
            env: ", ".join(a.filename for a in UPSTREAM if a.env_var == env)
            for env in (LIVEQA_DATA_ENV, EXPERT_QA_DATA_ENV)
        }
        raise pytest.UsageError(
            "The tests need the upstream data files, and "
            f"{', '.join(asset.filename for asset, _ in failed)} could be neither read nor "
            f"downloaded. Set {LIVEQA_DATA_ENV}=<folder holding {wanted[LIVEQA_DATA_ENV]}> and "
            f"{EXPERT_QA_DATA_ENV}=<folder holding {wanted[EXPERT_QA_DATA_ENV]}>, or run once "
            f"online so they are downloaded, verified, into {cache_dir()}. First reason: "
            f"{failed[0][1]}"
        )
    return folders

"""Pinned upstream data files: where they come from, and how a run gets a verified copy.

The data are never shipped with the package. Each file is downloaded from a pinned commit, checked
against its sha256 and cached per user; a local folder (or file) can stand in for the download, as
tests and CI do, and is checked against the same digest so a run never scores altered data.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
from inspect_ai.util import download
from platformdirs import user_cache_dir
from tenacity import RetryError

LIVEQA_REPO = "abachaa/LiveQA_MedicalTask_TREC2017"
LIVEQA_COMMIT = "3f5a42ccbaa0b8ff1c665a6dc23785740ab0f09f"
LIVEQA_LICENSE = "CC BY 4.0"
LIVEQA_DATA_ENV = "LIVEQA_DATA"
"""Names a folder holding the upstream LiveQA files (or, for one file, that file) to use offline."""

CACHE_ENV = "LIVEQA_INSPECT_CACHE_DIR"
"""Overrides the per-user cache folder that downloads are kept in."""


@dataclass(frozen=True)
class Asset:
    """One upstream file pinned by commit and digest."""

    repo: str
    commit: str
    path: str
    sha256: str
    env_var: str
    license: str
    host: str = "https://raw.githubusercontent.com"

    @property
    def filename(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def url(self) -> str:
        return f"{self.host}/{self.repo}/{self.commit}/{self.path}"

    def provenance(self) -> dict[str, str]:
        """What a log records so a reader can fetch the exact same bytes."""
        return {
            "url": self.url,
            "commit": self.commit,
            "sha256": self.sha256,
            "license": self.license,
        }


LIVEQA_QUESTIONS = Asset(
    repo=LIVEQA_REPO,
    commit=LIVEQA_COMMIT,
    path="TestDataset/TREC-2017-LiveQA-Medical-Test-Questions-w-summaries.xml",
    sha256="f6384fcf03e9b1bd0d9a15f6ea1a1aafc9491082e63fef0922ae2d6bc451805b",
    env_var=LIVEQA_DATA_ENV,
    license=LIVEQA_LICENSE,
)

LIVEQA_JUDGMENTS = Asset(
    repo=LIVEQA_REPO,
    commit=LIVEQA_COMMIT,
    path="TestDataset/TREC-2017-LiveQA-Medical-qrels-NIST-692.txt",
    sha256="0733ace5409474afb0481805affd73da4b6b10b659c5838582d3dd17a1b44b7a",
    env_var=LIVEQA_DATA_ENV,
    license=LIVEQA_LICENSE,
)


# Upstream: https://github.com/chaitanyamalaviya/ExpertQA, folder data/lfqa at commit
# 1aa7ba81bd4c083c12ef1aa2fee338f6cb60fa87. Licence: MIT (Copyright (c) 2023 Chaitanya Malaviya),
# the repository's LICENSE file; the data are downloaded at run time, never shipped.
EXPERT_QA_REPO = "chaitanyamalaviya/ExpertQA"
EXPERT_QA_COMMIT = "1aa7ba81bd4c083c12ef1aa2fee338f6cb60fa87"
EXPERT_QA_LICENSE = "MIT"
EXPERT_QA_DATA_ENV = "EXPERTQA_DATA"
"""Names a folder holding the upstream ExpertQA files, to use offline instead of the download."""


def _asset(name: str, sha256: str) -> Asset:
    return Asset(
        EXPERT_QA_REPO,
        EXPERT_QA_COMMIT,
        f"data/lfqa/{name}",
        sha256,
        EXPERT_QA_DATA_ENV,
        EXPERT_QA_LICENSE,
    )


EXPERT_QA_DOMAIN_TEST = _asset(
    "domain_test.jsonl", "7a1895dbcf16c4fc135116996d1bdb22412b8d791e620241ac9e80729d55ea6b"
)
EXPERT_QA_RANDOM_TEST = _asset(
    "rand_test.jsonl", "022d6c19bdd91fb33c3185ef59f9c18510655c15598061e631c434487aa07b28"
)
EXPERT_QA_DOMAIN_VALIDATION = _asset(
    "domain_val.jsonl", "876fac217bbee9c33b50105e6a62feb60344e66c7e1998b99dcc4a45f8433f0b"
)
EXPERT_QA_RANDOM_VALIDATION = _asset(
    "rand_val.jsonl", "4da2b2e637104fb816716eaa4c60898c6892395d596c03b7d1f9a72c6327069c"
)

EXPERT_QA_FILES: dict[tuple[str, str], Asset] = {
    ("domain", "test"): EXPERT_QA_DOMAIN_TEST,
    ("random", "test"): EXPERT_QA_RANDOM_TEST,
    ("domain", "validation"): EXPERT_QA_DOMAIN_VALIDATION,
    ("random", "validation"): EXPERT_QA_RANDOM_VALIDATION,
}


class DataError(RuntimeError):
    """A data file is missing, unreachable, altered or malformed; the message says how to fix it."""


def cache_dir() -> Path:
    return Path(os.environ.get(CACHE_ENV) or user_cache_dir("liveqa_inspect"))


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def fetch(asset: Asset, local: str | Path | None = None) -> Path:
    """Return a verified local copy of `asset`.

    `local` (else the asset's environment variable) names a folder holding the upstream file, or
    the file itself; otherwise the pinned URL is downloaded into the cache, reusing a verified copy.
    """
    override = local if local is not None else os.environ.get(asset.env_var)
    if override:
        return _verified_local(asset, Path(override).expanduser())
    dest = cache_dir() / asset.commit[:12] / asset.filename
    try:
        return download(asset.url, asset.sha256, dest)
    except ValueError as error:
        raise DataError(
            f"{asset.url} did not match its pinned digest: {error}. The file was not used. "
            "Upstream may have changed; report it, or supply a verified copy with "
            f"{asset.env_var}=<folder>."
        ) from error
    except (httpx.HTTPError, RetryError, OSError) as error:
        raise DataError(
            f"Could not download {asset.url} ({error}) and there is no verified copy at {dest}. "
            f"Download the file by hand and set {asset.env_var}=<folder holding "
            f"{asset.filename}>, or put it at {dest}."
        ) from error


def _verified_local(asset: Asset, path: Path) -> Path:
    candidate = path / asset.filename if path.is_dir() else path
    if not candidate.is_file():
        raise DataError(
            f"{candidate} does not exist. {asset.env_var} (or the task's data argument) must name "
            f"a folder holding {asset.filename}, or that file itself; it can be downloaded from "
            f"{asset.url}."
        )
    actual = sha256_of(candidate)
    if actual != asset.sha256:
        raise DataError(
            f"{candidate} is not the pinned {asset.filename}: expected sha256 {asset.sha256}, "
            f"got {actual}. The file was not used; replace it with the file from {asset.url}."
        )
    return candidate


def read_jsonl(path: Path) -> Iterator[tuple[int, object]]:
    """(line number, value) for each non-blank line; DataError names a line that is not JSON."""
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as error:
                raise DataError(f"{path} line {number}: not valid JSON ({error}).") from error

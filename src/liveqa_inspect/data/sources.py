"""Pinned upstream data files: where they come from, and how a run gets a verified copy (never
an altered one: docs/data.md, "Source and integrity")."""

import contextlib
import hashlib
import os
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import NamedTuple

import httpx
from inspect_ai.util import download
from platformdirs import user_cache_dir

from liveqa_inspect.errors import DataError

# Each names a folder holding the upstream files (or one file itself), to use offline.
LIVEQA_DATA_ENV = "LIVEQA_DATA"
EXPERT_QA_DATA_ENV = "EXPERTQA_DATA"
CACHE_ENV = "LIVEQA_INSPECT_CACHE_DIR"  # overrides the per-user cache folder of downloads
MAX_BYTES = 64 * 2**20  # the largest pinned file is 3.4 MB: a larger one is not read whole


@dataclass(frozen=True)
class Asset:
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
        return {key: getattr(self, key) for key in ("url", "commit", "sha256", "license")}


_LIVEQA = ("abachaa/LiveQA_MedicalTask_TREC2017", "3f5a42ccbaa0b8ff1c665a6dc23785740ab0f09f")
_liveqa = partial(Asset, *_LIVEQA, env_var=LIVEQA_DATA_ENV, license="CC BY 4.0")
LIVEQA_QUESTIONS = _liveqa(
    "TestDataset/TREC-2017-LiveQA-Medical-Test-Questions-w-summaries.xml",
    "f6384fcf03e9b1bd0d9a15f6ea1a1aafc9491082e63fef0922ae2d6bc451805b",
)
LIVEQA_JUDGMENTS = _liveqa(
    "TestDataset/TREC-2017-LiveQA-Medical-qrels-NIST-692.txt",
    "0733ace5409474afb0481805affd73da4b6b10b659c5838582d3dd17a1b44b7a",
)

# MIT (Copyright (c) 2023 Chaitanya Malaviya, the repository's LICENSE); downloaded, never shipped.
_EXPERT_QA = ("chaitanyamalaviya/ExpertQA", "1aa7ba81bd4c083c12ef1aa2fee338f6cb60fa87")


def _expert_qa(name: str, sha256: str) -> Asset:
    return Asset(*_EXPERT_QA, f"data/lfqa/{name}.jsonl", sha256, EXPERT_QA_DATA_ENV, "MIT")


EXPERT_QA_FILES: dict[tuple[str, str], Asset] = {
    ("domain", "test"): _expert_qa(
        "domain_test", "7a1895dbcf16c4fc135116996d1bdb22412b8d791e620241ac9e80729d55ea6b"
    ),
    ("random", "test"): _expert_qa(
        "rand_test", "022d6c19bdd91fb33c3185ef59f9c18510655c15598061e631c434487aa07b28"
    ),
    ("domain", "validation"): _expert_qa(
        "domain_val", "876fac217bbee9c33b50105e6a62feb60344e66c7e1998b99dcc4a45f8433f0b"
    ),
    ("random", "validation"): _expert_qa(
        "rand_val", "4da2b2e637104fb816716eaa4c60898c6892395d596c03b7d1f9a72c6327069c"
    ),
}


def cache_dir() -> Path:
    return Path(os.environ.get(CACHE_ENV) or user_cache_dir("liveqa_inspect"))


def cached_path(asset: Asset) -> Path:
    return cache_dir() / asset.commit[:12] / asset.filename


class Verified(NamedTuple):
    """Parsers read `content`, never `path` again: a file replaced after its digest was checked
    (a sync job, a shared folder) is never used unverified."""

    path: Path
    content: bytes


def fetch(asset: Asset, local: str | Path | None = None) -> Verified:
    """A verified copy of `asset`: `local` or the asset's environment variable (a folder holding
    the file, or the file itself), else the cache, else a download."""
    if override := local if local is not None else os.environ.get(asset.env_var):
        path = Path(override).expanduser()
        return _verified(asset, path / asset.filename if path.is_dir() else path, cached=False)
    dest = cached_path(asset)
    if not dest.is_file():
        _download(asset, dest)
    return _verified(asset, dest, cached=True)


def location(asset: Asset, path: Path) -> str:
    """What a dataset's `location` records: the URL for a download, else the local copy read."""
    return asset.url if path == cached_path(asset) else str(path)


def _verified(asset: Asset, path: Path, cached: bool) -> Verified:
    if not path.is_file():
        raise DataError(
            f"{path} does not exist. {asset.env_var} (or the task's data argument) must name "
            f"a folder holding {asset.filename}, or that file itself; it can be downloaded from "
            f"{asset.url}."
        )
    with path.open("rb") as f:
        content = f.read(MAX_BYTES + 1)
    too_big = len(content) > MAX_BYTES
    actual = f"a file of over {MAX_BYTES} bytes" if too_big else hashlib.sha256(content).hexdigest()
    if actual == asset.sha256:
        return Verified(path, content)
    digests = f"expected sha256 {asset.sha256}, got {actual}"
    if cached:  # saved only once verified, so changed since: refused, not replaced
        raise DataError(
            f"The cached file at {path} exists but does not match the pinned sha256: {digests}. "
            f"It was not used. Delete it to download it again, or set "
            f"{asset.env_var}=<folder holding a verified {asset.filename}>."
        )
    if path.name != asset.filename:  # another file (the XML, where the judgments are needed)
        raise DataError(
            f"{path} was given where {asset.filename} is needed, and it is not that file: "
            f"{digests}. Name a folder holding {asset.filename} instead, with {asset.env_var} or "
            "the task's data argument, or that file itself."
        )
    raise DataError(
        f"{path} is not the pinned {asset.filename}: {digests}. The file was not used; "
        f"replace it with the file from {asset.url}."
    )


def _download(asset: Asset, dest: Path) -> None:
    """Inspect's `download`, after one request (it retries a refused connection for a minute,
    where offline waiting cannot help), and without the folders it made if nothing was saved."""
    try:
        httpx.head(asset.url, timeout=4.0)
    except httpx.HTTPError as error:  # anything but being offline is the download's to retry
        if isinstance(error, httpx.ConnectError | httpx.ConnectTimeout | httpx.ProxyError):
            raise _unreachable(asset, dest, error) from error
    made = [folder for folder in (dest.parent, *dest.parent.parents) if not folder.exists()]
    try:
        download(asset.url, asset.sha256, dest, timeout=10.0)
    except ValueError as error:  # the digest did not match
        raise DataError(
            f"The download of {asset.filename} was refused: {error}. Nothing was saved. Upstream "
            f"may have changed; report it, or supply a verified copy with "
            f"{asset.env_var}=<folder holding {asset.filename}>."
        ) from error
    except OSError as error:
        raise DataError(
            f"Could not save {asset.filename} at {dest} ({error}). Set {CACHE_ENV} to a "
            f"writable folder, or {asset.env_var}=<folder holding the file>."
        ) from error
    except Exception as error:
        failure = error.__cause__ or error  # after its last retry, tenacity raises from it
        if not isinstance(failure, httpx.HTTPError):
            raise
        raise _unreachable(asset, dest, failure) from error
    finally:
        for folder in made:  # deepest first; one holding a file stays
            with contextlib.suppress(OSError):
                folder.rmdir()


def _unreachable(asset: Asset, dest: Path, error: Exception) -> DataError:
    reason = str(error) or type(error).__name__
    if isinstance(error, httpx.HTTPStatusError):
        reason = f"HTTP {error.response.status_code} {error.response.reason_phrase}"
    return DataError(
        f"Could not download {asset.filename} from {asset.url} ({reason}); nothing was saved. "
        f"To run offline, download that file by hand and set {asset.env_var}=<folder holding "
        f"it> (or pass the task's data argument, -T data=<folder>), or put it at {dest}."
    )

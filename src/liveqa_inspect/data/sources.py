"""Pinned upstream data files: where they come from, and how a run gets a verified copy (never
an altered one: docs/data.md, "Source and integrity")."""

from __future__ import annotations

import contextlib
import hashlib
import os
import uuid
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import httpx
from platformdirs import user_cache_dir
from tenacity import (
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    stop_after_delay,
    wait_exponential,
)

from liveqa_inspect.errors import DataError

LIVEQA_DATA_ENV = "LIVEQA_DATA"
"""Names a folder holding the upstream LiveQA files (or, for one file, that file) to use offline."""

CACHE_ENV = "LIVEQA_INSPECT_CACHE_DIR"
"""Overrides the per-user cache folder that downloads are kept in."""


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
        return {
            "url": self.url,
            "commit": self.commit,
            "sha256": self.sha256,
            "license": self.license,
        }


_liveqa = partial(
    Asset,
    "abachaa/LiveQA_MedicalTask_TREC2017",
    "3f5a42ccbaa0b8ff1c665a6dc23785740ab0f09f",
    env_var=LIVEQA_DATA_ENV,
    license="CC BY 4.0",
)
LIVEQA_QUESTIONS = _liveqa(
    "TestDataset/TREC-2017-LiveQA-Medical-Test-Questions-w-summaries.xml",
    "f6384fcf03e9b1bd0d9a15f6ea1a1aafc9491082e63fef0922ae2d6bc451805b",
)
LIVEQA_JUDGMENTS = _liveqa(
    "TestDataset/TREC-2017-LiveQA-Medical-qrels-NIST-692.txt",
    "0733ace5409474afb0481805affd73da4b6b10b659c5838582d3dd17a1b44b7a",
)

# ExpertQA's licence: MIT (Copyright (c) 2023 Chaitanya Malaviya), the repository's LICENSE file;
# the data are downloaded at run time, never shipped.
EXPERT_QA_DATA_ENV = "EXPERTQA_DATA"
"""Names a folder holding the upstream ExpertQA files, to use offline instead of the download."""

_expert_qa = partial(
    Asset,
    "chaitanyamalaviya/ExpertQA",
    "1aa7ba81bd4c083c12ef1aa2fee338f6cb60fa87",
    env_var=EXPERT_QA_DATA_ENV,
    license="MIT",
)
_EXPERT_QA = {
    ("domain", "test"): (
        "domain_test.jsonl",
        "7a1895dbcf16c4fc135116996d1bdb22412b8d791e620241ac9e80729d55ea6b",
    ),
    ("random", "test"): (
        "rand_test.jsonl",
        "022d6c19bdd91fb33c3185ef59f9c18510655c15598061e631c434487aa07b28",
    ),
    ("domain", "validation"): (
        "domain_val.jsonl",
        "876fac217bbee9c33b50105e6a62feb60344e66c7e1998b99dcc4a45f8433f0b",
    ),
    ("random", "validation"): (
        "rand_val.jsonl",
        "4da2b2e637104fb816716eaa4c60898c6892395d596c03b7d1f9a72c6327069c",
    ),
}
EXPERT_QA_FILES: dict[tuple[str, str], Asset] = {
    key: _expert_qa(f"data/lfqa/{name}", sha256) for key, (name, sha256) in _EXPERT_QA.items()
}
EXPERT_QA_DOMAIN_TEST = EXPERT_QA_FILES[("domain", "test")]


def cache_dir() -> Path:
    return Path(os.environ.get(CACHE_ENV) or user_cache_dir("liveqa_inspect"))


def cached_path(asset: Asset) -> Path:
    return cache_dir() / asset.commit[:12] / asset.filename


@dataclass(frozen=True)
class Verified:
    """A pinned file's bytes, checked against its digest, and the copy they were read from.

    Parsers read `content`, never the file again: a file replaced after the check (by a sync job,
    in a shared folder) is then never used unverified.
    """

    path: Path
    content: bytes


def _read_once(path: Path) -> tuple[bytes, str]:
    """The file's bytes, read once, and their sha256. A file larger than any pinned one is not
    read whole: it cannot be the pinned file, and the digest's place says so."""
    with path.open("rb") as f:
        content = f.read(MAX_DOWNLOAD_BYTES + 1)
    if len(content) > MAX_DOWNLOAD_BYTES:
        return b"", f"a file of over {MAX_DOWNLOAD_BYTES} bytes"
    return content, hashlib.sha256(content).hexdigest()


def fetch(asset: Asset, local: str | Path | None = None) -> Verified:
    """A verified copy of `asset`: `local` or the asset's environment variable (a folder holding
    the file, or the file itself), else the cache, else a download."""
    override = local if local is not None else os.environ.get(asset.env_var)
    if override:
        return _verified_local(asset, Path(override).expanduser())
    dest = cached_path(asset)
    if dest.is_file():
        return _verified_cache(asset, dest)
    return _download(asset, dest)


def location(asset: Asset, path: Path) -> str:
    """What a dataset's `location` records: the URL for a download (now or cached earlier), else
    the local copy the run actually read."""
    return asset.url if path == cached_path(asset) else str(path)


def _verified_local(asset: Asset, path: Path) -> Verified:
    candidate = path / asset.filename if path.is_dir() else path
    if not candidate.is_file():
        raise DataError(
            f"{candidate} does not exist. {asset.env_var} (or the task's data argument) must name "
            f"a folder holding {asset.filename}, or that file itself; it can be downloaded from "
            f"{asset.url}."
        )
    content, actual = _read_once(candidate)
    if actual != asset.sha256 and candidate.name != asset.filename:
        # Another file (say the LiveQA XML, where the judgments are needed): not a copy to replace.
        raise DataError(
            f"{candidate} was given where {asset.filename} is needed, and it is not that file: "
            f"expected sha256 {asset.sha256}, got {actual}. Name a folder holding "
            f"{asset.filename} instead, with {asset.env_var} or the task's data argument, or "
            "that file itself."
        )
    if actual != asset.sha256:
        raise DataError(
            f"{candidate} is not the pinned {asset.filename}: expected sha256 {asset.sha256}, "
            f"got {actual}. The file was not used; replace it with the file from {asset.url}."
        )
    return Verified(candidate, content)


def _verified_cache(asset: Asset, dest: Path) -> Verified:
    # Downloads land in the cache only once verified, so a mismatch means the file was changed
    # since: it is refused, not silently replaced, and the user decides.
    content, actual = _read_once(dest)
    if actual != asset.sha256:
        raise DataError(
            f"The cached file at {dest} exists but does not match the pinned sha256: expected "
            f"{asset.sha256}, got {actual}. It was not used. Delete it to download it again, or "
            f"set {asset.env_var}=<folder holding a verified {asset.filename}>."
        )
    return Verified(dest, content)


DOWNLOAD_ATTEMPTS = 3
"""Tries of a download that failed transiently (a 408, 429 or 5xx reply, a dropped or slow read).

A refused or unresolvable connection is not retried at all: offline, waiting cannot help, and the
error says how to run from a local copy. Three tries with short waits, and none begun after
DOWNLOAD_PATIENCE seconds, ride out a blip and still fail within seconds.
"""

DOWNLOAD_PATIENCE = 10
"""Seconds after which a failed try is not followed by another."""

DOWNLOAD_WAIT = wait_exponential(multiplier=0.5, max=2)
"""Waits between those tries: 0.5 s, then 1 s."""

DOWNLOAD_TIMEOUT = httpx.Timeout(10.0, connect=4.0)
"""Seconds to connect, and to wait on each read: the pinned files are at most a few MB."""

MAX_DOWNLOAD_BYTES = 64 * 2**20
"""The largest pinned file is 3.4 MB; a host sending more is not serving it, and is cut off."""

_RETRIED_STATUS = frozenset({408, 429, 500, 502, 503, 504})
_RETRIED_ERRORS = (httpx.ReadTimeout, httpx.ReadError, httpx.RemoteProtocolError)


def _transient(error: BaseException) -> bool:
    if isinstance(error, httpx.HTTPStatusError):
        return error.response.status_code in _RETRIED_STATUS
    return isinstance(error, _RETRIED_ERRORS)


def _get(url: str) -> bytes:
    """The body of `url`. Inspect's `download` retries refused connections for up to 60 s and
    makes the cache folder before trying, so the retry budget here is our own."""
    with httpx.stream("GET", url, follow_redirects=True, timeout=DOWNLOAD_TIMEOUT) as response:
        response.raise_for_status()
        body = bytearray()
        for chunk in response.iter_bytes():
            body += chunk
            if len(body) > MAX_DOWNLOAD_BYTES:
                raise DataError(f"{url} sent over {MAX_DOWNLOAD_BYTES} bytes; it was cut off.")
        return bytes(body)


def _reason(error: Exception) -> str:
    if isinstance(error, httpx.HTTPStatusError):
        return f"HTTP {error.response.status_code} {error.response.reason_phrase}"
    return str(error) or type(error).__name__


def _download(asset: Asset, dest: Path) -> Verified:
    """Download, verify, then save: nothing, not even a folder, is written unless verified."""
    retrying = Retrying(
        stop=stop_after_attempt(DOWNLOAD_ATTEMPTS) | stop_after_delay(DOWNLOAD_PATIENCE),
        wait=DOWNLOAD_WAIT,
        retry=retry_if_exception(_transient),
        reraise=True,
    )
    try:
        content = retrying(_get, asset.url)
    except httpx.HTTPError as error:
        raise DataError(
            f"Could not download {asset.filename} from {asset.url} ({_reason(error)}); nothing "
            f"was saved. To run offline, download that file by hand and set "
            f"{asset.env_var}=<folder holding it> (or pass the task's data argument, "
            f"-T data=<folder>), or put it at {dest}."
        ) from error
    actual = hashlib.sha256(content).hexdigest()
    if actual != asset.sha256:
        raise DataError(
            f"{asset.url} did not match its pinned digest: expected sha256 {asset.sha256}, got "
            f"{actual}. Nothing was saved. Upstream may have changed; report it, or supply a "
            f"verified copy with {asset.env_var}=<folder holding {asset.filename}>."
        )
    _save(content, dest, asset.env_var)
    return Verified(dest, content)


def _save(content: bytes, dest: Path, env_var: str) -> None:
    """Write atomically, so an interrupted run never leaves a partial file where a copy belongs."""
    partial = dest.with_name(f"{dest.name}.{uuid.uuid4().hex}.partial")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(content)
        os.replace(partial, dest)
    except OSError as error:
        raise DataError(
            f"Downloaded and verified {dest.name} but could not save it at {dest} ({error}). "
            f"Set {CACHE_ENV} to a writable folder, or {env_var}=<folder holding the file>."
        ) from error
    finally:
        # Where the cache folder cannot exist (a path under a regular file), neither can the
        # partial file: a failed cleanup must not replace the error above with its own.
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)

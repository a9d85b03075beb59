"""One worker process for the scorers' CPU-bound work: HELM's reference overlap and the floors.

Why a process: the metrics cost milliseconds of CPU an answer, and nltk, which they need, about a
second to import. Inside Inspect's process both would hold the GIL, so wherever they ran (on the
event loop or in a thread) every sample's model calls would wait on them, and at 50 connections
on 2 cores a run is already CPU-bound. In a process of their own they use another core. The
process starts when the first task that needs it is built and imports the metrics (nltk) at
once, while Inspect is still setting up; its caches (stems, each question's references) last for
the run.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from typing import Any, TypeVar

from anyio import CapacityLimiter, to_thread

PRELOADED = "liveqa_inspect.overlap.text_overlap"

T = TypeVar("T")

_WAITERS = CapacityLimiter(4)
"""Threads waiting on results at once: the worker computes one result at a time, so a few keep it
busy, and Inspect's own work in anyio's shared threads is not crowded out."""


@cache
def started() -> ProcessPoolExecutor:
    """The worker, launched by the first call (when a task is built), not by the first score."""
    worker = ProcessPoolExecutor(
        max_workers=1, initializer=importlib.import_module, initargs=(PRELOADED,)
    )
    worker.submit(int)
    return worker


async def run(function: Callable[..., T], *args: Any) -> T:
    """`function(*args)`, computed in the worker; `function` must be importable by its name."""
    future = started().submit(function, *args)
    return await to_thread.run_sync(future.result, limiter=_WAITERS)

"""One worker process for the scorers' CPU-bound work (HELM's reference overlap, the floors): the
metrics cost milliseconds of CPU an answer and nltk a second to import, all holding the GIL that
Inspect's event loop needs. The worker starts and imports them when the first task that needs it
is built; its caches (stems, references) last for the run."""

import asyncio
import importlib
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from typing import Any, TypeVar

from anyio import CapacityLimiter, to_thread

PRELOADED = "liveqa_inspect.overlap.text_overlap"
UNUSED = ("scipy", "sklearn")
"""What nltk's `__init__` imports, each optionally, for features the metrics never use (its
association measures' Fisher test, its scikit-learn classifier): two thirds of the worker's
start (1.1 s of CPU, 0.3 s without them), left out of the worker alone."""

T = TypeVar("T")

_WAITERS = CapacityLimiter(4)
"""Threads waiting on results at once under trio: the worker computes one result at a time, so a
few keep it busy, and Inspect's own work in anyio's shared threads is not crowded out."""


def _preload() -> None:
    for name in UNUSED:  # None in sys.modules: the import fails, and nltk goes without
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]
    importlib.import_module(PRELOADED)


@cache
def started() -> ProcessPoolExecutor:
    """The worker, launched by the first call (when a task is built), not by the first score."""
    worker = ProcessPoolExecutor(max_workers=1, initializer=_preload)
    worker.submit(int)
    return worker


async def run(function: Callable[..., T], *args: Any) -> T:
    """`function(*args)`, computed in the worker; `function` must be importable by its name.

    Under asyncio the result is awaited on the event loop itself; a thread blocked on it (trio's
    only way) costs the loop a hand-over of the GIL for every result."""
    future = started().submit(function, *args)
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # trio
        return await to_thread.run_sync(future.result, limiter=_WAITERS)
    return await asyncio.wrap_future(future)

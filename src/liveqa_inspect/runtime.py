"""The garbage collector kept off the objects a run never frees, once a process (issue 37): when
a task is built, Inspect, the package and their libraries (openai's and pydantic's classes,
Inspect's control server) hold some 300,000 objects that live as long as the process, which
Python's full collections walk again several times a run and once more at exit: about 2 s of a
104-sample live_qa run here, more under load (benchmarks/RESULTS.md). Frozen, they are left out;
a cycle already unreachable when frozen is kept to the end (nothing is freed at exit anyway)."""

import atexit
import gc
from functools import cache


@cache
def settle() -> None:
    """At the first task built: what lives then is frozen, and at exit what the run made too, so
    the interpreter's collection at exit walks nothing; the operating system frees the memory."""
    gc.freeze()
    atexit.register(gc.freeze)

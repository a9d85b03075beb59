"""The llama.cpp server process: llama-cpp-python's own server, ended when its parent ends.

`python -m llama_cpp.server` outlives an eval that is killed (SIGKILL, a CI timeout), and on a
shared machine every orphan holds its model in memory until someone notices. Run through this
module it exits within a second of losing the process that started it, however that ended.

Usage: python -m liveqa_inspect.providers.serve PARENT_PID [llama_cpp.server options...]
"""

from __future__ import annotations

import os
import runpy
import sys
import threading
import time

ORPHAN_POLL_SECONDS = 1.0


def exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ORPHAN_POLL_SECONDS)
    os._exit(0)


def main() -> None:
    parent = int(sys.argv[1])
    threading.Thread(target=exit_when_orphaned, args=(parent,), daemon=True).start()
    sys.argv = ["llama_cpp.server", *sys.argv[2:]]
    runpy.run_module(  # inspect-evals-lint: ignore[host_code_execution] -- a fixed module name
        "llama_cpp.server", run_name="__main__", alter_sys=True
    )


if __name__ == "__main__":
    main()

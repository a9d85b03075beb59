"""`python -m liveqa_inspect.providers.serve PARENT_PID [llama_cpp.server options...]`:
llama-cpp-python's server, exiting within a second of losing the process that started it (run
alone, it would outlive a killed eval and hold its model in memory)."""

import os
import runpy
import sys
import threading
import time


def exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


if __name__ == "__main__":
    threading.Thread(target=exit_when_orphaned, args=(int(sys.argv[1]),), daemon=True).start()
    sys.argv = ["llama_cpp.server", *sys.argv[2:]]
    runpy.run_module(  # inspect-evals-lint: ignore[host_code_execution] -- a fixed module name
        "llama_cpp.server", run_name="__main__", alter_sys=True
    )

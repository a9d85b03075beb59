"""The eval's one version, read from eval.yaml, where the register states it.

eval.yaml carries it in the register's `N-X` form: N counts changes that make scores
incomparable with earlier logs, X changes of interface only. Logs record it as `task_version`;
the package's own (PEP 440) version is its rendering `N.x`, x counting interface letters from 0.
"""

from __future__ import annotations

from importlib.resources import files

import yaml

EVAL_VERSION: str = yaml.safe_load(
    files("liveqa_inspect").joinpath("eval.yaml").read_text(encoding="utf-8")
)["version"]
_comparability, _interface = EVAL_VERSION.split("-")
__version__ = f"{int(_comparability)}.{ord(_interface) - ord('A')}"

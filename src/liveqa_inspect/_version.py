"""The eval's one version: `__version__`, the package's (PEP 440), a literal so that setuptools
reads it without importing anything. The register's `N-X` form in eval.yaml and in every log's
`task_version` is derived from it: N counts changes that make scores incomparable with earlier
logs, X (A, B, ...) changes of interface only. A test checks that eval.yaml states the same one.
"""

__version__ = "3.0"

_comparability, _interface = __version__.split(".")
EVAL_VERSION = f"{_comparability}-{chr(ord('A') + int(_interface))}"

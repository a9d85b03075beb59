"""The eval's one version, a literal setuptools reads without importing. Its `N-X` form (eval.yaml,
every log's `task_version`): N counts changes that make scores incomparable with earlier logs, X
(A, B, ...) changes of interface only."""

__version__ = "4.3"

_comparability, _interface = __version__.split(".")
EVAL_VERSION = f"{_comparability}-{chr(ord('A') + int(_interface))}"

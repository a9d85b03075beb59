"""The `inspect_ai` entry point: every task and the model API. Inspect loads it once, before any
task is built: the place to say our errors under `--display none` too."""

from liveqa_inspect import *  # noqa: F403 (every task, as the package exports them)
from liveqa_inspect._inspect_private import register_scorers_unqualified, say_under_display_none
from liveqa_inspect.errors import LiveQAError
from liveqa_inspect.providers.gguf import gguf  # noqa: F401 (registered as it is imported)

register_scorers_unqualified(__package__)
say_under_display_none(LiveQAError)

"""Inspect's private APIs this package needs, each in this one place, with why no public one does.

inspect_ai is pinned below 0.4; `tests/test_inspect_private.py` fails when either changes shape.
"""

from __future__ import annotations

from inspect_ai._util.error import PrerequisiteError, set_exception_hook
from inspect_ai.model import GenerateConfig, Model
from inspect_ai.model._model import active_model
from inspect_ai.model._providers.openai_compatible import OpenAICompatibleAPI

__all__ = [
    "OpenAICompatibleAPI",
    "PrerequisiteError",
    "eval_is_building_tasks",
    "resolved_config",
    "set_exception_hook",
]
"""`PrerequisiteError` is the error Inspect's CLI prints as its message alone, without a traceback:
our errors are one (errors.py); no public export names it. `set_exception_hook` installs Inspect's
hook once per process: run first, before ours wraps it (_registry.py), Inspect's later call cannot
wrap ours; `eval()` installs it only after loading the entry points, and no public call does.

`OpenAICompatibleAPI` is the base of Inspect's own llama-cpp-python, vLLM and SGLang providers,
and of `gguf/` (providers/gguf.py): Inspect exports no public base for an OpenAI-compatible
provider. `gguf/` relies on it making its client from `base_url` once, when constructed."""


def resolved_config(model: Model) -> GenerateConfig:
    """What Inspect would send for `model` with no config passed to `generate()`: the role's own
    config, plus Inspect's flags (`--temperature`, `--seed`, ...) when the model is the one under
    evaluation, plus the operational flags every model inherits (`--max-retries`, `--timeout`).
    Our judge defaults may fill only what the user left unset, and no public API says what that is.
    """
    return model._resolve_config(None)


def eval_is_building_tasks() -> bool:
    """Whether `eval()` is building the task now, with the model roles already bound.

    No public call tells a task built by eval() from one built before eval() is called (whose
    roles are not known yet); Inspect sets its active model only in the former.
    """
    return active_model() is not None

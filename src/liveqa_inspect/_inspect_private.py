"""Inspect's private APIs this package needs, each in this one place, with why no public one does
(inspect_ai is pinned below 0.4; tests/liveqa_inspect/test_inspect_private.py fails on a change).

`PrerequisiteError`: Inspect's CLI prints it as its message alone; our errors are one (errors.py).
`set_exception_hook`: Inspect installs its hook once a process, in `eval()` only after loading the
entry points: run first (_registry.py), its later call cannot wrap ours. `OpenAICompatibleAPI`:
the base of Inspect's llama-cpp-python, vLLM and SGLang providers and of `gguf/`, which relies on
it making its client from `base_url` once, when constructed.
"""

from __future__ import annotations

from inspect_ai._util.error import PrerequisiteError, set_exception_hook
from inspect_ai.model import GenerateConfig, Model
from inspect_ai.model._model import active_model
from inspect_ai.model._providers.openai_compatible import OpenAICompatibleAPI

__all__ = ["OpenAICompatibleAPI", "PrerequisiteError", "set_exception_hook"]


def resolved_config(model: Model) -> GenerateConfig:
    """What Inspect would send with no config passed to `generate()` (the role's config, the CLI's
    flags): our judge defaults fill only what the user left unset, and no public API says what."""
    return model._resolve_config(None)


def eval_is_building_tasks() -> bool:
    """Whether `eval()` is building the task now, its model roles bound (not yet known in a task
    built before): Inspect sets its active model only then, and no public call tells them apart."""
    return active_model() is not None

"""Inspect's private APIs this package needs, in one place, each with why no public one does
(tests/liveqa_inspect/test_inspect_private.py fails on a change). `PrerequisiteError`: the CLI
prints it as its message alone (errors.py). `set_exception_hook`: installed once a process, in
`eval()` after the entry points load, so run first (_registry.py) it cannot wrap ours.
`OpenAICompatibleAPI`: the base of `gguf/`, which relies on it making its client once."""

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

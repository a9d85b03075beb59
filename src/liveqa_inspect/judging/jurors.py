"""Who judges: the models bound to the grader role, else the task's default."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.model import Model, get_model, model_roles

from liveqa_inspect._inspect_private import eval_is_building_tasks
from liveqa_inspect.judging.settings import JUDGE_ROLE


def jurors(default: str | None) -> list[Model]:
    """Who judges: every model bound to the grader role, else `default` (None: the evaluated
    model). Called when scoring or setup starts, never at task build, where roles are unknown."""
    bound = model_roles().get(JUDGE_ROLE)
    if bound is None:
        return [get_model(default)] if default else [get_model()]
    return list(bound) if isinstance(bound, list) else [bound]


def default_judge_made_early(default: str | None) -> None:
    """Make the pinned default judge while `inspect eval` builds the task (the roles are bound by
    then), so a client that cannot be made (no API key) stops the run with Inspect's one-line error
    instead of a traceback from the first sample's setup. A task built before eval() is called
    cannot know its roles yet: `judges_ready` then stops the run before any answer instead."""
    if default is None or not eval_is_building_tasks() or JUDGE_ROLE in model_roles():
        return
    get_model(default)


def repeats(judges: Sequence[Model]) -> list[int]:
    """For each juror, how many jurors before it are the same model."""
    names = [str(judge) for judge in judges]
    return [names[:index].count(name) for index, name in enumerate(names)]

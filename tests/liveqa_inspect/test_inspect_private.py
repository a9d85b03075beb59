"""Inspect's private APIs we rely on (`_inspect_private`): these fail when Inspect changes them."""

from __future__ import annotations

import contextvars
import importlib
import sys

from inspect_ai import Task, eval, task
from inspect_ai.dataset import Sample
from inspect_ai.model import GenerateConfig, get_model

from liveqa_inspect._inspect_private import (
    OpenAICompatibleAPI,
    PrerequisiteError,
    eval_is_building_tasks,
    resolved_config,
    set_exception_hook,
)
from liveqa_inspect.errors import LiveQAError
from tests.helpers import QUIET, scripted_model


def test_resolved_config_is_the_model_s_own_config_with_nothing_passed() -> None:
    model = get_model("mockllm/model", config=GenerateConfig(max_tokens=77, seed=5), memoize=False)
    config = resolved_config(model)
    assert (config.max_tokens, config.seed, config.temperature) == (77, 5, None)


def test_eval_is_building_tasks_only_inside_eval() -> None:
    seen: list[bool] = []

    @task
    def build() -> Task:
        seen.append(eval_is_building_tasks())
        return Task(dataset=[Sample(input="x", target="y")])

    # Inspect leaves its active model set in the thread after an in-process eval(): outside one
    # is a context no eval() has run in.
    outside = contextvars.Context()
    assert not outside.run(eval_is_building_tasks)
    outside.run(build)
    [log] = eval(build, model=scripted_model(lambda *_: "y"), **QUIET)
    assert log.status == "success"
    assert seen == [False, True]


def test_the_openai_compatible_base_makes_its_client_from_base_url_once() -> None:
    """gguf/ records the weights in `base_url` after the client is made with the port."""
    api = OpenAICompatibleAPI("m", base_url="http://127.0.0.1:9/v1", api_key="k", service="x")
    api.base_url = "local-gguf:m.gguf#sha256=0"
    assert str(api.client.base_url) == "http://127.0.0.1:9/v1/"


def test_inspect_installs_its_exception_hook_once_so_ours_stays_outside() -> None:
    """The entry point installs Inspect's hook, then ours around it: eval()'s own later call
    must leave ours in place."""
    importlib.import_module("liveqa_inspect._registry")
    ours = sys.excepthook
    set_exception_hook()
    assert sys.excepthook is ours
    assert issubclass(LiveQAError, PrerequisiteError)

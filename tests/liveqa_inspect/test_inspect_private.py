"""Inspect's private APIs we rely on (`_inspect_private`): these fail when Inspect changes them."""

from __future__ import annotations

import importlib
import sys

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import GenerateConfig, get_model
from inspect_ai.scorer import exact
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import registry_create, registry_info

from liveqa_inspect._inspect_private import (
    MODEL_NONE,
    OpenAICompatibleAPI,
    PrerequisiteError,
    register_scorers_unqualified,
    resolved_config,
    sample_is_scored,
    set_exception_hook,
)
from liveqa_inspect.errors import LiveQAError
from tests.helpers import QUIET, scripted_model


def test_resolved_config_is_the_model_s_own_config_with_nothing_passed() -> None:
    model = get_model("mockllm/model", config=GenerateConfig(max_tokens=77, seed=5), memoize=False)
    config = resolved_config(model)
    assert (config.max_tokens, config.seed, config.temperature) == (77, 5, None)


def test_sample_is_scored_only_in_a_scored_run() -> None:
    seen: list[bool] = []

    @solver
    def look() -> Solver:
        async def solve(state: TaskState, generate: Generate) -> TaskState:
            seen.append(sample_is_scored())
            return state

        return solve

    task = Task(dataset=[Sample(input="x", target="y")], setup=look(), scorer=exact())
    for scored in (True, False):
        [log] = eval(task, model=scripted_model(lambda *_: "y"), score=scored, **QUIET)
        assert log.status == "success"
    assert seen == [True, False]


def test_our_scorers_are_found_by_the_unqualified_names_a_log_records() -> None:
    """What `inspect score LOG` looks up: the names without the package (the entry point, loaded
    by then, registered them)."""
    importlib.import_module("liveqa_inspect._registry")
    register_scorers_unqualified("liveqa_inspect")  # again: it never replaces a registration
    recorded = {"live_qa_scorer": {}, "verdicts": {"judge": "live_qa_scorer", "levels": [0.0]}}
    for name, options in recorded.items():
        made = registry_create("scorer", name, **options)
        assert registry_info(made).name == f"liveqa_inspect/{name}"


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


def test_a_run_without_a_model_logs_inspect_s_model_none() -> None:
    [log] = eval(Task(dataset=[Sample(input="x", target="x")], scorer=exact()), **QUIET)
    assert log.eval.model == MODEL_NONE

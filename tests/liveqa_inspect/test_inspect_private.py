"""Inspect's private APIs we rely on (`_inspect_private`): these fail when Inspect changes them."""

from __future__ import annotations

import importlib
import sys

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.hooks import Hooks, RunStart, hooks
from inspect_ai.model import GenerateConfig, get_model
from inspect_ai.scorer import exact
from inspect_ai.util import registry_create, registry_info

from liveqa_inspect import live_qa_judge
from liveqa_inspect._inspect_private import (
    MODEL_NONE,
    OpenAICompatibleAPI,
    PrerequisiteError,
    register_unqualified,
    resolved_config,
    run_scores,
    say_under_display_none,
    score_command_log,
    set_exception_hook,
)
from liveqa_inspect.errors import LiveQAError
from tests.helpers import QUIET, scripted_model, verdict


def test_resolved_config_is_the_model_s_own_config_with_nothing_passed() -> None:
    model = get_model("mockllm/model", config=GenerateConfig(max_tokens=77, seed=5), memoize=False)
    config = resolved_config(model)
    assert (config.max_tokens, config.seed, config.temperature) == (77, 5, None)


SEEN: list[bool] = []


@hooks(name="run_scores_probe", description="What run_scores says as each run starts.")
class RunScoresProbe(Hooks):
    async def on_run_start(self, data: RunStart) -> None:
        SEEN.append(run_scores())


def test_run_scores_says_whether_the_run_starting_scores() -> None:
    task = Task(dataset=[Sample(input="x", target="y")], scorer=exact())
    SEEN.clear()
    for scored in (True, False):
        [log] = eval(task, model=scripted_model(lambda *_: "y"), score=scored, **QUIET)
        assert log.status == "success"
    assert SEEN == [True, False]


def test_an_inspect_score_command_s_log_is_read_as_inspect_reads_it() -> None:
    command = ["inspect", "score", "--model-role", "grader=x/y", "a.eval", "--action", "append"]
    assert score_command_log(command) == "a.eval"
    assert score_command_log(["inspect", "eval", "a.eval"]) is None
    assert score_command_log(["inspect"]) is None


def test_our_scorers_are_found_by_the_unqualified_names_a_log_records() -> None:
    """What `inspect score LOG` looks up: the names without the package."""
    importlib.import_module("liveqa_inspect.tasks.live_qa.task")
    register_unqualified(["live_qa_scorer", "verdicts"], "liveqa_inspect")
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
    """Ours is installed over Inspect's: Inspect's own later call must leave ours in place."""
    say_under_display_none(LiveQAError)
    ours = sys.excepthook
    set_exception_hook()
    assert sys.excepthook is ours and ours.__qualname__.startswith("say_under_display_none")
    assert issubclass(LiveQAError, PrerequisiteError)


def test_a_run_without_a_model_logs_inspect_s_model_none() -> None:
    [log] = eval(Task(dataset=[Sample(input="x", target="x")], scorer=exact()), **QUIET)
    assert log.eval.model == MODEL_NONE


def test_a_judge_s_settings_are_read_once_a_run_so_each_run_s_hold() -> None:
    """One model object judging two runs at two temperatures (Inspect's flags, which a model
    passed to `eval()` takes from the run): each run's scores record its own."""
    judge = scripted_model(lambda *_: verdict("1"), "twice")
    sent = []
    for temperature in (0.5, 1.0):
        [log] = eval(live_qa_judge(), model=judge, limit=1, temperature=temperature, **QUIET)
        assert log.status == "success" and log.samples is not None
        [juror] = log.samples[0].scores["judge_agreement_scorer"].metadata["jurors"]
        sent.append(juror["config"]["temperature"])
    assert sent == [0.5, 1.0]
    assert [config.temperature for _, config in judge.calls] == [0.5, 1.0]  # type: ignore[attr-defined]

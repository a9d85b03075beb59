"""The fake OpenAI server works with Inspect's real `openai` and `openai-api` providers, offline."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest
from inspect_ai.model import GenerateConfig, Model, get_model

from tests.openai_server import Faults, OpenAIServer, words

pytestmark = pytest.mark.slow

GPT4O = "openai/gpt-4o-2024-05-13"
FAST = GenerateConfig(max_retries=0, timeout=20)
"""No Inspect-level retries (their backoff is 3-6 s); the openai SDK still retries twice."""


def _model(server: OpenAIServer, name: str = GPT4O, config: GenerateConfig = FAST) -> Model:
    return get_model(name, base_url=server.base_url, api_key="test", config=config, memoize=False)


def _post(server: OpenAIServer, body: dict, path: str = "/chat/completions") -> tuple[int, dict]:
    """(status, headers) of one raw request, for what the providers would hide."""
    request = urllib.request.Request(
        server.base_url + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as ex:
        return ex.code, dict(ex.headers)


CHAT_BODY = {"model": "m", "messages": [{"role": "user", "content": "a"}]}


def test_chat_completion_carries_reply_usage_and_records_the_config() -> None:
    seen: list[tuple[list[dict], str]] = []

    def responder(messages: list[dict], model: str) -> str:
        seen.append((messages, model))
        return "the judge says yes"

    config = GenerateConfig(temperature=0.2, max_tokens=50, seed=7, max_retries=0)
    with OpenAIServer(responder) as server:
        output = asyncio.run(_model(server, config=config).generate("hello there world"))
        assert output.completion == "the judge says yes"
        assert output.usage is not None
        assert (output.usage.input_tokens, output.usage.output_tokens) == (3, 4)
        [record] = server.requests
        assert (record.path, record.model, record.status, record.reply) == (
            "/v1/chat/completions",
            "gpt-4o-2024-05-13",
            200,
            "the judge says yes",
        )
        assert record.messages == [{"role": "user", "content": "hello there world"}]
        assert seen == [(record.messages, "gpt-4o-2024-05-13")]
        assert {k: record.body.get(k) for k in ("temperature", "max_tokens", "seed")} == {
            "temperature": 0.2,
            "max_tokens": 50,
            "seed": 7,
        }


def test_reasoning_model_goes_through_responses_with_reasoning_usage() -> None:
    config = GenerateConfig(reasoning_effort="low", max_tokens=40, max_retries=0)
    with OpenAIServer(lambda m, n: f"{n} thinks yes") as server:
        output = asyncio.run(_model(server, "openai/o3-mini", config).generate("hello world"))
        assert output.completion == "o3-mini thinks yes"
        assert output.usage is not None
        assert output.usage.input_tokens == words("hello world")
        assert (output.usage.output_tokens, output.usage.reasoning_tokens) == (6, 3)
        probe, request = server.requests  # the provider probes reasoning summaries once
        assert probe.messages == [{"role": "user", "content": "Please say 'hello, world'"}]
        assert request.path == "/v1/responses" and request.status == 200
        assert request.messages == [{"role": "user", "content": "hello world"}]
        assert request.body["max_output_tokens"] == 40
        assert request.body["reasoning"]["effort"] == "low"


def test_faults_are_retried_by_the_sdk_until_success() -> None:
    faults = Faults(error_rate=0.4, drop_rate=0.2, seed=1)
    with OpenAIServer(lambda m, n: "ok", faults) as server:
        model = _model(server)

        async def run() -> list[str]:
            return [(await model.generate(f"question {i}")).completion for i in range(6)]

        assert asyncio.run(run()) == ["ok"] * 6
        assert {None, 429, 500} <= {r.status for r in server.requests}
        assert server.count(lambda r: r.status == 200) == 6


def test_always_failing_model_fails_while_others_answer() -> None:
    with OpenAIServer(lambda m, n: "fine", Faults(always={"gpt-4o-2024-05-13": 500})) as server:
        assert asyncio.run(_model(server, "openai/gpt-4o-mini").generate("q")).completion == "fine"
        with pytest.raises(Exception, match="InternalServerError"):
            asyncio.run(_model(server).generate("q"))
        assert server.count(lambda r: r.model == "gpt-4o-mini" and r.status == 200) == 1
        judged = [r.status for r in server.requests if r.model == "gpt-4o-2024-05-13"]
        assert judged == [500, 500, 500]  # the first try and the SDK's two retries
        status, headers = _post(server, {**CHAT_BODY, "model": "gpt-4o-2024-05-13"})
        assert (status, headers["retry-after-ms"]) == (500, "10")


def test_always_takes_no_random_draw_from_other_models() -> None:
    def statuses(always: dict[str, int], interleave: bool) -> list[int | None]:
        with OpenAIServer(lambda m, n: "x", Faults(error_rate=0.5, seed=7, always=always)) as s:
            for _ in range(12):
                _post(s, CHAT_BODY)
                if interleave:
                    assert _post(s, {**CHAT_BODY, "model": "judge"})[0] == 500
            return [r.status for r in s.requests if r.model == "m"]

    first = statuses({}, False)
    assert 200 in first and 429 in first and 500 in first
    assert statuses({"judge": 500}, True) == first  # same faults for "m", run after run


def test_openai_api_provider_via_env(monkeypatch: pytest.MonkeyPatch) -> None:
    with OpenAIServer(lambda m, n: f"{n}: {m[-1]['content']}", Faults(error_rate=0.5)) as server:
        for key, value in server.env().items():
            monkeypatch.setenv(key, value)
        model = get_model("openai-api/local/judge", config=FAST, memoize=False)
        assert asyncio.run(model.generate("ping")).completion == "judge: ping"
        assert server.count(lambda r: r.status == 200) == 1
        model = get_model(GPT4O, config=FAST, memoize=False)
        assert asyncio.run(model.generate("ping")).completion == "gpt-4o-2024-05-13: ping"


@pytest.mark.parametrize(
    ("name", "requests"),
    [
        (GPT4O, [(200, True)]),
        ("openai-api/local/judge", [(200, True)]),
        ("openai/gpt-5", [(200, None), (400, True), (200, None)]),  # probe, streamed, retried
    ],
)
def test_streaming(name: str, requests: list[tuple[int, bool | None]]) -> None:
    """Chat completions stream as SSE; a streamed Responses request is retried unstreamed."""
    events: list[object] = []

    async def on_stream(event: object) -> None:
        events.append(event)

    with OpenAIServer(lambda m, n: "streamed reply") as server:
        output = asyncio.run(_model(server, name).generate("hello", on_stream=on_stream))
        assert output.completion == "streamed reply"
        assert output.usage is not None and output.usage.input_tokens == 1
        assert [(r.status, r.body.get("stream")) for r in server.requests] == requests


def test_responder_errors_and_replacement() -> None:
    def broken(messages: list[dict], model: str) -> str:
        raise RuntimeError("scripted failure")

    with OpenAIServer(broken) as server:
        assert _post(server, CHAT_BODY)[0] == 400
        server.responder = lambda m, n: "healthy"
        assert _post(server, CHAT_BODY)[0] == 200
        assert _post(server, CHAT_BODY, "/models")[0] == 404
        assert [r.reply for r in server.requests] == [None, "healthy", None]


def test_budget_answers_503_then_shuts_down() -> None:
    with OpenAIServer(lambda m, n: "x", max_requests=1) as server:
        assert _post(server, CHAT_BODY)[0] == 200
        status, headers = _post(server, CHAT_BODY)
        assert (status, headers["x-should-retry"]) == (503, "false")
        # The serving thread ends before the socket closes: wait for the close, not the thread,
        # or a connection can still be queued on the closing socket and reset.
        assert server.closed.wait(timeout=5)
        with pytest.raises(urllib.error.URLError):
            _post(server, CHAT_BODY)


def test_lifetime_shuts_an_idle_server_down() -> None:
    with OpenAIServer(lambda m, n: "x", lifetime=0.1) as server:
        assert server.closed.wait(timeout=5)
        assert not server._thread.is_alive()


@pytest.mark.parametrize(
    "faults",
    [
        {"error_rate": -0.1},
        {"error_rate": 0.6, "drop_rate": 0.5},
        {"max_consecutive": -1},
        {"always": {"judge": 200}},
    ],
)
def test_bad_faults_are_refused(faults: dict) -> None:
    with pytest.raises(ValueError):
        Faults(**faults)

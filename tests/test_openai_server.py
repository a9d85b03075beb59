"""The fake OpenAI server works with Inspect's real `openai` and `openai-api` providers, offline."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest
from inspect_ai.model import GenerateConfig, Model, get_model

from tests.openai_server import Faults, OpenAIServer, fast_retries, words

GPT4O = "openai/gpt-4o-2024-05-13"
FAST = GenerateConfig(max_retries=6, timeout=20)


def _model(server: OpenAIServer, name: str = GPT4O, **model_args: object) -> Model:
    return get_model(
        name, base_url=server.base_url, api_key="test", config=FAST, memoize=False, **model_args
    )


def _post(url: str, body: dict) -> int:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as ex:
        return ex.code


def test_openai_provider_gets_responder_text_and_usage() -> None:
    seen: list[tuple[list[dict], str]] = []

    def responder(messages: list[dict], model: str) -> str:
        seen.append((messages, model))
        return "the judge says yes"

    with OpenAIServer(responder) as server:
        output = asyncio.run(_model(server).generate("hello there world"))
        assert output.completion == "the judge says yes"
        assert output.usage is not None
        assert (output.usage.input_tokens, output.usage.output_tokens) == (3, 4)
        assert server.count() == 1
        record = server.requests[0]
        assert (record.path, record.model, record.status) == (
            "/v1/chat/completions",
            "gpt-4o-2024-05-13",
            200,
        )
        assert record.messages == [{"role": "user", "content": "hello there world"}]
        assert seen == [(record.messages, "gpt-4o-2024-05-13")]


def test_error_faults_are_retried_until_success() -> None:
    with OpenAIServer(lambda m, n: "ok", Faults(error_rate=0.5, seed=3)) as server:
        model = _model(server)

        async def run() -> list[str]:
            return [(await model.generate(f"question {i}")).completion for i in range(4)]

        assert asyncio.run(run()) == ["ok"] * 4
        assert server.count() > 4
        statuses = {r.status for r in server.requests}
        assert {429, 500, 200} <= statuses


def test_inspect_level_retry_with_sdk_retries_off() -> None:
    """With the SDK's own retries off, Inspect's retry loop (made fast) recovers drops and 5xx."""
    faults = Faults(error_rate=0.4, drop_rate=0.3, seed=1, max_consecutive=3)
    with OpenAIServer(lambda m, n: "ok", faults) as server:
        model = fast_retries(_model(server, max_retries=0))

        async def run() -> list[str]:
            return [(await model.generate(f"question {i}")).completion for i in range(3)]

        assert asyncio.run(run()) == ["ok"] * 3
        assert server.count(lambda r: r.status is None) >= 1  # a dropped connection
        assert server.count(lambda r: r.status in (429, 500)) >= 1
        assert server.count(lambda r: r.status == 200) == 3


def test_openai_api_provider_via_env(monkeypatch: pytest.MonkeyPatch) -> None:
    with OpenAIServer(lambda m, n: f"{n}: {m[-1]['content']}", Faults(error_rate=0.5)) as server:
        for key, value in server.env().items():
            monkeypatch.setenv(key, value)
        model = get_model("openai-api/local/judge", config=FAST, memoize=False)
        assert asyncio.run(model.generate("ping")).completion == "judge: ping"
        assert server.count(lambda r: r.status == 200) == 1


def test_openai_provider_via_env(monkeypatch: pytest.MonkeyPatch) -> None:
    with OpenAIServer(lambda m, n: "env ok") as server:
        for key, value in server.env().items():
            monkeypatch.setenv(key, value)
        model = get_model(GPT4O, config=FAST, memoize=False)
        assert asyncio.run(model.generate("hi")).completion == "env ok"


def test_responses_api_is_served_too() -> None:
    with OpenAIServer(lambda m, n: "via responses") as server:
        model = _model(server, responses_api=True)
        output = asyncio.run(model.generate("hello world"))
        assert output.completion == "via responses"
        assert output.usage is not None and output.usage.input_tokens == words("hello world")
        assert [r.path for r in server.requests] == ["/v1/responses"]


@pytest.mark.parametrize("name", [GPT4O, "openai-api/local/judge"])
def test_streamed_chat_completions(name: str) -> None:
    events: list[object] = []

    async def on_stream(event: object) -> None:
        events.append(event)

    with OpenAIServer(lambda m, n: "streamed reply") as server:
        model = _model(server, name)
        output = asyncio.run(model.generate("hello", on_stream=on_stream))
        assert output.completion == "streamed reply"
        assert output.usage is not None and output.usage.output_tokens == 2
        assert [(r.status, r.body.get("stream")) for r in server.requests] == [(200, True)]


def test_models_endpoint_and_budget() -> None:
    with OpenAIServer(lambda m, n: "x", max_requests=1) as server:
        with urllib.request.urlopen(f"{server.base_url}/models", timeout=5) as response:
            assert "test-model" in {m["id"] for m in json.load(response)["data"]}
        body = {"model": "m", "messages": [{"role": "user", "content": "a"}]}
        assert _post(f"{server.base_url}/chat/completions", body) == 200
        assert _post(f"{server.base_url}/chat/completions", body) == 503
        server._thread.join(timeout=5)  # it shuts itself down after the 503
        assert not server._thread.is_alive()


def test_fault_sequence_is_deterministic() -> None:
    def statuses() -> list[int | None]:
        faults = Faults(error_rate=0.5, seed=7, max_consecutive=10)
        with OpenAIServer(lambda m, n: "x", faults) as server:
            body = {"model": "m", "messages": [{"role": "user", "content": "a"}]}
            for _ in range(12):
                _post(f"{server.base_url}/chat/completions", body)
            return [r.status for r in server.requests]

    first = statuses()
    assert first == statuses()
    assert 200 in first and (429 in first or 500 in first)

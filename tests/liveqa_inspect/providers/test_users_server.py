"""A llama.cpp server the user runs: judged through it, sent the grammar, and none started.

The server here is the suite's scripted OpenAI-compatible one, so what is checked is the request
on the wire: the grammar in the body, for this package's `gguf/`
provider and for Inspect's own `llama-cpp-python/` one.
"""

from __future__ import annotations

import pytest
from inspect_ai.model import get_model

from liveqa_inspect.judging.grammar import gbnf
from liveqa_inspect.judging.scale import LIVEQA_SCALE
from liveqa_inspect.providers import server
from tests.helpers import run_live_qa, verdict
from tests.openai_server import OpenAIServer


@pytest.mark.parametrize("api", ["gguf", "llama-cpp-python"])
def test_a_judge_on_the_users_llama_cpp_server_is_sent_the_grammar(api: str) -> None:
    started = dict(server._servers)  # another test's, in this xdist worker
    with OpenAIServer(lambda messages, model: verdict("0.3")) as fake:
        grader = get_model(f"{api}/their-model", base_url=fake.base_url, memoize=False)
        log = run_live_qa(grader=grader, limit=2)
    assert log.samples is not None
    assert [s.scores["live_qa_scorer"].value for s in log.samples] == [0.3, 0.3]
    bodies = [r.body for r in fake.requests]
    assert [(b["model"], b["grammar"], b.get("max_tokens")) for b in bodies] == [
        ("their-model", gbnf(LIVEQA_SCALE), None)
    ] * 2
    assert server._servers == started  # none started for a server the user runs

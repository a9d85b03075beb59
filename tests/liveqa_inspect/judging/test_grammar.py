"""The verdict grammar: derived from each prompt's scale, sent only to llama.cpp judges, and never
in place of the user's own constraint."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from inspect_ai.model import GenerateConfig, Model, get_model

from liveqa_inspect.judging.grade import call_config
from liveqa_inspect.judging.grammar import gbnf
from liveqa_inspect.judging.prompts import (
    CLAIM_CORRECTNESS_JUDGE,
    CLAIM_SUPPORT_JUDGE,
    EXPERT_QA_JUDGE,
    LIVEQA_JUDGE,
    JudgePrompt,
)
from liveqa_inspect.judging.reply import BETWEEN, CLOSE, OPEN, REASONING_CHARS, parse_verdict
from liveqa_inspect.judging.scale import CLAIM_CORRECTNESS_SCALE, CLAIM_SUPPORT_SCALE, LIVEQA_SCALE
from tests.openai_server import OpenAIServer

PROMPTS = [LIVEQA_JUDGE, EXPERT_QA_JUDGE, CLAIM_CORRECTNESS_JUDGE, CLAIM_SUPPORT_JUDGE]


Judge = Callable[..., Model]


@pytest.fixture(scope="module")
def judge() -> Iterator[Judge]:
    """Judges on a server the user runs, as far as the provider knows: it is asked only whether
    it is there (gguf/ checks once); no generation is sent in these tests."""
    with OpenAIServer(lambda *_: "") as server:

        def made(name: str, **config: object) -> Model:
            return get_model(
                name,
                base_url=server.base_url,
                api_key="test",
                config=GenerateConfig(**config),  # type: ignore[arg-type]
                memoize=False,
            )

        yield made


def sent(model: Model, prompt: JudgePrompt, attempt: int = 0) -> GenerateConfig:
    """The config sent to `model` in epoch 1, its own config being all the user set."""
    return call_config(model, prompt, attempt, epoch=1, repeat=0, user=model.config)


def test_the_live_qa_grammar_allows_a_bounded_reasoning_then_one_of_four_levels() -> None:
    assert gbnf(LIVEQA_SCALE) == (
        'root ::= "<reasoning>" reasoning "</reasoning>\\n<score>" level "</score>"\n'
        "reasoning ::= [^<]{1,600}\n"
        'level ::= "0" | "0.3" | "0.7" | "1"\n'
    )


def test_levels_are_spelled_as_each_rubric_spells_them() -> None:
    assert LIVEQA_SCALE.names == ["0", "0.3", "0.7", "1"]
    assert CLAIM_CORRECTNESS_SCALE.names == ["1", "2", "3", "4", "5"]
    assert CLAIM_SUPPORT_SCALE.names == ["1", "2", "3"]
    assert 'level ::= "1" | "2" | "3"\n' in gbnf(CLAIM_SUPPORT_SCALE)


@pytest.mark.parametrize("prompt", PROMPTS, ids=lambda p: p.name)
def test_each_prompt_asks_for_the_reply_shape_the_grammar_allows(prompt: JudgePrompt) -> None:
    """The prompt's own example reply has the grammar's tags, in its order, with a level of its
    scale: a prompt that changed its reply format would fail here, not in a judge's reply."""
    levels = "|".join(re.escape(name) for name in prompt.scale.names)
    example = re.escape(OPEN) + "[^<]+" + re.escape(BETWEEN) + f"({levels})" + re.escape(CLOSE)
    assert re.search(example + r"\Z", prompt.template)


@pytest.mark.parametrize("prompt", PROMPTS, ids=lambda p: p.name)
def test_every_reply_the_grammar_allows_is_read_as_its_level(prompt: JudgePrompt) -> None:
    """The longest reasoning the grammar allows, with each level: the parser reads each."""
    reasoning = ("Because; x = 2 > 1, \u00e9t\u00e9.\n" * 40)[:REASONING_CHARS]
    for name, level in zip(prompt.scale.names, prompt.scale.levels, strict=True):
        verdict = parse_verdict(f"{OPEN}{reasoning}{BETWEEN}{name}{CLOSE}", prompt.scale)
        assert verdict is not None and verdict.level == level
        assert verdict.reasoning == reasoning.strip()


@pytest.mark.parametrize("api", ["gguf/local-judge", "llama-cpp-python/local-judge"])
def test_a_llama_cpp_judge_is_sent_the_grammar_of_the_prompts_scale(api: str, judge: Judge) -> None:
    config = sent(judge(api), CLAIM_CORRECTNESS_JUDGE, attempt=1)
    assert config.extra_body == {"grammar": gbnf(CLAIM_CORRECTNESS_SCALE)}
    assert (config.temperature, config.seed, config.max_tokens) == (0.0, 43, None)


def test_other_judges_are_sent_no_grammar(judge: Judge) -> None:
    config = sent(judge("openai-api/local/gpt-4o"), LIVEQA_JUDGE)
    assert (config.extra_body, config.temperature, config.seed) == (None, 0.0, 42)


def test_the_users_own_constraint_is_kept_and_their_other_fields_too(judge: Judge) -> None:
    own = 'root ::= "<reasoning>ok</reasoning>\\n<score>1</score>"'
    kept = sent(judge("gguf/j", extra_body={"grammar": own}), LIVEQA_JUDGE)
    assert kept.extra_body is None  # not passed: the role's own extra_body goes as it is
    schema = judge("gguf/j", response_schema={"name": "verdict", "json_schema": {"type": "object"}})
    assert sent(schema, LIVEQA_JUDGE).extra_body is None
    other = judge("gguf/j", extra_body={"n_probs": 2})
    merged = sent(other, LIVEQA_JUDGE)
    assert merged.extra_body == {"n_probs": 2, "grammar": gbnf(LIVEQA_SCALE)}

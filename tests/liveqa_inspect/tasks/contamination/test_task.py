"""live_qa_contamination through Inspect's eval(), with models scripted on the probe's prompt:
the guided prompt names the test set, the general one does not."""

from __future__ import annotations

import hashlib
import random

import pytest
from inspect_ai.event import ModelEvent, SpanBeginEvent
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig

from liveqa_inspect.data.sources import LIVEQA_QUESTIONS
from liveqa_inspect.stats import names as keys
from liveqa_inspect.stats.names import DIFFERENCE, DIFFERENCE_P, ci_keys, overlap_key, verbatim_key
from liveqa_inspect.tasks.contamination.scorer import VERBATIM_WORDS, words
from liveqa_inspect.tasks.contamination.solver import GENERAL, GUIDED, INSTRUCTIONS, Replies
from tests.helpers import Script, figures, probe, remainders, run_contamination

SCORER = "completion_overlap"
GUESS = "and I would like to know what the doctor thinks about it."
"""A plausible continuation of any question, known without having seen the test set."""


@pytest.fixture(scope="module")
def rest() -> dict[str, str]:
    return remainders()


def long_enough(log: EvalLog) -> int:
    """The samples whose remainder is long enough to be reproduced: VERBATIM_WORDS words."""
    return sum(len(words(str(s.target))) >= VERBATIM_WORDS for s in log.samples or [])


def reproducing(rest: dict[str, str], *, under_general: bool) -> Script:
    """A model that gives each remainder word for word when told the test set, and when not
    told only if `under_general`."""

    def script(prompt: str, _: GenerateConfig) -> str:
        guided, shown = probe(prompt)
        return rest[shown] if guided or under_general else GUESS

    return script


def never_saw(prompt: str, _: GenerateConfig) -> str:
    """A model guessing each continuation from the shown words and common ones, a fresh guess
    under each instruction (seeded by the shown part and the instruction, so the run is fixed)."""
    guided, shown = probe(prompt)
    seed = hashlib.sha256(f"{guided}|{shown}".encode()).digest()
    vocabulary = shown.split() + "the and to of my is it a in for what i do can".split()
    return " ".join(random.Random(seed).choices(vocabulary, k=12))


def test_a_model_reproducing_under_the_guided_instruction_only(rest: dict[str, str]) -> None:
    log = run_contamination(reproducing(rest, under_general=False), limit=30)
    m = figures(log, SCORER)
    assert m[overlap_key(GUIDED)] == pytest.approx(1.0)
    assert m[overlap_key(GENERAL)] < 0.15
    assert m[DIFFERENCE] > 0.85
    low, high = (m[key] for key in ci_keys(DIFFERENCE))
    assert 0.8 < low < m[DIFFERENCE] < high <= 1.0
    # No resample of 30 positive differences is at or below 0: p is the smallest it can be.
    assert m[DIFFERENCE_P] < 0.01
    assert m[DIFFERENCE_P] == pytest.approx(1 / 10_001)
    long = long_enough(log)
    assert 0 < long < 30
    assert (m[verbatim_key(GUIDED)], m[verbatim_key(GENERAL)], m["both_verbatim"]) == (long, 0, 0)
    assert (m["completions"], m["short"]) == (30, 30 - long)
    assert (m[keys.refused_key(GUIDED)], m[keys.refused_key(GENERAL)]) == (0, 0)
    assert log.eval.headline_metric is not None
    assert (log.eval.headline_metric.scorer, log.eval.headline_metric.metric) == (
        SCORER,
        DIFFERENCE,
    )


def test_a_model_that_never_saw_the_items(rest: dict[str, str]) -> None:
    log = run_contamination(never_saw, limit=40)
    m = figures(log, SCORER)
    # Both instructions overlap the remainder a little, by chance, and alike.
    assert 0.05 < m[overlap_key(GENERAL)] < 0.4 and 0.05 < m[overlap_key(GUIDED)] < 0.4
    assert abs(m[DIFFERENCE]) < 0.03
    low, high = (m[key] for key in ci_keys(DIFFERENCE))
    assert low < 0 < high
    assert m[DIFFERENCE_P] > 0.2
    assert (m[verbatim_key(GUIDED)], m[verbatim_key(GENERAL)]) == (0, 0)


def test_a_model_reproducing_under_both_instructions(rest: dict[str, str]) -> None:
    """Seen, but maybe elsewhere: no difference, yet every completion a reproduction."""
    log = run_contamination(reproducing(rest, under_general=True), limit=20)
    m = figures(log, SCORER)
    assert m[DIFFERENCE] == pytest.approx(0.0)
    assert m[DIFFERENCE_P] == 1.0
    long = long_enough(log)
    assert (m[verbatim_key(GUIDED)], m[verbatim_key(GENERAL)], m["both_verbatim"]) == (long,) * 3


def test_a_short_remainder_repeated_whole_is_no_reproduction(rest: dict[str, str]) -> None:
    """A remainder shorter than VERBATIM_WORDS words, given whole, shares all its words: the run
    is recorded, but it is no reproduction (a few words can be guessed), and the item is
    counted apart as short."""
    log = run_contamination(reproducing(rest, under_general=False), limit=10)
    values = {s.id: (len(words(str(s.target))), s.scores[SCORER].value) for s in log.samples}
    shorts = [i for i, (n, _) in values.items() if n < VERBATIM_WORDS]
    assert shorts == ["TQ1", "TQ2", "TQ4", "TQ9"]
    for n, value in values.values():
        assert value["guided_run"] == n and value["short"] == int(n < VERBATIM_WORDS)
        assert value["guided_verbatim"] == int(n >= VERBATIM_WORDS)
    m = figures(log, SCORER)
    assert (m["short"], m[verbatim_key(GUIDED)]) == (4, 6)


def test_refusals_and_empty_replies_score_0_and_are_counted(rest: dict[str, str]) -> None:
    """Guided: refused every time. General: the first item left empty, the others reproduced."""
    first = next(iter(rest))

    def script(prompt: str, _: GenerateConfig) -> str:
        guided, shown = probe(prompt)
        if guided:
            return "I'm sorry, but I can't reproduce text from a test set."
        return "" if shown == first else rest[shown]

    log = run_contamination(script, limit=6)
    m = figures(log, SCORER)
    assert (m[keys.refused_key(GUIDED)], m[keys.refused_key(GENERAL)]) == (6, 1)
    assert m[overlap_key(GUIDED)] == 0.0
    assert m[overlap_key(GENERAL)] == pytest.approx(5 / 6)
    assert m[DIFFERENCE] == pytest.approx(-5 / 6)
    assert m[verbatim_key(GENERAL)] == long_enough(log) == 3  # TQ1, left empty, is short
    values = {s.id: s.scores[SCORER].value for s in log.samples}
    assert values["TQ1"] == {
        DIFFERENCE: 0.0,
        "short": 1,
        "guided_rouge_l": 0.0,
        "guided_run": 0,
        "guided_verbatim": 0,
        "guided_refused": 1,
        "general_rouge_l": 0.0,
        "general_run": 0,
        "general_verbatim": 0,
        "general_refused": 1,
    }


def test_each_sample_asks_twice_and_keeps_both_completions(rest: dict[str, str]) -> None:
    log = run_contamination(reproducing(rest, under_general=False), limit=1)
    [sample] = log.samples
    ids = {"id": "TQ1", "qid": "TQ1"}
    guided, general = (i.render("question", sample.input, **ids) for i in INSTRUCTIONS)
    # The guided prompt names the test set and the item; the general one neither.
    assert "TREC-2017 LiveQA Medical test set (question TQ1 of that test set)" in guided
    assert not any(word in general for word in ("LiveQA", "TREC", "TQ1"))
    # Two conversations apart, both kept: the control never sees the guided exchange.
    assert [(m.role, m.text) for m in sample.messages] == [
        ("user", guided),
        ("assistant", sample.target),
        ("user", general),
        ("assistant", GUESS),
    ]
    replies = sample.store_as(Replies)
    assert replies.completions == {GUIDED: sample.target, GENERAL: GUESS}
    assert replies.stop_reasons == {GUIDED: "stop", GENERAL: "stop"}
    # Inspect View's transcript: each call under a span named for its instruction.
    spans = {e.id: e.name for e in sample.events if isinstance(e, SpanBeginEvent)}
    calls = [e for e in sample.events if isinstance(e, ModelEvent)]
    assert [spans[e.span_id] for e in calls] == [GUIDED, GENERAL]  # type: ignore[index]
    assert all(e.config.temperature == 0.0 for e in calls)


def test_the_log_records_items_left_out_instructions_and_data(rest: dict[str, str]) -> None:
    log = run_contamination(reproducing(rest, under_general=False), limit=1)
    meta = log.eval.metadata
    assert meta["part"] == "question" and log.eval.dataset.samples == 87
    assert len(meta["left_out"]) == 17 and meta["left_out"][:2] == ["TQ3", "TQ20"]
    assert (meta["min_side_words"], meta["verbatim_words"]) == (6, VERBATIM_WORDS)
    assert meta["instructions"] == [i.provenance() for i in INSTRUCTIONS]
    assert meta["data"][LIVEQA_QUESTIONS.filename]["sha256"] == LIVEQA_QUESTIONS.sha256
    assert meta["data_license"] == LIVEQA_QUESTIONS.license


def test_the_reference_part(rest: dict[str, str]) -> None:
    references = remainders("reference")

    def script(prompt: str, _: GenerateConfig) -> str:
        guided, shown = probe(prompt)
        assert "an expert's answer to a consumer health question" in prompt
        return references[shown] if guided else GUESS

    log = run_contamination(script, limit=3, part="reference")
    assert [s.id for s in log.samples] == ["TQ1A1", "TQ1A2", "TQ1A3"]
    prompt = log.samples[1].messages[0].text
    assert "(reference answer TQ1A2 to question TQ1 of that test set)" in prompt
    # TQ1A2's remainder is 8 words: repeated whole, still no reproduction.
    assert figures(log, SCORER)[verbatim_key(GUIDED)] == long_enough(log) == 2

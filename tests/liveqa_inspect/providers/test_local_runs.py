"""Real runs on the embedded SmolLM2 model: the real provider, the real llama.cpp server.

Every other test scripts its models; these are the only ones where a model answers and grades.
What they check does not depend on what SmolLM2 says (its verdicts mean nothing): every sample
is scored, the log names the weights and the grammar sent, the agreement figures are numbers,
and a cached verdict is replayed by a later run with a new server. One server serves the whole
module (subject and judge share it), and the samples are the ones with the shortest judge
prompts, since reading the prompt is most of a local judge's time on 2 cores. The ten-answer
run asks for a short reasoning with a grammar of its own (a user's grammar is sent as given):
what it checks is the figures; the default grammar is checked on the live_qa run and the
claim judges.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import GenerateConfig, get_model

from liveqa_inspect import live_qa, live_qa_judge
from liveqa_inspect.caveats import grades_itself, too_small
from liveqa_inspect.judging.grade import grade
from liveqa_inspect.judging.grammar import gbnf
from liveqa_inspect.judging.prompts import CLAIM_CORRECTNESS_JUDGE, CLAIM_SUPPORT_JUDGE, JudgePrompt
from liveqa_inspect.judging.reply import REASONING_CHARS
from liveqa_inspect.judging.scale import LIVEQA_SCALE
from liveqa_inspect.providers.server import DEFAULT_OPTIONS, stop_all
from liveqa_inspect.report import main
from liveqa_inspect.stats.names import KAPPA
from tests.helpers import QUIET, figures
from tests.liveqa_inspect.providers.local import SMOLLM2, SMOLLM2_SHA256, needs_llama_cpp

pytestmark = [pytest.mark.slow, needs_llama_cpp]

MODEL = "gguf/smollm2"
QUESTIONS = ["TQ33", "TQ71", "TQ35"]
"""The three questions with the shortest references."""
JUDGED = [
    *(f"TQ93-L{n}" for n in (623, 622, 628)),
    *(f"TQ82-L{n}" for n in (537, 538, 540, 541)),
    *(f"TQ94-L{n}" for n in (631, 632, 634)),
]
"""Ten NIST-judged answers whose judge prompts cost the server least to read (3,266 SmolLM2
tokens in all, against 4,177 for the first ten answers to the two questions with the shortest
references): human levels 0, 0.3, 0.7 and 1 among them, and answers to one question in a row,
whose shared prompt start (question and references) the server reads once. The first has the
shortest prompt of all, for the cache test's fresh verdict."""
SUBJECT_TOKENS = 24
SHORT, SHORTER = (
    gbnf(LIVEQA_SCALE).replace(f"{{1,{REASONING_CHARS}}}", f"{{1,{n}}}") for n in (60, 30)
)
"""The default grammar with less room for the reasoning: a verdict's time stays bounded whatever
the model writes (SmolLM2 writes ~30 tokens either way; reading the prompt is the rest)."""
WEIGHTS = {"model_file": SMOLLM2, "model_sha256": SMOLLM2_SHA256}
RECORDED_URL = f"local-gguf:{SMOLLM2}#sha256={SMOLLM2_SHA256}"


def model_events(sample: EvalSample, role: str | None) -> list:
    return [e for e in sample.events if e.event == "model" and e.role == role]


def judge_run(sample_id: list[str], **grader: object) -> EvalLog:
    # Not memoized: a model Inspect kept from an earlier test would still point at a server
    # the cache test has stopped.
    config = GenerateConfig(**grader)  # type: ignore[arg-type]
    judge = get_model(MODEL, role="grader", config=config, memoize=False)
    [log] = eval(
        live_qa_judge(),
        model=MODEL,
        model_roles={"grader": judge},
        sample_id=sample_id,
        **QUIET,
    )
    assert log.status == "success", log.error
    return log


@pytest.fixture(autouse=True, scope="module")
def one_prompt_thread() -> Iterator[None]:
    """The server reads prompts with one thread, not one a core: the suite's other worker keeps
    the second core busy, and llama.cpp's threads wait on each other when one has no core (the
    ten-answer run took 54 s so, 92 s with two threads)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setitem(DEFAULT_OPTIONS, "n_threads_batch", 1)
        yield


@pytest.fixture(scope="module")
def judge_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("judge-cache")


@pytest.fixture(scope="module")
def judged(module_env: None, judge_cache: Path) -> EvalLog:
    """live_qa_judge on the ten answers, its verdicts cached for the cache test to replay."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("INSPECT_CACHE_DIR", str(judge_cache))
        return judge_run(JUDGED, extra_body={"grammar": SHORT})


def test_live_qa_on_the_embedded_model_scores_every_sample_and_names_the_weights(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    [log] = eval(
        live_qa(reference_metrics=False),
        model=MODEL,
        model_roles={"grader": MODEL},
        sample_id=QUESTIONS,
        max_tokens=SUBJECT_TOKENS,
        **QUIET,
    )
    assert log.status == "success", log.error
    assert log.samples is not None and sorted(s.id for s in log.samples) == sorted(QUESTIONS)
    for sample in log.samples:
        score = sample.scores["live_qa_scorer"]
        assert score.value in LIVEQA_SCALE.levels, score.explanation
        [juror] = score.metadata["jurors"]
        assert juror["config"]["extra_body"] == {"grammar": gbnf(LIVEQA_SCALE)}
        [answer], [verdict] = model_events(sample, None), model_events(sample, "grader")
        assert answer.output.metadata == WEIGHTS == verdict.output.metadata
        assert verdict.config.extra_body == {"grammar": gbnf(LIVEQA_SCALE)}
        assert answer.output.usage.output_tokens <= SUBJECT_TOKENS
    assert log.eval.model_roles["grader"].base_url == RECORDED_URL
    # What the run warned of, its report says (issue 36, 7).
    capsys.readouterr()
    assert main([log.location, "--out", str(tmp_path)]) == 0
    warned = [line for line in capsys.readouterr().out.splitlines() if "WARNING" in line]
    name = Path(log.location).name
    assert warned == [f"WARNING: {name}: {said(MODEL)}" for said in (grades_itself, too_small)]


def test_live_qa_judge_with_the_embedded_judge_gives_finite_agreement_figures(
    judged: EvalLog,
) -> None:
    """Kappa and its interval are numbers; Spearman's rho too, unless the judge gave every answer
    one level, when it is undefined (no ranking to correlate) and reported as such."""
    assert judged.samples is not None and len(judged.samples) == len(JUDGED)
    scores = [s.scores["judge_agreement_scorer"] for s in judged.samples]
    assert {score.metadata["jurors"][0]["config"]["extra_body"]["grammar"] for score in scores} == {
        SHORT
    }
    levels = {score.value for score in scores}
    assert levels <= set(LIVEQA_SCALE.levels)
    found = figures(judged, "judge_agreement_scorer")
    for name in (KAPPA, f"{KAPPA}_ci_low", f"{KAPPA}_ci_high", "exact_agreement", "mae"):
        assert math.isfinite(found[name]), (name, found)
    assert -1 <= found[f"{KAPPA}_ci_low"] <= found[KAPPA] <= found[f"{KAPPA}_ci_high"] <= 1
    rho = found["spearman_rho"]
    assert math.isnan(rho) if len(levels) == 1 else -1 <= rho <= 1
    assert math.isfinite(figures(judged, "reference_floor")["rouge_l_spearman_rho"])


@pytest.mark.parametrize(
    "prompt", [CLAIM_CORRECTNESS_JUDGE, CLAIM_SUPPORT_JUDGE], ids=lambda p: p.name
)
def test_the_claim_judges_grammar_gets_a_verdict_on_their_own_scale(prompt: JudgePrompt) -> None:
    fields = {
        "field": "Healthcare / Medicine",
        "question": "Can adults take ibuprofen with paracetamol?",
        "answer": "Yes, most adults can take both, as they work differently [1].",
        "claim": "Most adults can take ibuprofen and paracetamol together.",
        "passages": ["Ibuprofen and paracetamol can be taken together by most adults."],
    }
    judge = get_model(MODEL, role="grader")
    score = asyncio.run(grade([judge], prompt, fields, fields["answer"], cache=False))
    assert score.value in prompt.scale.levels, score.explanation
    assert score.metadata["jurors"][0]["config"]["extra_body"] == {"grammar": gbnf(prompt.scale)}


def test_a_cached_verdict_is_replayed_by_a_new_server_and_another_grammar_asks_anew(
    judged: EvalLog, judge_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache key holds the weights' digest and the grammar, not the server's port."""
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(judge_cache))
    stop_all()
    again = judge_run(JUDGED, extra_body={"grammar": SHORT})
    other = judge_run(JUDGED[:1], extra_body={"grammar": SHORTER})
    cached = [
        [e.cache for s in log.samples or [] for e in model_events(s, "grader")]
        for log in (judged, again, other)
    ]
    assert cached == [["write"] * len(JUDGED), ["read"] * len(JUDGED), ["write"]]
    [sample] = other.samples or []
    [juror] = sample.scores["judge_agreement_scorer"].metadata["jurors"]
    assert juror["config"]["extra_body"] == {"grammar": SHORTER}

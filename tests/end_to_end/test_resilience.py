"""Resilience of the `inspect eval` command: faults, unreadable verdicts, retry, re-scoring.

Why these run through the CLI (in this process, tests/commands.py) and a local OpenAI-compatible
server rather than `mockllm`: the claims are about what a user sees when the API misbehaves
(429/500 storms, a judge that rambles, an eval that dies half-way, a log graded again), and those
paths live in Inspect's provider, retry, log and cache code, which the command exercises end to
end.

Every responder is deterministic and keyed on prompt content, never on arrival order, so a run
with faults must reproduce a fault-free run sample by sample: the judge's level is a hash of the
question and answer, so scores vary across the four levels and a lost or shuffled verdict shows.

`inspect eval` exits 0 even when the eval failed, so every run is checked by its log's status.
"""

from __future__ import annotations

import hashlib
import html
import math
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from inspect_ai.log import EvalLog, EvalSample, read_eval_log

from liveqa_inspect.tasks.live_qa.task import INSTRUCTION
from tests.commands import inspect_eval_logs
from tests.helpers import liveqa_data
from tests.openai_server import Faults, OpenAIServer, RequestRecord, Responder

pytestmark = pytest.mark.slow

SUBJECT = "gpt-4o-mini-2024-07-18"
JUDGE = "gpt-4o-2024-05-13"
OTHER_JUDGE = "gpt-4.1-2025-04-14"
"""A second chat-completions judge name (no Responses-API probe request), for re-scoring."""

LEVELS = ("0", "0.3", "0.7", "1")
N_QUESTIONS = 40
"""The first 40 questions: enough for faults, retries and every level to show, at a third of the
cost of all 104 (what is proved does not depend on the count)."""
SDK_RETRIES = 6
"""The openai SDK's own retries (10 ms apart via `retry-after-ms`). Faults are capped at 2 in a
row globally, but under concurrency one client's retries interleave with others' successes, so
its own streak can be longer; 6 makes reaching Inspect's 3-6 s backoff a ~1e-5 event a request."""

BACKLOG = 128
"""Listen queue above socketserver's 5, so 20 clients connecting at once aren't SYN-dropped."""

FAULTS = Faults(error_rate=0.2, max_consecutive=2, seed=2017)
FAST = ["--max-connections", "20"]
RESCORE = ["--scorer", "liveqa_inspect/live_qa_scorer", "-S", "cache=true", "--action", "overwrite"]
"""The judge's scorer alone (these tests compare its scores): a bare `inspect score LOG` re-runs
every scorer the log names, `verdicts` too (tests/liveqa_inspect/judging/test_generate_once.py)."""

_QUESTION = re.compile(r"<question>\n(.*?)\n</question>", re.DOTALL)
_ANSWER = re.compile(r"<answer>\n(.*?)\n</answer>", re.DOTALL)


# -- deterministic model behaviour -----------------------------------------------------------


def digest(text: str) -> int:
    """A stable hash (unlike `hash()`, the same in every process and run)."""
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:12], 16)


def text_of(messages: list[dict]) -> str:
    return "\n".join(str(m.get("content", "")) for m in messages)


def judged(prompt: str) -> tuple[str, str] | None:
    """(question, answer) as a judge prompt carries them, unescaped; None for other prompts."""
    question, answer = _QUESTION.search(prompt), _ANSWER.search(prompt)
    if question is None or answer is None:
        return None
    return html.unescape(question.group(1)), html.unescape(answer.group(1))


def subject_question(prompt: str) -> str:
    """The question in the subject's prompt (the template: instruction, blank line, question)."""
    return prompt.split(INSTRUCTION + "\n\n", 1)[-1]


def answer_for(question: str) -> str:
    return f"Answer {digest(question) % 1000:03d} to: {question[:40]}"


def level_for(question: str, answer: str) -> str:
    """The judge's level: a hash of what it grades, so levels vary but never depend on timing."""
    return LEVELS[digest(question + "\n" + answer) % len(LEVELS)]


def is_garbage(question: str) -> bool:
    """Questions the judge answers unreadably (about a fifth of them)."""
    return digest(question) % 5 == 0


def never(question: str) -> bool:
    return False


def responder(
    garbage: Callable[[str], bool] = never, fail_subject: Collection[str] = ()
) -> Responder:
    """Subject and judge in one: judge prompts get a verdict, everything else an answer.

    `garbage` picks questions whose verdict cannot be parsed (every attempt, whatever the seed);
    subject prompts for questions in `fail_subject` raise, which the server turns into a
    non-retryable HTTP 400, so the sample errors.
    """

    def respond(messages: list[dict], model: str) -> str:
        prompt = text_of(messages)
        pair = judged(prompt)
        if pair is not None:
            question, answer = pair
            if garbage(question):
                return "Well, it depends. Score: pretty good, maybe 0.7 or so."
            level = level_for(question, answer)
            return f"<reasoning>Hash-graded.</reasoning>\n<score>{level}</score>"
        question = subject_question(prompt)
        if question in fail_subject:
            raise RuntimeError("scripted non-retryable failure")
        return answer_for(question)

    return respond


# -- running the CLI -------------------------------------------------------------------------


@dataclass
class Dirs:
    """Where one scenario's logs and caches live (explicit, so module fixtures need no conftest)."""

    logs: Path
    cache: Path

    def env(self) -> dict[str, str]:
        return {
            "INSPECT_CACHE_DIR": str(self.cache / "inspect"),
            "LIVEQA_INSPECT_CACHE_DIR": str(self.cache / "liveqa"),
            "LIVEQA_DATA": str(liveqa_data()),
        }


def run_cli(server: OpenAIServer, dirs: Dirs, *args: str) -> list[EvalLog]:
    """`inspect <args>` against the server, returning the logs it wrote; fails the test on a
    non-zero exit."""
    result, logs = inspect_eval_logs(
        *args, "--display", "none", log_dir=dirs.logs, env={**server.env(), **dirs.env()}
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return logs


def role(model: str) -> str:
    """A grader binding that also raises the judge client's SDK retries (-M is the subject's)."""
    return f"grader={{model: openai/{model}, model_args: {{max_retries: {SDK_RETRIES}}}}}"


def eval_live_qa(server: OpenAIServer, dirs: Dirs, *args: str) -> EvalLog:
    """Run live_qa (subject and pinned judge on the server) and return its only new log."""
    [log] = run_cli(
        server,
        dirs,
        "eval",
        "liveqa_inspect/live_qa",
        "--model",
        f"openai/{SUBJECT}",
        "-M",
        f"max_retries={SDK_RETRIES}",
        "--model-role",
        role(JUDGE),
        "-T",
        "reference_metrics=false",
        "--limit",
        str(N_QUESTIONS),
        *FAST,
        *args,
    )
    return log


def scores_of(log: EvalLog, scorer: str = "live_qa_scorer") -> dict[str, float]:
    """Per-sample judge values by sample id (NaN for unscored)."""
    assert log.samples is not None
    return {str(s.id): float(s.scores[scorer].value) for s in log.samples if s.scores}


def question_of(sample: EvalSample) -> str:
    """The sample's question as the dataset gives it (a plain string input)."""
    assert isinstance(sample.input, str)
    return sample.input


def expected_level(sample: EvalSample) -> float:
    return float(level_for(question_of(sample), sample.output.completion))


def judge_requests(model: str = JUDGE) -> Callable[[RequestRecord], bool]:
    return lambda r: r.model == model and r.status == 200


@dataclass
class CleanRun:
    """The fault-free live_qa run the other tests compare with (and re-score, test 4)."""

    server: OpenAIServer
    dirs: Dirs
    log: EvalLog
    requests: int


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CleanRun]:
    """One fault-free run, kept with its server and cache for the module: the fault tests compare
    with it and the re-scoring tests grade its log again, counting requests on the same server."""
    root = tmp_path_factory.mktemp("clean")
    dirs = Dirs(root / "logs", root / "cache")
    with OpenAIServer(responder(), backlog=BACKLOG) as server:
        log = eval_live_qa(server, dirs)
        yield CleanRun(server, dirs, log, server.count())


# -- the tests --------------------------------------------------------------------------------


def test_clean_run_grades_every_sample_by_the_scripted_levels(clean_run: CleanRun) -> None:
    """The baseline itself is right, so agreeing with it below means something."""
    log = clean_run.log
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == N_QUESTIONS
    for sample in log.samples:
        assert sample.scores["live_qa_scorer"].value == expected_level(sample), sample.id
    assert len(set(scores_of(log).values())) == len(LEVELS)  # the hash spreads the levels
    # One subject and one judge call a sample: nothing retried, nothing asked twice.
    assert clean_run.requests == 2 * N_QUESTIONS
    assert log.results is not None and log.results.scores[0].unscored_samples in (0, None)


def test_twenty_percent_api_errors_change_no_score(clean_run: CleanRun, tmp_path: Path) -> None:
    """429s and 500s on a fifth of requests are absorbed by retries: same scores, success."""
    with OpenAIServer(responder(), faults=FAULTS, backlog=BACKLOG) as server:
        log = eval_live_qa(server, Dirs(tmp_path / "logs", tmp_path / "cache"))
        statuses = [r.status for r in server.requests]
    assert log.status == "success", log.error
    assert statuses.count(429) > 3 and statuses.count(500) > 3  # the faults really happened
    assert statuses.count(200) == 2 * N_QUESTIONS  # each failure was retried, exactly to success
    assert log.samples is not None and len(log.samples) == N_QUESTIONS
    assert all(not s.error for s in log.samples)
    assert scores_of(log) == scores_of(clean_run.log)
    assert log.results is not None
    assert log.results.scores[0].metrics == clean_run.log.results.scores[0].metrics


def test_unreadable_verdicts_leave_samples_unscored_not_zero(tmp_path: Path) -> None:
    """A judge that never answers in the format is recorded as grader_failed and excluded."""
    with OpenAIServer(responder(garbage=is_garbage), backlog=BACKLOG) as server:
        log = eval_live_qa(server, Dirs(tmp_path / "logs", tmp_path / "cache"))
        judged_by_question: dict[str, int] = {}
        for record in server.requests:
            pair = judged(text_of(record.messages))
            if pair is not None:
                judged_by_question[pair[0]] = judged_by_question.get(pair[0], 0) + 1
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == N_QUESTIONS
    bad = [s for s in log.samples if is_garbage(question_of(s))]
    good = [s for s in log.samples if not is_garbage(question_of(s))]
    assert 3 <= len(bad) <= 15  # a fifth of 40, give or take the hash
    for sample in bad:
        score = sample.scores["live_qa_scorer"]
        assert math.isnan(float(score.value)), sample.id  # not a silent 0
        assert score.reason == "grader_failed"
        assert score.metadata is not None and score.metadata["jurors"][0]["attempts"] == 3
        assert judged_by_question[question_of(sample)] == 3  # asked again, then given up
    for sample in good:
        assert sample.scores["live_qa_scorer"].value == expected_level(sample), sample.id
        assert judged_by_question[question_of(sample)] == 1
    assert log.results is not None
    judge = log.results.scores[0]
    assert judge.unscored_samples == len(bad)
    # The mean is over the graded samples only; counting the failures as 0 would lower it.
    graded_mean = sum(expected_level(s) for s in good) / len(good)
    assert judge.metrics["mean"].value == pytest.approx(graded_mean)
    shares = sum(judge.metrics[f"share_{level}"].value for level in LEVELS)
    assert shares == pytest.approx(1.0)


def test_eval_retry_finishes_without_regenerating_finished_samples(tmp_path: Path) -> None:
    """An eval that errors part-way and is continued with eval-retry ends complete, and the
    samples the first run finished are reused from its log, not generated (or judged) again."""
    from liveqa_inspect.tasks.live_qa.dataset import live_qa_dataset

    questions = [str(s.input) for s in live_qa_dataset("summary", liveqa_data())]
    # Break a few late questions only, so a good share of the run finishes before the failure.
    broken = {q for q in questions[28:N_QUESTIONS] if digest(q) % 3 == 0}
    assert broken
    dirs = Dirs(tmp_path / "logs", tmp_path / "cache")
    with OpenAIServer(responder(fail_subject=broken), backlog=BACKLOG) as server:
        first = eval_live_qa(server, dirs)
        assert first.status == "error"  # --fail-on-error (the default) stops the eval
        assert first.samples is not None
        finished = [s for s in first.samples if not s.error and s.scores]
        assert len(finished) >= 15, len(finished)
        assert not any(question_of(s) in broken for s in finished)

        seen = len(server.requests)
        server.responder = responder()  # the API is healthy again
        [second] = run_cli(server, dirs, "eval-retry", first.location)
        retried = server.requests[seen:]

    assert second.status == "success", second.error
    assert second.samples is not None and len(second.samples) == N_QUESTIONS
    expected_ids = sorted(f"TQ{n}" for n in range(1, N_QUESTIONS + 1))
    assert sorted(str(s.id) for s in second.samples) == expected_ids
    asked_again = {subject_question(text_of(r.messages)) for r in retried if r.model == SUBJECT}
    judged_again = {p[0] for r in retried if (p := judged(text_of(r.messages))) is not None}
    done = {question_of(s) for s in finished}
    assert not done & asked_again, "a finished sample was generated again"
    assert not done & judged_again, "a finished sample was judged again"
    assert broken <= asked_again  # the failed ones were generated this time
    assert len(asked_again) == N_QUESTIONS - len(finished)
    for sample in second.samples:
        assert sample.scores["live_qa_scorer"].value == expected_level(sample), sample.id


def test_rescoring_with_the_same_judge_is_served_from_the_cache(
    clean_run: CleanRun, tmp_path: Path
) -> None:
    """`inspect score` with the judge that graded the eval, sharing its cache, sends nothing."""
    server, dirs, log = clean_run.server, clean_run.dirs, clean_run.log
    same = tmp_path / "same.eval"
    before = server.count()
    run_cli(server, dirs, "score", log.location, *RESCORE, "--output-file", str(same))
    rescored = read_eval_log(str(same))
    assert rescored.status == "success", rescored.error
    assert scores_of(rescored) == scores_of(log)
    assert server.count() == before, "re-scoring with the same judge missed the cache"


def test_rescoring_with_another_judge_asks_it_once_a_sample(
    clean_run: CleanRun, tmp_path: Path
) -> None:
    """A new judge is asked exactly once a sample, and the new log says which judge graded."""
    server, dirs, log = clean_run.server, clean_run.dirs, clean_run.log
    other = tmp_path / "other.eval"
    before = server.count()
    run_cli(
        server,
        dirs,
        "score",
        log.location,
        *RESCORE,
        "--model-role",
        role(OTHER_JUDGE),
        "--output-file",
        str(other),
    )
    new = server.requests[before:]
    assert len(new) == N_QUESTIONS
    assert all(r.model == OTHER_JUDGE and r.status == 200 for r in new)
    asked = [judged(text_of(r.messages)) for r in new]
    assert len({pair for pair in asked if pair is not None}) == N_QUESTIONS  # one per sample
    regraded = read_eval_log(str(other))
    assert regraded.status == "success", regraded.error
    assert regraded.samples is not None and len(regraded.samples) == N_QUESTIONS
    for sample in regraded.samples:
        score = sample.scores["live_qa_scorer"]
        assert score.metadata is not None
        assert score.metadata["judge"]["models"] == [f"openai/{OTHER_JUDGE}"]
        assert score.value == expected_level(sample)  # the scripted judge grades alike
    # The original log is untouched: --output-file wrote the re-graded copy elsewhere.
    original = read_eval_log(log.location)
    assert original.samples is not None
    graders = {
        tuple(s.scores["live_qa_scorer"].metadata["judge"]["models"]) for s in original.samples
    }
    assert graders == {(f"openai/{JUDGE}",)}


def test_live_qa_judge_agreement_survives_api_errors(tmp_path: Path) -> None:
    """With a fifth of the judge's requests failing, every answer still gets the level the
    scripted judge gives it: the figures are those of a fault-free run, without running one."""
    dirs = Dirs(tmp_path / "logs", tmp_path / "cache")
    with OpenAIServer(responder(), faults=FAULTS, backlog=BACKLOG) as server:
        [log] = run_cli(
            server,
            dirs,
            "eval",
            "liveqa_inspect/live_qa_judge",
            "--model",
            f"openai/{JUDGE}",
            "-M",
            f"max_retries={SDK_RETRIES}",
            "--limit",
            str(N_QUESTIONS),
            *FAST,
        )
        assert server.count(lambda r: r.status in (429, 500)) > 5
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == N_QUESTIONS
    for sample in log.samples:
        assert sample.scores["judge_agreement_scorer"].value == expected_level(sample), sample.id
    assert log.results is not None
    judge = next(s for s in log.results.scores if s.name == "judge_agreement_scorer")
    assert judge.scored_samples == N_QUESTIONS

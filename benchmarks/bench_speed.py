"""Speed of HELM's reference metrics, alone and inside the runs that compute them (issue 17).

Why: the metrics are CPU work done while a sample is scored, so besides their own cost they can
hold up other samples' model calls. One command measures, side by side:

1. `metrics`: the reference metrics of one live_qa-sized sample (a 2,000-character answer,
   three references) and of live_qa_judge's floor (the 581 NIST answers, 935 answer-reference
   pairs), computed by the libraries (rouge-score and nltk, called as the package did before:
   the oracle tests/scoring holds the fast path to) and by `scoring/text_overlap.py`.
2. `live_qa`: `inspect eval` of live_qa at N connections with `--max-samples 2N`, L seconds a
   request, ~2,000-character answers, all 104 questions, with and without reference metrics;
   `added` is the wall time the metrics add.
3. `live_qa_judge`: `inspect eval` of live_qa_judge over the 581 NIST answers with an instant
   judge (L = 0).

Each eval gets a fresh server (tests/openai_server.py), log folder and cache; it runs `--repeats`
times and the median is reported, a pair's runs alternating so other load falls on both.

Run by hand (not a test), from the repository root (about 5 minutes with the defaults):

    .venv/bin/python benchmarks/bench_speed.py

`--source DIR` runs the evals on another checkout's `src` folder (an older commit's
`git archive`, say), so before and after are measured with the same command.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log
from inspect_ai.scorer import Target

from liveqa_inspect.datasets.live_qa import live_qa_dataset
from liveqa_inspect.datasets.live_qa_judge import live_qa_judge_dataset
from liveqa_inspect.scoring.text_overlap import reference_scores

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_throughput import JUDGE, REPO, SUBJECT  # noqa: E402
from peer_task import data_path  # noqa: E402

sys.path.insert(0, str(REPO))  # for tests.*
from tests.openai_server import Faults, OpenAIServer  # noqa: E402
from tests.scoring.helm_reference import long_answer, oracle_scores  # noqa: E402

ANSWER_CHARS = 2_000
LEVELS = ("0", "0.3", "0.7", "1")

Pairs = list[tuple[str, list[str]]]
"""(answer, its question's references) for each sample."""


def references(sample: object) -> list[str]:
    return list(Target(sample.target).target)  # type: ignore[attr-defined]


def responder(vocabulary: list[str], answer_chars: int) -> Callable[[list[dict], str], str]:
    """Subject: a long answer of its own for each question (seeded by the prompt), from the
    references' words so the metrics have overlap to find. Judge: a level read off the prompt's
    length, so levels vary as a real judge's do."""

    def respond(messages: list[dict], _model: str) -> str:
        text = "\n".join(str(m.get("content", "")) for m in messages)
        if "<answer>\n" in text:  # the LiveQA judge prompt
            return f"<reasoning>Instant.</reasoning>\n<score>{LEVELS[len(text) % 4]}</score>"
        return long_answer(vocabulary, answer_chars, seed=text)

    return respond


# 1. The metrics alone --------------------------------------------------------------------------


def seconds(compute: Callable[[str, list[str]], object], pairs: Pairs) -> list[float]:
    """Each sample's time."""
    times = []
    for answer, golds in pairs:
        start = time.perf_counter()
        compute(answer, golds)
        times.append(time.perf_counter() - start)
    return times


def metrics_table(questions: Pairs, nist: Pairs, vocabulary: list[str]) -> str:
    """The fast path runs first, on cold caches: a question's first answer prepares its
    references, which its later answers reuse (live_qa_judge; live_qa with epochs)."""
    three = [golds for _, golds in questions if len(golds) == 3]
    first = [(long_answer(vocabulary, ANSWER_CHARS, f"first {i}"), g) for i, g in enumerate(three)]
    later = [(long_answer(vocabulary, ANSWER_CHARS, f"later {i}"), g) for i, g in enumerate(three)]
    rows = [
        (
            f"live_qa sample, {ANSWER_CHARS:,}-char answer x 3 references, first answer to its "
            f"question (median of {len(first)}), ms",
            1000 * statistics.median(seconds(reference_scores, first)),
            1000 * statistics.median(seconds(oracle_scores, first)),
        ),
        (
            f"the same, a later answer to the question (median of {len(later)}), ms",
            1000 * statistics.median(seconds(reference_scores, later)),
            1000 * statistics.median(seconds(oracle_scores, later)),
        ),
        (
            f"live_qa_judge floor: {len(nist)} NIST answers, "
            f"{sum(len(g) for _, g in nist)} pairs, total s",
            sum(seconds(reference_scores, nist)),
            sum(seconds(oracle_scores, nist)),
        ),
    ]
    lines = [
        "| reference metrics | text_overlap | rouge-score + nltk | speed-up |",
        "|---|---:|---:|---:|",
    ]
    for name, fast, slow in rows:
        lines.append(f"| {name} | {fast:.2f} | {slow:.2f} | {slow / fast:.0f}x |")
    return "\n".join(lines)


# 2 and 3. Whole evals --------------------------------------------------------------------------


@dataclass
class Run:
    wall: float
    served: float
    """First request received to last reply sent."""
    samples: int
    status: str


def timed_eval(
    task: str,
    args: list[str],
    respond: Callable[[list[dict], str], str],
    latency: float,
    source: Path | None,
) -> Run:
    """One `inspect eval` against a fresh server, log folder and cache."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        OpenAIServer(respond, faults=Faults(latency=latency), backlog=256, lifetime=3600) as server,
    ):
        env = {
            **os.environ,
            **server.env(),
            "INSPECT_LOG_DIR": f"{tmp}/logs",
            "INSPECT_CACHE_DIR": f"{tmp}/cache",
            "LIVEQA_INSPECT_CACHE_DIR": f"{tmp}/liveqa-cache",
        }
        if data_path() is not None:
            env["LIVEQA_DATA"] = str(data_path())
        if source is not None:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source), env.get("PYTHONPATH")]))
        command = [sys.executable, "-m", "inspect_ai", "eval", task, *args, "--display", "none"]
        start = time.monotonic()
        result = subprocess.run(
            command, check=False, env=env, cwd=REPO, capture_output=True, text=True
        )
        wall = time.monotonic() - start
        if result.returncode != 0:
            raise SystemExit(
                f"inspect eval failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
            )
        [info] = list_eval_logs(f"{tmp}/logs")
        log = read_eval_log(info, header_only=True)
        # A record is stamped after the injected latency, so a request arrived `latency` earlier.
        stamps = [r.at for r in server.requests]
        served = max(stamps) - (min(stamps) - latency) if stamps else math.nan
        return Run(wall, served, log.results.total_samples if log.results else 0, log.status)


def median_runs(runs: Iterable[Run]) -> Run:
    runs = list(runs)
    return Run(
        wall=statistics.median(r.wall for r in runs),
        served=statistics.median(r.served for r in runs),
        samples=runs[0].samples,
        status=",".join(sorted({r.status for r in runs})),
    )


def live_qa_table(
    connections: list[int],
    latency: float,
    limit: int | None,
    repeats: int,
    respond: Callable[[list[dict], str], str],
    source: Path | None,
) -> str:
    lines = [
        "| N | max_samples | reference metrics | samples | wall s | served s | added wall "
        "| added served | status |",
        "|---:|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for n in connections:
        args = [
            "--model", f"openai/{SUBJECT}", "--model-role", f"grader=openai/{JUDGE}",
            "--max-connections", str(n), "--max-samples", str(2 * n),
        ]  # fmt: skip
        if limit is not None:
            args += ["--limit", str(limit)]
        runs: dict[bool, list[Run]] = {False: [], True: []}
        for _ in range(repeats):
            for metrics in (False, True):
                flag = ["-T", f"reference_metrics={str(metrics).lower()}"]
                runs[metrics].append(
                    timed_eval("liveqa_inspect/live_qa", args + flag, respond, latency, source)
                )
                print(f"  done live_qa N={n} metrics={metrics}", file=sys.stderr, flush=True)
        off, on = median_runs(runs[False]), median_runs(runs[True])
        added = {
            False: ["", ""],
            True: [
                f"{100 * (on.wall / off.wall - 1):+.0f}%",
                f"{100 * (on.served / off.served - 1):+.0f}%",
            ],
        }
        for metrics, run in ((False, off), (True, on)):
            cells = [
                n, 2 * n, "on" if metrics else "off", run.samples, f"{run.wall:.1f}",
                f"{run.served:.1f}", *added[metrics], run.status,
            ]  # fmt: skip
            lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


def judge_table(
    connections: int,
    limit: int | None,
    repeats: int,
    respond: Callable[[list[dict], str], str],
    source: Path | None,
) -> str:
    args = ["--model", f"openai/{JUDGE}", "--max-connections", str(connections)]
    if limit is not None:
        args += ["--limit", str(limit)]
    runs = []
    for _ in range(repeats):
        runs.append(timed_eval("liveqa_inspect/live_qa_judge", args, respond, 0.0, source))
        print("  done live_qa_judge", file=sys.stderr, flush=True)
    run = median_runs(runs)
    return "\n".join(
        [
            "| task | N | samples | wall s | served s | status |",
            "|---|---:|---:|---:|---:|---|",
            f"| live_qa_judge, instant judge | {connections} | {run.samples} | {run.wall:.1f} | "
            f"{run.served:.1f} | {run.status} |",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.5, help="live_qa: seconds a request")
    parser.add_argument("--connections", default="10,50", help="live_qa: comma-separated N")
    parser.add_argument("--judge-connections", type=int, default=50, help="live_qa_judge's N")
    parser.add_argument("--limit", type=int, default=None, help="samples an eval (default all)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each eval (median)")
    parser.add_argument(
        "--parts", default="metrics,live_qa,live_qa_judge", help="comma-separated, of these"
    )
    parser.add_argument("--source", type=Path, default=None, help="a checkout's src to run")
    args = parser.parse_args()
    parts = set(args.parts.split(","))

    data = data_path()
    questions = [("", references(s)) for s in live_qa_dataset("summary", data)]
    vocabulary = " ".join(g for _, golds in questions for g in golds).split()
    respond = responder(vocabulary, ANSWER_CHARS)
    print(f"Load average before the run: {os.getloadavg()[0]:.1f} (2 cores).\n")
    if "metrics" in parts:
        judged = list(live_qa_judge_dataset(data=data))[: args.limit]
        nist = [(str((s.metadata or {})["answer"]), references(s)) for s in judged]
        print(metrics_table(questions, nist, vocabulary), end="\n\n")
    if "live_qa" in parts:
        connections = [int(n) for n in args.connections.split(",")]
        print(
            f"live_qa, L = {args.latency} s a request for subject and judge, "
            f"~{ANSWER_CHARS:,}-character answers, median of {args.repeats}:\n"
        )
        table = live_qa_table(
            connections, args.latency, args.limit, args.repeats, respond, args.source
        )
        print(table, end="\n\n")
    if "live_qa_judge" in parts:
        print(f"live_qa_judge, L = 0, median of {args.repeats}:\n")
        table = judge_table(args.judge_connections, args.limit, args.repeats, respond, args.source)
        print(table, end="\n\n")


if __name__ == "__main__":
    main()

"""Speed of HELM's reference metrics, alone and inside the runs that compute them (issue 17).

Why: the metrics are CPU work done while a sample is scored, so besides their own cost they can
hold up other samples' model calls. One command measures, side by side:

1. `metrics`: the reference metrics as one live_qa run scores them (a 2,000-character answer
   to each of the 104 questions, every cache cold at the start; the 8 questions with three
   references apart) and live_qa_judge's floor (the 581 NIST answers), computed by the
   libraries (rouge-score and nltk, called as the package did before: the oracle the parity
   tests hold the fast path to) and by `overlap/text_overlap.py`.
2. `live_qa`: `inspect eval` of live_qa at N connections with `--max-samples 2N`, L seconds a
   request, ~2,000-character answers, all 104 questions, with and without reference metrics;
   `added` is what the metrics add to the wall time, and to the CPU time of Inspect's own
   process (what competes with its event loop; load from other work inflates it least).
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
import resource
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

from liveqa_inspect.overlap import text_overlap
from liveqa_inspect.overlap.text_overlap import reference_scores
from liveqa_inspect.tasks.live_qa.dataset import live_qa_dataset
from liveqa_inspect.tasks.live_qa_judge.dataset import live_qa_judge_dataset

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_throughput import JUDGE, REPO, SUBJECT, eval_env  # noqa: E402
from peer_task import data_path  # noqa: E402

sys.path.insert(0, str(REPO))  # for tests.*
from tests.liveqa_inspect.overlap.helm_reference import long_answer, oracle_scores  # noqa: E402
from tests.openai_server import Faults, OpenAIServer  # noqa: E402

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


def cold() -> None:
    """Empty every cache of the fast path, stems included: the state a run starts in."""
    for value in vars(text_overlap).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()


def run_times(compute: Callable[[str, list[str]], object], pairs: Pairs) -> list[float]:
    """Each sample's time in one run's scoring, from cold caches."""
    cold()
    times = []
    for answer, golds in pairs:
        start = time.perf_counter()
        compute(answer, golds)
        times.append(time.perf_counter() - start)
    return times


def metrics_table(questions: list[list[str]], nist: Pairs, vocabulary: list[str], runs: int) -> str:
    """Each run asks every question once with an answer of its own, as live_qa does; medians
    over `runs` runs, each from cold caches."""
    rows: list[tuple[str, float, float]] = []
    per_sample: dict[str, list[list[float]]] = {"fast": [], "oracle": []}
    for run in range(runs):
        pairs = [
            (long_answer(vocabulary, ANSWER_CHARS, f"run {run} question {i}"), golds)
            for i, golds in enumerate(questions)
        ]
        per_sample["fast"].append(run_times(reference_scores, pairs))
        per_sample["oracle"].append(run_times(oracle_scores, pairs))
    three = [i for i, golds in enumerate(questions) if len(golds) == 3]
    for label, pick, middle in (
        (
            f"live_qa sample, mean over the {len(questions)} questions",
            range(len(questions)),
            statistics.mean,
        ),
        (
            f"live_qa sample with three references (median of the {len(three)})",
            three,
            statistics.median,
        ),
    ):
        fast, slow = (
            statistics.median(middle([times[i] for i in pick]) for times in per_sample[side])
            for side in ("fast", "oracle")
        )
        rows.append((f"{label}, ms", 1000 * fast, 1000 * slow))
    floor = [
        (sum(run_times(reference_scores, nist)), sum(run_times(oracle_scores, nist)))
        for _ in range(runs)
    ]
    rows.append(
        (
            f"live_qa_judge floor: {len(nist)} NIST answers, "
            f"{sum(len(g) for _, g in nist)} answer-reference pairs, total s",
            statistics.median(fast for fast, _ in floor),
            statistics.median(slow for _, slow in floor),
        )
    )
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
    inspect_cpu: float
    """User and system time of the `inspect eval` process alone: the work that competes with its
    event loop (its threads included, its worker process not)."""
    cpu: float
    """The same with every process it started (the metrics' worker): what load from other work
    inflates least."""
    samples: int
    status: str


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


INSPECT_CPU = "inspect process cpu s:"
INSPECT = f"""
import atexit, resource, runpy, sys

def report():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print("{INSPECT_CPU}", usage.ru_utime + usage.ru_stime, file=sys.stderr)

atexit.register(report)
sys.argv = ["inspect", *sys.argv[1:]]
runpy.run_module("inspect_ai", run_name="__main__", alter_sys=True)
"""
"""`python -m inspect_ai`, reporting its own CPU time when it exits."""


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
        env = eval_env(server.env(), tmp)
        if source is not None:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source), env.get("PYTHONPATH")]))
        command = [sys.executable, "-c", INSPECT, "eval", task, *args, "--display", "none"]
        start, cpu = time.monotonic(), child_cpu()
        result = subprocess.run(
            command, check=False, env=env, cwd=REPO, capture_output=True, text=True
        )
        wall, cpu = time.monotonic() - start, child_cpu() - cpu
        if result.returncode != 0:
            raise SystemExit(
                f"inspect eval failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
            )
        [info] = list_eval_logs(f"{tmp}/logs")
        log = read_eval_log(info, header_only=True)
        # A record is stamped after the injected latency, so a request arrived `latency` earlier.
        stamps = [r.at for r in server.requests]
        served = max(stamps) - (min(stamps) - latency) if stamps else math.nan
        samples = log.results.total_samples if log.results else 0
        [own] = [line for line in result.stderr.splitlines() if line.startswith(INSPECT_CPU)]
        inspect_cpu = float(own.removeprefix(INSPECT_CPU))
        return Run(wall, served, inspect_cpu, cpu, samples, log.status)


def median_runs(runs: Iterable[Run]) -> Run:
    runs = list(runs)
    return Run(
        wall=statistics.median(r.wall for r in runs),
        served=statistics.median(r.served for r in runs),
        inspect_cpu=statistics.median(r.inspect_cpu for r in runs),
        cpu=statistics.median(r.cpu for r in runs),
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
        "| N | max_samples | reference metrics | samples | wall s | served s | inspect cpu s "
        "| all cpu s | added wall | added inspect cpu | status |",
        "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
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
                f"{100 * (on.inspect_cpu / off.inspect_cpu - 1):+.0f}%",
            ],
        }
        for metrics, run in ((False, off), (True, on)):
            cells = [
                n, 2 * n, "on" if metrics else "off", run.samples, f"{run.wall:.1f}",
                f"{run.served:.1f}", f"{run.inspect_cpu:.1f}", f"{run.cpu:.1f}", *added[metrics],
                run.status,
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
            "| task | N | samples | wall s | served s | inspect cpu s | all cpu s | status |",
            "|---|---:|---:|---:|---:|---:|---:|---|",
            f"| live_qa_judge, instant judge | {connections} | {run.samples} | {run.wall:.1f} | "
            f"{run.served:.1f} | {run.inspect_cpu:.1f} | {run.cpu:.1f} | {run.status} |",
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
    questions = [references(s) for s in live_qa_dataset("summary", data)]
    vocabulary = " ".join(g for golds in questions for g in golds).split()
    respond = responder(vocabulary, ANSWER_CHARS)
    print(f"Load average before the run: {os.getloadavg()[0]:.1f} (2 cores).\n")
    if "metrics" in parts:
        judged = list(live_qa_judge_dataset(data=data))[: args.limit]
        nist = [(str((s.metadata or {})["answer"]), references(s)) for s in judged]
        print(f"Reference metrics, median of {args.repeats} runs from cold caches:\n")
        print(metrics_table(questions, nist, vocabulary, args.repeats), end="\n\n")
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

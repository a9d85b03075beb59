"""live_qa end to end against a local server at fixed latency: how far from the ideal (issue 37).

Why: with latency L a request and N connections, live_qa (subject, then judge, N samples at a
time: Inspect's default `max_samples` is N) cannot finish before the ideal
`2 * L * ceil(samples / N)`; every second beyond it is start-up, Inspect's and the package's own
work, or the log's writing. This runs the real `inspect eval liveqa_inspect/live_qa`, as a user
does (the task's defaults: reference metrics on, judge cache on, a fresh cache), with the subject
and the judge both served by tests/openai_server.py answering after L seconds, at each N, and
reports the whole process's wall time over the ideal. The goals (issue 37): at most 2.5x at 50
connections and 1.3x at 10, with L = 0.5 s over the 104 questions.

Each run gets a fresh server, log folder and caches. The connections run in turn, their order
reversed every other repetition so other load on the machine falls on each; the medians of
`--repeats` runs are reported. `cpu` is the `inspect eval` process's own CPU time (its children
included: the overlap worker); `first request` is from process start to the first request
reaching the server; `served` from then to the last reply.

Run by hand (not a test), from the repository root, with the package installed from this tree
(`pip install -e .`), about 3 minutes with the defaults:

    LIVEQA_DATA=/work/shared/data/liveqa .venv/bin/python benchmarks/bench_live_qa.py
"""

from __future__ import annotations

import argparse
import math
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_throughput import JUDGE, REPO, SUBJECT, eval_env, respond  # noqa: E402

GOALS = {10: 1.3, 50: 2.5}
"""Wall time over the ideal that issue 37 asks for, by connections."""


@dataclass
class Run:
    connections: int
    samples: int
    wall: float
    cpu: float
    first_request: float
    served: float
    requests: int
    status: str


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_live_qa(
    connections: int, latency: float, limit: int | None, max_samples: int | None = None
) -> Run:
    """One `inspect eval` of live_qa, its defaults, against a fresh server, log and caches."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    from tests.openai_server import Faults, OpenAIServer

    with (
        tempfile.TemporaryDirectory() as tmp,
        OpenAIServer(respond, faults=Faults(latency=latency), backlog=256, lifetime=3600) as server,
    ):
        command = [sys.executable, "-m", "inspect_ai", "eval", "liveqa_inspect/live_qa"]
        command += ["--model", f"openai/{SUBJECT}", "--model-role", f"grader=openai/{JUDGE}"]
        command += ["--max-connections", str(connections), "--display", "none"]
        if limit is not None:
            command += ["--limit", str(limit)]
        if max_samples is not None:
            command += ["--max-samples", str(max_samples)]
        cpu, start = children_cpu(), time.monotonic()
        env = eval_env(server.env(), tmp)
        result = subprocess.run(
            command, check=False, env=env, cwd=REPO, capture_output=True, text=True
        )
        wall, cpu = time.monotonic() - start, children_cpu() - cpu
        if result.returncode != 0:
            raise SystemExit(
                f"inspect eval failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
            )
        [info] = list_eval_logs(f"{tmp}/logs")
        log = read_eval_log(info, header_only=True)
        # A record is stamped after the injected latency, so a request arrived `latency` earlier.
        stamps = [r.at for r in server.requests]
        first = min(stamps) - latency if stamps else math.nan
        return Run(
            connections=connections,
            samples=log.results.total_samples if log.results else 0,
            wall=wall,
            cpu=cpu,
            first_request=first - start,
            served=max(stamps) - first if stamps else math.nan,
            requests=len(stamps),
            status=log.status,
        )


def table(runs: list[Run], latency: float) -> str:
    lines = [
        "| N | samples | runs | wall s | cpu s | first request s | served s | ideal s "
        "| wall/ideal | goal | requests/sample | status |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for n in sorted({r.connections for r in runs}):
        mine = [r for r in runs if r.connections == n]
        median = {
            field: statistics.median(getattr(r, field) for r in mine)
            for field in ("wall", "cpu", "first_request", "served")
        }
        samples = mine[0].samples
        ideal = 2 * latency * math.ceil(samples / n)
        goal = f"{GOALS[n]:.1f}" if n in GOALS else ""
        lines.append(
            f"| {n} | {samples} | {len(mine)} | {median['wall']:.1f} | {median['cpu']:.1f} | "
            f"{median['first_request']:.1f} | {median['served']:.1f} | {ideal:.1f} | "
            f"{median['wall'] / ideal:.2f} | {goal} | "
            f"{mine[0].requests / max(samples, 1):.2f} | {', '.join({r.status for r in mine})} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.5, help="seconds a request (L)")
    parser.add_argument("--connections", default="10,50", help="comma-separated N values")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each N (median)")
    parser.add_argument("--limit", type=int, default=None, help="samples a run (default all)")
    parser.add_argument(
        "--overlap",
        action="store_true",
        help="--max-samples 2N (docs/performance.md): the judge's pool busy while the subject's is",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))  # for tests.openai_server

    connections = [int(n) for n in args.connections.split(",")]
    runs = []
    for repeat in range(args.repeats):
        for n in connections if repeat % 2 == 0 else reversed(connections):
            runs.append(run_live_qa(n, args.latency, args.limit, 2 * n if args.overlap else None))
            r = runs[-1]
            said = f"wall {r.wall:.1f} s, cpu {r.cpu:.1f} s, first request {r.first_request:.1f} s"
            print(f"  run {repeat + 1} N={n}: {said}, served {r.served:.1f} s", file=sys.stderr)
    samples = "--max-samples 2N" if args.overlap else "Inspect's default max_samples (N)"
    print(
        f"live_qa, its defaults, {samples}; latency L = {args.latency} s a request, subject and "
        f"judge; "
        f"ideal = 2 * L * ceil(samples / N); wall = the whole `inspect eval` process, median of "
        f"{args.repeats}.\n"
    )
    print(table(runs, args.latency))


if __name__ == "__main__":
    main()

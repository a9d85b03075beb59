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
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_overlap import Run, run_eval  # noqa: E402
from bench_throughput import REPO  # noqa: E402

GOALS = {10: 1.3, 50: 2.5}
"""Wall time over the ideal that issue 37 asks for, by connections."""


def requests(run: Run) -> int:
    return run.subject_requests + run.judge_requests


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
            f"{requests(mine[0]) / max(samples, 1):.2f} | {', '.join({r.status for r in mine})} |"
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
            overlap = 2 * n if args.overlap else None
            runs.append(run_eval(n, overlap, args.latency, args.limit, reference_metrics=True))
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

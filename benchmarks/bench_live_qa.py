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

Beside each live_qa run, next to it in time, runs Inspect's floor for the same shape
(inspect_floor.py: the same samples, prompt and settings, two requests a sample, as many scorers,
no code of the package loaded): what is above the floor is the package's to cut, the floor is
Inspect's (`--no-floor` leaves it out; `--floor-freeze` gives it the package's garbage-collector
settings, runtime.py, so that only the package's code and features differ).

Run by hand (not a test), from the repository root, with the package installed from this tree
(`pip install -e .`), about 6 minutes with the defaults:

    LIVEQA_DATA=/work/shared/data/liveqa .venv/bin/python benchmarks/bench_live_qa.py
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_overlap import Run, run_eval  # noqa: E402
from bench_throughput import REPO  # noqa: E402
from peer_task import data_path  # noqa: E402

from liveqa_inspect.tasks.live_qa.dataset import live_qa_dataset  # noqa: E402
from liveqa_inspect.tasks.live_qa.task import SOLVER_TEMPLATE  # noqa: E402

LIVE_QA_SCORERS = 3
"""live_qa's scorers with its defaults: the judge's, `verdicts` and `reference_overlap`."""

GOALS = {10: 1.3, 50: 2.5}
"""Wall time over the ideal that issue 37 asks for, by connections."""
TIMES = ("wall", "cpu", "first_request", "served")


def requests(run: Run) -> int:
    return run.subject_requests + run.judge_requests


def medians(runs: list[Run], n: int) -> dict[str, float]:
    mine = [r for r in runs if r.connections == n]
    return {field: statistics.median(getattr(r, field) for r in mine) for field in TIMES}


def table(runs: list[Run], latency: float) -> str:
    lines = [
        "| N | samples | runs | wall s | cpu s | first request s | served s | ideal s "
        "| wall/ideal | goal | requests/sample | status |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for n in sorted({r.connections for r in runs}):
        mine = [r for r in runs if r.connections == n]
        median = medians(runs, n)
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


def floor_config(folder: Path, limit: int | None, freeze: bool) -> Path:
    """inspect_floor.py's task config: live_qa's samples (as its dataset makes them), its subject
    prompt, its number of scorers, and whether to freeze the collector as runtime.py does."""
    samples = folder / "samples.jsonl"
    with samples.open("w") as out:
        for sample in live_qa_dataset("summary", data_path())[:limit]:
            record = sample.model_dump(include={"id", "input", "target", "metadata"})
            out.write(json.dumps(record) + "\n")
    config = folder / "floor.json"
    arguments = {"samples": str(samples), "template": SOLVER_TEMPLATE}
    config.write_text(json.dumps({**arguments, "scorers": LIVE_QA_SCORERS, "freeze": freeze}))
    return config


def floor_table(runs: list[Run], floors: list[Run]) -> str:
    """Inspect's floor beside live_qa, medians by N: what live_qa adds to it is the package's
    share (its code, and Inspect's work for what it asks: its scores, metrics and judge cache)."""
    lines = [
        "| N | runs | floor wall s | floor cpu s | floor first request s | floor served s "
        "| live_qa - floor wall s | live_qa - floor cpu s | status |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for n in sorted({r.connections for r in floors}):
        floor, live = medians(floors, n), medians(runs, n)
        statuses = ", ".join({r.status for r in floors if r.connections == n})
        lines.append(
            f"| {n} | {sum(r.connections == n for r in floors)} | {floor['wall']:.1f} | "
            f"{floor['cpu']:.1f} | {floor['first_request']:.1f} | {floor['served']:.1f} | "
            f"{live['wall'] - floor['wall']:+.1f} | {live['cpu'] - floor['cpu']:+.1f} | "
            f"{statuses} |"
        )
    return "\n".join(lines)


def said(run: Run) -> str:
    return (
        f"wall {run.wall:.1f} s, cpu {run.cpu:.1f} s, first request {run.first_request:.1f} s, "
        f"served {run.served:.1f} s"
    )


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
    parser.add_argument("--no-floor", action="store_true", help="leave out Inspect's floor")
    parser.add_argument(
        "--floor-freeze",
        action="store_true",
        help="the floor with the garbage collector kept off as the package's runtime.py does",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))  # for tests.openai_server

    connections = [int(n) for n in args.connections.split(",")]
    runs: list[Run] = []
    floors: list[Run] = []
    with tempfile.TemporaryDirectory() as tmp:
        config = None if args.no_floor else floor_config(Path(tmp), args.limit, args.floor_freeze)
        for repeat in range(args.repeats):
            for n in connections if repeat % 2 == 0 else reversed(connections):
                overlap = 2 * n if args.overlap else None
                # live_qa and the floor next to each other, in turn first: one load on both.
                kinds = [None] if config is None else [None, config]
                for floor in kinds if repeat % 2 == 0 else reversed(kinds):
                    run = run_eval(n, overlap, args.latency, args.limit, True, floor)
                    (runs if floor is None else floors).append(run)
                    name = "live_qa" if floor is None else "floor"
                    print(f"  run {repeat + 1} N={n} {name}: {said(run)}", file=sys.stderr)
    samples = "--max-samples 2N" if args.overlap else "Inspect's default max_samples (N)"
    print(
        f"live_qa, its defaults, {samples}; latency L = {args.latency} s a request, subject and "
        f"judge; ideal = 2 * L * ceil(samples / N); wall = the whole `inspect eval` process, "
        f"median of {args.repeats}.\n"
    )
    print(table(runs, args.latency))
    if floors:
        print(
            "\nInspect's floor (benchmarks/inspect_floor.py): the same samples, prompt and "
            f"settings, `generate()`, Inspect's `model_graded_qa` and {LIVE_QA_SCORERS - 1} "
            "constant scorers; no code of the package loaded"
            f"{'; the garbage collector kept off as runtime.py does' if args.floor_freeze else ''}"
            ".\n"
        )
        print(floor_table(runs, floors))


if __name__ == "__main__":
    main()

"""Subject and judge overlap: does `--max-samples 2N` keep both models busy at N connections?

Why: Inspect gives each model its own pool of `N` connections (the pool key names the model),
but runs only `max_samples` samples at once, and `max_samples` defaults to the subject's
`max_connections`. Each sample's judge call waits for its own answer, so with `N` samples in
flight the judge's pool idles while the subject works and the other way round: the eval takes
the sequential bound `2 * L * ceil(S / N)`. With `2N` samples in flight, `N` can wait on the
subject while `N` wait on the judge, and the eval approaches the overlapped bound
`L * (ceil(S / N) + 1)` (the last batch's judge call is the `+ 1`). This runs the real
`inspect eval` of live_qa both ways against the local server and reports how close each gets.

It also times imports in fresh interpreters, because every `inspect eval` pays them before its
first request.

Run by hand (not a test), from the repository root (N = 1 takes ~3 minutes of the ~6):

    .venv/bin/python benchmarks/bench_overlap.py --latency 0.5 --connections 1,10,50

`wall` is the whole `inspect eval` process; `first request` is process start to the first request
reaching the server; `served` is first request received to last reply sent; `peak` is the most
requests of one model in the server at once (subject / judge), from the server's records.
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

from bench_throughput import JUDGE, REPO, SUBJECT, eval_env, respond
from inspect_floor import FLOOR_MAIN

FLOOR_TASK = Path(__file__).resolve().with_name("inspect_floor.py")


@dataclass
class Run:
    connections: int
    max_samples: int | None
    """What `--max-samples` was given; None = Inspect's default (the subject's connections)."""
    latency: float
    samples: int
    wall: float
    cpu: float
    """The `inspect eval` process's own CPU time, its children included (the overlap worker)."""
    first_request: float
    served: float
    subject_requests: int
    judge_requests: int
    peak_subject: int
    peak_judge: int
    status: str

    @property
    def batches(self) -> int:
        return math.ceil(self.samples / self.connections)

    @property
    def sequential_bound(self) -> float:
        return 2 * self.latency * self.batches

    @property
    def overlapped_bound(self) -> float:
        return self.latency * (self.batches + 1)


def peak_in_flight(ends: list[float], latency: float) -> int:
    """Most requests held at once, each taken to occupy the `latency` before its record."""
    events = sorted([(t - latency, 1) for t in ends] + [(t, -1) for t in ends])
    peak = current = 0
    for _, step in events:
        current += step
        peak = max(peak, current)
    return peak


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_eval(
    connections: int,
    max_samples: int | None,
    latency: float,
    limit: int | None,
    reference_metrics: bool = False,
    floor: Path | None = None,
) -> Run:
    """One `inspect eval` of live_qa against a fresh server, log dir and caches; HELM's reference
    metrics off unless asked for (they add CPU work, not requests). `floor`: inspect_floor.py's
    task instead, with that task config (no code of the package runs)."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    from tests.openai_server import Faults, OpenAIServer

    with (
        tempfile.TemporaryDirectory() as tmp,
        OpenAIServer(respond, faults=Faults(latency=latency), backlog=256) as server,
    ):
        env = eval_env(server.env(), tmp)
        if floor is None:
            command = [sys.executable, "-m", "inspect_ai", "eval", "liveqa_inspect/live_qa"]
            command += ["-T", f"reference_metrics={str(reference_metrics).lower()}"]
        else:
            command = [sys.executable, "-c", FLOOR_MAIN, "eval", f"{FLOOR_TASK}@inspect_floor"]
            command += ["--task-config", str(floor)]
        command += ["--model", f"openai/{SUBJECT}", "--model-role", f"grader=openai/{JUDGE}"]
        command += ["--max-connections", str(connections), "--display", "none"]
        if max_samples is not None:
            command += ["--max-samples", str(max_samples)]
        if limit is not None:
            command += ["--limit", str(limit)]
        cpu, start = children_cpu(), time.monotonic()
        result = subprocess.run(
            command, check=False, env=env, cwd=REPO, capture_output=True, text=True
        )
        wall, cpu = time.monotonic() - start, children_cpu() - cpu
        if result.returncode != 0:
            output = result.stdout[-3000:] + result.stderr[-3000:]
            raise SystemExit(f"inspect eval failed:\n{output}")
        [info] = list_eval_logs(f"{tmp}/logs")
        log = read_eval_log(info, header_only=True)
        # A record is stamped after the injected latency, so a request arrived `latency` earlier.
        subject = [r.at for r in server.requests if r.model == SUBJECT]
        judge = [r.at for r in server.requests if r.model == JUDGE]
        stamps = subject + judge
        first = min(stamps) - latency if stamps else math.nan
        return Run(
            connections=connections,
            max_samples=max_samples,
            latency=latency,
            samples=log.results.total_samples if log.results else 0,
            wall=wall,
            cpu=cpu,
            first_request=first - start,
            served=max(stamps) - first if stamps else math.nan,
            subject_requests=len(subject),
            judge_requests=len(judge),
            peak_subject=peak_in_flight(subject, latency),
            peak_judge=peak_in_flight(judge, latency),
            status=log.status,
        )


def runs_table(runs: list[Run]) -> str:
    lines = [
        "| N | max_samples | samples | wall s | first request s | served s | sequential bound s "
        "| overlapped bound s | served/overlapped | peak subject/judge | requests/sample "
        "| status |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in runs:
        setting = "default" if r.max_samples is None else str(r.max_samples)
        per_sample = (r.subject_requests + r.judge_requests) / max(r.samples, 1)
        lines.append(
            f"| {r.connections} | {setting} | {r.samples} | {r.wall:.1f} | "
            f"{r.first_request:.1f} | {r.served:.1f} | {r.sequential_bound:.1f} | "
            f"{r.overlapped_bound:.1f} | {r.served / r.overlapped_bound:.2f} | "
            f"{r.peak_subject}/{r.peak_judge} | {per_sample:.2f} | {r.status} |"
        )
    return "\n".join(lines)


def import_seconds(statement: str, runs: int) -> float:
    """Median wall time of a fresh interpreter running `statement`."""
    times = []
    for _ in range(runs):
        start = time.monotonic()
        subprocess.run([sys.executable, "-c", statement], check=True, cwd=REPO)
        times.append(time.monotonic() - start)
    return statistics.median(times)


def heaviest_dependencies(runs: int, floor: float = 0.05) -> list[tuple[str, float]]:
    """Modules outside liveqa_inspect that liveqa_inspect's own modules import and that take
    `floor` seconds or more (median cumulative `-X importtime`), so a slow import can be traced
    to who asks for it."""
    cumulative: dict[str, list[float]] = {}
    for _ in range(runs):
        trace = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import liveqa_inspect"],
            check=True, cwd=REPO, capture_output=True, text=True,
        ).stderr  # fmt: skip
        # Post-order: a module's line follows its imports' lines, one level shallower.
        pending: dict[int, list[tuple[str, int]]] = {}
        for line in trace.splitlines():
            if not line.startswith("import time:") or "cumulative" in line:
                continue
            _, micros, name = line.removeprefix("import time:").split("|")
            depth = (len(name) - len(name.lstrip()) - 1) // 2
            module = name.strip()
            children = pending.pop(depth + 1, [])
            if module.startswith("liveqa_inspect"):
                for child, child_micros in children:
                    if not child.startswith("liveqa_inspect"):
                        cumulative.setdefault(child, []).append(child_micros / 1e6)
            pending.setdefault(depth, []).append((module, int(micros)))
    medians = {name: statistics.median(values) for name, values in cumulative.items()}
    heavy = [(name, seconds) for name, seconds in medians.items() if seconds >= floor]
    return sorted(heavy, key=lambda item: -item[1])


def imports_table(runs: int) -> str:
    rows = [
        ("`python -c pass`", import_seconds("pass", runs)),
        ("`import inspect_ai`", import_seconds("import inspect_ai", runs)),
        ("`import liveqa_inspect`", import_seconds("import liveqa_inspect", runs)),
    ]
    lines = [
        f"Fresh-interpreter wall time, median of {runs}:",
        "",
        "| statement | s |",
        "|---|---:|",
        *(f"| {name} | {seconds:.2f} |" for name, seconds in rows),
        "",
        f"Heaviest imports made by liveqa_inspect's modules (cumulative `-X importtime`, median "
        f"of {runs}; a module imported earlier by another is not counted again):",
        "",
        "| module | s |",
        "|---|---:|",
        *(f"| {name} | {seconds:.2f} |" for name, seconds in heaviest_dependencies(runs)),
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.5, help="seconds a request (L)")
    parser.add_argument("--connections", default="1,10,50", help="comma-separated N values")
    parser.add_argument("--limit", type=int, default=None, help="samples a run (default all)")
    parser.add_argument(
        "--overlap-factor", type=int, default=2, help="--max-samples = this times N (default 2)"
    )
    parser.add_argument(
        "--import-runs", type=int, default=5, help="fresh interpreters a timing (0 = skip)"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))  # for tests.openai_server

    runs = []
    for n in (int(x) for x in args.connections.split(",")):
        for max_samples in (None, args.overlap_factor * n):
            runs.append(run_eval(n, max_samples, args.latency, args.limit))
            print(f"  done N={n} max_samples={max_samples}", file=sys.stderr, flush=True)
    print(
        f"Latency L = {args.latency} s a request, both models; sequential bound = "
        "2 * L * ceil(samples / N), overlapped bound = L * (ceil(samples / N) + 1).\n"
    )
    print(runs_table(runs))
    if args.import_runs:
        print()
        print(imports_table(args.import_runs))


if __name__ == "__main__":
    main()

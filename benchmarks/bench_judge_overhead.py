"""What live_qa_judge costs over Inspect's own floor for the same 581 samples (issues 27, 37).

Why: with an instant judge, every second of a live_qa_judge run is CPU spent by Inspect or by
the package, and only the package's share can be cut. One process runs, alternately so that
other load on the machine falls on both, `--repeats` times each after one untimed warm-up of each
(imports, the reference floor's worker start, nltk's import in it):

- `live_qa_judge`: the task over all 581 NIST answers (LIVEQA_DATA), its defaults (judge cache
  on, a fresh cache folder each run, so every judge request is made), the evaluated model as
  the judge; the floor's overlap values read from the package's cache after the warm-up, as
  in every run over answers already scored (each candidate judge's but the first);
- `floor`: the same 581 samples, `generate()` and as many scorers as live_qa_judge has (three),
  each returning a constant Score with Inspect's `mean()`: one model request a sample, as the
  judge makes, Inspect's own cost of three scorers (their events, summaries and reductions), and
  nothing of the package.

Both use one instant model, `mockllm/model` replying `<reasoning>..</reasoning><score>0.7</score>`
at once, with `usage` set so that Inspect counts no tokens (it would fetch a tokenizer), and the
same `eval()` settings: display="none", log_realtime=True (Inspect's default), log_format="eval",
max_connections=50 (so 50 samples in flight), a fresh log_dir each run. It prints each run's
wall time (the `eval()` call) and this process's CPU time, and the ratio: the median over the
repetitions of each repetition's own wall ratio (its two runs next to each other in time, so they
see one load), with the same for CPU; the goal is at most 1.3. On a machine shared with other
work, both times move with its load, from one minute to the next: read the ratios, not the
seconds. The first task built freezes the long-lived objects out of the garbage collector's walks
(`runtime.settle`), for the whole process: here the floor's runs profit from it as much.

Run by hand from the repository root, with the package installed from this tree (`pip install
-e .`): Inspect records the distribution that ships a task, and when the imported package is not
the installed one (a `PYTHONPATH` copy) it scans every installed distribution for it, about 0.8 s
of each live_qa_judge run that a user does not pay.

    LIVEQA_DATA=/work/shared/data/liveqa python benchmarks/bench_judge_overhead.py --repeats 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.model import Model, ModelOutput, ModelUsage, get_model
from inspect_ai.solver import generate

from liveqa_inspect import live_qa_judge
from liveqa_inspect.tasks.live_qa_judge.dataset import live_qa_judge_dataset

sys.path.insert(0, str(Path(__file__).resolve().parent))
from inspect_floor import constant  # noqa: E402
from peer_task import data_path  # noqa: E402

VERDICT = "<reasoning>The answer agrees with the references.</reasoning>\n<score>0.7</score>"
SETTINGS: dict[str, Any] = {
    "display": "none",
    "log_realtime": True,
    "log_format": "eval",
    "max_connections": 50,
}


def instant(*_: Any) -> ModelOutput:
    output = ModelOutput.from_content(model="mockllm", content=VERDICT)
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output


def instant_model() -> Model:
    return get_model("mockllm/model", custom_outputs=instant, memoize=False)


@cache
def judge_scorers() -> int:
    """Counted on the task once, untimed, so the floor follows live_qa_judge's scorers."""
    return len(judge_task().scorer or [])


def floor_task() -> Task:
    scorers = [constant(f"constant_{n}") for n in range(judge_scorers())]
    return Task(
        dataset=live_qa_judge_dataset("summary", data_path(), None, True),
        solver=generate(),
        scorer=scorers,
    )


def judge_task() -> Task:
    return live_qa_judge(data=str(data_path()) if data_path() else None)


def timed(make: Any) -> tuple[float, float]:
    """One run's wall time (the `eval()` call, on a fresh log and cache folder) and the CPU time
    of this process meanwhile, which load from other work inflates less."""
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["INSPECT_CACHE_DIR"] = str(Path(tmp, "cache"))
        started, cpu = time.perf_counter(), time.process_time()
        [log] = eval(make(), model=instant_model(), log_dir=str(Path(tmp, "logs")), **SETTINGS)
        took = time.perf_counter() - started, time.process_time() - cpu
        if log.status != "success" or len(log.samples or []) != 581:
            raise SystemExit(f"{make.__name__}: {log.status}, {len(log.samples or [])} samples")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    makers = {"live_qa_judge": judge_task, "floor": floor_task}
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in makers}
    print(f"floor: generate() and {judge_scorers()} constant scorers", flush=True)
    for make in makers.values():
        timed(make)  # warm-up, untimed
    for repeat in range(args.repeats):
        for name in makers if repeat % 2 == 0 else reversed(makers):
            runs[name].append(timed(makers[name]))
            wall, cpu = runs[name][-1]
            print(f"run {repeat + 1} {name}: wall {wall:.2f} s, cpu {cpu:.2f} s", flush=True)
    medians = {
        name: [statistics.median(column) for column in zip(*took, strict=True)]
        for name, took in runs.items()
    }
    for name, (wall, cpu) in medians.items():
        print(f"{name}: median wall {wall:.2f} s, cpu {cpu:.2f} s, of {args.repeats} runs")
    # A repetition's two runs are next to each other in time, so its ratio sees one load.
    pairs = list(zip(runs["live_qa_judge"], runs["floor"], strict=True))
    walls = [judge[0] / floor[0] for judge, floor in pairs]
    cpus = [judge[1] / floor[1] for judge, floor in pairs]
    print("each repetition's wall ratio: " + ", ".join(f"{ratio:.2f}" for ratio in walls))
    print("each repetition's cpu ratio: " + ", ".join(f"{ratio:.2f}" for ratio in cpus))
    print(
        f"ratio live_qa_judge / floor, median of {args.repeats} alternated repetitions: "
        f"wall {statistics.median(walls):.2f}, cpu {statistics.median(cpus):.2f}"
    )


if __name__ == "__main__":
    main()

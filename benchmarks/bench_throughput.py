"""Throughput of live_qa on a local server with fixed latency, beside Inspect's model_graded_qa.

Why: a judged eval costs two sequential model calls a sample (subject, then judge), so with `C`
samples in flight and latency `L` the best possible eval time is `2 * L * ceil(N / C)`. Measuring
the real `inspect eval` against that floor shows how much the task and Inspect add, and the same
run with Inspect's built-in `model_graded_qa` as the judge shows whether our scorer costs more
than the stock one. The prompt-size table shows what the judge is sent beyond the question,
references and answer it must read (the rubric), in characters and in the server's tokens.

Run by hand (not a test), from the repository root:

    .venv/bin/python benchmarks/bench_throughput.py --latency 0.2 --connections 1,4,16,64

`wall` is the whole `inspect eval` process (start-up included); `served` is the span from the
first request sent to the last reply received, which is what the ideal bounds.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Target

from liveqa_inspect.tasks.live_qa.dataset import live_qa_dataset

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peer_task import data_path  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SUBJECT = "gpt-4o-mini-2024-07-18"
JUDGE = "gpt-4o-2024-05-13"
FIXED_ANSWER = (
    "See a doctor about these symptoms; they can have several causes, and a physical "
    "examination and blood tests are needed to tell them apart and choose a treatment."
)
"""The answer used for the prompt-size table (about 30 words, a short real answer)."""


TASKS = {
    "live_qa": "liveqa_inspect/live_qa",
    "model_graded_qa": f"{Path(__file__).resolve().parent / 'peer_task.py'}@peer_model_graded_qa",
}


def respond(messages: list[dict], model: str) -> str:
    """One responder for subject and both judges, keyed on the prompt's format."""
    text = "\n".join(str(m.get("content", "")) for m in messages)
    if "<answer>\n" in text:  # live_qa's judge
        return "<reasoning>Agrees with the references.</reasoning>\n<score>0.7</score>"
    if "GRADE: C" in text:  # model_graded_qa's instructions name the format
        return "The answer agrees with the criterion.\n\nGRADE: C"
    return FIXED_ANSWER


@dataclass
class Row:
    task: str
    connections: int
    samples: int
    wall: float
    eval: float
    ideal: float
    requests: int
    status: str


def eval_env(server: dict[str, str], tmp: str) -> dict[str, str]:
    """An `inspect eval` subprocess's environment: the server's, and logs and caches in `tmp`."""
    env = {
        **os.environ,
        **server,
        "INSPECT_LOG_DIR": f"{tmp}/logs",
        "INSPECT_CACHE_DIR": f"{tmp}/cache",
        "LIVEQA_INSPECT_CACHE_DIR": f"{tmp}/liveqa-cache",
    }
    if data_path() is not None:
        env["LIVEQA_DATA"] = str(data_path())
    return env


def run_once(task_name: str, connections: int, latency: float, limit: int | None) -> Row:
    """One `inspect eval` against a fresh server (fresh cache, so every judge call is real)."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    from tests.openai_server import Faults, OpenAIServer

    with (
        tempfile.TemporaryDirectory() as tmp,
        OpenAIServer(respond, faults=Faults(latency=latency), backlog=256, lifetime=3600) as server,
    ):
        env = eval_env(server.env(), tmp)
        command = [
            sys.executable, "-m", "inspect_ai", "eval", TASKS[task_name],
            "--model", f"openai/{SUBJECT}", "--model-role", f"grader=openai/{JUDGE}",
            "--max-connections", str(connections), "--max-samples", str(connections),
            "--display", "none",
        ]  # fmt: skip
        if task_name == "live_qa":
            command += ["-T", "reference_metrics=false"]
        if limit is not None:
            command += ["--limit", str(limit)]
        start = time.monotonic()
        result = subprocess.run(
            command, check=False, env=env, cwd=REPO, capture_output=True, text=True
        )
        if result.returncode != 0:
            output = result.stdout[-3000:] + result.stderr[-3000:]
            raise SystemExit(f"inspect eval failed:\n{output}")
        wall = time.monotonic() - start
        [info] = list_eval_logs(f"{tmp}/logs")
        log = read_eval_log(info, header_only=True)
        samples = log.results.total_samples if log.results else 0
        # The log's started/completed stamps are whole seconds; the server's monotonic stamps
        # (taken after each reply's latency) give the span from first request to last reply.
        stamps = [r.at for r in server.requests]
        eval_time = max(stamps) - (min(stamps) - latency) if stamps else math.nan
        return Row(
            task=task_name,
            connections=connections,
            samples=samples,
            wall=wall,
            eval=eval_time,
            ideal=2 * latency * math.ceil(samples / connections),
            requests=server.count(),
            status=log.status,
        )


def throughput_table(rows: list[Row]) -> str:
    lines = [
        "| task | C | samples | wall s | served s | ideal s | served/ideal | requests/sample "
        "| status |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.task} | {r.connections} | {r.samples} | {r.wall:.1f} | {r.eval:.1f} | "
            f"{r.ideal:.1f} | {r.eval / r.ideal:.2f} | {r.requests / max(r.samples, 1):.2f} | "
            f"{r.status} |"
        )
    return "\n".join(lines)


def prompt_overhead_table() -> str:
    """Judge prompt size against its irreducible content, mean over the questions."""
    from inspect_ai.scorer._model import (
        DEFAULT_MODEL_GRADED_QA_TEMPLATE,
        default_instructions,
        model_scoring_prompt,
    )

    from liveqa_inspect.judging.prompts import LIVEQA_JUDGE, build_judge_prompt
    from tests.openai_server import words

    samples = list(live_qa_dataset("summary", data_path()))
    totals = {"live_qa": [0.0, 0.0, 0.0, 0.0], "model_graded_qa": [0.0, 0.0, 0.0, 0.0]}
    for sample in samples:
        question = str(sample.input)
        references = list(Target(sample.target).target)
        content = [question, *references, FIXED_ANSWER]
        chars, toks = sum(len(c) for c in content), sum(words(c) for c in content)
        ours = build_judge_prompt(
            LIVEQA_JUDGE, question=question, references=references, answer=FIXED_ANSWER
        )
        peer = model_scoring_prompt(
            template=DEFAULT_MODEL_GRADED_QA_TEMPLATE,
            question=question,
            output=ModelOutput.from_content(model="x", content=FIXED_ANSWER),
            criterion=Target(sample.target).text,
            instructions=default_instructions(partial_credit=False),
            metadata={},
        ).text
        for name, prompt in (("live_qa", ours), ("model_graded_qa", peer)):
            acc = totals[name]
            acc[0] += len(prompt)
            acc[1] += chars
            acc[2] += words(prompt)
            acc[3] += toks
    n = len(samples)
    lines = [
        f"Judge prompt vs its content (question + references + a fixed {words(FIXED_ANSWER)}-word "
        f"answer), mean over {n} questions; tokens = the server's whitespace word count:",
        "",
        "| judge prompt | chars | content chars | overhead chars | tokens | content tokens "
        "| overhead tokens |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, (pc, cc, pt, ct) in totals.items():
        lines.append(
            f"| {name} | {pc / n:.0f} | {cc / n:.0f} | {(pc - cc) / n:.0f} | {pt / n:.0f} | "
            f"{ct / n:.0f} | {(pt - ct) / n:.0f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.2, help="seconds a request (L)")
    parser.add_argument("--connections", default="1,4,16,64", help="comma-separated C values")
    parser.add_argument("--limit", type=int, default=None, help="samples a run (default all)")
    parser.add_argument(
        "--tasks", default="live_qa,model_graded_qa", help="comma-separated: " + ",".join(TASKS)
    )
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))  # for tests.openai_server

    rows = []
    for name in args.tasks.split(","):
        for c in (int(x) for x in args.connections.split(",")):
            rows.append(run_once(name, c, args.latency, args.limit))
            print(f"  done {name} C={c}", file=sys.stderr, flush=True)
    print(f"Latency L = {args.latency} s a request; ideal = 2 * L * ceil(samples / C).\n")
    print(throughput_table(rows))
    print()
    print(prompt_overhead_table())


if __name__ == "__main__":
    main()

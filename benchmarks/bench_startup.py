"""What this package adds to the start of an `inspect` command for another eval (issue 42).

Why: Inspect imports every `inspect_ai` entry point of the environment at each start of every
command, for every eval, so what the package's entry point imports is paid by evals that never use
it. This runs `inspect eval trivial.py` (a task file of another package's shape: one sample, no
solver, no model call) as a user of another eval does, with the package's entry point loaded as
installed and not loaded (the entry points marked loaded first, as inspect_floor.FLOOR_MAIN does:
the package is the environment's only entry point), the two in turn so that other load on the
machine falls on both, and reports the medians of the process's wall and CPU time and their
difference. The goal (issue 42): at most 0.15 s (0.67 s of imports before). Beside it, the
import of the entry point alone, in a fresh interpreter that has imported Inspect's command
first (as a start does before it loads the entry points): the same cost without the rest of the
command's time, which varies more from run to run than the package's share of it.

Each run also records, through an audit hook, the files of the package it opened other than its
modules (the rubrics, the perturbation texts, eval.yaml: none may be) and which of scikit-learn,
matplotlib, nltk and rouge_score it imported (none may be); tests/benchmarks asserts both.

Run by hand (not a test), from the repository root, with the package installed from this tree
(`pip install -e .`), about a minute with the defaults:

    .venv/bin/python benchmarks/bench_startup.py [--repeats 9] [--json FILE]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from inspect_floor import FLOOR_MAIN  # noqa: E402

GOAL = 0.15
"""Seconds the package may add to a command's start (issue 42)."""
HEAVY = ("sklearn", "matplotlib", "nltk", "rouge_score")

TRIVIAL = """
from inspect_ai import Task, task
from inspect_ai.dataset import Sample


@task
def trivial() -> Task:
    return Task(dataset=[Sample(input="x", target="x")], solver=[])
"""

PROBE = """
import atexit, json, os, sys
_package = {package!r}
_opened = []
def _audit(event, args):
    if event == "open" and isinstance(args[0], str) and args[0].startswith(_package):
        if not args[0].endswith((".py", ".pyc")):
            _opened.append(args[0])
sys.addaudithook(_audit)
@atexit.register
def _said():
    with open(os.environ["STARTUP_PROBE"], "w") as f:
        json.dump({{
            "opened": _opened,
            "heavy": [m for m in {heavy!r} if m in sys.modules],
            "ours": sorted(m for m in sys.modules if m.split(".")[0] == "liveqa_inspect"),
        }}, f)
"""
"""Run before Inspect's CLI: what the process opened of the package and imported, at exit."""

MAINS = {
    "with the package": "from inspect_ai._cli.main import main; main()",
    "without it": FLOOR_MAIN,
}


@dataclass
class Start:
    mode: str
    wall: float
    cpu: float
    status: int
    opened: list[str]
    heavy: list[str]
    ours: list[str]


def package_folder() -> str:
    """The installed package's folder, found without importing it."""
    spec = importlib.util.find_spec("liveqa_inspect")
    assert spec is not None and spec.submodule_search_locations, "liveqa_inspect is not installed"
    return str(Path(spec.submodule_search_locations[0]).resolve())


def start(mode: str, folder: Path) -> Start:
    probe = folder / "probe.json"
    code = PROBE.format(package=package_folder(), heavy=HEAVY) + MAINS[mode]
    command = [sys.executable, "-c", code, "eval", "trivial.py", "--model", "mockllm/model"]
    command += ["--display", "none", "--log-dir", str(folder / "logs")]
    env = {**os.environ, "STARTUP_PROBE": str(probe), "INSPECT_LOG_DIR": str(folder / "logs")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    ran = subprocess.run(
        command, check=False, cwd=folder, env=env, capture_output=True, text=True, timeout=300
    )
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    said = json.loads(probe.read_text(encoding="utf-8")) if probe.exists() else {}
    if ran.returncode != 0:
        print(ran.stderr[-2000:], file=sys.stderr)
    return Start(mode, wall, cpu, ran.returncode, **said)


ENTRY_POINT = (
    "import time, inspect_ai._cli.main; began = time.perf_counter(); "
    "import liveqa_inspect._registry; print(time.perf_counter() - began)"
)


def entry_point_import() -> float:
    ran = subprocess.run(
        [sys.executable, "-c", ENTRY_POINT], capture_output=True, text=True, check=True, timeout=120
    )
    return float(ran.stdout.strip().splitlines()[-1])


def starts(repeats: int) -> list[Start]:
    done: list[Start] = []
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        folder = Path(tmp)
        (folder / "trivial.py").write_text(TRIVIAL, encoding="utf-8")
        for n in range(repeats):
            order = list(MAINS) if n % 2 == 0 else list(reversed(MAINS))
            done.extend(start(mode, folder) for mode in order)
    return done


def table(runs: list[Start]) -> str:
    lines = ["| start | runs | wall s | cpu s | exit | package modules | files opened | heavy |"]
    lines.append("|---|---:|---:|---:|---|---:|---|---|")
    for mode in MAINS:
        mine = [r for r in runs if r.mode == mode]
        wall = statistics.median(r.wall for r in mine)
        cpu = statistics.median(r.cpu for r in mine)
        exits = ",".join(sorted({str(r.status) for r in mine}))
        opened = sorted({name for r in mine for name in r.opened}) or ["none"]
        heavy = sorted({name for r in mine for name in r.heavy}) or ["none"]
        modules = max(len(r.ours) for r in mine)
        lines.append(
            f"| {mode} | {len(mine)} | {wall:.2f} | {cpu:.2f} | {exits} | {modules} | "
            f"{', '.join(opened)} | {', '.join(heavy)} |"
        )
    return "\n".join(lines)


def difference(runs: list[Start], field: str) -> float:
    def median(mode: str) -> float:
        return statistics.median(getattr(r, field) for r in runs if r.mode == mode)

    return median("with the package") - median("without it")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9, help="runs of each start")
    parser.add_argument("--json", type=Path, help="also write every run here")
    args = parser.parse_args()
    runs = starts(args.repeats)
    imports = [entry_point_import() for _ in range(args.repeats)]
    print(table(runs))
    wall, cpu = difference(runs, "wall"), difference(runs, "cpu")
    verdict = "within" if wall <= GOAL else "over"
    print(f"\nThe package adds {wall:.2f} s of wall time ({cpu:.2f} s of CPU) to the start of")
    print(f"`inspect eval trivial.py`: {verdict} the goal of {GOAL:.2f} s. Its entry point's")
    print(f"import alone, after Inspect's: {statistics.median(imports):.3f} s (median of")
    print(f"{len(imports)}; {min(imports):.3f} to {max(imports):.3f} s).")
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in runs], indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()

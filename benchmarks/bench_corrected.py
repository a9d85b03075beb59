"""The corrected means of stats/corrected.py against the truth, by simulation (issue 41).

Why: a corrected figure earns its place beside the raw mean only if its 95% interval covers the
true mean about 95% of the time where the package uses it. So judges of known confusion
P(judge level | human level) grade answers whose true levels are known, and each estimator's
bias, coverage and interval width are counted over the repetitions, beside the raw mean's:

- the judges: lenient (one level up for 40% of answers), strict (one level down for 40%),
  noisy (right for 60%, else a level up or down), middling (a matrix like a real judge's: kind to
  poor answers, unsure between 0.7 and 1) and near-constant (0.7 for 95% of answers, else right);
- the calibration: the 581 NIST answers' human levels, each judged afresh in every repetition;
- the graded answers: 104 (one live_qa run) with true levels drawn from a modern model's
  distribution, unlike NIST's (mostly 0.7 and 1); and from one with almost no poor answers, where
  a solve constrained to a distribution is pressed against its edge;
- the hand-graded subsets of the prediction-powered mean: 30, 50 and 100 of the 104 at random.

The true mean is the level distribution's mean; every figure is the package's own function, with
its seeded 10,000 resamples. Run by hand from the repository root (two processes, about 15 min on
2 cores):

    python benchmarks/bench_corrected.py --repetitions 1000
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from liveqa_inspect.judging.scale import LIVEQA_SCALE
from liveqa_inspect.stats.bootstrap import Estimate, mean_estimate
from liveqa_inspect.stats.corrected import (
    NotIdentifiable,
    corrected_mean,
    human_only_mean,
    prediction_powered_mean,
)

LEVELS = np.array(LIVEQA_SCALE.levels)
NIST_COUNTS = (413, 72, 71, 25)
"""The 581 NIST answers by human level 0, 0.3, 0.7, 1 (grades 1 and junk, 2, 3, 4), as
live_qa_judge's dataset reads the qrels file (tests/benchmarks checks them against it)."""
FLOOR = 0.93
"""The issue's bar for each corrected figure's coverage, where it prints one."""
CHECKED = ("corrected", "prediction-powered")
GRADED = 104
HAND_GRADED = (30, 50, 100)
DISTRIBUTIONS = {
    "mostly 0.7 and 1": (0.05, 0.10, 0.40, 0.45),
    "almost no poor answers": (0.0, 0.02, 0.38, 0.60),
}


def judges() -> dict[str, np.ndarray]:
    """Each judge's P(judge level | human level): columns the human level, rows the judge's."""
    right = np.eye(4)
    up, down = np.eye(4, k=-1), np.eye(4, k=1)
    up[3, 3] = down[0, 0] = 1  # the top and bottom levels have nowhere further to go
    constant = np.zeros((4, 4))
    constant[2] = 1
    middling = np.array(
        [[0.8, 0.3, 0.1, 0.05], [0.15, 0.4, 0.2, 0.1], [0.05, 0.25, 0.4, 0.25], [0, 0.05, 0.3, 0.6]]
    )
    return {
        "lenient": 0.6 * right + 0.4 * up,
        "strict": 0.6 * right + 0.4 * down,
        "noisy": 0.6 * right + 0.2 * up + 0.2 * down,
        "middling": middling,
        "near-constant": 0.95 * constant + 0.05 * right,
    }


def judged(confusion: np.ndarray, human: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A judge level index for each human level index, drawn from its column."""
    cumulative = np.cumsum(confusion[:, human], axis=0)
    return (rng.random(len(human)) > cumulative).sum(axis=0).clip(0, 3)


@dataclass
class Tally:
    """Each repetition's figure of one estimator: its error, whether it covered, its width."""

    errors: list[float]
    covered: list[bool]
    widths: list[float]
    refused: int = 0

    def add(self, figure: Estimate | NotIdentifiable, truth: float) -> None:
        if isinstance(figure, NotIdentifiable):
            self.refused += 1
            return
        self.errors.append(figure.value - truth)
        self.covered.append(figure.low <= truth <= figure.high)
        self.widths.append(figure.high - figure.low)


def estimators() -> list[str]:
    return ["raw mean", "corrected (NIST, 581)"] + [
        f"{name} (n = {n})" for n in HAND_GRADED for name in ("prediction-powered", "human only")
    ]


def simulate(job: tuple[str, str, int, int]) -> tuple[str, str, dict[str, Tally]]:
    """One judge on one distribution, `repetitions` times."""
    judge, distribution, repetitions, seed = job
    confusion, shares = judges()[judge], np.array(DISTRIBUTIONS[distribution])
    truth = float(shares @ LEVELS)
    rng = np.random.default_rng(seed)
    calibration_human = np.repeat(np.arange(4), NIST_COUNTS)
    tallies = {name: Tally([], [], []) for name in estimators()}
    for _ in range(repetitions):
        calibration = LEVELS[judged(confusion, calibration_human, rng)]
        human_index = rng.choice(4, size=GRADED, p=shares)
        human, judge_levels = LEVELS[human_index], LEVELS[judged(confusion, human_index, rng)]
        tallies["raw mean"].add(mean_estimate(judge_levels), truth)
        figure = corrected_mean(calibration, LEVELS[calibration_human], judge_levels, LEVELS)
        tallies["corrected (NIST, 581)"].add(figure, truth)
        for n in HAND_GRADED:
            order = rng.permutation(GRADED)
            graded, others = order[:n], order[n:]
            powered = prediction_powered_mean(
                judge_levels[others], judge_levels[graded], human[graded]
            )
            tallies[f"prediction-powered (n = {n})"].add(powered, truth)
            tallies[f"human only (n = {n})"].add(human_only_mean(human[graded]), truth)
    return judge, distribution, tallies


def row(judge: str, name: str, tally: Tally, repetitions: int) -> str:
    shown = len(tally.covered)
    if not shown:
        cells = ["0%", "n/a", "n/a", "n/a"]
    else:
        cells = [
            f"{shown / repetitions:.0%}",
            f"{np.mean(tally.covered):.3f}",
            f"{np.mean(tally.errors):+.3f}",
            f"{np.mean(tally.widths):.3f}",
        ]
    return f"| {judge} | {name} | {' | '.join(cells)} |"


def table(distribution: str, results: dict[str, dict[str, Tally]], repetitions: int) -> str:
    shares = DISTRIBUTIONS[distribution]
    truth = float(np.array(shares) @ LEVELS)
    header = [
        f"True levels {distribution}: shares {', '.join(f'{s:g}' for s in shares)} of levels "
        f"0, 0.3, 0.7, 1 (true mean {truth:.3f}); {GRADED} graded answers, {repetitions} "
        "repetitions. `shown`: the repetitions with a figure (the rest read `not identifiable`);",
        "coverage, bias and width over those.",
        "",
        "| judge | estimator | shown | coverage | bias | mean width |",
        "|---|---|---:|---:|---:|---:|",
    ]
    rows = [
        row(judge, name, tally, repetitions)
        for judge, tallies in results.items()
        for name, tally in tallies.items()
    ]
    return "\n".join(header + rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repetitions", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    start = time.perf_counter()
    jobs = [
        (judge, distribution, args.repetitions, args.seed + i)
        for i, (judge, distribution) in enumerate(
            (judge, distribution) for distribution in DISTRIBUTIONS for judge in judges()
        )
    ]
    results: dict[str, dict[str, dict[str, Tally]]] = {d: {} for d in DISTRIBUTIONS}
    if args.processes > 1:
        with ProcessPoolExecutor(args.processes) as pool:
            done = list(pool.map(simulate, jobs))
    else:
        done = [simulate(job) for job in jobs]
    for judge, distribution, tallies in done:
        results[distribution][judge] = tallies
    for distribution in DISTRIBUTIONS:
        print(table(distribution, results[distribution], args.repetitions) + "\n")
    short = [
        f"{judge}, {name}, {distribution}"
        for distribution, by_judge in results.items()
        for judge, tallies in by_judge.items()
        for name, tally in tallies.items()
        if name.startswith(CHECKED) and tally.covered and np.mean(tally.covered) < FLOOR
    ]
    print(f"Corrected figures covering under {FLOOR}: {'; '.join(short) or 'none'}.")
    minutes = (time.perf_counter() - start) / 60
    print(f"{args.repetitions} repetitions, {args.processes} process(es): {minutes:.1f} min")


if __name__ == "__main__":
    main()

"""The agreement figures over the bootstrap: stats/agreement.py's counted path against the
libraries it would otherwise be (issue 27).

Why: the issue keeps a hand-written path only where the library is more than twice as slow on the
package's real workload, and Inspect recomputes the `agreement` metric at every progress refresh.
That workload is live_qa_judge's metric: the 581 NIST answers and 10,000 seeded resamples of
them, every figure for every resample. The judge is one level off on two answers in three (by
NIST line), as in tests/liveqa_inspect/tasks/live_qa_judge/test_task.py, so every figure has spread.

Every method computes its figure on the same 10,000 resamples (stats/bootstrap.resample_rows):

- counted (the package's path): each resample as how many times it draws each distinct
  (judge, human) pair, then `rank_correlation` and `quadratic_kappa` on those weights;
- rho, scipy `rankdata(axis=1)` on the drawn values (the vectorised library path), then
  Pearson's r of the ranks; and scipy `spearmanr` called once a resample;
- kappa, sklearn `cohen_kappa_score` on the level indices (weights="quadratic") called once a
  resample.

Each method runs `--repeats` times (the one-call-a-resample loops once: they take seconds) and the
best time is reported; every method's figures are checked equal to the counted ones. Last, the
whole metric as the log computes it (`agreement_figures`: its own multinomial draws, all six
figures and their intervals).

Run by hand from the repository root (about a minute):

    LIVEQA_DATA=... python benchmarks/bench_agreement.py
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from scipy.stats import rankdata, spearmanr
from sklearn.metrics import cohen_kappa_score

from liveqa_inspect.data.sources import LIVEQA_JUDGMENTS, fetch
from liveqa_inspect.judging.scale import LIVEQA_SCALE
from liveqa_inspect.stats.agreement import (
    Pairs,
    agreement_figures,
    quadratic_kappa,
    rank_correlation,
)
from liveqa_inspect.stats.bootstrap import RESAMPLES, resample_rows
from liveqa_inspect.tasks.live_qa_judge.dataset import parse_nist_judgments

LEVELS = list(LIVEQA_SCALE.levels)


def workload() -> tuple[np.ndarray, np.ndarray]:
    """(judge, human) levels of the 581 NIST answers."""
    found = fetch(LIVEQA_JUDGMENTS, None)
    judgments = parse_nist_judgments(found.path, found.content)
    human = np.array([j.level for j in judgments])
    index = np.abs(human[:, None] - np.array(LEVELS)).argmin(axis=1)
    shift = np.array([(j.line % 3) - 1 for j in judgments])
    return np.array(LEVELS)[np.clip(index + shift, 0, len(LEVELS) - 1)], human


def pearson_of_ranks(ra: np.ndarray, rb: np.ndarray) -> np.ndarray:
    ra, rb = ra - ra.mean(axis=1, keepdims=True), rb - rb.mean(axis=1, keepdims=True)
    return (ra * rb).sum(axis=1) / np.sqrt((ra**2).sum(axis=1) * (rb**2).sum(axis=1))


def timed(run: Callable[[], object], repeats: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    judge, human = workload()
    rows = resample_rows(len(judge))
    pairs, codes = np.unique(np.column_stack([judge, human]), axis=0, return_inverse=True)
    k = len(pairs)
    cells = (np.arange(RESAMPLES)[:, None] * k + codes.reshape(-1)[rows]).ravel()
    weights = np.bincount(cells, minlength=RESAMPLES * k).reshape(RESAMPLES, k).astype(float)
    index = {level: i for i, level in enumerate(LEVELS)}
    judge_index, human_index = (np.array([index[v] for v in x]) for x in (judge, human))

    def counted_rho() -> np.ndarray:
        return rank_correlation(*Pairs(pairs[:, 0], pairs[:, 1], LEVELS).codes, weights)

    def rankdata_rho() -> np.ndarray:
        return pearson_of_ranks(rankdata(judge[rows], axis=1), rankdata(human[rows], axis=1))

    def spearmanr_rho() -> np.ndarray:
        return np.array([spearmanr(judge[row], human[row]).statistic for row in rows])

    def counted_kappa() -> np.ndarray:
        return quadratic_kappa(Pairs(pairs[:, 0], pairs[:, 1], LEVELS), weights)

    def sklearn_kappa() -> np.ndarray:
        labels = list(range(len(LEVELS)))
        return np.array(
            [
                cohen_kappa_score(human_index[row], judge_index[row], weights="quadratic",
                                  labels=labels)
                for row in rows
            ]
        )  # fmt: skip

    methods = [
        ("spearman_rho", "counted (rank_correlation on weights)", counted_rho, args.repeats),
        ("spearman_rho", "scipy rankdata(axis=1)", rankdata_rho, args.repeats),
        ("spearman_rho", "scipy spearmanr, one call a resample", spearmanr_rho, 1),
        ("kappa_quadratic", "counted (quadratic_kappa on weights)", counted_kappa, args.repeats),
        ("kappa_quadratic", "sklearn cohen_kappa_score, one call a resample", sklearn_kappa, 1),
    ]
    print(f"{len(judge)} answers ({k} distinct pairs), {RESAMPLES} resamples; best of "
          f"{args.repeats} (loops: 1 run)\n")  # fmt: skip
    print("| figure | method | s | x counted | max abs difference |")
    print("|---|---|---:|---:|---:|")
    counted: dict[str, tuple[float, np.ndarray]] = {}
    for figure, name, run, repeats in methods:
        seconds, values = timed(run, repeats)
        base = counted.setdefault(figure, (seconds, np.asarray(values)))
        difference = float(np.nanmax(np.abs(np.asarray(values) - base[1])))
        print(f"| {figure} | {name} | {seconds:.3f} | {seconds / base[0]:.1f} | {difference:.1e} |")
    seconds, _ = timed(lambda: agreement_figures(judge, human, LEVELS), args.repeats)
    print(f"\nagreement_figures (the metric: draws, six figures, intervals): {seconds:.3f} s")


if __name__ == "__main__":
    main()

"""The judge report's figures are the log's metrics: the same functions on the same scores, for
live_qa_judge (one judge and a panel, one and two epochs) and expert_qa_claims (correctness and
support). The log's metrics, read by name, are the oracle."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.model import GenerateConfig

from liveqa_inspect import expert_qa_claims
from liveqa_inspect.judging.verdicts import epoch_figures, panel_figures
from liveqa_inspect.report.cli import SECTIONS
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.loading import load
from liveqa_inspect.stats.agreement import FIGURES, confusion_matrix, reference_rhos
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.stats.names import DETECTION_FIGURES, confusion_key
from liveqa_inspect.stats.values import human_levels
from liveqa_inspect.tasks.expert_qa.claims_metrics import majority
from liveqa_inspect.tasks.live_qa_judge.report import agreement, wrong_claims
from tests.helpers import (
    QUIET,
    Printed,
    Script,
    figures,
    report,
    run_judge,
    scripted_model,
    section,
    three,
    verdict,
)


def same(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


def stated(e: Estimate, m: dict[str, float], key: str) -> bool:
    """Whether an estimate is the figure and interval the log's metrics state under `key`."""
    logged = (m[key], m[f"{key}_ci_low"], m[f"{key}_ci_high"])
    return all(same(a, b) for a, b in zip((e.value, e.low, e.high), logged, strict=True))


def leveller(levels: list[str], unreadable: int | None = None) -> Script:
    """Levels by the prompt's length and the call's seed, so epochs and jurors disagree; no
    verdict on a seventh of the prompts, by length (those go unscored)."""

    def script(prompt: str, config: GenerateConfig) -> str:
        if unreadable is not None and len(prompt) % 7 == unreadable:
            return "no verdict"
        return verdict(levels[(len(prompt) + (config.seed or 0)) % len(levels)])

    return script


def bounds(low: float, high: float) -> str:
    return "n/a" if math.isnan(low) or math.isnan(high) else f"[{three(low)}, {three(high)}]"


def cell(value: float, low: float, high: float) -> str:
    """A figure with its interval in one cell, as the report prints it."""
    return three(value) if bounds(low, high) == "n/a" else f"{three(value)} {bounds(low, high)}"


def check_agreement_and_confusion(log: LoadedLog, m: dict[str, float], out: Printed) -> None:
    """The agreement table, the judge's row of the juror table and the confusion matrix."""
    found = agreement(log)
    assert all(stated(found[name], m, name) for name in FIGURES)
    rows = section(out, "Agreement with the human assessors")
    assert rows == [
        [name, three(m[name]), bounds(m[f"{name}_ci_low"], m[f"{name}_ci_high"])]
        for name in FIGURES
    ]
    matrix = confusion_matrix(log.scores(), log.scale)
    cells = [[m[confusion_key(h, j)] for j in log.scale] for h in log.scale]
    assert matrix.tolist() == cells
    printed = section(out, "Confusion matrix")
    assert [[float(n) for n in row[1:-1]] for row in printed] == cells


@pytest.mark.parametrize(("panel", "epochs"), [(False, 1), (False, 2), (True, 1), (True, 2)])
def test_live_qa_judge_figures_are_the_log_s(
    panel: bool, epochs: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    levels = ["0", "0.3", "0.7", "1"]
    jurors = [
        scripted_model(leveller(levels, unreadable=3), "a"),
        scripted_model(leveller(levels[1:] + levels[:1]), "b"),
    ]
    log = run_judge(
        leveller(levels, unreadable=3), limit=16, epochs=epochs, grader=jurors if panel else None
    )
    loaded = load(log.location, SECTIONS)
    names = ("judge_agreement_scorer", "reference_floor", "verdicts")
    m, floor, verdicts = (figures(log, name) for name in names)
    out = report(capsys, log.location, "--out", str(tmp_path))
    check_agreement_and_confusion(loaded, m, out)

    rhos = reference_rhos(loaded.scores("reference_floor"))
    assert {f"{name}_spearman_rho": rho for name, rho in rhos.items()}.keys() == floor.keys()
    assert all(same(rho, floor[f"{name}_spearman_rho"]) for name, rho in rhos.items())
    # The report's floor is on the answers the judge scored, the answers its rho is over.
    on_scored = reference_rhos([item.scores["reference_floor"] for item in loaded.scored_items()])
    assert [row[:3] for row in section(out, "No-model floors")] == [
        [name, "spearman_rho", three(rho)] for name, rho in on_scored.items()
    ]

    stability = epoch_figures(loaded.verdicts)
    if epochs == 1:
        assert stability is None and "epoch agreement" not in out
    else:
        assert stability is not None and same(stability.agreement, verdicts["epoch_agreement"])
        line = f"epoch agreement (same level in every epoch): {three(verdicts['epoch_agreement'])}"
        assert line in out

    found = panel_figures(loaded.verdicts)
    if not panel:
        assert found is None and "Each juror alone" not in out
        return
    assert found is not None and same(found.alpha, verdicts["krippendorff_alpha"])
    rows = {row[0]: row for row in section(out, "Each juror alone")}
    for name, juror in found.jurors.items():
        assert list(juror.agreement) == list(FIGURES)
        assert all(stated(e, verdicts, f"juror/{name}/{f}") for f, e in juror.agreement.items())
        kappa = f"juror/{name}/kappa_quadratic"
        assert rows[name][1] == cell(
            verdicts[kappa], verdicts[f"{kappa}_ci_low"], verdicts[f"{kappa}_ci_high"]
        )
    assert rows["panel"][1] == cell(
        m["kappa_quadratic"], m["kappa_quadratic_ci_low"], m["kappa_quadratic_ci_high"]
    )


@pytest.mark.parametrize(("aspect", "epochs"), [("correctness", 2), ("support", 1)])
def test_claims_figures_are_the_log_s(
    aspect: str, epochs: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    levels = ["1", "2", "3", "4", "5"] if aspect == "correctness" else ["1", "2", "3"]
    [log] = eval(
        expert_qa_claims(aspect=aspect),  # type: ignore[arg-type]
        model=scripted_model(leveller(levels), "judge"),
        limit=24,
        epochs=epochs,
        **QUIET,
    )
    assert log.status == "success", log.error
    loaded = load(log.location, SECTIONS)
    scorer = "claim_correctness_scorer" if aspect == "correctness" else "claim_support_scorer"
    m = figures(log, scorer)
    out = report(capsys, log.location, "--out", str(tmp_path))
    check_agreement_and_confusion(loaded, m, out)
    floors = section(out, "No-model floors")
    if aspect == "correctness":
        detection = wrong_claims(loaded, lambda _: True)
        assert list(detection) == list(DETECTION_FIGURES)
        assert all(same(detection[name].value, m[name]) for name in DETECTION_FIGURES)
        assert section(out, "Wrong-claim detection") == [
            [name, three(m[name]), "n/a"] for name in DETECTION_FIGURES
        ]
        assert majority(human_levels(loaded.scores())) == m["majority_share"]
        assert floors == [
            [
                "majority level",
                "exact_agreement",
                three(m["majority_share"]),
                three(m["exact_agreement"]),
                three(m["exact_agreement"] - m["majority_share"]),
            ]
        ]
    else:
        overlap = figures(log, "claim_passage_overlap")
        rhos = reference_rhos(loaded.scores("claim_passage_overlap"))
        assert rhos == {"rouge_l": overlap["rouge_l_spearman_rho"]}
        assert floors[0][:3] == ["rouge_l", "spearman_rho", three(overlap["rouge_l_spearman_rho"])]
        assert wrong_claims(loaded, lambda _: False) == {} and "Wrong-claim detection" not in out

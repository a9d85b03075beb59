"""expert_qa_claims through eval(): an oracle judge agrees perfectly, a constant one not at all."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig

from liveqa_inspect import expert_qa_claims
from liveqa_inspect.arguments import Aspect
from liveqa_inspect.judging.prompts import (
    CLAIM_CORRECTNESS_JUDGE,
    CLAIM_SUPPORT_JUDGE,
    build_judge_prompt,
)
from liveqa_inspect.stats.names import INCORRECT_AUROC, INCORRECT_F1
from liveqa_inspect.tasks.expert_qa.claims_task import correctness_fields, support_fields
from liveqa_inspect.tasks.expert_qa.dataset import expert_qa_claims_dataset
from tests.helpers import (
    QUIET,
    Script,
    figures,
    report,
    scripted_model,
    section,
    three,
    verdict,
    written,
)

ASPECTS = {
    "correctness": (CLAIM_CORRECTNESS_JUDGE, correctness_fields, "claim_correctness_scorer"),
    "support": (CLAIM_SUPPORT_JUDGE, support_fields, "claim_support_scorer"),
}


def oracle(aspect: Aspect) -> tuple[Script, list[str]]:
    """A judge replying each claim's expert level, keyed on its whole prompt (a claim's text
    alone repeats under other questions with other labels), and sample ids to run it on: the
    first three of each level, and both claims of a text that two questions label differently."""
    prompt, fields, _ = ASPECTS[aspect]
    samples = list(expert_qa_claims_dataset(aspect))
    levels = {
        build_judge_prompt(prompt, **fields(SimpleNamespace(metadata=s.metadata), None)): s
        for s in samples  # type: ignore[arg-type]
    }

    def script(text: str, _: GenerateConfig) -> str:
        return verdict(f"{levels[text].metadata['human_level']:g}")

    ids = [
        str(s.id)
        for level in prompt.scale.levels
        for s in [s for s in samples if s.metadata["human_level"] == level][:3]
    ]
    if aspect == "correctness":
        ids += ["domain_test_73_c0", "domain_test_242_c0"]  # one text, labels 1 and 3
    return script, ids


@pytest.fixture(scope="module")
def oracle_logs(module_env: None) -> dict[str, EvalLog]:
    logs = {}
    for aspect in ("correctness", "support"):
        script, ids = oracle(aspect)  # type: ignore[arg-type]
        [logs[aspect]] = eval(
            expert_qa_claims(aspect=aspect),  # type: ignore[arg-type]
            model=scripted_model(script, "oracle"),
            sample_id=ids,
            **QUIET,
        )
        assert logs[aspect].status == "success", logs[aspect].error
        assert len(logs[aspect].samples) == len(set(ids))
    return logs


@pytest.fixture(scope="module")
def constant_log(oracle_logs: dict[str, EvalLog]) -> EvalLog:
    """A judge rating every claim Definitely correct, on the oracle's correctness claims."""
    [log] = eval(
        expert_qa_claims(),
        model=scripted_model(lambda *_: verdict("5"), "constant"),
        sample_id=[sample.id for sample in oracle_logs["correctness"].samples],
        **QUIET,
    )
    return log


@pytest.mark.parametrize("aspect", ["correctness", "support"])
def test_an_oracle_judge_agrees_perfectly(aspect: str, oracle_logs: dict[str, EvalLog]) -> None:
    log = oracle_logs[aspect]
    m = figures(log, ASPECTS[aspect][2])
    assert m["exact_agreement"] == 1.0
    assert m["kappa_quadratic"] == pytest.approx(1.0)
    if aspect == "correctness":
        assert m[INCORRECT_F1] == 1.0 and m[INCORRECT_AUROC] == 1.0
        assert 0.0 < m["majority_share"] < 1.0
    else:
        assert "rouge_l_spearman_rho" in figures(log, "claim_passage_overlap")
    assert log.eval.headline_metric is not None
    assert log.eval.headline_metric.metric == "kappa_quadratic"
    assert log.eval.viewer is not None and log.eval.viewer.task_samples_view is not None
    [colours] = (log.eval.viewer.task_samples_view.score_color_scales or {}).values()
    top = 5.0 if aspect == "correctness" else 3.0
    assert (colours.palette, colours.min, colours.max) == ("neutral", 1.0, top)  # type: ignore[union-attr]


def test_a_constant_judge_has_zero_kappa(constant_log: EvalLog) -> None:
    m = figures(constant_log, "claim_correctness_scorer")
    assert m["kappa_quadratic"] == pytest.approx(0.0)
    assert m[INCORRECT_AUROC] == 0.5
    assert m[INCORRECT_F1] == 0.0  # nothing flagged
    first = constant_log.samples[0]
    score = first.scores["claim_correctness_scorer"]
    assert score.answer == first.metadata["claim"]
    level, label = first.metadata["human_level"], first.metadata["expert_label"]
    assert score.explanation.startswith(f"Human level: {level:g} ({label}). The judge's verdict:")


@pytest.mark.slow  # runs for long: a few evals and many bootstraps
def test_the_report_on_real_claims_logs(
    oracle_logs: dict[str, EvalLog], constant_log: EvalLog, capsys: pytest.CaptureFixture[str]
) -> None:
    support = report(capsys, oracle_logs["support"].location)
    assert "aspect: support; split: domain test; epochs: 1; scale: 1, 2, 3" in support
    n = len(oracle_logs["support"].samples)
    assert f"claims: {n} scored, 0 unscored" in support
    [floor] = section(support, "No-model floors")
    rho = figures(oracle_logs["support"], "claim_passage_overlap")["rouge_l_spearman_rho"]
    assert floor == ["rouge_l", "spearman_rho", three(rho), "1.000", three(1 - rho)]
    assert [row[0] for row in section(support, "Confusion matrix")] == ["1", "2", "3"]

    both = report(capsys, oracle_logs["correctness"].location, constant_log.location)
    rows = {row[0]: row for row in section(both, "Judges")}
    # kappa, rho, exact, within one, bias, MAE, then the wrong-claim figures, scored, unscored
    assert rows["mockllm/oracle"][1].startswith("1.000") and rows["mockllm/oracle"][7:9] == [
        "1.000",
        "1.000",
    ]
    assert rows["mockllm/constant"][1].startswith("0.000")
    assert rows["mockllm/constant"][7:9] == ["0.000", "0.500"]
    [difference] = section(both, "Kappa difference from mockllm/oracle")
    assert difference[:2] == ["mockllm/constant", "-1.000"]
    assert len(written(both)) == 3  # two heatmaps and the judge chart

"""expert_qa_claims through eval(): an oracle judge agrees perfectly, a constant one not at all."""

from __future__ import annotations

import pytest
from inspect_ai import eval
from inspect_ai.model import GenerateConfig

from liveqa_inspect import expert_qa_claims
from liveqa_inspect.datasets.expert_qa_claims import expert_qa_claims_dataset
from liveqa_inspect.judge import neutralise
from tests.helpers import between, figures, scripted_model, verdict

LIMIT = 60


def oracle(aspect: str):
    levels = {
        neutralise(str(s.metadata["claim"])): s.metadata["human_level"]
        for s in expert_qa_claims_dataset(aspect)  # type: ignore[arg-type]
    }

    def script(prompt: str, _: GenerateConfig) -> str:
        return verdict(f"{levels[between(prompt, 'claim')]:g}")

    return script


@pytest.mark.parametrize(
    ("aspect", "scorer"),
    [("correctness", "claim_correctness_scorer"), ("support", "claim_support_scorer")],
)
def test_an_oracle_judge_agrees_perfectly(aspect: str, scorer: str) -> None:
    [log] = eval(
        expert_qa_claims(aspect=aspect),  # type: ignore[arg-type]
        model=scripted_model(oracle(aspect), "oracle"),
        limit=LIMIT,
        display="none",
    )
    assert log.status == "success", log.error
    m = figures(log, scorer)
    assert m["exact_agreement"] == 1.0
    assert m["kappa_quadratic"] == pytest.approx(1.0)
    if aspect == "correctness":
        assert m["incorrect_f1"] == 1.0 and m["incorrect_auroc"] == 1.0
        assert 0.0 < m["majority_share"] < 1.0
    else:
        assert "rouge_l_spearman_rho" in figures(log, "claim_passage_overlap")


def test_a_constant_judge_has_zero_kappa() -> None:
    [log] = eval(
        expert_qa_claims(),
        model=scripted_model(lambda *_: verdict("5"), "constant"),
        limit=LIMIT,
        display="none",
    )
    m = figures(log, "claim_correctness_scorer")
    assert m["kappa_quadratic"] == pytest.approx(0.0)
    assert m["incorrect_auroc"] == 0.5
    first = log.samples[0]
    assert first.scores["claim_correctness_scorer"].answer == first.metadata["claim"]

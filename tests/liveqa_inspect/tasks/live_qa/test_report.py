"""The model report's figures are the log's metrics: the same functions on the same scores."""

from __future__ import annotations

import pytest
from inspect_ai.model import GenerateConfig

from liveqa_inspect.judging.verdicts import counts, epoch_figures, panel_figures
from liveqa_inspect.report.cli import SECTIONS
from liveqa_inspect.report.loading import load
from liveqa_inspect.stats.values import score_values
from liveqa_inspect.tasks.live_qa.metrics import level_shares
from liveqa_inspect.tasks.live_qa.report import headline
from tests.helpers import between, figures, report, run_live_qa, scripted_model, section, three


def juror(levels: dict[str, str], unreadable: str = "") -> object:
    """Levels keyed on the answer; no verdict for `unreadable` in odd-seeded calls."""

    def script(prompt: str, config: GenerateConfig) -> str:
        answer = between(prompt, "answer")
        if answer == unreadable and (config.seed or 0) % 2:
            return "no verdict"
        return f"<reasoning>r</reasoning>\n<score>{levels.get(answer, '0.3')}</score>"

    return script


@pytest.mark.parametrize("epochs", [1, 2])
def test_the_report_prints_the_log_s_figures(
    epochs: int, tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    panel = [
        scripted_model(juror({"ANSWER-ONE": "1", "ANSWER-SEVEN": "0.7"}, "ANSWER-ZERO"), "a"),
        scripted_model(juror({"ANSWER-ONE": "0.7", "ANSWER-THREE": "0"}), "b"),
    ]
    log = run_live_qa(grader=panel, limit=8, epochs=epochs)
    loaded = load(log.location, SECTIONS)
    judge, verdicts = figures(log, "live_qa_scorer"), figures(log, "verdicts")

    mean = headline(loaded)
    assert (mean.value, mean.low, mean.high) == (judge["mean"], judge["ci_low"], judge["ci_high"])
    shares = level_shares(score_values(loaded.scores()), loaded.scale)
    assert {f"share_{level:g}": share for level, share in shares.items()} == {
        key: value for key, value in judge.items() if key.startswith("share_")
    }
    found = counts(loaded.verdicts)
    assert (found["scored"], found["unscored"]) == (verdicts["scored"], verdicts["unscored"])
    jurors = panel_figures(loaded.verdicts)
    assert jurors is not None and jurors.alpha == verdicts["krippendorff_alpha"]
    for name in ("mockllm/a", "mockllm/b"):
        assert jurors.jurors[name].mean == verdicts[f"juror/{name}/mean"]
    stability = epoch_figures(loaded.verdicts)
    if epochs == 1:
        assert stability is None and "unread_epochs" not in verdicts
    else:
        assert stability is not None
        assert stability.unread == verdicts["unread_epochs"]
        assert stability.agreement == verdicts["epoch_agreement"]

    printed = report(capsys, log.location, "--out", str(tmp_path))
    [row] = section(printed, "The judge's mean level")
    bounds = f"[{three(judge['ci_low'])}, {three(judge['ci_high'])}]"
    assert row[2:4] == [three(judge["mean"]), bounds]
    assert section(printed, "Level distribution") == [
        [f"{level:g}", three(judge[f"share_{level:g}"])] for level in loaded.scale
    ]
    assert section(printed, "Panel") == [
        [name, three(verdicts[f"juror/{name}/mean"])] for name in ("mockllm/a", "mockllm/b")
    ]


def test_questions_without_a_paraphrase_are_left_out_of_a_wording_difference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """TQ10 has no NIST paraphrase: a paraphrase log asks it as its summary ("What joint pain
    medications..."). The model answers A to the original wording and to that summary, B to every
    paraphrase: over the questions
    truly asked in both wordings the difference is exactly -0.3, and TQ10 is said left out."""
    original = run_live_qa(lambda *_: "ANSWER-A", limit=10, question="original")
    paraphrase = run_live_qa(
        lambda prompt, _: "ANSWER-A" if "joint pain medications" in prompt else "ANSWER-B",
        limit=10,
        question="paraphrase",
    )
    out = report(capsys, original.location, paraphrase.location)
    assert section(out, "Difference from mockllm/model (original)") == [
        ["mockllm/model (paraphrase)", "-0.300", "[-0.300, -0.300]", "9"]
    ]
    [table] = [t for t in out.tables if t.title.startswith("Difference")]
    assert table.notes == [
        "Left out of the differences, as not asked in two wordings: the questions without a NIST "
        "paraphrase, which a paraphrase log asks as their summary (TQ10)."
    ]
    # Two logs of one wording ask TQ10 alike: it stays in their difference.
    twice = run_live_qa(lambda *_: "ANSWER-B", limit=10, question="paraphrase")
    again = report(capsys, paraphrase.location, twice.location)
    assert section(again, "Difference from")[0][-1] == "10"

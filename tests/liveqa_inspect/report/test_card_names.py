"""The judge card's rows: one judge at two settings is two rows over every task, each task's
figures in its own judge's row; the run's caveats are on the card, naming the judge."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval, score
from inspect_ai.log import write_eval_log
from inspect_ai.model import GenerateConfig

from liveqa_inspect import expert_qa_claims, live_qa, live_qa_judge
from liveqa_inspect.caveats import too_small
from liveqa_inspect.providers.gguf import MODEL_FILE
from liveqa_inspect.report import cli
from liveqa_inspect.report.card import MARKDOWN, NOT_RUN
from liveqa_inspect.stats.names import KAPPA
from liveqa_inspect.tasks.live_qa.task import live_qa_scorer
from tests.helpers import (
    QUIET,
    figures,
    judge_script,
    length_judge,
    scripted_model,
    subject_script,
    verdict,
)
from tests.liveqa_inspect.providers.local import SMOLLM2
from tests.liveqa_inspect.report.test_card import card_of, run, with_interval

pytestmark = pytest.mark.slow  # several evals into folders, then the card of each

COOL, WARM = "mockllm/judge (temperature=0.0)", "mockllm/judge (temperature=1.0)"


def test_one_judge_at_two_temperatures_is_two_rows_over_every_task(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The warm judge alone ran expert_qa_claims, where it is the only log: its figures are in
    its own row, not in the row of the judge's first log of live_qa_judge."""
    for temperature in (0.0, 1.0):
        run(live_qa_judge(), length_judge, "judge", tmp_path, limit=3, temperature=temperature)
    constant = lambda *_: verdict("5")  # noqa: E731
    claims = run(expert_qa_claims(), constant, "judge", tmp_path, limit=3, temperature=1.0)
    printed, rows = card_of(capsys, str(tmp_path))
    assert printed.startswith("== Judge card: 2 judge(s) ==")
    assert sorted(rows) == [COOL, WARM]
    assert rows[WARM]["experts kappa"] == with_interval(figures(claims), KAPPA)
    assert rows[COOL]["experts kappa"] == NOT_RUN
    assert "#2" not in printed.split("== live_qa_judge")[0]


def test_a_repeat_at_the_same_settings_is_numbered(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A judge left at the default temperature grades at 0: the same settings, a repeat."""
    run(live_qa_judge(), length_judge, "judge", tmp_path, limit=2)
    run(live_qa_judge(), length_judge, "judge", tmp_path, limit=2, temperature=0.0)
    _, rows = card_of(capsys, str(tmp_path))
    assert sorted(rows) == ["mockllm/judge", "mockllm/judge#2"]


def test_the_card_says_a_judge_is_served_from_smollm2_135m(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The caveat the run printed, on the card a team pastes: once, naming the judge."""

    small = scripted_model(length_judge, "small", metadata={MODEL_FILE: SMOLLM2})
    for task in (live_qa_judge(), expert_qa_claims()):
        [log] = eval(task, model=small, limit=2, log_dir=str(tmp_path), **QUIET)
        assert log.status == "success", log.error
    printed, _ = card_of(capsys, str(tmp_path))
    said = f"WARNING: mockllm/small: {too_small('mockllm/small')}"
    card = printed.split("== live_qa_judge")[0]
    assert [line for line in card.splitlines() if line.startswith("WARNING")] == [said]
    assert said in (tmp_path / MARKDOWN).read_text()


def test_a_model_regrading_its_own_answers_at_two_temperatures_is_two_rows(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The README's shape (the model grades its own answers), generated once and graded by
    `inspect score` at two temperatures: the judge is the evaluated model, but the settings it
    graded with are its scores', not those the answers were generated with."""

    def both(prompt: str, config: GenerateConfig) -> str:
        return (judge_script if "<answer>" in prompt else subject_script)(prompt, config)

    [answers] = eval(
        live_qa(reference_metrics=False),
        model=scripted_model(both, "judge"),
        score=False,
        limit=3,
        **QUIET,
    )
    assert answers.status == "success", answers.error
    for temperature in (0.0, 1.0):
        judge = scripted_model(both, "judge", temperature=temperature)
        graded = score(answers, [live_qa_scorer(cache=False)], model_roles={"grader": judge})
        write_eval_log(graded, str(tmp_path / f"t{temperature:g}.eval"))
    _, rows = card_of(capsys, str(tmp_path))
    assert sorted(rows) == [COOL, WARM]


def test_a_reference_judge_named_as_no_row_is_said(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A judge at two settings is two rows: a reference named by the model alone matches neither,
    and the card says so, naming the rows, rather than leaving its columns out in silence."""
    for temperature in (0.0, 1.0):
        run(live_qa_judge(), length_judge, "judge", tmp_path, limit=2, temperature=temperature)
    printed, rows = card_of(capsys, str(tmp_path), "--reference-judge", "mockllm/judge")
    assert (
        f"--reference-judge mockllm/judge: no row of the card is that judge (name it as its "
        f"row is: {COOL}, {WARM})" in printed
    )
    assert not any("with mockllm/judge" in column for row in rows.values() for column in row)
    _, rows = card_of(capsys, str(tmp_path), "--reference-judge", COOL)
    assert rows[COOL][f"NIST kappa with {COOL}"] == "reference"


def test_a_reference_judge_needs_a_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = run(live_qa_judge(), length_judge, "judge", tmp_path, limit=2)
    with pytest.raises(SystemExit) as stopped:
        cli.main([log.location, "--reference-judge", "mockllm/judge"])
    assert stopped.value.code == 2
    assert "--reference-judge is a column of the judge card" in capsys.readouterr().err

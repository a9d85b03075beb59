"""The NIST correction of a live_qa log by a live_qa_judge log, with scripted judges of known
confusion on answers whose human levels are known: NIST's graded answers served back as the
answers of the model under test (each even-numbered question's best-graded answer: a better set
than NIST's, as a modern model's), the calibration on the odd-numbered questions' answers."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig

from liveqa_inspect import live_qa, live_qa_judge
from liveqa_inspect.corrected.calibration import corrected
from liveqa_inspect.judging.scale import LIVEQA_SCALE
from liveqa_inspect.report.cli import SECTIONS
from liveqa_inspect.report.loading import load
from liveqa_inspect.report.tables import figure_cell
from liveqa_inspect.stats.bootstrap import Estimate, mean_estimate
from liveqa_inspect.stats.corrected import NotIdentifiable
from liveqa_inspect.tasks.live_qa_judge.dataset import live_qa_judge_dataset
from tests.helpers import QUIET, Humans, question_and_answer, scripted_model, verdict
from tests.liveqa_inspect.report.test_card import card_of

pytestmark = pytest.mark.slow  # four evals of some 290 and 50 answers each: ~30 s

LEVELS = list(LIVEQA_SCALE.levels)
MOVED = 0.5
"""The share of answers a judge moves one level off the human's."""


def served(data: Path) -> tuple[dict[str, tuple[str, float]], list[str], list[str]]:
    """Each even-numbered question's best-graded NIST answer and its level, by the question as
    asked; those questions' ids; the odd-numbered questions' judged answers' ids."""
    best: dict[str, tuple[str, str, float]] = {}
    calibration = []
    for sample in live_qa_judge_dataset(data=data):
        qid, level = sample.metadata["question_id"], sample.metadata["human_level"]
        if int(qid.removeprefix("TQ")) % 2:
            calibration.append(str(sample.id))
        elif level > best.get(str(sample.input), ("", "", -1.0))[2]:
            best[str(sample.input)] = (qid, sample.metadata["answer"], level)
    answers = {question: (answer, level) for question, (_, answer, level) in best.items()}
    return answers, sorted(qid for qid, _, _ in best.values()), calibration


def moved(humans: Humans, step: int) -> Callable[[str, GenerateConfig], str]:
    """A judge giving MOVED of the answers (by a hash of the answer) the level `step` off the
    human's, where there is one: its confusion is known, the same on every question."""

    def script(prompt: str, _: GenerateConfig) -> str:
        question, answer = question_and_answer(prompt)
        index = LEVELS.index(humans[question, answer])
        draw = int(hashlib.sha256(answer.encode()).hexdigest()[:8], 16) / 16**8
        shifted = min(max(index + step * (draw < MOVED), 0), len(LEVELS) - 1)
        return verdict(f"{LEVELS[shifted]:g}")

    return script


def runs(
    judge: Callable[[str, GenerateConfig], str], name: str, data: Path, folder: Path
) -> tuple[EvalLog, EvalLog]:
    """(the live_qa log of the served answers, the live_qa_judge log of the calibration), the
    judge named apart from the others (a judge's replies are cached by its name)."""
    answers, graded, calibration = served(data)
    subject = scripted_model(lambda prompt, _: answers[prompt.split("\n\n", 1)[1]][0], "served")
    [answered] = eval(
        live_qa(reference_metrics=False),
        model=subject,
        model_roles={"grader": scripted_model(judge, name)},
        sample_id=graded,
        log_dir=str(folder),
        **QUIET,
    )
    [calibrated] = eval(
        live_qa_judge(),
        model=scripted_model(judge, name),
        sample_id=calibration,
        log_dir=str(folder),
        **QUIET,
    )
    assert answered.status == calibrated.status == "success"
    return answered, calibrated


def raw_mean(log: EvalLog) -> Estimate:
    return mean_estimate([sample.scores["live_qa_scorer"].value for sample in log.samples or []])


def nist_corrected(graded: EvalLog, calibration: EvalLog) -> Estimate | NotIdentifiable:
    return corrected(*(load(log.location, SECTIONS) for log in (graded, calibration)))


def test_lenient_and_strict_judges_agree_once_corrected(
    humans: Humans, liveqa_data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers, _, _ = served(liveqa_data_dir)
    truth = sum(level for _, level in answers.values()) / len(answers)
    lenient = runs(moved(humans, +1), "lenient", liveqa_data_dir, tmp_path)
    strict = runs(moved(humans, -1), "strict", liveqa_data_dir, tmp_path)
    raw = [raw_mean(lenient[0]), raw_mean(strict[0])]
    assert raw[1].high < raw[0].low  # the raw means differ beyond their intervals
    found = [nist_corrected(*lenient), nist_corrected(*strict)]
    assert all(isinstance(c, Estimate) for c in found)
    assert max(c.low for c in found) < min(c.high for c in found)  # they overlap
    assert all(c.low <= truth <= c.high for c in found)  # and cover the true mean
    assert len(answers) == found[0].n == 51
    # The folder's report prints each beside the raw mean, naming the calibration; its judge
    # card (the served answers graded by both judges) shows them side by side.
    printed, rows = card_of(capsys, str(tmp_path))
    calibration = Path(lenient[1].location).name
    assert (
        f"corrected mean ({Path(lenient[0].location).name}, calibration {calibration}: 293 "
        f"answers graded by NIST): {figure_cell(found[0])}" in printed
    )
    assert "assumes: the judge errs on these answers as it erred" in printed
    for judge, estimate in zip(("lenient", "strict"), found, strict=True):
        assert rows[f"mockllm/{judge}"]["corrected mean"] == figure_cell(estimate)


def test_a_constant_judge_is_not_identifiable(liveqa_data_dir: Path, tmp_path: Path) -> None:
    found = nist_corrected(*runs(lambda *_: verdict("0.7"), "constant", liveqa_data_dir, tmp_path))
    assert isinstance(found, NotIdentifiable)
    assert str(found).startswith("not identifiable: the judge gave 0.7 to all ")

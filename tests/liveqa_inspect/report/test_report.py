"""The report CLI on real logs: each task run through eval() with scripted models."""

from __future__ import annotations

import math
import re
import sysconfig
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import Task, eval, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import read_eval_log, write_eval_log
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Score, Target, accuracy, scorer
from inspect_ai.solver import Generate, TaskState, solver

from liveqa_inspect import expert_qa, live_qa
from liveqa_inspect.data.sources import EXPERT_QA_FILES
from liveqa_inspect.judging.prompts import CLAIM_CORRECTNESS_JUDGE
from liveqa_inspect.judging.provenance import provenance
from liveqa_inspect.judging.scale import LIVEQA_SCALE
from liveqa_inspect.report import main
from liveqa_inspect.report.cli import SECTIONS
from liveqa_inspect.report.graded import mean_difference, paired
from liveqa_inspect.report.loading import load
from liveqa_inspect.report.plots import TITLE_CHARS_PER_INCH, drawing
from liveqa_inspect.stats.agreement import FIGURES, agreement, confusion
from liveqa_inspect.stats.names import ALPHA, DETECTION_FIGURES, confusion_key
from liveqa_inspect.tasks.expert_qa.claims_metrics import majority_share, wrong_claim_detection
from liveqa_inspect.tasks.live_qa_judge.report import kappa_difference
from tests.commands import process
from tests.helpers import (
    QUIET,
    Humans,
    Script,
    between,
    figures,
    judge_script,
    perfect,
    question_and_answer,
    report,
    run_bound_panel,
    run_judge,
    run_live_qa,
    scripted_model,
    section,
    three,
    verdict,
    written,
)

LEVELS = LIVEQA_SCALE.levels


# Model logs ------------------------------------------------------------------------------------


def answering(answer: str) -> Script:
    return lambda *_: answer


def unreadable_zero(prompt: str, config: GenerateConfig) -> str:
    """The scripted judge, with no readable verdict for ANSWER-ZERO (those go unscored)."""
    return (
        "no verdict" if between(prompt, "answer") == "ANSWER-ZERO" else judge_script(prompt, config)
    )


def test_one_live_qa_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = run_live_qa(grader=unreadable_zero, limit=8, epochs=2, reference_metrics=True)
    out = report(capsys, log.location, "--out", str(tmp_path))
    m = figures(log, "live_qa_scorer")

    assert "model: mockllm/model; question wording: summary; epochs: 2" in out
    assert "judge: mockllm/judge; prompt: live_qa v1 (sha256 " in out
    # TQ1-TQ3 are graded 1, 0.7 and 0.3; the other five get ANSWER-ZERO, which the judge cannot
    # read: five questions unscored, one reason each, not one per epoch.
    assert "samples: 3 scored, 5 unscored (grader_failed 5)" in out
    [row] = section(out, "The judge's mean level")
    assert row == [
        "mockllm/model",
        "mockllm/judge",
        three(m["mean"]),
        f"[{three(m['ci_low'])}, {three(m['ci_high'])}]",
        "3",
        "5",
    ]
    assert m["mean"] == pytest.approx(2 / 3)
    assert section(out, "Level distribution") == [
        [f"{level:g}", three(m[f"share_{level:g}"])] for level in LEVELS
    ]

    # Groups from the samples, with each question counted once whatever the epochs.
    values = {s.id: s.scores["live_qa_scorer"].value for s in log.samples if s.epoch == 1}
    meta = {s.id: s.metadata for s in log.samples}
    scored = [i for i in values if not math.isnan(values[i])]
    by_focus = section(out, "By focus category")
    assert sum(int(row[1]) for row in by_focus) == len(scored) == 3
    for label, n, mean, ci in by_focus:
        members = [values[i] for i in scored if meta[i]["focus_category"] == label]
        assert int(n) == len(members) and mean == three(float(np.mean(members)))
        if len(members) == 1:
            assert ci == "n/a"
        else:
            low, high = (float(x) for x in ci.strip("[]").split(", "))
            assert low <= float(mean) <= high
    assert "A question of several types counts once in each of them" in out
    by_type = section(out, "By question type")
    # A type whose questions all went unscored keeps its row, with n 0 and no mean.
    assert {row[0] for row in by_type} == {t for i in values for t in meta[i]["question_types"]}
    assert all(row[2:] == ["n/a", "n/a"] for row in by_type if row[1] == "0")
    assert sum(int(row[1]) for row in by_type) == sum(
        len(meta[i]["question_types"]) for i in scored
    )

    # The reference-overlap scorers as the log states them.
    others = section(out, "Other scorers")
    assert [row[0] for row in others] == [
        "exact_match",
        "quasi_exact_match",
        "f1_score",
        "rouge_l",
        "bleu_1",
        "bleu_4",
    ]
    for name, mean, stderr in others:
        assert (mean, stderr) == (
            three(figures(log, name)["mean"]),
            three(figures(log, name)["stderr"]),
        )
    assert "Panel" not in out

    paths = written(out)
    stem = Path(log.location).stem
    assert [p.name for p in paths] == [
        f"{stem}-means.png",
        f"{stem}-focus_category.png",
        f"{stem}-question_types.png",
    ]
    assert all(p.parent == tmp_path for p in paths)


def test_one_expert_qa_log_by_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A judge that gives Anthropology answers 1 and Geography ones 0.3 shows as such per field."""

    def by_field(prompt: str, _: GenerateConfig) -> str:
        return verdict("1" if "an expert in Anthropology" in prompt else "0.3")

    [log] = eval(
        expert_qa(field=["Anthropology", "Geography"]),
        model=scripted_model(lambda *_: "An answer."),
        model_roles={"grader": scripted_model(by_field, "judge")},
        **QUIET,
    )
    assert log.status == "success", log.error
    out = report(capsys, log.location, "--out", str(tmp_path))
    assert "expert_qa report" in out and "split: domain test" in out
    assert "samples: 4 scored, 0 unscored" in out
    assert section(out, "By field") == [
        ["Anthropology", "2", "1.000", "[1.000, 1.000]"],
        ["Geography", "2", "0.300", "[0.300, 0.300]"],
    ]
    assert [p.name for p in written(out)] == [
        f"{Path(log.location).stem}-means.png",
        f"{Path(log.location).stem}-field.png",
    ]


def test_a_panel_s_jurors_in_a_model_log(capsys: pytest.CaptureFixture[str]) -> None:
    jurors = [
        scripted_model(judge_script, "exact"),
        scripted_model(lambda *_: verdict("0"), "harsh"),
    ]
    log = run_live_qa(grader=jurors, limit=3)
    out = report(capsys, log.location)
    # The panel's rule with its jurors: the figures below are the jurors' mean (item 18).
    assert "judge: mean of mockllm/exact+mockllm/harsh;" in out
    # TQ1-TQ3 are graded 1, 0.7 and 0.3 by one juror and 0 by the other.
    assert section(out, "Panel: each juror's mean level") == [
        ["mockllm/exact", "0.667"],
        ["mockllm/harsh", "0.000"],
    ]
    alpha = figures(log, "verdicts")[ALPHA]
    assert f"Jurors' ordinal Krippendorff's alpha: {three(alpha)}" in out
    [row] = section(out, "The judge's mean level")
    assert row[:3] == ["mockllm/model", "mean of mockllm/exact+mockllm/harsh", "0.333"]


def test_a_known_difference_between_two_models(capsys: pytest.CaptureFixture[str]) -> None:
    """The judge gives model A's answers 1 and model B's 0.7 on the same questions: B - A is
    exactly -0.3 on every question, so every resample's mean difference is -0.3 too."""
    a = run_live_qa(answering("ANSWER-A"), name="a", limit=5)
    b = run_live_qa(answering("ANSWER-B"), name="b", limit=5)
    first, other = (load(log.location, SECTIONS).items for log in (a, b))
    difference = mean_difference(paired(first, other, "question"))
    assert difference.n == 5
    assert difference.value == pytest.approx(-0.3)
    assert difference.low == pytest.approx(-0.3) and difference.high == pytest.approx(-0.3)

    out = report(capsys, a.location, b.location)
    assert "WARNING" not in out
    rows = section(out, "The judge's mean level")
    assert [row[:3] + row[4:] for row in rows] == [
        ["mockllm/a", "mockllm/judge", "1.000", "5", "0"],
        ["mockllm/b", "mockllm/judge", "0.700", "5", "0"],
    ]
    assert section(out, "Difference from mockllm/a") == [
        ["mockllm/b", "-0.300", "[-0.300, -0.300]", "5"]
    ]
    [chart] = written(out)
    stem = re.escape(Path(a.location).stem)
    assert chart.parent == Path(a.location).parent
    assert re.fullmatch(rf"{stem}-models-[0-9a-f]{{12}}\.png", chart.name)
    # A's own report writes its own chart beside the comparison's, not over it.
    own = written(report(capsys, a.location))[0]
    assert own == chart.with_name(Path(a.location).stem + "-means.png")
    assert chart.is_file()

    # The same tables as Markdown, for a README.
    lines = report(capsys, a.location, b.location, "--markdown").splitlines()
    header = lines.index(
        "| model     | judge         |   mean |         95% CI |   scored |   unscored |"
    )
    assert (
        lines[header + 1]
        == "|:----------|:--------------|-------:|---------------:|---------:|-----------:|"
    )
    assert (
        lines[header + 3]
        == "| mockllm/b | mockllm/judge |  0.700 | [0.700, 0.700] |        5 |          0 |"
    )
    assert "**Difference from mockllm/a (paired bootstrap 95% CI" in lines[header + 5]
    assert "| mockllm/b |       -0.300 | [-0.300, -0.300] |        5 |" in lines
    # The figure as a Markdown image, where plain text names its path.
    assert lines[-1].rstrip() == f"![{chart.name}]({chart})"
    assert not any(line.startswith("figure: ") for line in lines)


def test_a_paired_interval_spans_a_difference_that_varies(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """B answers like A on half the questions and worse on the rest: the difference is the mean
    of the per-question differences, and its interval is strictly around it."""
    a = run_live_qa(answering("ANSWER-A"), name="a", limit=8)
    b = run_live_qa(
        lambda prompt, _: (
            "ANSWER-A" if any(k in prompt for k in ("Noonan", "amphetamine")) else "ANSWER-B"
        ),
        name="b",
        limit=8,
    )
    va = {s.id: s.scores["live_qa_scorer"].value for s in a.samples}
    vb = {s.id: s.scores["live_qa_scorer"].value for s in b.samples}
    expected = float(np.mean([vb[i] - va[i] for i in va]))
    first, other = (load(log.location, SECTIONS).items for log in (a, b))
    difference = mean_difference(paired(first, other, "question"))
    assert difference.value == pytest.approx(expected)
    assert -0.3 - 1e-9 <= difference.low < expected < difference.high <= 0.0
    out = report(capsys, a.location, b.location)
    [row] = section(out, "Difference from mockllm/a")
    assert row[1] == three(expected)


@pytest.mark.parametrize(
    ("other", "warning"),
    [
        ({"judge_name": "other-judge"}, "WARNING: the logs differ in judge"),
        ({"question": "paraphrase"}, "WARNING: the logs differ in questions or items"),
    ],
)
def test_logs_not_graded_alike_are_flagged(
    other: dict[str, str], warning: str, capsys: pytest.CaptureFixture[str]
) -> None:
    a = run_live_qa(answering("ANSWER-A"), name="a", limit=3)
    b = run_live_qa(answering("ANSWER-B"), name="b", limit=3, **other)  # type: ignore[arg-type]
    out = report(capsys, a.location, b.location)
    [line] = [line for line in out.splitlines() if line.startswith("WARNING")]
    assert line.startswith(warning) and line.endswith("their scores are not comparable.")


def test_logs_graded_with_another_prompt_version_are_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = run_live_qa(answering("ANSWER-A"), name="a", limit=2)
    b = read_eval_log(run_live_qa(answering("ANSWER-B"), name="b", limit=2).location)
    for sample in b.samples or []:
        sample.scores["live_qa_scorer"].metadata["prompt"]["version"] = "2"  # type: ignore[index]
    reworded = tmp_path / "reworded.eval"
    write_eval_log(b, str(reworded))
    out = report(capsys, a.location, str(reworded))
    [line] = [line for line in out.splitlines() if line.startswith("WARNING")]
    assert line.startswith("WARNING: the logs differ in judge prompt")
    assert "live_qa v1" in line and "live_qa v2" in line


# Judge logs ------------------------------------------------------------------------------------


def test_one_judge_log(humans: Humans, capsys: pytest.CaptureFixture[str]) -> None:
    log = run_judge(perfect(humans), limit=20)
    out = report(capsys, log.location)
    m = figures(log, "judge_agreement_scorer")
    floor = figures(log, "reference_floor")

    assert "judge: mockllm/judge (the evaluated model); prompt: live_qa v1" in out
    assert "scale: 0, 0.3, 0.7, 1" in out
    assert "answers: 20 scored, 0 unscored" in out
    rows = section(out, "Agreement with the human assessors")
    assert [row[0] for row in rows] == list(FIGURES)
    for name, value, ci in rows:
        assert value == three(m[name])
        assert ci == f"[{three(m[f'{name}_ci_low'])}, {three(m[f'{name}_ci_high'])}]"
    assert ["kappa_quadratic", "1.000", "[1.000, 1.000]"] in rows

    floors = section(out, "No-model floors")
    assert [row[0] for row in floors] == [
        "exact_match",
        "quasi_exact_match",
        "f1_score",
        "rouge_l",
        "bleu_1",
        "bleu_4",
    ]
    for name, compared, value, judge, margin in floors:
        rho = floor[f"{name}_spearman_rho"]
        assert (compared, value, judge) == ("spearman_rho", three(rho), "1.000")
        assert margin == three(1.0 - rho)

    cells = section(out, "Confusion matrix")
    human = [s.metadata["human_level"] for s in log.samples]
    for level, row in zip(LEVELS, cells, strict=True):
        count = human.count(level)
        assert row == [f"{level:g}", *(str(count if j == level else 0) for j in LEVELS), str(count)]
    assert (
        "Each juror alone" not in out and "Wrong-claim" not in out and "epoch agreement" not in out
    )
    [heatmap] = written(out)
    assert heatmap == Path(log.location).with_name(Path(log.location).stem + "-confusion.png")


def test_unscored_answers_and_epoch_agreement(
    humans: Humans, capsys: pytest.CaptureFixture[str]
) -> None:
    def script(prompt: str, config: GenerateConfig) -> str:
        if "Noonan" in question_and_answer(prompt)[0]:
            return "no verdict"
        return perfect(humans)(prompt, config)

    log = run_judge(script, limit=10, epochs=2)
    noonan = {s.id for s in log.samples if "Noonan" in str(s.input)}
    out = report(capsys, log.location)
    n = len(noonan)
    assert f"answers: {10 - n} scored, {n} unscored (grader_failed {n})" in out
    assert "epoch agreement (same level in every epoch): 1.000" in out


def test_a_bound_panel_shows_each_juror(capsys: pytest.CaptureFixture[str]) -> None:
    log = run_bound_panel("median", ["strict", "strict"], limit=12)
    m = {**figures(log, "judge_agreement_scorer"), **figures(log, "verdicts")}
    out = report(capsys, log.location)
    assert (
        "judge: median of mockllm/lenient+mockllm/strict+mockllm/strict "
        "(the grader role; evaluated model: mockllm/evaluated)" in out
    )
    rows = {row[0]: row for row in section(out, "Each juror alone")}
    assert set(rows) == {"panel", "mockllm/lenient", "mockllm/strict", "mockllm/strict#2"}
    for juror, row in rows.items():
        prefix = "" if juror == "panel" else f"juror/{juror}/"
        kappa = m[f"{prefix}kappa_quadratic"]
        bounds = (m[f"{prefix}kappa_quadratic_ci_low"], m[f"{prefix}kappa_quadratic_ci_high"])
        assert not any(math.isnan(b) for b in bounds), juror
        assert row[1] == f"{three(kappa)} [{three(bounds[0])}, {three(bounds[1])}]"
        exact = m[f"{prefix}exact_agreement"]
        assert row[3].startswith(three(exact)), row
    people = [s.metadata["human_level"] for s in log.samples]
    assert rows["mockllm/lenient"][3].startswith(three(people.count(1.0) / 12))
    alpha = three(m["krippendorff_alpha"])
    assert f"Jurors' ordinal Krippendorff's alpha with each other: {alpha}." in out


@pytest.mark.slow  # runs for long: a few evals and many bootstraps
def test_several_judges_and_the_kappa_difference(
    humans: Humans, capsys: pytest.CaptureFixture[str]
) -> None:
    """A perfect judge has kappa 1 on every resample, a constant one 0: the difference is -1
    with an interval of exactly [-1, -1]."""
    good = run_judge(perfect(humans), "perfect", limit=20)
    flat = run_judge(lambda *_: verdict("0.3"), "constant", limit=20)
    first, other = (load(log.location, SECTIONS) for log in (good, flat))
    difference = kappa_difference(paired(first.items, other.items, "answer"), first.scale)
    assert (difference.value, difference.low, difference.high, difference.n) == (
        pytest.approx(-1.0),
        pytest.approx(-1.0),
        pytest.approx(-1.0),
        20,
    )

    out = report(capsys, good.location, flat.location)
    assert "WARNING" not in out
    rows = section(out, "Judges")
    assert [row[0] for row in rows] == ["mockllm/perfect", "mockllm/constant"]
    for row, log in zip(rows, (good, flat), strict=True):
        m = figures(log, "judge_agreement_scorer")
        assert row[1].startswith(three(m["kappa_quadratic"]))
        assert row[2].startswith(three(m["spearman_rho"]))
        assert row[6].startswith(three(m["mae"]))
        assert row[7:] == ["no price", "20", "0"]  # judge cost, scored, unscored
    assert section(out, "Kappa difference from mockllm/perfect") == [
        ["mockllm/constant", "-1.000", "[-1.000, -1.000]", "20"]
    ]
    *names, judges = [p.name for p in written(out)]
    assert names == [
        Path(good.location).stem + "-confusion.png",
        Path(flat.location).stem + "-confusion.png",
    ]
    stem = re.escape(Path(good.location).stem)
    assert re.fullmatch(rf"{stem}-judges-[0-9a-f]{{12}}\.png", judges)


@pytest.mark.slow  # runs for long: a few evals and many bootstraps
def test_a_kappa_difference_that_varies(humans: Humans) -> None:
    """A judge right on some answers and one level up on the others: over the same answers the
    paired difference is the difference of the two logs' own kappas, inside its interval."""

    def sloppy(prompt: str, config: GenerateConfig) -> str:
        level = humans[question_and_answer(prompt)]
        if len(question_and_answer(prompt)[1]) % 3:
            return verdict(f"{level:g}")
        return verdict(f"{LEVELS[min(LEVELS.index(level) + 1, len(LEVELS) - 1)]:g}")

    good = run_judge(perfect(humans), "perfect", limit=30)
    rough = run_judge(sloppy, "sloppy", limit=30)
    expected = figures(rough)["kappa_quadratic"] - figures(good)["kappa_quadratic"]
    first, other = (load(log.location, SECTIONS) for log in (good, rough))
    difference = kappa_difference(paired(first.items, other.items, "answer"), first.scale)
    assert -1.0 < expected < 0.0
    assert difference.value == pytest.approx(expected)
    assert difference.low < expected < difference.high <= 0.0


@pytest.mark.slow  # runs for long: a few evals and many bootstraps
def test_judges_on_other_question_wordings_are_flagged(capsys: pytest.CaptureFixture[str]) -> None:
    first = run_judge(lambda *_: verdict("0"), "a", limit=3)
    other = run_judge(lambda *_: verdict("0"), "b", limit=3, question="original")
    out = report(capsys, first.location, other.location)
    assert "WARNING: the logs differ in questions or items" in out


# Claims logs: the agreement scorer on a 1..5 scale with wrong-claim detection figures ------------

CLAIM_LEVELS = [1.0, 2.0, 3.0, 4.0, 5.0]
# (human level, judge level, field) of each claim.
CLAIMS = [
    (1, 1, "Law"),
    (2, 1, "Law"),
    (5, 5, "Law"),
    (4, 5, "Medicine"),
    (3, 3, "Medicine"),
    (5, 4, "Medicine"),
    (5, 5, "Medicine"),
    (1, 2, "Physics"),
]
CLAIM_METRICS = [wrong_claim_detection(), majority_share()]


@scorer(metrics=[agreement(CLAIM_LEVELS), confusion(CLAIM_LEVELS), *CLAIM_METRICS])
def claim_scorer():
    async def score(state: TaskState, _: Target) -> Score:
        meta = {
            "judge_models": ["mockllm/claims-judge"],
            "prompt": {"name": "claims", "version": "1", "sha256": "ab" * 32},
        }
        return Score(value=float(state.metadata["judge"]), metadata=meta)

    return score


@solver
def nothing():
    async def solve(state: TaskState, _: Generate) -> TaskState:
        return state

    return solve


@task
def expert_qa_claims() -> Task:
    samples = [
        Sample(
            input=f"claim {n}",
            id=f"c{n}",
            metadata={"human_level": float(h), "judge": j, "field": field},
        )
        for n, (h, j, field) in enumerate(CLAIMS)
    ]
    return Task(
        dataset=MemoryDataset(samples),
        solver=nothing(),
        scorer=claim_scorer(),
        # This package's provenance, so the report reads it as one of its claims logs.
        metadata=provenance(CLAIM_CORRECTNESS_JUDGE, True, None, EXPERT_QA_FILES["domain", "test"]),
    )


def test_a_claims_log_on_its_own_scale(capsys: pytest.CaptureFixture[str]) -> None:
    [log] = eval(expert_qa_claims(), model=scripted_model(lambda *_: ""), **QUIET)
    assert log.status == "success", log.error
    out = report(capsys, log.location)
    assert "expert_qa_claims report" in out and "scale: 1, 2, 3, 4, 5" in out
    assert (
        "judge: mockllm/claims-judge (the grader role; evaluated model: mockllm/model); "
        "prompt: claims v1" in out
    )
    m = figures(log)
    # The wrong claims (expert 1 or 2) are the three the judge rates 1 or 2, and rates lowest.
    assert [m[name] for name in DETECTION_FIGURES] == [1.0, 1.0, 1.0, 1.0]
    assert section(out, "Wrong-claim detection") == [
        [name, three(m[name]), "n/a"] for name in DETECTION_FIGURES
    ]
    assert m["majority_share"] == 0.375  # three of the eight claims are at 5
    assert section(out, "No-model floors") == [
        [
            "majority level",
            "exact_agreement",
            "0.375",
            three(m["exact_agreement"]),
            three(m["exact_agreement"] - 0.375),
        ]
    ]
    assert m["exact_agreement"] == 4 / 8
    cells = section(out, "Confusion matrix")
    assert [row[0] for row in cells] == ["1", "2", "3", "4", "5"]
    for row in cells:
        h = float(row[0])
        assert [int(c) for c in row[1:6]] == [m[confusion_key(h, j)] for j in CLAIM_LEVELS]
    assert cells[4] == ["5", "0", "0", "0", "1", "2", "3"]
    fields = {row[0]: row for row in section(out, "By field")}
    assert {name: row[1] for name, row in fields.items()} == {
        "Medicine": "4",
        "Law": "3",
        "Physics": "1",
    }
    assert fields["Law"][2].startswith("0.667")  # exact agreement on 2 of 3
    assert fields["Physics"][2] == "0.000"  # one item: no interval
    [heatmap] = written(out)
    assert heatmap.name.endswith("-confusion.png")


# Refused logs ----------------------------------------------------------------------------------


def refused(capsys: pytest.CaptureFixture[str], *paths: str) -> str:
    assert main(list(paths)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    [line] = captured.err.splitlines()
    assert line.startswith("error: ")
    return line


def test_a_missing_or_unreadable_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "cannot read" in refused(capsys, str(tmp_path / "nope.eval"))
    junk = tmp_path / "junk.eval"
    junk.write_text("not a log", encoding="utf-8")
    assert "cannot read" in refused(capsys, str(junk))


def test_an_unfinished_log_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = read_eval_log(run_judge(lambda *_: verdict("0"), limit=2).location)
    log.status = "error"
    path = tmp_path / "failed.eval"
    write_eval_log(log, str(path))
    line = refused(capsys, str(path))
    assert "status 'error', not 'success'" in line and "eval-retry" in line
    assert not list(tmp_path.glob("*.png"))


@task
def other_task() -> Task:
    return Task(dataset=MemoryDataset([Sample(input="q", id="q")]), solver=nothing())


def test_an_unknown_task_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    [log] = eval(other_task(), model=scripted_model(lambda *_: ""), **QUIET)
    line = refused(capsys, log.location)
    assert "task 'other_task'" in line and "live_qa_judge" in line


@scorer(metrics=[accuracy()])
def halves():
    async def score(state: TaskState, _: Target) -> Score:
        return Score(value=0.5, metadata={"judge_models": ["mockllm/model"]})

    return score


@task(name="live_qa")
def someone_elses_live_qa() -> Task:
    """Another package's task that happens to be named live_qa, with a scale in its metadata."""
    return Task(
        dataset=MemoryDataset([Sample(input="q", id="q")]),
        solver=nothing(),
        scorer=halves(),
        metadata={"scale": list(LEVELS)},
    )


def test_a_log_another_package_wrote_is_refused_whatever_its_task_s_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    [log] = eval(someone_elses_live_qa(), model=scripted_model(lambda *_: ""), **QUIET)
    assert log.status == "success" and log.eval.task == "live_qa"
    assert refused(capsys, log.location) == (
        f"error: {log.location} is a log of a task named 'live_qa' that liveqa_inspect did not "
        "write (task 'live_qa', without liveqa_inspect's provenance in its metadata): its "
        "figures would not mean what this report prints"
    )


def test_a_log_given_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    log = run_judge(lambda *_: verdict("0"), limit=2)
    where = Path(log.location)
    spelled_otherwise = str(where.parent / ".." / where.parent.name / where.name)
    for twice in ((log.location, log.location), (log.location, spelled_otherwise)):
        assert refused(capsys, *twice) == (
            f"error: {twice[1]} is given twice: a log compared with itself says nothing; give "
            "each log once"
        )


def test_figures_that_cannot_be_written_cost_the_figures_not_the_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tables are printed first; an unwritable figure is one `error:` line naming the
    folder. (The tests may run as root, which writes into read-only folders: a folder holding
    a directory where a figure belongs, and a folder under a regular file, fail for root too.)"""
    log = run_live_qa(answering("ANSWER-A"), limit=2)
    taken = tmp_path / "taken"
    (taken / f"{Path(log.location).stem}-means.png").mkdir(parents=True)
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    for out in (taken, blocker / "figures"):
        assert main([log.location, "--out", str(out)]) == 1
        captured = capsys.readouterr()
        assert "The judge's mean level" in captured.out and "figure:" not in captured.out
        [line] = captured.err.splitlines()
        assert line.startswith(f"error: cannot write the figures into {out}: ")
        assert line.endswith("(choose a writable folder with --out)")


@pytest.mark.slow  # runs for long: a few evals and many bootstraps
def test_errored_and_missing_samples_are_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With fail_on_error off a run with failed samples succeeds; the report counts them, and a
    sample the log lost, beside the scored and unscored ones."""

    def subject(prompt: str, config: GenerateConfig) -> str:
        if "Noonan" in prompt or "amphetamine" in prompt:
            raise RuntimeError("the subject failed")
        return "ANSWER-ONE" if "Zolmitriptan" in prompt else "ANSWER-ZERO"

    [log] = eval(
        live_qa(reference_metrics=False),
        model=scripted_model(subject),
        model_roles={"grader": scripted_model(unreadable_zero, "judge")},
        limit=6,
        fail_on_error=False,
        **QUIET,
    )
    assert log.status == "success"
    out = report(capsys, log.location, "--out", str(tmp_path))
    # TQ2 is graded 1; TQ4-TQ6 answer ANSWER-ZERO, which the judge cannot read.
    assert "samples: 1 scored, 3 unscored (grader_failed 3), 2 errored, 0 missing" in out
    full = read_eval_log(log.location)
    assert full.samples is not None
    full.samples = [s for s in full.samples if s.id != "TQ6"]
    lost = tmp_path / "lost.eval"
    write_eval_log(full, str(lost))
    out = report(capsys, str(lost), "--out", str(tmp_path))
    assert "samples: 1 scored, 2 unscored (grader_failed 2), 2 errored, 1 missing" in out


def test_model_and_judge_logs_are_not_mixed(capsys: pytest.CaptureFixture[str]) -> None:
    model = run_live_qa(answering("ANSWER-A"), limit=2)
    judge = run_judge(lambda *_: verdict("0"), limit=2)
    line = refused(capsys, model.location, judge.location)
    assert "cannot report model logs" in line and "Run the report once for each kind" in line


@pytest.mark.slow
def test_the_command_refuses_without_a_traceback(tmp_path: Path) -> None:
    """`liveqa-report` as a user runs it, a real process (the refusal itself is tested above)."""
    nope = str(tmp_path / "nope.eval")
    result = process([str(Path(sysconfig.get_path("scripts")) / "liveqa-report"), nope])
    assert result.returncode == 2
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.startswith("error: cannot read")


def test_a_long_title_wraps_within_its_figure(tmp_path: Path) -> None:
    """A panel's judge names made the heatmap's title wider than the figure, cut at both ends."""
    names = "+".join(f"openai/gpt-4o-2024-05-13-juror{n}" for n in range(3))
    title = f"live_qa_judge: {names} vs human (n=581)"
    with drawing(tmp_path / "title.png", title, 5.8, 5.0) as axes:
        pass
    lines = axes.get_title().splitlines()
    assert len(lines) > 1
    assert max(len(line) for line in lines) <= 5.8 * TITLE_CHARS_PER_INCH

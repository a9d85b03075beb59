"""Issue 43: every figure that puts logs side by side is over the same answers and names the same
judge, whatever the logs' sample ids, limits, failures, folders and file names. Each test builds
the situation as a team would (runs into a folder, `--limit`, `score()` as `inspect score`, a
failed run, links) and reads the report and the judge card."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from inspect_ai import eval, score
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
from inspect_ai.model import GenerateConfig
from matplotlib.figure import Figure

from liveqa_inspect import (
    expert_qa,
    expert_qa_claims,
    live_qa,
    live_qa_judge,
    live_qa_judge_robustness,
)
from liveqa_inspect.judging.prompts import neutralise
from liveqa_inspect.judging.verdicts import verdicts
from liveqa_inspect.report.cli import SECTIONS
from liveqa_inspect.report.comparison import judge_labels
from liveqa_inspect.report.loading import load
from liveqa_inspect.report.plots import Charted, IntervalChart
from liveqa_inspect.stats.agreement import reference_rhos
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.tasks.expert_qa.claims_task import claim_correctness_scorer
from liveqa_inspect.tasks.expert_qa.task import expert_qa_scorer
from liveqa_inspect.tasks.live_qa.task import live_qa_scorer
from liveqa_inspect.tasks.live_qa_judge.dataset import live_qa_judge_dataset
from liveqa_inspect.tasks.live_qa_judge.task import judge_agreement_scorer
from liveqa_inspect.tasks.robustness.task import judge_robustness_scorer
from tests.helpers import (
    QUIET,
    Humans,
    Script,
    content_judge,
    judge_script,
    judgments_file,
    liveqa_data,
    perfect,
    question_and_answer,
    report,
    scripted_model,
    section,
    subject_script,
    three,
    verdict,
)
from tests.liveqa_inspect.report.test_card import card_of, run

VS_BEST = "NIST kappa vs best (paired)"


def first_answers(n: int) -> set[tuple[str, str]]:
    """The first n NIST answers as the judge prompt shows them (question, answer)."""
    dataset = live_qa_judge_dataset(data=liveqa_data())
    return {(neutralise(str(s.input)), neutralise(s.metadata["answer"])) for s in dataset[:n]}


def wrong_after(humans: Humans, n: int) -> Script:
    """Right on the first n answers, wrong (1 for a 0, else 0) on the others."""
    right = first_answers(n)

    def script(prompt: str, config: GenerateConfig) -> str:
        key = question_and_answer(prompt)
        level = humans[key] if key in right else (1.0 if humans[key] == 0 else 0.0)
        return verdict(f"{level:g}")

    return script


@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_judges_that_graded_other_answers_are_ranked_on_those_every_judge_scored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, humans: Humans
) -> None:
    """Case 1: a judge run with a smaller --limit is not `best` on its own few answers: both
    judges are right on the 4 answers both graded, so they are tied there, and the card says
    how many answers each figure covers."""
    run(live_qa_judge(), wrong_after(humans, 4), "wide", tmp_path, limit=12)
    run(live_qa_judge(), perfect(humans), "narrow", tmp_path, limit=4)
    printed, rows = card_of(capsys, str(tmp_path))
    assert rows["mockllm/narrow"][VS_BEST] == rows["mockllm/wide"][VS_BEST] == "tied"
    assert rows["mockllm/wide"]["NIST answers scored"] == "12"
    assert rows["mockllm/narrow"]["NIST answers scored"] == "4"
    assert "over the 4 answers every judge scored" in printed
    assert "the judges scored other answers (mockllm/wide 12, mockllm/narrow 4)" in printed


@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_claims_judges_of_two_aspects_are_not_ranked_together(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Case 1: correctness and support verdicts are two measurements: the card says the logs
    differ and ranks neither."""
    for aspect in ("correctness", "support"):
        run(expert_qa_claims(aspect=aspect), lambda *_: verdict("3"), aspect, tmp_path, limit=4)
    printed, rows = card_of(capsys, str(tmp_path))
    column = "experts kappa vs best (paired)"
    assert rows["mockllm/correctness"][column] == rows["mockllm/support"][column] == "not ranked"
    assert "experts kappa vs best: not ranked, as the judges' logs differ in" in printed
    assert "judge prompt" in printed.split("not ranked, as")[1].split("\n")[0]


def failing_on(answers: set[tuple[str, str]], humans: Humans) -> Script:
    def script(prompt: str, config: GenerateConfig) -> str:
        if question_and_answer(prompt) in answers:
            raise RuntimeError("the judge's API failed")
        return perfect(humans)(prompt, config)

    return script


@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_errored_answers_are_counted_and_the_ranking_says_what_it_is_over(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, humans: Humans
) -> None:
    """Case 2: a judge whose calls errored on some answers (fail_on_error off) is counted
    errored on the card, and the ranking is over the answers every judge scored, said."""
    hard = first_answers(8) - first_answers(5)
    run(
        live_qa_judge(), failing_on(hard, humans), "fragile", tmp_path, limit=8, fail_on_error=False
    )
    run(live_qa_judge(), wrong_after(humans, 5), "steady", tmp_path, limit=8)
    printed, rows = card_of(capsys, str(tmp_path))
    assert rows["mockllm/fragile"]["errored"] == "0.375 (3 of 8)"
    assert rows["mockllm/steady"]["errored"] == "0.000 (0 of 8)"
    assert rows["mockllm/fragile"]["NIST answers scored"] == "5"
    # Both are right on the 5 answers both scored: tied there, though fragile's unpaired kappa
    # (1 on its 5) is far above steady's (wrong on 3 of 8).
    assert rows["mockllm/fragile"][VS_BEST] == rows["mockllm/steady"][VS_BEST] == "tied"
    assert "over the 5 answers every judge scored" in printed


@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_own_judgments_are_not_paired_with_nist_by_colliding_sample_ids(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, humans: Humans
) -> None:
    """Case 3: an own judgments file names its samples `<qid>-L<line>` as NIST's run does; its
    answers are other texts, so nothing pairs them, and its agreement is not labelled NIST."""
    own = judgments_file(
        tmp_path,
        *(
            f'{{"question_id": "TQ1", "answer": "An answer of our own, number {n}.", "grade": {g}}}'
            for n, g in ((1, 4), (2, 1), (3, 3))
        ),
    )
    logs = tmp_path / "logs"
    run(live_qa_judge(), perfect(humans), "nist-judge", logs, limit=6)
    run(live_qa_judge(judgments=str(own)), lambda *_: verdict("1"), "own-judge", logs)
    printed, rows = card_of(capsys, str(logs))
    nist_ids = {s.id for s in live_qa_judge_dataset(data=liveqa_data())[:6]}
    assert {"TQ1-L1", "TQ1-L3"} <= nist_ids  # the own file's ids collide with NIST's
    assert rows["mockllm/own-judge"]["NIST kappa"] == "not run"
    assert rows["mockllm/nist-judge"]["own judgments judgments.jsonl kappa"] == "not run"
    assert "live_qa_judge: agreement with own judgments judgments.jsonl" in printed
    assert "-0.930" not in printed and "worse" not in printed


@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_two_gradings_at_the_same_settings_are_a_test_retest_not_a_copy(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Case 5: one judge grading the same answers twice (cache off) gives two logs that hold the
    same scores: two rows, given as files or as a folder; only a byte-identical file is a copy."""
    [answers] = eval(
        live_qa(reference_metrics=False),
        model=scripted_model(subject_script, "subject"),
        score=False,
        limit=5,
        **QUIET,
    )
    paths = []
    for name in ("t1", "t2"):
        scorers = [
            live_qa_scorer(cache=False),
            verdicts(judge="live_qa_scorer", levels=[0, 0.3, 0.7, 1]),
        ]
        graded = score(
            answers, scorers, model_roles={"grader": scripted_model(judge_script, "judge")}
        )
        write_eval_log(graded, path := str(tmp_path / f"{name}.eval"))
        paths.append(path)
    for given in (paths, [str(tmp_path)]):
        printed = report(capsys, *given)
        means = section(printed, "Each judge's mean level on the same answers")
        assert [row[0] for row in means] == ["mockllm/judge", "mockllm/judge#2"]
        [row] = section(printed, "Difference from mockllm/judge")
        assert row[4].startswith("1.000")  # exact agreement with itself
        assert "read once" not in printed


@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_cost_per_100_graded_counts_unreadable_answers_and_a_mute_judge_shows_its_calls(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, humans: Humans
) -> None:
    """Case 6: graded is scored or unscored (the judge was asked), one definition for every
    column. An unreadable verdict takes 3 attempts; each call is 1 + 1 tokens."""
    unread = first_answers(1)

    def some_unread(prompt: str, config: GenerateConfig) -> str:
        return (
            "no verdict"
            if question_and_answer(prompt) in unread
            else perfect(humans)(prompt, config)
        )

    run(live_qa_judge(), some_unread, "mostly", tmp_path, limit=4)
    run(live_qa_judge(), lambda *_: "no verdict", "mute", tmp_path, limit=4)
    _, rows = card_of(capsys, str(tmp_path))
    mostly, mute = rows["mockllm/mostly"], rows["mockllm/mute"]
    assert mostly["unscored"] == "0.250 (1 of 4)"
    assert mostly["tokens / 100 graded"] == "300"  # (3 + 3 calls) x 2 tokens / 4 graded
    assert mute["unscored"] == "1.000 (4 of 4)"
    assert mute["tokens / 100 graded"] == "600"  # 12 calls x 2 tokens / 4 graded
    assert mute["cached replies"] == "0 of 12 calls"


def regrade(answers: EvalLog, judge: str, path: Path) -> None:
    scorers = [live_qa_scorer(), verdicts(judge="live_qa_scorer", levels=[0, 0.3, 0.7, 1])]
    grader = scripted_model(lambda p, c: verdict("1" if judge == "lenient" else "0"), judge)
    write_eval_log(score(answers, scorers, model_roles={"grader": grader}), str(path))


@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_two_models_answers_each_regraded_by_two_judges(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Case 7: card rows per set of answers, each table naming the model whose answers it
    covers; each judge's two runs are compared as models, under their judge."""
    for model in ("alpha", "beta"):
        [answers] = eval(
            live_qa(reference_metrics=False),
            model=scripted_model(lambda p, c, said=f"{model} says": said, model),
            score=False,
            limit=3,
            **QUIET,
        )
        for judge in ("lenient", "strict"):
            regrade(answers, judge, tmp_path / f"{model}-{judge}.eval")
    printed, rows = card_of(capsys, str(tmp_path))
    assert "== Judge card: 2 judge(s) ==" in printed
    assert "live_qa: mockllm/alpha's answers (question wording: summary): each judge's" in printed
    assert "live_qa: mockllm/beta's answers (question wording: summary): each judge's" in printed
    for heading in (
        "== live_qa: mockllm/alpha's answers: 2 log(s) ==",
        "== live_qa: mockllm/beta's answers: 2 log(s) ==",
        "== live_qa: graded by mockllm/lenient: 2 log(s) ==",
        "== live_qa: graded by mockllm/strict: 2 log(s) ==",
    ):
        assert heading in printed
    assert "#2" not in printed and "not comparable" not in printed


@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_linked_folders_and_logs_are_followed_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, humans: Humans
) -> None:
    """Case 8: a linked sub-folder and a linked log are read; a link back up is not walked."""
    folder, elsewhere = tmp_path / "card", tmp_path / "elsewhere"
    run(live_qa_judge(), perfect(humans), "here", folder, limit=3)
    linked = run(live_qa_judge(), perfect(humans), "linked-log", elsewhere / "one", limit=3)
    run(live_qa_judge(), perfect(humans), "linked-folder", elsewhere / "two", limit=3)
    (folder / "log.eval").symlink_to(linked.location.removeprefix("file://"))
    (folder / "sub").symlink_to(elsewhere / "two", target_is_directory=True)
    (folder / "loop").symlink_to(folder, target_is_directory=True)
    printed, rows = card_of(capsys, str(folder))
    assert printed.startswith("== Judge card: 3 judge(s) ==")
    assert set(rows) == {"mockllm/here", "mockllm/linked-log", "mockllm/linked-folder"}
    assert f"not followed: {folder / 'loop'} is a link to" in printed


@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_one_own_set_under_two_file_names_is_one_set(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Case 9: the sha256 is an own set's identity: its runs under two names are one group,
    with no warning that they differ."""
    first = tmp_path / "questions.jsonl"
    first.write_text(
        '{"id": "q1", "question": "Is water wet?", "references": ["Yes."]}\n'
        '{"id": "q2", "question": "Is fire hot?", "references": ["Yes, very."]}\n',
        encoding="utf-8",
    )
    second = tmp_path / "questions-v1.jsonl"
    shutil.copyfile(first, second)
    logs = tmp_path / "logs"
    for name, path in (("a", first), ("b", second)):
        [log] = eval(
            live_qa(data=str(path), reference_metrics=False),
            model=scripted_model(lambda p, c, said=f"{name} answers": said, name),
            model_roles={"grader": scripted_model(lambda *_: verdict("1"), "judge")},
            log_dir=str(logs),
            **QUIET,
        )
        assert log.status == "success"
    printed = report(capsys, str(logs))
    assert printed.count("== live_qa on ") == 1 and ": 2 log(s) ==" in printed
    assert "not comparable" not in printed
    given = report(capsys, *(str(p) for p in sorted(logs.glob("*.eval"))))
    assert "not comparable" not in given


@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_the_rouge_l_floor_is_on_the_answers_the_judge_scored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, humans: Humans
) -> None:
    """Case 10: a judge that leaves some answers unscored is measured on the rest, and so is the
    floor its rho is set beside."""
    unread = first_answers(12) - first_answers(8)

    def skips(prompt: str, config: GenerateConfig) -> str:
        return (
            "no verdict"
            if question_and_answer(prompt) in unread
            else perfect(humans)(prompt, config)
        )

    log = run(live_qa_judge(), skips, "skipper", tmp_path, limit=12)
    _, rows = card_of(capsys, str(tmp_path))
    loaded = load(log.location, SECTIONS)
    scored = reference_rhos([i.scores["reference_floor"] for i in loaded.scored_items()])
    every = reference_rhos(loaded.scores("reference_floor"))
    assert scored["rouge_l"] != every["rouge_l"]
    assert rows["mockllm/skipper"]["NIST ROUGE-L floor"] == three(scored["rouge_l"])


@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_a_regraded_robustness_log_lands_in_its_judge_s_row(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, humans: Humans
) -> None:
    """Case 11: a robustness log run by one model at temperature 1, re-graded by a bound judge
    at temperature 0: the re-grading's settings are the judge's as sent, one row with its
    live_qa_judge log."""
    judge, folder = scripted_model(content_judge(humans), "judge"), tmp_path / "card"
    run(live_qa_judge(), content_judge(humans), "judge", folder, limit=4)
    [first] = eval(
        live_qa_judge_robustness(per_grade=1, perturbations="padding"),
        model=scripted_model(lambda *_: verdict("1"), "original"),
        temperature=1.0,
        log_dir=str(tmp_path / "first"),
        **QUIET,
    )
    scorer = judge_robustness_scorer()
    regraded = score(
        read_eval_log(first.location), scorer, model_roles={"grader": judge}, action="overwrite"
    )
    write_eval_log(regraded, str(folder / "regraded.eval"))
    printed, rows = card_of(capsys, str(folder))
    assert list(rows) == ["mockllm/judge"]
    assert "temperature=1.0" not in printed


@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_a_candidate_whose_run_failed_is_named_on_the_card(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, humans: Humans
) -> None:
    """Case 12: a judge's failed run is named on the card, with why."""
    run(live_qa_judge(), perfect(humans), "works", tmp_path, limit=3)

    def fails(prompt: str, config: GenerateConfig) -> str:
        raise RuntimeError("down")

    [failed] = eval(
        live_qa_judge(),
        model=scripted_model(fails, "fails"),
        limit=3,
        log_dir=str(tmp_path),
        **QUIET,
    )
    assert failed.status == "error"
    printed, _ = card_of(capsys, str(tmp_path))
    card = printed.split("== live_qa_judge")[0]
    assert f"Not on the card: {failed.location.removeprefix('file://')} has status 'error'" in card


@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_each_figure_is_written_beside_its_own_log(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, humans: Humans
) -> None:
    """Case 14: the confusion PNG of a log in t1/ lands in t1/, not in the first log's folder."""
    t0 = run(live_qa_judge(), perfect(humans), "judge", tmp_path / "t0", limit=3)
    t1 = run(live_qa_judge(), perfect(humans), "judge", tmp_path / "t1", limit=3, temperature=1.0)
    report(capsys, str(tmp_path))
    for log, folder in ((t0, "t0"), (t1, "t1")):
        stem = Path(log.location).stem
        assert (tmp_path / folder / f"{stem}-confusion.png").exists()


@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_judges_tied_at_the_top_are_all_tied_and_shares_carry_their_n(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, humans: Humans
) -> None:
    """Case 15: two constant judges (kappa 0) are both `tied`, no `best`; a perturbation that
    moved nothing reads `moved none`, and a share says its n."""
    for name in ("one", "two"):
        run(live_qa_judge(), lambda *_: verdict("0.7"), name, tmp_path, limit=6)
    run(
        live_qa_judge_robustness(per_grade=1, perturbations="padding,truncation"),
        lambda *_: verdict("0.7"),
        "one",
        tmp_path,
    )
    printed, rows = card_of(capsys, str(tmp_path))
    assert rows["mockllm/one"][VS_BEST] == rows["mockllm/two"][VS_BEST] == "tied"
    assert "best" not in [row[VS_BEST] for row in rows.values()]
    assert rows["mockllm/one"]["most moved (should hold)"] == "moved none (n=4)"
    assert rows["mockllm/one"]["most not lowered (should lower)"].startswith("truncation 1.000")
    assert " n=" in rows["mockllm/one"]["most not lowered (should lower)"]


def test_the_card_chart_marks_the_floor_leaves_n_a_undrawn_and_says_the_caveat(
    tmp_path: Path,
) -> None:
    """Case 16: the floor is a mark, not a bar; an undefined rho is not drawn; one colour a
    judge; the run's caveat is on the image."""
    rows = [
        Charted("a: NIST kappa", Estimate(0.5, 0.4, 0.6, 10), "a"),
        Charted("a: NIST rho", Estimate(0.6, 0.5, 0.7, 10), "a", floor=0.43),
        Charted("b: NIST kappa", Estimate(0.0, 0.0, 0.0, 10), "b"),
        Charted("b: NIST rho", Estimate(float("nan")), "b", floor=0.43),
    ]
    caveats = ["WARNING: b: SmolLM2-135M ..."]
    chart = IntervalChart("card.png", "Judge card", "figure", rows, (-0.1, 1.05), caveats)
    axes = Figure().add_subplot()
    chart.plot(axes)
    bars = [patch for patch in axes.patches]
    assert len(bars) == 3  # the undefined rho has no bar
    assert len({bar.get_facecolor() for bar in bars}) == 2  # one colour a judge
    floors = [line for line in axes.lines if line.get_marker() == "D"]
    assert len(floors) == 2  # each rho's floor, as a mark, beside the undefined one too
    assert "n/a" in [text.get_text() for text in axes.texts]
    chart.draw(path := tmp_path / "card.png")
    assert path.read_bytes().startswith(b"\x89PNG")


REGRADED = {
    "live_qa": (live_qa, {"reference_metrics": False}, live_qa_scorer),
    "expert_qa": (expert_qa, {}, expert_qa_scorer),
    "live_qa_judge": (live_qa_judge, {}, judge_agreement_scorer),
    "expert_qa_claims": (expert_qa_claims, {}, claim_correctness_scorer),
    "live_qa_judge_robustness": (
        live_qa_judge_robustness,
        {"per_grade": 1, "perturbations": "padding"},
        judge_robustness_scorer,
    ),
}
"""Each judged task, its arguments here, and its judge's scorer (the one `inspect score` re-runs
to re-grade it)."""


@pytest.mark.parametrize("task", list(REGRADED))
@pytest.mark.slow  # a few evals into a folder, then the report of it
def test_every_judged_task_s_scores_hold_the_judge_record_read_by_the_report(
    task: str, tmp_path: Path
) -> None:
    """A log of each judged task, re-graded by another judge bound at temperature 0.5 (as
    `inspect score --model-role grader=...` does): every score holds who judged, what bound it
    and the settings it was sent, and the report names the judge from that record."""
    make, args, scorer = REGRADED[task]
    [log] = eval(
        make(**args),
        model=scripted_model(lambda *_: verdict("3"), "first"),
        model_roles={"grader": scripted_model(lambda *_: verdict("1"), "first")},
        limit=2,
        **QUIET,
    )
    assert log.status == "success", log.error
    grader = scripted_model(lambda *_: verdict("1"), "second", temperature=0.5)
    found = read_eval_log(log.location)
    regraded = score(found, scorer(), model_roles={"grader": grader}, action="overwrite")
    write_eval_log(regraded, path := str(tmp_path / "regraded.eval"))
    name = regraded.eval.headline_metric.scorer  # type: ignore[union-attr]
    records = [s.scores[name].metadata["judge"] for s in regraded.samples or []]
    assert records and all(
        record
        == {
            "models": ["mockllm/second"],
            "panel": None,
            "bound": "grader role",
            "settings": [{"seed": "42", "temperature": "0.5"}],
        }
        for record in records
    )
    loaded = load(path, SECTIONS)
    assert loaded.judge_label == "mockllm/second"
    assert judge_labels([loaded]) == ["mockllm/second"]

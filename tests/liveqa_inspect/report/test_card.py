"""The judge card (issue 35): `liveqa-report DIR` puts every candidate judge of a folder in one row
first, each figure the one its task's own metric states, "not run" where a judge did not run a
task, and writes it as judge-card.md and judge-card.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog

from liveqa_inspect import live_qa_judge, live_qa_judge_robustness
from liveqa_inspect.report import card, cli, main
from liveqa_inspect.report.card import MARKDOWN, NOT_RUN, PNG, REFERENCE, Card
from liveqa_inspect.report.tables import Table, cell
from liveqa_inspect.stats.names import KAPPA, ci_keys, pair_key
from liveqa_inspect.tasks.robustness.dataset import expected
from tests.helpers import (
    PNG as PNG_BYTES,
)
from tests.helpers import (
    QUIET,
    Humans,
    Script,
    content_judge,
    figures,
    length_judge,
    perfect,
    report,
    scripted_model,
    section,
    three,
)
from tests.liveqa_inspect.report.test_judges import regraded

RHO = "spearman_rho"


def run(task: Task, script: Script, name: str, folder: Path, **args: object) -> EvalLog:
    [log] = eval(task, model=scripted_model(script, name), log_dir=str(folder), **QUIET, **args)
    assert log.status == "success", log.error
    return log


def card_of(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[str, dict[str, dict]]:
    """What `liveqa-report` printed, and its card as {judge: {column: cell as printed}}."""
    kept: list[Card | None] = []

    def keeping(*given: object) -> Card | None:
        kept.append(found := card.judge_card(*given))  # type: ignore[arg-type]
        return found

    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(cli, "judge_card", keeping)
        printed = report(capsys, *args)
    [found] = kept
    assert found is not None
    rows: dict[str, dict] = {}
    for table in (block for block in found.blocks if isinstance(block, Table)):
        names = [row[0] for row in table.rows]
        assert names == list(rows or names), "each table lists every judge, in one order"
        for row in table.rows:
            cells = zip(table.headers[1:], map(cell, row[1:]), strict=True)
            rows.setdefault(row[0], {}).update(cells)
    return printed, rows


def with_interval(metrics: dict[str, float], name: str) -> str:
    """A figure and its interval as the card's cell, from the log's own metrics."""
    low, high = (metrics[key] for key in ci_keys(name))
    return f"{three(metrics[name])} [{three(low)}, {three(high)}]"


def worst(log: EvalLog, share: str = "unchanged") -> str:
    """The perturbation whose share as expected (`unchanged` where it should hold the level,
    `lowered` where it should lower it) is lowest in the log's metrics, and the share of its
    pairs that went against it, as the card shows them."""
    metrics = figures(log)
    shares = [key for key in metrics if key.endswith(f"_{share}")]
    name = min(shares, key=metrics.__getitem__)
    perturbation = name.removesuffix(f"_{share}")
    assert expected(perturbation) == ("hold" if share == "unchanged" else "lower")
    if metrics[name] == 1:  # every pair went as expected: none moved
        n = sum(int(metrics[key.removesuffix(share) + "n"]) for key in shares)
        return f"{'moved' if share == 'unchanged' else 'unlowered'} none (n={n})"
    low, high = (metrics[key] for key in ci_keys(name))
    n = int(metrics[f"{perturbation}_n"])
    return f"{perturbation} {three(1 - metrics[name])} [{three(1 - high)}, {three(1 - low)}] n={n}"


def test_the_card_of_two_judges_one_the_reference(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, humans: Humans
) -> None:
    logs = {
        name: run(live_qa_judge(), script, name, tmp_path, limit=8)
        for name, script in (("good", perfect(humans)), ("other", length_judge))
    }
    robust = run(live_qa_judge_robustness(per_grade=1), content_judge(humans), "good", tmp_path)
    printed, rows = card_of(capsys, str(tmp_path), "--reference-judge", "mockllm/good")

    assert printed.startswith("== Judge card: 2 judge(s) ==")
    assert printed.index("Judge card") < printed.index("== live_qa_judge")
    assert list(rows) == ["mockllm/good", "mockllm/other"]
    for name, log in logs.items():
        row, metrics = rows[f"mockllm/{name}"], figures(log)
        assert row["NIST kappa"] == with_interval(metrics, KAPPA)
        assert row["NIST rho"] == with_interval(metrics, RHO)
        assert row["NIST bias"] == with_interval(metrics, "bias")
        floor = figures(log, "reference_floor")[pair_key("rouge_l", RHO)]
        assert row["NIST ROUGE-L floor"] == three(floor)
        above = metrics[ci_keys(RHO)[0]] > floor
        assert row["NIST rho vs floor"] == ("above" if above else "not beyond CI")
    # The paired difference is the live_qa_judge section's own, the best judge being the first.
    [[_, value, interval, _]] = section(printed, "Kappa difference")
    paired = rows["mockllm/other"]["NIST kappa vs best (paired)"]
    assert paired == f"{value} {interval} worse"
    assert rows["mockllm/good"]["NIST kappa vs best (paired)"] == "best"
    # The reference gave every answer its human level: agreeing with it is agreeing with them.
    assert rows["mockllm/good"]["NIST kappa with mockllm/good"] == REFERENCE
    other = rows["mockllm/other"]
    assert other["NIST kappa with mockllm/good"] == other["NIST kappa"]
    exact = with_interval(figures(logs["other"]), "exact_agreement")
    assert other["NIST exact with mockllm/good"] == f"{exact} n=8"
    # Robustness: good's from its log; the other did not run it.
    assert rows["mockllm/good"]["most moved (should hold)"] == worst(robust)
    assert rows["mockllm/good"]["most not lowered (should lower)"] == worst(robust, "lowered")
    assert other["most moved (should hold)"] == NOT_RUN
    assert other["most not lowered (should lower)"] == NOT_RUN
    # One call an answer, 1 + 1 tokens each (the scripted usage), no price for mockllm.
    assert other["unscored"] == "0.000 (0 of 8)"
    assert other["tokens / 100 graded"] == "200"
    assert other["$ / 100 graded"] == "no price"
    assert other["cached replies"] == "0 of 8 calls"
    assert "No log of expert_qa_claims in the folder" in printed
    assert (tmp_path / MARKDOWN).read_text().startswith("# Judge card: 2 judge(s)")
    assert (tmp_path / PNG).read_bytes().startswith(PNG_BYTES)
    assert f"card: {tmp_path / PNG}" in printed


def test_the_card_of_one_run_s_answers_graded_by_two_judges(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Re-graded copies of one `--no-score` run: each judge's mean level on the same answers
    and its agreement with the reference, the figures of the live_qa section's own tables."""
    regraded(tmp_path)  # answers/ (never graded: skipped), lenient.eval, strict.eval
    printed, rows = card_of(capsys, str(tmp_path), "--reference-judge", "mockllm/lenient")
    noun = "live_qa (mockllm/subject's answers)"
    lenient, strict = rows["mockllm/lenient"], rows["mockllm/strict"]
    means = {row[0]: f"{row[1]} {row[2]}" for row in section(printed, "Each judge's mean level")}
    assert lenient["live_qa mean level"] == means["mockllm/lenient"]
    assert strict["live_qa mean level"] == means["mockllm/strict"]
    [[_, _, _, kappa, exact, shared]] = section(printed, "Difference from mockllm/lenient")
    assert strict[f"{noun} kappa with mockllm/lenient"] == kappa
    assert strict[f"{noun} exact with mockllm/lenient"] == f"{exact} n={shared}"
    assert lenient[f"{noun} kappa with mockllm/lenient"] == REFERENCE
    assert strict["unscored"] == "0.200 (1 of 5)"  # the unreadable verdict
    assert "No log of live_qa_judge, expert_qa_claims, live_qa_judge_robustness" in printed
    # A folder the card cannot be written to costs its files, not the card or the sections.
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    out = blocker / "card"
    assert main([str(tmp_path), "--out", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("== Judge card: 2 judge(s) ==")
    assert "== live_qa: mockllm/subject's answers: 2 log(s) ==" in captured.out
    assert captured.err.splitlines()[0].startswith(
        f"error: cannot write the judge card into {out}: "
    )

"""Issue 35's judge card as a team makes it: `inspect eval-set` of the three judge tasks over two
candidate judges served by a local server, the pinned default judge run on live_qa_judge alone,
then `liveqa-report` on the folder. Every cell of the card is the figure its log states."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig

from liveqa_inspect.default_judge import DEFAULT_JUDGE
from liveqa_inspect.report.cli import SECTIONS
from liveqa_inspect.report.cost import graded as graded_answers
from liveqa_inspect.report.cost import judge_spend
from liveqa_inspect.report.graded import paired
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.loading import load
from liveqa_inspect.stats.names import KAPPA, pair_key
from liveqa_inspect.tasks.live_qa_judge.report import kappa_difference
from tests.commands import inspect_eval_logs
from tests.helpers import PNG, Humans, between, content_judge, figures, length_judge, three, verdict
from tests.liveqa_inspect.report.test_card import RHO, card_of, with_interval, worst
from tests.openai_server import OpenAIServer

TASKS = ("live_qa_judge", "live_qa_judge_robustness", "expert_qa_claims")
GOOD, OTHER = "openai-api/local/good", "openai-api/local/other"
PRICES = (
    "openai-api/local/good: {input: 100.0, output: 100.0, input_cache_write: 100.0, "
    "input_cache_read: 100.0}\n"
)
"""$100 per million tokens for the good judge, none for the other."""


def responder(humans: Humans):  # noqa: ANN201
    """good and the pinned judge read the content (the NIST level of a known answer), other the
    length; on a claim, good rates 5 or 4 by its length, other always 5."""
    content = content_judge(humans)

    def respond(messages: list[dict], model: str) -> str:
        prompt = "\n".join(str(message.get("content", "")) for message in messages)
        if "<claim>\n" in prompt:
            claim = between(prompt, "claim")
            return verdict("5" if model != "good" or len(claim) % 2 else "4")
        judge = length_judge if model == "other" else content
        return judge(prompt, GenerateConfig())

    return respond


def loaded(log: EvalLog) -> LoadedLog:
    return load(log.location.removeprefix("file://"), SECTIONS)


def by_judge(logs: list[EvalLog]) -> dict[tuple[str, str], EvalLog]:
    return {(log.eval.model, log.eval.task.split("/")[-1]): log for log in logs}


@pytest.mark.slow  # an eval set of six evals and one more, on a local server
def test_the_judge_card_of_an_eval_set(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, humans: Humans
) -> None:
    folder = tmp_path / "judges"
    with OpenAIServer(responder(humans)) as server:
        ran, logs = inspect_eval_logs(
            "eval-set",
            *(f"liveqa_inspect/{task}" for task in TASKS),
            "--model",
            f"{GOOD},{OTHER}",
            "--limit",
            "8",
            "--display",
            "none",
            "--log-dir",
            str(folder),
            log_dir=folder,
            env=server.env(),
        )
        assert ran.returncode == 0, ran.output
        again, pinned = inspect_eval_logs(
            "eval",
            "liveqa_inspect/live_qa_judge",
            "--model",
            DEFAULT_JUDGE,
            "--limit",
            "8",
            "--display",
            "none",
            "--log-dir",
            str(folder),
            log_dir=folder,
            env=server.env(),
        )
        assert again.returncode == 0, again.output
    found = by_judge(logs + pinned)
    assert len(found) == 7 and {log.status for log in found.values()} == {"success"}
    (prices := tmp_path / "prices.yaml").write_text(PRICES)
    printed, rows = card_of(capsys, str(folder), "--model-cost-config", str(prices))

    assert printed.startswith("== Judge card: 3 judge(s) ==")
    assert set(rows) == {GOOD, OTHER, DEFAULT_JUDGE}
    for (judge, task), log in found.items():
        row, metrics = rows[judge], figures(log)
        if task == "live_qa_judge":
            assert row["NIST kappa"] == with_interval(metrics, KAPPA)
            assert row["NIST rho"] == with_interval(metrics, RHO)
            assert row["NIST bias"] == with_interval(metrics, "bias")
            floor = figures(log, "reference_floor")[pair_key("rouge_l", RHO)]
            assert row["NIST ROUGE-L floor"] == three(floor)
        elif task == "expert_qa_claims":
            assert row["experts kappa"] == with_interval(metrics, KAPPA)
        else:
            assert row["most moved (should hold)"] == worst(log)
            assert row["most not lowered (should lower)"] == worst(log, "lowered")
    # The pinned judge ran live_qa_judge alone: the other tasks read "not run".
    for column in ("experts kappa", "most moved (should hold)", "most not lowered (should lower)"):
        assert rows[DEFAULT_JUDGE][column] == "not run"
    # good and the pinned judge grade alike: tied at the top (no `best` among ties), and the
    # same levels; other is worse, by the paired difference from the first of them.
    nist = {judge: loaded(found[judge, "live_qa_judge"]) for judge in rows}
    assert rows[GOOD]["NIST kappa vs best (paired)"] == "tied"
    assert rows[DEFAULT_JUDGE]["NIST kappa vs best (paired)"] == "tied"
    pairs = paired(nist[GOOD].items, nist[OTHER].items, "answer")
    difference = kappa_difference(pairs, nist[GOOD].scale)
    cell = rows[OTHER]["NIST kappa vs best (paired)"]
    assert cell.startswith(f"{three(difference.value)} [{three(difference.low)}, ")
    assert cell.endswith(" worse")
    assert rows[GOOD][f"NIST kappa with {DEFAULT_JUDGE}"] == "1.000 [1.000, 1.000]"
    assert rows[DEFAULT_JUDGE][f"NIST kappa with {DEFAULT_JUDGE}"] == "reference"
    # Cost: good's calls of its three logs, per 100 answers graded; other has no price.
    spends = [judge_spend(loaded(found[GOOD, task])) for task in TASKS]
    graded = sum(graded_answers(loaded(found[GOOD, task])) for task in TASKS)
    dollars = 100 * sum(spend.cost or 0.0 for spend in spends if spend) / graded
    assert rows[GOOD]["$ / 100 graded"] == f"{dollars:.4f}"
    assert rows[OTHER]["$ / 100 graded"] == "no price"
    assert (folder / "judge-card.md").read_text().startswith("# Judge card: 3 judge(s)")
    assert (folder / "judge-card.png").read_bytes().startswith(PNG)


@pytest.mark.slow  # three evals on a local server
def test_the_pinned_default_at_two_temperatures_stays_the_reference(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, humans: Humans
) -> None:
    """Issue 43, case 13: once the default judge also runs at temperature 1, its rows are named
    by their settings, and the reference is the default judge at its default settings."""
    folder = tmp_path / "judges"
    runs = (
        ("t0", DEFAULT_JUDGE, ()),
        ("t1", DEFAULT_JUDGE, ("--temperature", "1")),
        ("t0", OTHER, ()),
    )
    with OpenAIServer(responder(humans)) as server:
        for sub, model, extra in runs:
            ran, _ = inspect_eval_logs(
                "eval",
                "liveqa_inspect/live_qa_judge",
                "--model",
                model,
                *extra,
                "--limit",
                "6",
                "--display",
                "none",
                log_dir=folder / sub,
                env=server.env(),
            )
            assert ran.returncode == 0, ran.output
    printed, rows = card_of(capsys, str(folder))
    reference = f"{DEFAULT_JUDGE} (temperature=0.0)"
    assert set(rows) == {reference, f"{DEFAULT_JUDGE} (temperature=1.0)", OTHER}
    assert rows[reference][f"NIST kappa with {reference}"] == "reference"
    assert rows[OTHER][f"NIST kappa with {reference}"].endswith("]")
    assert "No agreement with the pinned default judge" not in printed

"""A corpus of logs of every task kind, and the report's output on them: the check that a
refactor keeps every figure and message (run by hand; `python benchmarks/report_corpus.py DIR`).

`DIR/logs/` gets the logs (made once, with scripted models: panels, epochs, unscored and
errored samples); `DIR/<label>/` gets the report's text and `--markdown` output for each set of
logs, paths shown relative to DIR. Run it with `--reuse` on another version of the package to
report the same logs, then `diff -r` the two output folders.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import shutil
from pathlib import Path

from inspect_ai import eval
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, ModelUsage, get_model

import liveqa_inspect
from liveqa_inspect.report import main

QUIET: dict[str, object] = {"display": "none", "log_realtime": False}


def output(text: str) -> ModelOutput:
    result = ModelOutput.from_content(model="mockllm/model", content=text)
    result.usage = ModelUsage(input_tokens=3, output_tokens=2, total_tokens=5)
    return result


def model(name: str, script, fail_on: str | None = None):  # type: ignore[no-untyped-def]
    def reply(messages: list[ChatMessage], *_: object) -> ModelOutput:
        prompt = "\n".join(message.text for message in messages)
        if fail_on is not None and fail_on in prompt:
            raise RuntimeError(f"scripted failure on {fail_on}")
        return output(script(prompt, _[-1]))

    return get_model(f"mockllm/{name}", custom_outputs=reply, memoize=False)


def digest(*parts: object) -> int:
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:8], 16)


def answer_of(prompt: str) -> str:
    return prompt.split("<answer>\n", 1)[-1].split("\n</answer>", 1)[0]


def judge(name: str, levels: tuple[str, ...], unreadable: int = 0, by_seed: bool = False):  # type: ignore[no-untyped-def]
    """Levels from a hash of the answer (and the seed, for epochs that differ); every
    `unreadable`-th hash gives no verdict."""

    def script(prompt: str, config: GenerateConfig) -> str:
        text = prompt.rsplit("<claim>", 1)[-1] if "<claim>" in prompt else answer_of(prompt)
        h = digest(name, text, config.seed if by_seed else "")
        if unreadable and h % unreadable == 0:
            return "I cannot decide."
        return f"<reasoning>r {h % 97}</reasoning>\n<score>{levels[h % len(levels)]}</score>"

    return script


LIVEQA = ("0", "0.3", "0.7", "1")


def subject(name: str):  # type: ignore[no-untyped-def]
    return lambda prompt, _: f"Answer of {name}: {prompt[-120:]}" if digest(prompt) % 7 else ""


def probe_subject(remainders: dict[str, str], knows: bool):  # type: ignore[no-untyped-def]
    def script(prompt: str, _: GenerateConfig) -> str:
        shown = prompt.split("First part:\n", 1)[-1]
        remainder = next((r for s, r in remainders.items() if s in shown), "")
        if "LiveQA" in prompt and knows:
            return remainder if digest(shown) % 3 else remainder[: len(remainder) // 2]
        if digest(shown) % 5 == 0:
            return "I'm sorry, I cannot help with that."
        return "Something else entirely, " + remainder[-40:]

    return script


def run(task, name: str, subject_model, grader=None, **kwargs) -> Path:  # type: ignore[no-untyped-def]
    [log] = eval(
        task,
        model=subject_model,
        model_roles={"grader": grader} if grader is not None else None,
        **QUIET,
        **kwargs,
    )
    assert log.status == "success", (name, log.error)
    return Path(log.location)


def make_logs(logs: Path) -> dict[str, Path]:
    os.environ["INSPECT_LOG_DIR"] = str(logs)
    t = liveqa_inspect
    made: dict[str, Path] = {}
    j1 = model("judge-a", judge("a", LIVEQA, unreadable=6))
    made["lq_single"] = run(
        t.live_qa(), "lq_single", model("subject", subject("s"), fail_on="Noonan"),
        j1, limit=14, fail_on_error=False,
    )  # fmt: skip
    made["lq_other_model"] = run(
        t.live_qa(), "lq_other_model", model("other", subject("o")), j1, limit=14
    )
    made["lq_paraphrase"] = run(
        t.live_qa(question="paraphrase"), "lq_paraphrase", model("subject", subject("s")), j1,
        limit=14,
    )  # fmt: skip
    panel = [
        model("judge-a", judge("a", LIVEQA, unreadable=9, by_seed=True)),
        model("judge-b", judge("b", LIVEQA, by_seed=True)),
        model("judge-b", judge("b2", LIVEQA, unreadable=5)),
    ]
    made["lq_panel_mean_epochs"] = run(
        t.live_qa(reference_metrics=False), "p", model("subject", subject("s")), panel,
        limit=10, epochs=2,
    )  # fmt: skip
    made["lq_panel_majority"] = run(
        t.live_qa(panel="majority", reference_metrics=False), "m",
        model("subject", subject("s")), panel, limit=10,
    )  # fmt: skip
    made["lq_panel_median"] = run(
        t.live_qa(panel="median", reference_metrics=False), "md",
        model("subject", subject("s")), panel[:2], limit=10,
    )  # fmt: skip
    made["eq_single"] = run(t.expert_qa(), "eq", model("subject", subject("s")), j1, limit=8)
    made["lqj_single"] = run(
        t.live_qa_judge(), "j", model("judge-a", judge("a", LIVEQA, unreadable=8)), limit=60
    )
    made["lqj_other_epochs"] = run(
        t.live_qa_judge(), "j2", model("judge-c", judge("c", LIVEQA, unreadable=7, by_seed=True)),
        limit=60, epochs=2,
    )  # fmt: skip
    made["lqj_panel_mean"] = run(
        t.live_qa_judge(), "j3", model("evaluated", judge("e", LIVEQA)),
        [model("judge-a", judge("a", LIVEQA)), model("judge-d", judge("d", LIVEQA, 10))],
        limit=60,
    )  # fmt: skip
    made["claims_correctness"] = run(
        t.expert_qa_claims(), "cc",
        model("judge-a", judge("a", ("1", "2", "3", "4", "5"), unreadable=9)), limit=60,
    )  # fmt: skip
    made["claims_support"] = run(
        t.expert_qa_claims(aspect="support"), "cs",
        model("judge-a", judge("a", ("1", "2", "3"))), limit=40,
    )  # fmt: skip
    for part, knows in (("question", True), ("reference", False)):
        task = t.live_qa_contamination(part=part)
        remainders = {str(s.input): str(s.target) for s in task.dataset}
        made[f"contamination_{part}"] = run(
            task, part, model("subject", probe_subject(remainders, knows)), limit=12
        )
    made["contamination_epochs"] = run(
        t.live_qa_contamination(), "ce",
        model("other", probe_subject({str(s.input): str(s.target)
                                       for s in t.live_qa_contamination().dataset}, False)),
        limit=12, epochs=2,
    )  # fmt: skip
    made["robust_single"] = run(
        t.live_qa_judge_robustness(per_grade=2), "r",
        model("judge-a", judge("a", LIVEQA, unreadable=11)),
    )  # fmt: skip
    made["robust_other"] = run(
        t.live_qa_judge_robustness(per_grade=2), "r2", model("judge-c", judge("c", LIVEQA)),
    )  # fmt: skip
    made["robust_panel"] = run(
        t.live_qa_judge_robustness(per_grade=2), "r3", model("evaluated", judge("e", LIVEQA)),
        [model("judge-a", judge("a", LIVEQA, 13)), model("judge-c", judge("c", LIVEQA))],
    )  # fmt: skip
    return made


REPORTS: dict[str, list[str]] = {
    **{name: [name] for name in (
        "lq_single", "lq_paraphrase", "lq_panel_mean_epochs", "lq_panel_majority",
        "lq_panel_median", "eq_single", "lqj_single", "lqj_other_epochs", "lqj_panel_mean",
        "claims_correctness", "claims_support", "contamination_question",
        "contamination_reference", "contamination_epochs", "robust_single", "robust_panel",
    )},  # fmt: skip
    "cmp_models": ["lq_single", "lq_other_model"],
    "cmp_wording": ["lq_single", "lq_paraphrase"],
    "cmp_panels": ["lq_panel_mean_epochs", "lq_panel_majority"],
    "cmp_judges": ["lqj_single", "lqj_other_epochs", "lqj_panel_mean"],
    "cmp_contamination": ["contamination_question", "contamination_epochs"],
    "cmp_robustness": ["robust_single", "robust_other", "robust_panel"],
}


def report(root: Path, out: Path, made: dict[str, Path]) -> None:
    for label, names in REPORTS.items():
        for markdown in (False, True):
            charts = out / "charts" / label
            args = [str(made[name]) for name in names] + ["--out", str(charts)]
            printed, errors = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(errors):
                try:
                    status = main(args + (["--markdown"] if markdown else []))
                except Exception as error:  # a broken section: shown in its output, not fatal
                    status = f"raised {type(error).__name__}: {error}"
            text = f"exit {status}\n{printed.getvalue()}{errors.getvalue()}"
            for name, path in made.items():
                text = text.replace(str(path), f"<{name}>").replace(path.stem, f"<{name}>")
            text = text.replace(str(charts), "<charts>")
            suffix = "md" if markdown else "txt"
            (out / f"{label}.{suffix}").write_text(text, encoding="utf-8")
        shutil.rmtree(out / "charts" / label, ignore_errors=True)


def cli() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("root", type=Path)
    parser.add_argument("--out", default="before")
    parser.add_argument("--reuse", action="store_true", help="report the logs made before")
    args = parser.parse_args()
    index = args.root / "logs.json"
    if args.reuse:
        made = {k: Path(v) for k, v in json.loads(index.read_text()).items()}
    else:
        made = make_logs(args.root / "logs")
        index.write_text(json.dumps({k: str(v) for k, v in made.items()}, indent=1))
    out = args.root / args.out
    out.mkdir(parents=True, exist_ok=True)
    report(args.root, out, made)


if __name__ == "__main__":
    cli()

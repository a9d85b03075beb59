"""Test helpers in one place: the data folders, scripted models, and reading a log's figures.

Scripted models reply by prompt content, never by call order, so a test does not depend on how
Inspect schedules samples.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Model,
    ModelOutput,
    ModelUsage,
    get_model,
)

from liveqa_inspect import (
    live_qa,
    live_qa_contamination,
    live_qa_judge,
    live_qa_judge_robustness,
)
from liveqa_inspect.judging.prompts import neutralise
from liveqa_inspect.report import cli, main
from liveqa_inspect.report.cli import build
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.plots import Chart
from liveqa_inspect.report.tables import Block, Table, cell
from liveqa_inspect.tasks.contamination.dataset import contamination_dataset
from liveqa_inspect.tasks.live_qa_judge.dataset import live_qa_judge_dataset
from liveqa_inspect.tasks.robustness.dataset import sentences


def liveqa_data() -> Path:
    """The folder of the verified upstream LiveQA files, as the session found it (conftest)."""
    return Path(os.environ["LIVEQA_DATA"])


def expert_qa_data() -> Path:
    return Path(os.environ["EXPERTQA_DATA"])


Script = Callable[[str, GenerateConfig], str]
"""Reply text from the prompt text and the generate config (seed, temperature) of the call."""


def output(text: str) -> ModelOutput:
    """A mockllm reply; usage is set so Inspect does not fetch a tokenizer (offline) to count."""
    result = ModelOutput.from_content(model="mockllm/model", content=text)
    result.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return result


def scripted_model(
    script: Script, name: str = "model", *, metadata: dict[str, Any] | None = None, **config: object
) -> Model:
    """A mockllm model replying `script(prompt, config)`; `.calls` keeps every (prompt, config).

    `metadata` is each reply's (gguf/'s replies name their model file there); `config` is the
    model's own generate config, as a role binding would give it.
    """
    calls: list[tuple[str, GenerateConfig]] = []

    def reply(
        messages: list[ChatMessage], _tools: object, _choice: object, config: GenerateConfig
    ) -> ModelOutput:
        prompt = "\n".join(message.text for message in messages)
        calls.append((prompt, config))
        said = output(script(prompt, config))
        said.metadata = metadata
        return said

    model = get_model(
        f"mockllm/{name}",
        custom_outputs=reply,
        config=GenerateConfig(**config),  # type: ignore[arg-type]
        memoize=False,
    )
    model.calls = calls  # type: ignore[attr-defined]
    return model


def verdict(level: str, reasoning: str = "Scripted reasoning.") -> str:
    return f"<reasoning>{reasoning}</reasoning>\n<score>{level}</score>"


def between(prompt: str, tag: str) -> str:
    """The text between `<tag>` and `</tag>` in a judge prompt, escaped as the judge sees it."""
    return prompt.split(f"<{tag}>\n", 1)[1].split(f"\n</{tag}>", 1)[0]


QUIET: dict[str, object] = {"display": "log", "log_realtime": False}
"""eval() settings for a test: Inspect's rich display, even with `display="none"`, renders every
results table (~1 s an eval), and the realtime sample buffer is a SQLite database no test reads."""


def question_and_answer(prompt: str) -> tuple[str, str]:
    """(question, answer) as the LiveQA judge prompt shows them."""
    return between(prompt, "question"), between(prompt, "answer")


# A scripted live_qa pair: subject answers keyed on the question, judge levels on the answer.
ANSWERS = {
    "Noonan": "ANSWER-ONE",
    "Zolmitriptan": "ANSWER-SEVEN",
    "amphetamine": "ANSWER-THREE",
    "cold sores": "",
}
LEVELS_BY_ANSWER = {
    "ANSWER-ONE": "1",
    "ANSWER-SEVEN": "0.70",
    "ANSWER-THREE": "0.3",
    # For a subject giving one answer to every question: two such models differ by exactly 0.3.
    "ANSWER-A": "1",
    "ANSWER-B": "0.7",
}


def subject_script(prompt: str, _: GenerateConfig) -> str:
    return next((a for key, a in ANSWERS.items() if key in prompt), "ANSWER-ZERO")


def judge_script(prompt: str, _: GenerateConfig) -> str:
    answer = between(prompt, "answer")
    return verdict(LEVELS_BY_ANSWER.get(answer, "0"), f"Graded {answer}.")


def run_live_qa(
    subject: Script = subject_script,
    grader: Script | Model | list[Model] = judge_script,
    *,
    limit: int,
    name: str = "model",
    judge_name: str = "judge",
    epochs: int | None = None,
    reference_metrics: bool = False,
    **args: object,
) -> EvalLog:
    """A successful live_qa run (`args` are its task arguments) of mockllm/`name` replying
    `subject`, graded by `grader`: a script is mockllm/`judge_name`, a model passed in keeps
    its calls to count, a list is a panel. Reference metrics are off unless asked for, as most
    tests read only the judge's figures."""
    bound = grader if isinstance(grader, Model | list) else scripted_model(grader, judge_name)
    [log] = eval(
        live_qa(reference_metrics=reference_metrics, **args),  # type: ignore[arg-type]
        model=scripted_model(subject, name),
        model_roles={"grader": bound},
        limit=limit,
        epochs=epochs,
        **QUIET,
    )
    assert log.status == "success", log.error
    return log


def run_judge(
    script: Script,
    name: str = "judge",
    *,
    limit: int | None,
    epochs: int | None = None,
    grader: list[Model] | None = None,
    task: Callable[..., Task] = live_qa_judge,
    **args: object,
) -> EvalLog:
    """A successful run of a task measuring a judge (`args` are its task arguments; live_qa_judge
    unless another `task` is given) measuring mockllm/`name` replying `script`, or the `grader`
    jurors when those are bound."""
    [log] = eval(
        task(**args),
        model=scripted_model(script, name),
        model_roles={"grader": grader} if grader else None,
        limit=limit,
        epochs=epochs,
        **QUIET,
    )
    assert log.status == "success", log.error
    return log


def run_bound_panel(panel: str, strict: list[str], limit: int) -> EvalLog:
    """live_qa_judge measuring a panel bound to the grader role: a lenient juror (always 1) and
    strict ones (always 0; a repeated name is the same model twice). The evaluated model says
    0.3, so a panel that fell back to it would show."""
    lenient = scripted_model(lambda *_: verdict("1"), "lenient")
    models = {juror: scripted_model(lambda *_: verdict("0"), juror) for juror in strict}
    jurors = [lenient, *(models[juror] for juror in strict)]
    return run_judge(
        lambda *_: verdict("0.3"), "evaluated", limit=limit, grader=jurors, panel=panel
    )


# A scripted live_qa_contamination run: the model under test keyed on the probe's prompt.

FIRST_PART = "First part:\n"


def probe(prompt: str) -> tuple[bool, str]:
    """(whether the prompt names the test set, the shown part) of a contamination prompt: the
    guided instruction names the dataset, the general one does not."""
    return "LiveQA" in prompt, prompt.split(FIRST_PART, 1)[1]


def remainders(part: str = "question") -> dict[str, str]:
    """The true remainder of each shown part, as a model that knows the test set would give it."""
    dataset, _, _ = contamination_dataset(part, liveqa_data())
    return {str(sample.input): str(sample.target) for sample in dataset}


def run_contamination(
    script: Script, name: str = "model", *, limit: int, **args: object
) -> EvalLog:
    """A successful live_qa_contamination run (`args` are its task arguments) of mockllm/`name`
    replying `script`."""
    [log] = eval(
        live_qa_contamination(**args),  # type: ignore[arg-type]
        model=scripted_model(script, name),
        limit=limit,
        **QUIET,
    )
    assert log.status == "success", log.error
    return log


def human_metadata(levels: list[float]) -> list[dict[str, float]]:
    """Each sample's metadata as the agreement metrics read it: only its human level."""
    return [{"human_level": level} for level in levels]


def judgments_file(folder: Path, *lines: str) -> Path:
    """A user's judgments.jsonl of these lines, written as given so a test can write bad ones."""
    path = folder / "judgments.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


Humans = dict[tuple[str, str], float]
"""The human level of each judged (question, answer), keyed as the judge prompt shows them."""


def human_levels(data: Path) -> Humans:
    """The human level of each (question, answer) as the judge prompt shows them."""
    levels: Humans = {}
    for sample in live_qa_judge_dataset(data=data):
        key = (neutralise(str(sample.input)), neutralise(sample.metadata["answer"]))
        assert levels.get(key, sample.metadata["human_level"]) == sample.metadata["human_level"]
        levels[key] = sample.metadata["human_level"]
    return levels


def perfect(humans: Humans) -> Script:
    """A judge giving each answer its human level (`humans` from human_levels): agreement 1."""
    return lambda prompt, _: verdict(f"{humans[question_and_answer(prompt)]:g}")


# live_qa_judge_robustness: judges whose robustness is known ------------------------------------

ROBUSTNESS_PER_GRADE = 2
"""Two answers of each grade: 8 answers, 54 judge calls a juror."""


def run_robustness(script: Script, name: str = "judge", **args: object) -> EvalLog:
    """A successful live_qa_judge_robustness run on ROBUSTNESS_PER_GRADE answers a grade
    (unless `args` say otherwise), measuring mockllm/`name` replying `script`."""
    args = {"per_grade": ROBUSTNESS_PER_GRADE, **args}
    return run_judge(script, name, limit=None, task=live_qa_judge_robustness, **args)  # type: ignore[arg-type]


def content_judge(humans: Humans) -> Script:
    """Reads the answer's content alone: the human level of this question's judged answer whose
    every sentence the shown answer holds, else 0 (a cut answer, another question's answer)."""
    by_question: dict[str, list[tuple[list[str], float]]] = {}
    for (question, answer), level in humans.items():
        by_question.setdefault(question, []).append((sentences(answer), level))

    def script(prompt: str, _: GenerateConfig) -> str:
        question, answer = question_and_answer(prompt)
        found = [level for parts, level in by_question[question] if all(p in answer for p in parts)]
        return verdict(f"{max(found, default=0.0):g}")

    return script


def length_level(answer: str) -> float:
    limits = ((150, 0.0), (400, 0.3), (900, 0.7))
    return next((level for limit, level in limits if len(answer) < limit), 1.0)


def length_judge(prompt: str, _: GenerateConfig) -> str:
    """A judge whose level grows with the answer's length, whatever it says."""
    return verdict(f"{length_level(question_and_answer(prompt)[1]):g}")


def figures(log: EvalLog, scorer: str | None = None) -> dict[str, float]:
    """One scorer's metrics by name (the first scorer's when none is named), of every view of its
    scores: a metric of every epoch's scores is listed apart from those of the reduced ones."""
    assert log.results is not None
    name = scorer or log.results.scores[0].name
    return {k: m.value for s in log.results.scores if s.name == name for k, m in s.metrics.items()}


# Reading the report's output ------------------------------------------------------------------

PNG = b"\x89PNG\r\n\x1a\n"


class Printed(str):
    """What the report printed, and the tables it built for that: tests check the tables
    themselves, not text split back into cells."""

    tables: list[Table]


def report(capsys: pytest.CaptureFixture[str], *args: str) -> Printed:
    """The CLI's output, and the tables it built for it (kept as `build` returns them)."""
    built: list[Block] = []

    def keeping(
        logs: Sequence[LoadedLog], everything: Sequence[LoadedLog] = ()
    ) -> tuple[list[Block], list[Chart]]:
        blocks, charts = build(logs, everything)
        built.extend(blocks)
        return blocks, charts

    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(cli, "build", keeping)
        assert main(list(args)) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    printed = Printed(captured.out)
    printed.tables = [block for block in built if isinstance(block, Table)]
    return printed


def table(blocks: Sequence[Block], title: str) -> Table:
    """The one table a built report titles `title...`: its rows as the report built them."""
    [found] = [b for b in blocks if isinstance(b, Table) and b.title.startswith(title)]
    return found


def section(printed: Printed, title: str) -> list[list[str]]:
    """The rows of the built table whose title starts with `title`, each cell as printed."""
    return [[cell(value) for value in row] for row in table(printed.tables, title).rows]


def three(value: float) -> str:
    """A figure as the report prints it: three decimals, no sign on a rounded zero."""
    return "n/a" if math.isnan(value) else f"{value:.3f}".replace("-0.000", "0.000")


def written(out: str) -> list[Path]:
    paths = [
        Path(line.removeprefix("figure: "))
        for line in out.splitlines()
        if line.startswith("figure: ")
    ]
    for path in paths:
        data = path.read_bytes()
        assert data.startswith(PNG), path
        assert len(data) > 10_000, path  # a drawn figure, not an empty canvas
    return paths

"""Task arguments refused in one line, alike in every task, and accepted alike from the CLI and
from Python."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.log import list_eval_logs

from liveqa_inspect import live_qa, live_qa_contamination, live_qa_judge_robustness
from liveqa_inspect.arguments import one_of, one_or_more, true_or_false, whole_number
from liveqa_inspect.errors import ArgumentError
from liveqa_inspect.tasks.robustness.dataset import PERTURBATIONS

NAMES = ", ".join(PERTURBATIONS)


def refused(check: object, *args: object, **kwargs: object) -> str:
    with pytest.raises(ArgumentError) as raised:
        check(*args, **kwargs)  # type: ignore[operator]
    return str(raised.value)


def test_each_kind_of_check_says_what_it_wants_and_what_it_got() -> None:
    one_of("panel", "mean", ("mean", "median"))
    assert refused(one_of, "panel", "x", ("mean", "median")) == (
        "panel must be one of mean, median; got 'x'."
    )
    assert refused(one_of, "split", "x", ("domain",), "'domain'", sep=",") == (
        "split must be 'domain', got 'x'."
    )
    true_or_false(judge_cache=True, include_junk=False)
    assert refused(true_or_false, judge_cache=True, include_junk="maybe") == (
        "include_junk must be true or false; got 'maybe'."
    )
    assert len(refused(one_of, "part", "x" * 10_000, ("question",))) < 150


@pytest.mark.parametrize(
    ("per_grade", "seed", "message"),
    [
        (0, 1, "per_grade must be a positive integer; got 0."),
        (2.5, 1, "per_grade must be a positive integer; got 2.5."),
        (True, 1, "per_grade must be a positive integer; got True."),
        (3, -1, "seed must be a non-negative integer; got -1."),
        (3, "x", "seed must be a non-negative integer; got 'x'."),
    ],
)
def test_a_bad_subset_argument_is_refused(per_grade: object, seed: object, message: str) -> None:
    whole_number("seed", 0, least=0)
    assert refused(live_qa_judge_robustness, per_grade=per_grade, seed=seed) == message


@pytest.mark.parametrize("value", [5, True, [], ["padding", 5], {"padding": 1}])
def test_perturbations_that_are_not_names_are_refused_in_one_line(value: object) -> None:
    """`-T perturbations=5` or `=true` raised a TypeError with a traceback."""
    message = refused(live_qa_judge_robustness, perturbations=value)
    assert message == f"perturbations must be one or more of {NAMES}; got {value!r}."


def test_python_takes_the_comma_separated_names_the_cli_takes() -> None:
    """The CLI makes `-T perturbations=swap,padding` a list; Python gets the string itself."""

    def asked(names: object) -> list[str]:
        return one_or_more("perturbations", names, PERTURBATIONS)

    assert asked("swap,padding") == asked(["swap", "padding"]) == ["padding", "swap"]
    assert one_or_more("aspects", "b", ("a", "b")) == ["b"]
    assert "got 'swap,typo'" in refused(asked, "swap,typo")


def test_a_misspelt_argument_name_is_refused_naming_the_task_s_arguments(tmp_path: Path) -> None:
    """Inspect would drop it with a warning and run the task on its default (issue 42, 3)."""
    said = (
        "live_qa takes no argument 'questions' (did you mean 'question'?); it takes question, "
        "data, judge_cache, reference_metrics, panel."
    )
    assert refused(live_qa, questions="original") == said
    with pytest.raises(ArgumentError, match=re.escape(said)):
        eval("liveqa_inspect/live_qa", task_args={"questions": "original"}, log_dir=str(tmp_path))
    assert not list_eval_logs(str(tmp_path))
    assert refused(live_qa_contamination, parts="reference", colour=1) == (
        "live_qa_contamination takes no arguments 'colour', 'parts' (did you mean 'part'?); it "
        "takes part, data."
    )


def test_an_argument_of_another_task_is_passed_over_as_inspect_passes_it_over(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """`-T` reaches every task of an eval set: live_qa's `reference_metrics` is no misspelling
    in live_qa_contamination's arguments."""
    task = live_qa_contamination(reference_metrics=False)
    assert task.metadata["part"] == "question"
    assert "param 'reference_metrics' not used by task 'live_qa_contamination'" in caplog.text

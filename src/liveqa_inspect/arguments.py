"""Argument checks, one of each kind, so a mistake reads alike in every task and model: `-T` and
`-M` values arrive parsed as YAML (`=maybe` a string, `=5` an int, `=a,b` a list), and each check
refuses in one line what Python would take on a guess or fail on with a traceback. Also what the
tasks' arguments may be, for the tasks Inspect registers at every start (liveqa_inspect.py), which
import this module and not the datasets that read them."""

import difflib
import inspect
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from liveqa_inspect.errors import ArgumentError, shown

logger = logging.getLogger(__name__)

QuestionField = Literal["summary", "paraphrase", "original"]
Part = Literal["question", "reference"]
Split = Literal["domain", "random"]
Subset = Literal["test", "validation"]
Aspect = Literal["correctness", "support"]
PER_GRADE = 40
"""live_qa_judge_robustness: the answers drawn of each human grade."""
SEED = 2017
"""live_qa_judge_robustness: the seed of its draws."""


def parameters(task: Callable[..., object]) -> list[str]:
    named = inspect.signature(task).parameters.values()
    return [p.name for p in named if p.kind is not inspect.Parameter.VAR_KEYWORD]


def only_its_own(
    task: Callable[..., object], others: dict[str, object], siblings: Iterable[str]
) -> None:
    """`-T questions=original` (for `question`) would run the task on its default wording, Inspect
    saying only that the name was not used: refused, naming the task's arguments. A name another
    task of the package takes (`siblings`) is passed over as Inspect passes it over, as `-T`
    reaches every task of an eval set."""
    takes = parameters(task)
    for name in sorted(others.keys() & set(siblings)):
        logger.warning(f"param '{name}' not used by task '{task.__name__}'")
    if not (unknown := sorted(others.keys() - set(siblings))):
        return
    close = [match for name in unknown for match in difflib.get_close_matches(name, takes, 1)]
    meant = f" (did you mean {' or '.join(map(repr, dict.fromkeys(close)))}?)" if close else ""
    which = "argument" if len(unknown) == 1 else "arguments"
    raise ArgumentError(
        f"{task.__name__} takes no {which} {', '.join(map(repr, unknown))}{meant}; it takes "
        f"{', '.join(takes)}."
    )


def one_of(
    name: str, value: object, choices: Sequence[str], wanted: str = "", sep: str = ";"
) -> None:
    """`wanted` and `sep` keep the wording the expert tasks have always used."""
    if value not in choices:
        wanted = wanted or f"one of {', '.join(choices)}"
        raise ArgumentError(f"{name} must be {wanted}{sep} got {shown(value)}.")


def true_or_false(**values: object) -> None:
    """`-T judge_cache=maybe` arrives as the string "maybe", which Python reads as true."""
    for name, value in values.items():
        if not isinstance(value, bool):
            raise ArgumentError(f"{name} must be true or false; got {shown(value)}.")


def whole_number(name: str, value: object, least: Literal[0, 1]) -> None:
    """`-T per_grade=10.5` is refused rather than rounded; True is no number here."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        kind = "a positive" if least else "a non-negative"
        raise ArgumentError(f"{name} must be {kind} integer; got {shown(value)}.")


def positive_number(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ArgumentError(f"{name} must be a positive number; got {shown(value)}.")


def one_or_more(name: str, value: object, choices: Iterable[str]) -> list[str]:
    """The names asked for, in the order of `choices`; "a,b" from Python reads as `-T x=a,b`."""
    choices = tuple(choices)
    asked = value.split(",") if isinstance(value, str) else value
    if not isinstance(asked, list | tuple) or not asked or any(n not in choices for n in asked):
        raise ArgumentError(
            f"{name} must be one or more of {', '.join(choices)}; got {shown(value)}."
        )
    return [choice for choice in choices if choice in asked]

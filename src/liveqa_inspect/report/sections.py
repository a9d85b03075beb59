"""What a task's report section holds, typed, and which section reads a task's logs. The command
hands the registry in (report/cli.py), so the frame names no task; a section is imported when a
log of its task is read."""

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from liveqa_inspect.report.card import Judges, Part
    from liveqa_inspect.report.loaded import LoadedLog
    from liveqa_inspect.report.plots import Chart
    from liveqa_inspect.report.tables import Block

TASKS_PACKAGE = "liveqa_inspect.tasks"
ITEMS = "questions or items (-T question=, aspect=, split=, subset=)"
Logs = Sequence["LoadedLog"]
Report = tuple[list["Block"], list["Chart"]]
Compared = tuple[list[str], list[str]]
"""The row labels and the notes of a comparison a section makes on purpose."""


@dataclass(frozen=True)
class Section:
    """A task's report section: what is particular to its logs."""

    kind: Literal["model", "judge", "robustness", "contamination"]
    """Logs of two kinds share no table; a judge task's (`judge`, `robustness`) measure judges."""
    noun: str
    """What its counts count."""
    setting: Callable[["LoadedLog"], str]
    """What its items were (its wording, split, aspect, part)."""
    report: Callable[[Logs], Report]
    """Its report of one log or of several side by side (under the frame's title)."""
    humans: tuple[str, str] | None = None
    """Whom its judge is measured against (the card's noun and title), where its samples carry
    human levels; None where they do not."""
    rated: bool = True
    """Its logs record a rating scale (a contamination probe's figures are overlaps)."""
    items: str = ITEMS
    """The name of its `setting` where a comparison's warning names it."""
    headline: str | None = None
    """The key of a multi-figure score value the counts read (robustness: the original's)."""
    settings: Callable[["LoadedLog"], dict[str, str]] = lambda _: {}
    """The settings beyond the frame's that make its figures what they are."""
    compared: Callable[[Logs], Compared | None] = lambda _: None
    """The row labels and notes of a comparison it makes on purpose (one model, two wordings)."""
    card: Callable[["Judges", Sequence[str], Logs], list["Part"]] | None = None
    """Its columns of the judge card (report/card.py), over one group of its logs that measures
    judges, by their rows' names, given the rows that are reference judges."""
    groups: Mapping[str, str] = field(default_factory=dict)
    """Its per-group tables: a sample metadata key, and the table's title."""

    @property
    def judged(self) -> bool:
        """Its logs measure judges against humans: the card's rows are their judges."""
        return self.humans is not None


@dataclass(frozen=True)
class Sections:
    modules: Mapping[str, str]
    """Each task's section, as a module name under `tasks/` holding `SECTION`."""

    @property
    def tasks(self) -> list[str]:
        return list(self.modules)

    def of(self, task: str) -> Section:
        return importlib.import_module(f"{TASKS_PACKAGE}.{self.modules[task]}").SECTION

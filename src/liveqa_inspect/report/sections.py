"""Which section reads a task's logs. The command hands the registry in (report/cli.py), so the
frame names no task; a section is imported when a log of its task is read."""

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType

TASKS_PACKAGE = "liveqa_inspect.tasks"


@dataclass(frozen=True)
class Sections:
    """Each task's report section, a module under `tasks/` holding what is particular to its logs:
    `KIND` (logs of two kinds share no table), `NOUN` (what its counts count), `HUMAN_LEVELS` (its
    samples carry the human levels its judge is measured against), `setting(log)` (what its items
    were) and `report(logs)` (under the frame's title of a one-log report); optionally
    `RATED = False` (its logs record no rating scale), `ITEMS` (the name of its `setting`),
    `HEADLINE` (the key of a multi-figure value the counts read), `settings(log)` (the settings
    beyond the frame's), `compared(logs)` (the row labels and note of a comparison it makes on
    purpose) and `card(logs, references)` (its columns of the judge card, report/card.py)."""

    modules: Mapping[str, str]
    """Each task's section, as a module name under `tasks/`."""

    @property
    def tasks(self) -> list[str]:
        return list(self.modules)

    def of(self, task: str) -> ModuleType:
        return importlib.import_module(f"{TASKS_PACKAGE}.{self.modules[task]}")

    def kinds(self) -> dict[str, list[str]]:
        """The tasks of each kind, in the registry's order."""
        found: dict[str, list[str]] = {}
        for task in self.modules:
            found.setdefault(self.of(task).KIND, []).append(task)
        return found

"""`inspect eval-retry` of a log after one of its own files changed would mix what two files give:
an own question set, the samples it runs graded against other questions and references than those
it keeps; an own judgments file, a judge measured against other human grades. Refused, as a
`gguf/` judge's changed file is (providers/gguf.py), by the digest the log recorded. A retry hands
back the log's tags, not its task's metadata (which the rebuilt task overwrites): each run on an
own file is tagged with its identity, and a run whose tags name another digest of that file
retries a changed file. Inspect lets a hook stop a task, not the command: the refusal stops the
task before any sample, and the command as the run ends, so that it exits 1 with the one line."""

from functools import cache

from inspect_ai.hooks import Hooks, RunEnd, TaskStart, hooks

from liveqa_inspect.data.own_judgments import OwnJudgments
from liveqa_inspect.data.own_set import OwnSet
from liveqa_inspect.data.sources import Asset
from liveqa_inspect.errors import StopsTheRun, changed

DIGEST = "#sha256="
TAGS: dict[type[OwnSet | OwnJudgments], str] = {OwnSet: "own-set:", OwnJudgments: "own-judgments:"}
CONSEQUENCES = {
    OwnSet: "the samples the retry runs would be graded against other questions and references "
    "than those it keeps.",
    OwnJudgments: "the judge would be measured against other human grades in the samples the "
    "retry runs than in those it keeps.",
}


def data_tags(source: Asset | OwnSet | OwnJudgments) -> list[str] | None:
    """The tags of a task on `source`: an own file's identity, checked when the log is retried."""
    if not isinstance(source, OwnSet | OwnJudgments):
        return None
    refuse_changed_files()
    return [f"{TAGS[type(source)]}{source.filename}{DIGEST}{source.sha256}"]


@cache
def refuse_changed_files() -> None:
    """Once an own file is read: Inspect announces a hook registered at import on every run."""
    hooks(name="own_set_retry", description="Refuses a retry whose own data file changed.")(
        ChangedFiles
    )


class ChangedFiles(Hooks):
    def __init__(self) -> None:
        self.refused: dict[str, StopsTheRun] = {}

    async def on_task_start(self, data: TaskStart) -> None:
        for kind, tag in TAGS.items():
            if (current := kind.of_log(data.spec.metadata)) is None:
                continue
            prefix = f"{tag}{current.filename}{DIGEST}"
            found = {t.removeprefix(prefix) for t in data.spec.tags or [] if t.startswith(prefix)}
            for then in sorted(found - {current.sha256}):
                said = changed(current.filename, then, current.sha256, CONSEQUENCES[kind])
                refusal = StopsTheRun(
                    f"{said} Restore the file and retry the log the first run wrote, or run it "
                    "anew with `inspect eval`."
                )
                self.refused.setdefault(data.run_id, refusal)
                raise refusal

    async def on_run_end(self, data: RunEnd) -> None:
        refusal = self.refused.pop(data.run_id, None)
        if refusal is not None and data.exception is None:
            raise refusal

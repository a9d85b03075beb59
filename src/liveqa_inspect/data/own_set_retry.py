"""`inspect eval-retry` of a log after its own question set changed would grade the samples it runs
against other questions and references than those it keeps: refused, as a `gguf/` judge's changed
file is (providers/gguf.py), by the digest the log recorded. A retry hands back the log's tags, not
its task's metadata (which the rebuilt task overwrites): each run on an own set is tagged with its
file's identity, and a run whose tags name another digest of that file retries a changed set."""

from functools import cache

from inspect_ai.hooks import Hooks, TaskStart, hooks
from inspect_ai.util import LimitExceededError

from liveqa_inspect.data.own_set import OwnSet
from liveqa_inspect.data.sources import Asset
from liveqa_inspect.errors import ChangedFileError

TAG = "own-set:"
DIGEST = "#sha256="


def data_tags(source: Asset | OwnSet) -> list[str] | None:
    """The tags of a task on `source`: an own set's identity, checked when the log is retried."""
    if not isinstance(source, OwnSet):
        return None
    refuse_changed_sets()
    return [f"{TAG}{source.filename}{DIGEST}{source.sha256}"]


class ChangedSetError(ChangedFileError, LimitExceededError):
    """A LimitExceededError is the one error Inspect lets out of a hook, so it stops the task
    before any sample runs (any other would be logged as a warning and the retry run on)."""

    def __init__(self, filename: str, then: str, now: str) -> None:
        consequence = (
            "the samples the retry runs would be graded against other questions and references "
            "than those it keeps. Restore the file and retry the log the first run wrote, or run "
            "the set anew with `inspect eval`."
        )
        ChangedFileError.__init__(self, filename, then, now, consequence)
        LimitExceededError.__init__(self, "custom", value=1, limit=0, message=self.args[0])


@cache
def refuse_changed_sets() -> None:
    """Once an own set is read: Inspect announces a hook registered at import on every run."""
    hooks(name="own_set_retry", description="Refuses a retry whose own question set changed.")(
        ChangedSets
    )


class ChangedSets(Hooks):
    async def on_task_start(self, data: TaskStart) -> None:
        current = OwnSet.of_log(data.spec.metadata)
        if current is None:
            return
        prefix = f"{TAG}{current.filename}{DIGEST}"
        tags = [tag.removeprefix(prefix) for tag in data.spec.tags or [] if tag.startswith(prefix)]
        for then in sorted(set(tags) - {current.sha256}):
            raise ChangedSetError(current.filename, then, current.sha256)

"""The checks that stop a run of ours before any sample, as it starts (a hook: the roles are bound
then, and a task built before `eval()` is run too): a role no task reads, a judge that cannot be
made. Failing there, the run ends as a task that cannot be built does: no sample, no answer paid
for, one line, and `inspect eval` exits 1 (`eval()` raises), where a failure in a sample leaves a
log of status error and exit status 0."""

from functools import cache
from weakref import WeakKeyDictionary

from inspect_ai import Task
from inspect_ai.hooks import Hooks, RunStart, hooks
from inspect_ai.model import get_model, model_roles
from rich.text import Text

from liveqa_inspect._inspect_private import PrerequisiteError, new_run, run_scores
from liveqa_inspect.errors import ArgumentError, LiveQAError, StopsTheRun
from liveqa_inspect.judging.grade import JUDGE_ROLE

_DEFAULTS: WeakKeyDictionary[Task, str | None] = WeakKeyDictionary()
"""A judged task built, and its pinned default judge (None: the evaluated model judges)."""
_JUDGED: dict[str, str | None] = {}
"""The same by the task's registered name, which is all a hook is told of a run's tasks."""


def judged(task: Task, default: str | None) -> None:
    """As a judged task is built (judging/task.py)."""
    _DEFAULTS[task] = default


def expect(name: str, task: Task) -> None:
    """As a task of ours is built under its registered `name` (liveqa_inspect.py)."""
    if task in _DEFAULTS:
        _JUDGED[name] = _DEFAULTS[task]
        checks_before_runs()


def check_roles() -> None:
    """A role no task reads (a misspelt `--model-role grade=...`) would leave the default judge,
    a paid one, grading in silence."""
    if unread := sorted(model_roles().keys() - {JUDGE_ROLE}):
        raise ArgumentError(
            f"--model-role {', '.join(unread)}: no task of liveqa_inspect reads "
            f"{'this role' if len(unread) == 1 else 'these roles'}. The one role read is "
            f"'{JUDGE_ROLE}', the judge: --model-role {JUDGE_ROLE}=MODEL (docs/judge.md)."
        )


def check_default_judge(default: str) -> None:
    """Made (and kept by Inspect for the scorer) where no grader is bound; a run that does not
    score (`--no-score`) makes no judge and needs no key."""
    try:
        get_model(default)  # inspect-evals-lint: ignore[get_model_location] -- a hook, no task
    except PrerequisiteError as error:
        plain = Text.from_markup(str(error.message)).plain.removeprefix("ERROR: ")
        cause = ": ".join(filter(None, plain.splitlines()))
        raise LiveQAError(
            f"The default judge {default} cannot be made ({cause}). Set its key, or bind another "
            f"judge with --model-role {JUDGE_ROLE}=MODEL, or generate without judging "
            "(--no-score) and grade later with `inspect score` (docs/judge-cost.md)."
        ) from None


@cache
def checks_before_runs() -> None:
    """Once a judged task of ours is built: the runs of other evals never meet the hook."""
    hooks(name="liveqa_preflight", description="Stops a run of liveqa_inspect that cannot start.")(
        BeforeTheRun
    )


class BeforeTheRun(Hooks):
    async def on_run_start(self, data: RunStart) -> None:
        defaults = {_JUDGED[name] for name in data.task_names if name in _JUDGED}
        if not defaults:
            return
        new_run()
        try:
            check_roles()
            if JUDGE_ROLE not in model_roles() and run_scores():
                for default in sorted(filter(None, defaults)):
                    check_default_judge(default)
        except LiveQAError as error:
            raise StopsTheRun(error.args[0]) from None

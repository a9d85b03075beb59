"""`inspect score LOG` of a log of ours, with no `--scorer`, re-runs every scorer the log names (the
judge's, then `verdicts`, ...): Inspect records a package's scorers without the package and looks
them up so, before any code of ours but the entry point runs. The entry point, when the command
is `inspect score` of a log of ours, registers them under those names; for any other log or
command, nothing."""

from importlib import import_module

from inspect_ai.log import read_eval_log

from liveqa_inspect._inspect_private import register_unqualified, say_under_display_none
from liveqa_inspect.errors import LiveQAError
from liveqa_inspect.tasks import TASKS

PACKAGE = __name__.split(".")[0]


def scorers_of(location: str) -> None:
    try:
        log = read_eval_log(location, header_only=True)
    except Exception:  # Inspect's own reading of it says what is wrong
        return
    if not (log.eval.task_registry_name or log.eval.task).startswith(f"{PACKAGE}/"):
        return
    say_under_display_none(LiveQAError)
    for module, _ in TASKS.values():  # each task's scorers, registered as they are imported
        import_module(f"{PACKAGE}.tasks.{module}")
    register_unqualified([scorer.name for scorer in log.eval.scorers or []], PACKAGE)

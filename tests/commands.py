"""The commands a user types, `inspect ...` (and `liveqa-report`, pytest), run as tests need them.

In this process, `inspect_command` runs the code a fresh `inspect` runs: the console script's
entry point, with the command's arguments, environment and working folder, its output captured,
and an exception that escapes it handled as the interpreter would (the exception hook, status 1).
What Inspect sets once a process differs: its exception hook and its display (see conftest's
`_process_start`) and the models it has made (see OpenAIServer.env); the environment's entry
points, which a start loads with its command's arguments, are run again for each command. What
only a fresh interpreter shows (its imports, the hooks and display it starts with, a process
killed from outside) is tested with real processes: `process`, or `inspect_eval_logs(...,
fresh=True)`.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

import rich
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

Env = Mapping[str, str | None]
"""Variables set for a command over this process's environment; None unsets one."""


@dataclass
class Ran:
    """What a command left: its exit status and what it printed."""

    returncode: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def start_as_the_inspect_command() -> None:
    """Install what `inspect` installs before anything else (Inspect's exception hook), as
    `inspect --version` does: a package error made before it would otherwise wrap the default
    hook, and the hooks a run in this process reports through would not be those of the
    command (see errors.py)."""
    with contextlib.redirect_stdout(io.StringIO()):
        inspect_command("--version")


@contextlib.contextmanager
def _as_a_command(argv: Sequence[str], env: Env | None, cwd: Path | None) -> Iterator[None]:
    """This process's arguments, environment and working folder as the command's, then back;
    rich's console as a new process has it (an earlier `--display none` leaves it quiet)."""
    saved_env, saved_argv, saved_cwd = dict(os.environ), sys.argv, Path.cwd()
    env = env or {}
    os.environ.update({name: value for name, value in env.items() if value is not None})
    for name in [name for name, value in env.items() if value is None]:
        os.environ.pop(name, None)
    sys.argv = list(argv)
    if cwd is not None:
        os.chdir(cwd)
    rich.reconfigure()
    try:
        yield
    finally:
        rich.reconfigure()
        os.chdir(saved_cwd)
        sys.argv = saved_argv
        os.environ.clear()
        os.environ.update(saved_env)


def _exit_status(code: object) -> int:
    """A SystemExit's code as the interpreter turns it into a status (a message prints, 1)."""
    if code is None or isinstance(code, int):
        return code or 0
    print(code, file=sys.stderr)
    return 1


def inspect_command(*args: str, env: Env | None = None, cwd: Path | None = None) -> Ran:
    """`inspect ARGS` in this process: the function the console script calls, found as the
    script finds it (its entry point), its output captured at sys.stdout and sys.stderr (where
    Inspect's rich console and its exception hook print)."""
    [entry] = entry_points(group="console_scripts", name="inspect")
    main = entry.load()
    out, err = io.StringIO(), io.StringIO()
    with (
        _as_a_command(["inspect", *args], env, cwd),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        for extension in entry_points(group="inspect_ai"):
            importlib.reload(extension.load())
        try:
            status = _exit_status(main())
        except SystemExit as exit:
            status = _exit_status(exit.code)
        except KeyboardInterrupt:
            raise
        except BaseException:
            try:
                sys.excepthook(*sys.exc_info())
                status = 1
            except SystemExit as exit:  # Inspect's hook exits 130 on a cancellation
                status = _exit_status(exit.code)
    return Ran(status, out.getvalue(), err.getvalue())


def inspect_eval_logs(
    *args: str,
    log_dir: Path,
    env: Env | None = None,
    cwd: Path | None = None,
    fresh: bool = False,
    timeout: float = 300,
) -> tuple[Ran, list[EvalLog]]:
    """`inspect ARGS` logging to `log_dir`, in this process (or, `fresh`, as `python -m
    inspect_ai ARGS`), and the logs it wrote: `inspect eval` exits 0 even when the eval failed,
    so its log is what counts."""
    before = set(_log_names(log_dir))
    env = {"INSPECT_LOG_DIR": str(log_dir), **(env or {})}
    if fresh:
        ran = process([sys.executable, "-m", "inspect_ai", *args], env, cwd, timeout)
    else:
        ran = inspect_command(*args, env=env, cwd=cwd)
    return ran, [read_eval_log(name) for name in _log_names(log_dir) if name not in before]


def _log_names(log_dir: Path) -> list[str]:
    return [info.name for info in list_eval_logs(str(log_dir))] if log_dir.exists() else []


def process(
    command: Sequence[str], env: Env | None = None, cwd: Path | None = None, timeout: float = 300
) -> Ran:
    """`command` as a real process with this environment and `env` over it. It runs in a session
    of its own, so a timeout ends what it started too (its pid is not reaped before that)."""
    merged = {**os.environ, **(env or {})}
    child = subprocess.Popen(
        command,
        env={name: value for name, value in merged.items() if value is not None},
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        raise
    return Ran(child.returncode, out, err)

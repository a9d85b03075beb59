"""The judge card's row names: one row a judge as it graded, over every task of the folder. A
task's own labels (report/comparison.labels) are unique within that task only: one judge run at
two temperatures, only one of which ran a second task, would meet the other's row there."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from pathlib import Path
from types import MappingProxyType
from typing import Any

from inspect_ai.model import GenerateConfig

from liveqa_inspect.judging.grade import filled
from liveqa_inspect.report import comparison as compare
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.stats.names import juror_names

VERDICT_SETTINGS = ("temperature", "top_p", "top_k", "seed", "max_tokens", "stop_seqs")
VERDICT_SETTINGS += ("frequency_penalty", "presence_penalty", "logit_bias", "system_message")
VERDICT_SETTINGS += ("reasoning_effort", "reasoning_tokens", "reasoning_summary")
VERDICT_SETTINGS += ("reasoning_history",)
"""The generation settings that change a judge's verdicts; not those a task's scale sets
(max_connections, max_retries, a llama.cpp grammar in extra_body), which would split one judge."""
NAMES: ContextVar[Mapping[Path, str]] = ContextVar("card_names", default=MappingProxyType({}))
"""Each judge log's card row name while the card is built (`card.judges` reads it)."""


def graded_with(config: GenerateConfig) -> dict[str, Any]:
    """A judge's settings with the defaults it grades with where they are unset, as its scores
    record them: a judge left at the default temperature grades as one set to 0, one row."""
    return filled(config) | config.model_dump(exclude_none=True)


def verdict_settings(log: LoadedLog) -> dict[str, str]:
    """The judge's settings as the log records them: the grader role's where bound to its judge;
    else those its scores record as sent (a log re-graded by `inspect score`, whose judge may be
    the evaluated model bound at other settings); else, where the scores record none (the
    robustness task's), the eval's, its judge being the evaluated model. A panel's are each named
    after their juror."""
    spec = log.log.eval
    role = (spec.model_roles or {}).get((spec.metadata or {}).get("judge_role", ""), [])
    roles = role if isinstance(role, list) else [role]
    judges = {model for _, models in log.judges for model in models} or {log.model}
    if roles and {model.model for model in roles} <= judges:
        found = compare.jurors_settings([(m.model, graded_with(m.config)) for m in roles])
    elif not (found := compare.judge_settings(log)):
        # a robustness log's scores record no settings: its judge is the evaluated model
        config = log.log.plan.config.merge(spec.model_generate_config)
        found = compare.jurors_settings([(log.model, graded_with(config))])
    return {key: value for key, value in found.items() if key.split()[-1] in VERDICT_SETTINGS}


def card_names(groups: Sequence[Sequence[LoadedLog]]) -> dict[Path, str]:
    """Each log's row name: its judge, and the settings in which that judge's logs differ
    (`unset` where one has none) over all the groups, so its rows of two tasks meet only where
    it graded alike; `#2` only on a true repeat within one group (same judge, same settings)."""
    logs = [log for group in groups for log in group]
    differ = compare.judge_settings_differing(logs, verdict_settings)
    named = {
        log.path: compare.with_settings(log, found) for log, found in zip(logs, differ, strict=True)
    }
    for group in groups:
        paths = [log.path for log in group]
        named |= dict(zip(paths, juror_names(named[path] for path in paths), strict=True))
    return named

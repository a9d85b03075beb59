"""A judge's settings as a log records them, and those that tell one judge's logs apart: the
rows of a judge comparison and of the judge card are named by them (a judge at two temperatures
is two judges; a repeat at the same settings is `#2`)."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from inspect_ai.model import GenerateConfig

from liveqa_inspect.judging.grade import filled
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.stats.names import juror_names

VERDICT_SETTINGS = ("temperature", "top_p", "top_k", "seed", "max_tokens", "stop_seqs")
VERDICT_SETTINGS += ("frequency_penalty", "presence_penalty", "logit_bias", "system_message")
VERDICT_SETTINGS += ("reasoning_effort", "reasoning_tokens", "reasoning_summary")
VERDICT_SETTINGS += ("reasoning_history",)
"""The generation settings that change a judge's verdicts; not those a task's scale sets
(max_connections, max_retries, a llama.cpp grammar in extra_body), which would split one judge."""


def jurors_settings(jurors: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[str, str]:
    """A judge's jurors' (model, settings) as one mapping, a panel's each named after its juror."""
    names = juror_names(model for model, _ in jurors)
    return {
        key if len(jurors) == 1 else f"{name} {key}": str(value)
        for name, (_, found) in zip(names, jurors, strict=True)
        for key, value in found.items()
    }


def judge_settings(log: LoadedLog) -> dict[str, str]:
    """The settings each juror graded with, as its scores record them: a log re-graded by
    `inspect score` records no grader role. The first epoch's (the seed moves with each epoch)."""
    for sample in log.log.samples or []:
        score = (sample.scores or {}).get(log.scorer)
        jurors = ((score.metadata or {}).get("jurors") if score else None) or []
        if sample.epoch == 1 and jurors:
            return jurors_settings([(str(j["model"]), j.get("config") or {}) for j in jurors])
    return {}


def graded_with(config: GenerateConfig) -> dict[str, Any]:
    """A judge's settings with the defaults it grades with where they are unset, as its scores
    record them: a judge left at the default temperature grades as one set to 0, one row."""
    return filled(config) | config.model_dump(exclude_none=True)


def verdict_settings(log: LoadedLog) -> dict[str, str]:
    """The judge's settings as the log records them: the grader role's where bound to its judge;
    else those its scores record as sent (a log re-graded by `inspect score`, whose judge may be
    the evaluated model bound at other settings); else the eval's, its judge the evaluated model."""
    spec = log.log.eval
    role = (spec.model_roles or {}).get((spec.metadata or {}).get("judge_role", ""), [])
    roles = role if isinstance(role, list) else [role]
    judges = {model for _, models in log.judges for model in models} or {log.model}
    if roles and {model.model for model in roles} <= judges:
        found = jurors_settings([(m.model, graded_with(m.config)) for m in roles])
    elif not (found := judge_settings(log)):
        # a robustness log's scores record no settings: its judge is the evaluated model
        config = log.log.plan.config.merge(spec.model_generate_config)
        found = jurors_settings([(log.model, graded_with(config))])
    return {key: value for key, value in found.items() if key.split()[-1] in VERDICT_SETTINGS}


def with_settings(log: LoadedLog, settings: Mapping[str, str]) -> str:
    """A judge's label with the settings that tell its logs apart, if any."""
    shown = ", ".join(f"{key}={value}" for key, value in settings.items())
    return log.judge_label + (f" ({shown})" if shown else "")


def judge_settings_differing(
    logs: Sequence[LoadedLog], read: Callable[[LoadedLog], Mapping[str, str]] = judge_settings
) -> list[dict[str, str]]:
    """Each log's judge settings (as `read` reads them) that differ between the logs of its judge
    (`unset` where one has none): another judge is told apart by its name, and its settings (a
    llama.cpp judge's grammar, say) would only crowd its label."""
    each = {log.path: read(log) for log in logs}
    differing = []
    for log in logs:
        same = [each[other.path] for other in logs if other.judge_label == log.judge_label]
        keys = dict.fromkeys(key for found in same for key in found)
        differ = [k for k in keys if len({found.get(k, "unset") for found in same}) > 1]
        differing.append({key: each[log.path].get(key, "unset") for key in differ})
    return differing

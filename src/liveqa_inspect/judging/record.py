"""Who judged, recorded in every score a judge gives (`judge` in its metadata) and read back by the
report, which never re-derives it: the models (a panel's jurors and rule), what bound them (the
grader role, the pinned default, or the model under evaluation) and each juror's settings that
change verdicts, as sent (the seed before its move per epoch and attempt)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Self

from liveqa_inspect.stats.names import juror_names

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog

Bound = Literal["grader role", "default judge", "evaluated model"]
VERDICT_SETTINGS = ("temperature", "top_p", "top_k", "seed", "max_tokens", "stop_seqs")
VERDICT_SETTINGS += ("frequency_penalty", "presence_penalty", "logit_bias", "system_message")
VERDICT_SETTINGS += ("reasoning_effort", "reasoning_tokens", "reasoning_summary")
VERDICT_SETTINGS += ("reasoning_history",)
"""The settings that change a judge's verdicts; not those that only pace or batch its calls
(max_connections, max_retries, batch), which would split one judge into two."""


@dataclass(frozen=True)
class JudgeRecord:
    models: tuple[str, ...]
    panel: str | None
    """The rule a panel's levels combine by; None for one model."""
    bound: Bound
    settings: tuple[tuple[tuple[str, str], ...], ...]
    """Each juror's `VERDICT_SETTINGS` as sent, sorted (name, value) pairs."""

    @classmethod
    def of(cls, models: Sequence[str], panel: str, bound: Bound, sent: Sequence[Mapping]) -> Self:
        """From what a scorer resolved: the jurors, their rule, the binding, each one's settings."""
        settings = tuple(
            tuple(sorted((k, str(v)) for k, v in each.items() if k in VERDICT_SETTINGS))
            for each in sent
        )
        return cls(tuple(models), panel if len(models) > 1 else None, bound, settings)

    def metadata(self) -> dict[str, Any]:
        settings = [dict(each) for each in self.settings]
        return {
            "models": list(self.models),
            "panel": self.panel,
            "bound": self.bound,
            "settings": settings,
        }

    @classmethod
    def read(cls, meta: Mapping[str, Any], log: "EvalLog") -> Self | None:
        """The record a score's metadata holds; for a log written before scores held one (package
        4.2), derived from what they held: the models and rule, the first juror settings recorded
        (a robustness score's: the grader role's, else the run's own), bound as the run bound
        roles."""
        from liveqa_inspect.judging.grade import JUDGE_ROLE, sent  # grade.py imports this

        if "judge" in meta:
            found = meta["judge"]
            settings = tuple(tuple(sorted(each.items())) for each in found["settings"])
            return cls(tuple(found["models"]), found["panel"], found["bound"], settings)
        if not meta.get("judge_models"):
            return None
        models, spec = [str(model) for model in meta["judge_models"]], log.eval
        role = (spec.model_roles or {}).get(JUDGE_ROLE, [])
        roles = role if isinstance(role, list) else [role]
        jurors = meta.get("jurors") or []
        if jurors and all("config" in juror for juror in jurors):
            given = [dict(juror["config"]) for juror in jurors]
        else:
            config = roles[0].config if roles else log.plan.config.merge(spec.model_generate_config)
            given = [sent(config)] * len(models)
        bound = "grader role" if roles or models != [spec.model] else "evaluated model"
        if models == [(spec.metadata or {}).get("judge_default")]:
            bound = "default judge"
        return cls.of(models, str(meta.get("panel")), bound, given)

    @property
    def identity(self) -> tuple[object, ...]:
        """Whom two records name alike, whatever bound them (the default judge bound as the
        grader role, or measured as the model under evaluation, is one judge)."""
        return self.models, self.panel, self.settings

    @property
    def name(self) -> str:
        """A model, or a panel as `mean of a+b`: its rule makes its figures what they are."""
        joined = "+".join(self.models)
        return joined if self.panel is None else f"{self.panel} of {joined}"

    def shown_settings(self) -> dict[str, str]:
        """The settings by name, a panel's each under its juror's name."""
        names = juror_names(self.models)
        return {
            key if len(self.models) == 1 else f"{name} {key}": value
            for name, each in zip(names, self.settings, strict=True)
            for key, value in each
        }

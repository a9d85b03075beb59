"""The caveats a run printed as it ran (liveqa_inspect/caveats.py), said again by its report from
what the log holds: a figure pasted without them would read as a measurement."""

from __future__ import annotations

from inspect_ai.event import ModelEvent

from liveqa_inspect.caveats import grades_itself, is_smollm2_135m, too_small
from liveqa_inspect.providers.gguf import MODEL_FILE
from liveqa_inspect.report.loaded import LoadedLog


def caveat_texts(log: LoadedLog) -> list[str]:
    """A model log graded by its own model, and each model a SmolLM2-135M file served (its
    outputs name the file)."""
    judges = {model for _, models in log.judges for model in models}
    found = [grades_itself(log.model)] if log.kind == "model" and log.model in judges else []
    events = (e for s in log.log.samples or [] for e in s.events if isinstance(e, ModelEvent))
    served = {e.model: str((e.output.metadata or {}).get(MODEL_FILE, "")) for e in events}
    found += [too_small(model) for model, file in served.items() if is_smollm2_135m(file)]
    return found

"""The probe's solver on its own: two calls, in conversations apart, both replies kept."""

from __future__ import annotations

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample

from liveqa_inspect.tasks.contamination.solver import GENERAL, GUIDED, Replies, guided_and_general
from tests.helpers import QUIET, probe, scripted_model


def test_the_control_never_sees_the_guided_exchange() -> None:
    model = scripted_model(lambda prompt, _: "REMEMBERED" if probe(prompt)[0] else "GUESSED")
    sample = Sample(id="TQ9", input="shown words", metadata={"part": "question", "qid": "TQ9"})
    [log] = eval(Task(dataset=[sample], solver=guided_and_general()), model=model, **QUIET)
    assert log.status == "success", log.error
    [(guided, _), (general, _)] = model.calls  # type: ignore[attr-defined]
    assert "(question TQ9 of that test set)" in guided and guided.endswith("shown words")
    assert general.endswith("shown words")
    assert not any(text in general for text in ("LiveQA", "TQ9", "REMEMBERED"))
    [result] = log.samples
    assert result.store_as(Replies).completions == {GUIDED: "REMEMBERED", GENERAL: "GUESSED"}
    assert result.output.completion == "GUESSED"

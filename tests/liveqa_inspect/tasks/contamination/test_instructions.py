"""The probe's two instructions: what each says, and their pinned versions."""

from __future__ import annotations

import pytest

from liveqa_inspect.tasks.contamination.solver import INSTRUCTIONS, Instruction

GUIDED_INSTRUCTION, GENERAL_INSTRUCTION = INSTRUCTIONS

SHOWN = "Noonan syndrome\n\nWhat are the references"


@pytest.mark.parametrize("part", ["question", "reference"])
def test_only_the_guided_instruction_names_the_test_set_and_the_item(part: str) -> None:
    item = "question TQ1" if part == "question" else "reference answer TQ1A1 to question TQ1"
    guided = GUIDED_INSTRUCTION.render(part, SHOWN, id="TQ1A1", qid="TQ1")
    general = GENERAL_INSTRUCTION.render(part, SHOWN, id="TQ1A1", qid="TQ1")
    assert f"from the TREC-2017 LiveQA Medical test set ({item} of that test set)" in guided
    assert not any(name in general for name in ("LiveQA", "TREC", "TQ1", "test set"))
    # The same text to complete, introduced as the same kind of text, asked for the same way.
    noun = "consumer health question" if part == "question" else "an expert's answer"
    for prompt in (guided, general):
        assert prompt.startswith("The text below is the first part of ") and noun in prompt
        assert prompt.endswith(
            "Reply with the rest of the text only, nothing before or after it.\n\n"
            f"First part:\n{SHOWN}"
        )


def test_item_names() -> None:
    def named(part: str, id: str, qid: str) -> str:
        return GUIDED_INSTRUCTION.render(part, "", id=id, qid=qid).split("(")[1].split(" of ")[0]

    assert named("question", "TQ12", "TQ12") == "question TQ12"
    assert named("reference", "TQ1A2", "TQ1") == "reference answer TQ1A2 to question TQ1"


@pytest.mark.parametrize(
    ("instruction", "version", "sha256"),
    [
        (
            GUIDED_INSTRUCTION,
            "1",
            "b7225bb82a5ef2c922c2114d6bddbce8c929a56f808a25b643d5cb474316f068",
        ),
        (
            GENERAL_INSTRUCTION,
            "1",
            "e0a2be9fe4c114a60fbd98bd5915b25550cae4959cfcac01a84d486fdbd038ea",
        ),
    ],
)
def test_a_rewording_without_a_version_bump_fails(
    instruction: Instruction, version: str, sha256: str
) -> None:
    """Pinned digests, over the template and the part nouns: change either and this fails until
    the version is bumped, so a log's instruction version always names one wording."""
    assert (instruction.version, instruction.sha256) == (version, sha256)
    assert instruction.provenance() == {
        "name": instruction.name,
        "version": version,
        "sha256": sha256,
    }

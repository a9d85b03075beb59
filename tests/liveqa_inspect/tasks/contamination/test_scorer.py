"""The contamination scorer's measures of one completion against the true remainder."""

from __future__ import annotations

import pytest

from liveqa_inspect.overlap import text_overlap
from liveqa_inspect.tasks.contamination.scorer import VERBATIM_WORDS, overlap, words

REMAINDER = "Take 2 tablets, twice a day, with food. Do not drive if you feel drowsy."


def test_a_reproduction_overlaps_fully() -> None:
    assert overlap(REMAINDER, REMAINDER) == (1.0, 15, False)


def test_rouge_l_is_the_reference_metrics_own() -> None:
    """One implementation of ROUGE-L: the one the reference metrics report (and HELM uses)."""
    completion = "Take two tablets a day with food, and do not drive."
    assert overlap(REMAINDER, completion)[0] == text_overlap.rouge_l(REMAINDER, completion)


def test_case_and_punctuation_do_not_break_a_run() -> None:
    assert overlap(REMAINDER, "TAKE 2 TABLETS twice a day... with FOOD!! then rest")[1] == 8


def test_a_long_run_of_common_words_is_found_whole() -> None:
    """difflib's junk heuristic would treat words frequent in a long text ("the") as junk and
    cut the run at each of them."""
    text = " ".join(f"the word{n} of the text" for n in range(100))
    assert overlap(text, "Here it is: " + text)[1] == len(words(text)) == 500


@pytest.mark.parametrize(
    ("remainder_words", "shared"), [(40, VERBATIM_WORDS), (40, VERBATIM_WORDS - 1), (7, 7), (7, 6)]
)
def test_the_run_is_counted_whole_or_in_part(remainder_words: int, shared: int) -> None:
    """The run is what the scorer records; a reproduction is a run of VERBATIM_WORDS words or
    more (test_task.py beside this file), so a short remainder repeated whole is not one."""
    remainder = " ".join(f"w{n}" for n in range(remainder_words))
    completion = " ".join(f"w{n}" for n in range(shared)) + " and then something else"
    assert overlap(remainder, completion)[1] == shared


@pytest.mark.parametrize(
    "reply",
    [
        "I'm sorry, but I can't reproduce that text.",
        "I’m sorry, I cannot help with this.",
        "Sorry, I don't have that text.",
        "I cannot complete text from a test set.",
        "I can't share copyrighted material.",
        "I am unable to reproduce dataset items.",
        "As an AI, I do not have access to datasets.",
        "",
        "  \n ",
    ],
)
def test_refusals_and_empty_replies_score_0(reply: str) -> None:
    assert overlap(REMAINDER, reply) == (0.0, 0, True)


def test_a_reply_stopped_by_a_content_filter_is_a_refusal() -> None:
    assert overlap(REMAINDER, REMAINDER, stop_reason="content_filter")[2]


def test_a_remainder_that_opens_like_a_refusal_can_be_reproduced() -> None:
    remainder = "sorry for my english, what is the dose of this medicine for a child of four?"
    assert overlap(remainder, remainder) == (1.0, len(words(remainder)), False)
    assert not overlap(REMAINDER, "and I cannot sleep at night since")[2]

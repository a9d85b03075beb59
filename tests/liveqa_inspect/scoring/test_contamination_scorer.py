"""The contamination scorer's measures of one completion against the true remainder."""

from __future__ import annotations

import pytest

from liveqa_inspect.overlap import text_overlap
from liveqa_inspect.tasks.contamination import scorer as contamination
from liveqa_inspect.tasks.contamination.scorer import VERBATIM_WORDS, overlap, words

REMAINDER = "Take 2 tablets, twice a day, with food. Do not drive if you feel drowsy."


def test_a_reproduction_overlaps_fully() -> None:
    found = overlap(REMAINDER, REMAINDER)
    assert (found.rouge_l, found.run, found.verbatim, found.refused) == (1.0, 15, True, False)
    assert found.shared == "take 2 tablets twice a day with food do not drive if you feel drowsy"


def test_rouge_l_is_the_reference_metrics_own() -> None:
    """One implementation of ROUGE-L: the one the reference metrics report (and HELM uses)."""
    assert contamination.rouge_l_function() is text_overlap.rouge_l
    completion = "Take two tablets a day with food, and do not drive."
    assert overlap(REMAINDER, completion).rouge_l == text_overlap.rouge_l(REMAINDER, completion)


def test_case_and_punctuation_do_not_break_a_run() -> None:
    found = overlap(REMAINDER, "TAKE 2 TABLETS twice a day... with FOOD!! then rest")
    assert (found.run, found.shared) == (8, "take 2 tablets twice a day with food")


def test_a_long_run_of_common_words_is_found_whole() -> None:
    """difflib's junk heuristic would treat words frequent in a long text ("the") as junk and
    cut the run at each of them."""
    text = " ".join(f"the word{n} of the text" for n in range(100))
    assert overlap(text, "Here it is: " + text).run == len(words(text)) == 500


@pytest.mark.parametrize(
    ("remainder_words", "shared", "reproduced"),
    [
        (40, VERBATIM_WORDS, True),
        (40, VERBATIM_WORDS - 1, False),
        (7, 7, True),  # a short remainder is reproduced only whole
        (7, 6, False),
    ],
)
def test_verbatim_is_a_long_run_or_the_whole_remainder(
    remainder_words: int, shared: int, reproduced: bool
) -> None:
    remainder = " ".join(f"w{n}" for n in range(remainder_words))
    completion = " ".join(f"w{n}" for n in range(shared)) + " and then something else"
    found = overlap(remainder, completion)
    assert (found.run, found.verbatim) == (shared, reproduced)


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
    found = overlap(REMAINDER, reply)
    assert (found.rouge_l, found.run, found.verbatim, found.refused) == (0.0, 0, False, True)


def test_a_reply_stopped_by_a_content_filter_is_a_refusal() -> None:
    assert overlap(REMAINDER, REMAINDER, stop_reason="content_filter").refused


def test_a_remainder_that_opens_like_a_refusal_can_be_reproduced() -> None:
    remainder = "sorry for my english, what is the dose of this medicine for a child of four?"
    assert not overlap(remainder, remainder).refused
    assert overlap(remainder, remainder).verbatim
    assert not overlap(REMAINDER, "and I cannot sleep at night since").refused

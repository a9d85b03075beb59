"""live_qa_judge_robustness's answers: a seeded, grade-stratified subset, pinned."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from liveqa_inspect.tasks.robustness.dataset import PERTURBATIONS, robustness_dataset
from tests.helpers import judgments_file

ALL = list(PERTURBATIONS)


def test_the_default_subset_is_pinned_and_near_a_thousand_judge_calls(
    liveqa_data_dir: Path,
) -> None:
    samples = list(robustness_dataset(ALL, data=liveqa_data_dir))
    assert Counter(s.metadata["human_grade"] for s in samples) == {1: 40, 2: 40, 3: 40, 4: 25}
    assert not any(s.metadata["junk"] for s in samples)
    assert [s.id for s in samples[:6]] == [
        "TQ1-L4", "TQ1-L5", "TQ3-L20", "TQ4-L28", "TQ5-L32", "TQ6-L40"
    ]  # fmt: skip
    applied = Counter(name for s in samples for name in s.metadata["versions"])
    assert applied == {
        "padding": 145, "authority": 145, "formatting": 145, "grader_note": 145, "swap": 105,
        "reference_order": 78, "truncation": 54,
    }  # fmt: skip
    skipped = Counter(name for s in samples for name in s.metadata["skipped"])
    assert all(applied[name] + skipped[name] == 145 for name in ALL)
    # One call for the original and one a version, for each answer.
    assert sum(1 + len(s.metadata["versions"]) for s in samples) == 962
    first = samples[0].metadata
    assert first["versions"]["swap"]["source"] == "TQ93-L623"
    assert first["perturbations"] == ALL


def test_the_same_seed_draws_the_same_answers_and_versions(liveqa_data_dir: Path) -> None:
    def draw(seed: int) -> list[tuple[str, str]]:
        samples = robustness_dataset(ALL, per_grade=5, seed=seed, data=liveqa_data_dir)
        return [(str(s.id), json.dumps(s.metadata["versions"])) for s in samples]

    assert draw(3) == draw(3)
    assert {i for i, _ in draw(3)} != {i for i, _ in draw(4)}


def test_a_grade_s_draw_does_not_depend_on_the_others(liveqa_data_dir: Path) -> None:
    """Fewer answers a grade keep a grade-4 draw that takes all 25 unchanged."""

    def fours(per_grade: int) -> set[str]:
        samples = robustness_dataset(["padding"], per_grade, data=liveqa_data_dir)
        return {str(s.id) for s in samples if s.metadata["human_grade"] == 4}

    assert fours(25) == fours(40)
    assert fours(3) < fours(40)


def test_every_swap_is_an_excellent_answer_to_another_question(liveqa_data_dir: Path) -> None:
    samples = list(robustness_dataset(["swap"], per_grade=10, data=liveqa_data_dir))
    pool = {s.id: s for s in robustness_dataset(["swap"], per_grade=1000, data=liveqa_data_dir)}
    for sample in samples:
        swap = sample.metadata["versions"].get("swap")
        if sample.metadata["human_grade"] == 1:
            assert swap is None and "already the lowest" in sample.metadata["skipped"]["swap"]
            continue
        source = pool[swap["source"]].metadata
        assert source["human_grade"] == 4 and source["answer"] == swap["answer"]
        assert source["question_id"] != sample.metadata["question_id"]


def test_a_user_s_judgments_are_drawn_from(tmp_path: Path) -> None:
    """One answer a grade; the one excellent answer left to swap in for another excellent one is
    the other question's."""
    lines = [
        json.dumps({"question_id": f"TQ{n}", "answer": f"Answer {n}. More. And more.", "grade": g})
        for n, g in ((1, 4), (2, 4), (3, 1), (4, 2))
    ]
    path = judgments_file(tmp_path, *lines)
    samples = list(robustness_dataset(["swap"], per_grade=1, judgments=path))
    assert [s.id for s in samples] == ["TQ2-L2", "TQ3-L3", "TQ4-L4"]
    swaps = [s.metadata["versions"].get("swap", {}).get("source") for s in samples]
    assert swaps[:2] == ["TQ1-L1", None]
    assert swaps[2] in ("TQ1-L1", "TQ2-L2")

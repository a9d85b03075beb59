"""The tasks: thin wiring of dataset, solver, scorer, viewer and provenance."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.log import HeadlineMetric
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate, prompt_template
from inspect_ai.viewer import (
    SampleScoreView,
    ScoreColorScale,
    TaskSamplesColumn,
    TaskSamplesView,
    ViewerConfig,
)

from liveqa_inspect._version import EVAL_VERSION
from liveqa_inspect.claims_metrics import claim_passage_overlap
from liveqa_inspect.datasets.expert_qa import Split, Subset, expert_qa_dataset
from liveqa_inspect.datasets.expert_qa_claims import Aspect, expert_qa_claims_dataset
from liveqa_inspect.datasets.live_qa import QuestionField, live_qa_dataset
from liveqa_inspect.datasets.live_qa_judge import live_qa_judge_dataset
from liveqa_inspect.errors import ArgumentError
from liveqa_inspect.judge import (
    DEFAULT_JUDGE,
    JUDGE_DEFAULTS,
    JUDGE_ROLE,
    REASONING_DEFAULTS,
    Panel,
    check_panel,
    default_judge_made_early,
)
from liveqa_inspect.metric_keys import KAPPA, MEAN
from liveqa_inspect.metrics import judge_epochs
from liveqa_inspect.prompts import (
    CLAIM_CORRECTNESS_JUDGE,
    CLAIM_SUPPORT_JUDGE,
    EXPERT_QA_JUDGE,
    EXPERT_TEMPLATE,
    LIVEQA_JUDGE,
    SOLVER_TEMPLATE,
    JudgePrompt,
    Scale,
)
from liveqa_inspect.reference_metrics import reference_floor, reference_overlap
from liveqa_inspect.scorer import (
    claim_correctness_scorer,
    claim_support_scorer,
    expert_qa_scorer,
    judge_agreement_scorer,
    live_qa_scorer,
)
from liveqa_inspect.solvers import given_answer, judges_ready
from liveqa_inspect.sources import EXPERT_QA_FILES, LIVEQA_JUDGMENTS, LIVEQA_QUESTIONS, Asset

SUBJECT_CONFIG = GenerateConfig(temperature=0.0, max_tokens=512)
"""HELM's settings for the model under test; Inspect's --temperature and --max-tokens override."""

EXPERT_CONFIG = GenerateConfig(temperature=0.0, max_tokens=2048)
"""Room for long-form answers: the expert references run to 433 words, and models write more."""


def check_flags(**flags: object) -> None:
    """`-T judge_cache=maybe` reaches a task as the string "maybe", which Python reads as true:
    refuse it rather than run on a guess."""
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise ArgumentError(f"{name} must be true or false; got {value!r}.")


def provenance(prompt: JudgePrompt, default: str | None, *assets: Asset) -> dict[str, Any]:
    """What a log must say for a reader to reproduce its grading: judge, prompt and data.

    The judge that actually graded, with its effective settings, is in every score's metadata;
    this says where it came from when no grader role was bound.
    """
    return {
        "judge_role": JUDGE_ROLE,
        "judge_default": default or "the model under evaluation",
        "judge_defaults": JUDGE_DEFAULTS.model_dump(exclude_none=True),
        "judge_reasoning_defaults": REASONING_DEFAULTS.model_dump(exclude_none=True),
        "judge_prompt": prompt.provenance(),
        "data": {asset.filename: asset.provenance() for asset in assets},
        "data_license": ", ".join(sorted({asset.license for asset in assets})),
    }


def viewer(scorer: str, scale: Scale, grades_a_model: bool) -> ViewerConfig:
    """Inspect View's sample list leads with the judge's level, and the score panel with it.

    The level's colours span the rubric's whole scale, not the levels a log happens to hold, so
    the same level looks the same in every log. A model's level runs red to green; a judge's
    rating of a human-graded item is no better for being high, so it is shaded neutrally.
    """
    colours = ScoreColorScale(
        palette="good-high" if grades_a_model else "neutral",
        min=min(scale.levels),
        max=max(scale.levels),
    )
    return ViewerConfig(
        task_samples_view=TaskSamplesView(
            name="judged",
            columns=[
                TaskSamplesColumn(id="sampleId"),
                TaskSamplesColumn(id="epoch"),
                TaskSamplesColumn.score(scorer),
                TaskSamplesColumn(id="input"),
                TaskSamplesColumn(id="answer"),
                TaskSamplesColumn(id="target", visible=False),
            ],
            score_labels={scorer: "judge level"},
            score_color_scales={scorer: colours},
        ),
        sample_score_view=SampleScoreView(default="grid"),
    )


def judged_task(
    scorer_name: str,
    prompt: JudgePrompt,
    default: str | None,
    assets: Sequence[Asset],
    **task: Any,
) -> Task:
    """What every judging task shares: the judge made ready before the first model call, the
    headline (a model's mean level; a judge's kappa with the humans), per-epoch judge levels
    kept, the provenance, and View's columns. `default` None: the judge is measured, not a
    model."""
    default_judge_made_early(default)
    return Task(
        setup=judges_ready(default),
        epochs=Epochs(1, judge_epochs()),
        version=EVAL_VERSION,
        headline_metric=HeadlineMetric(
            scorer=scorer_name, metric=MEAN if default is not None else KAPPA
        ),
        viewer=viewer(scorer_name, prompt.scale, grades_a_model=default is not None),
        metadata=provenance(prompt, default, *assets),
        **task,
    )


@task
def live_qa(
    question: QuestionField = "summary",
    data: str | None = None,
    judge_cache: bool = True,
    reference_metrics: bool = True,
    panel: Panel = "mean",
) -> Task:
    """TREC-2017 LiveQA Medical: 104 consumer health questions, graded by a pinned judge.

    Args:
        question: Which wording to ask: "summary" (NLM summary, as HELM), "paraphrase"
            (NIST paraphrase) or "original" (the consumer's own subject and message).
        data: A folder holding the upstream XML, or the file itself, instead of the download.
        judge_cache: Cache judge replies, so re-scoring with the same judge costs nothing.
        reference_metrics: Also report HELM's reference-overlap metrics (ROUGE-L, BLEU, F1,
            exact match) next to the judge score.
        panel: How the levels of a judge panel (the grader role bound to several models)
            combine: "mean", "median" or "majority".
    """
    check_panel(panel)
    check_flags(judge_cache=judge_cache, reference_metrics=reference_metrics)
    scorers = [live_qa_scorer(cache=judge_cache, panel=panel)]
    if reference_metrics:
        scorers.append(reference_overlap())
    return judged_task(
        "live_qa_scorer",
        LIVEQA_JUDGE,
        DEFAULT_JUDGE,
        [LIVEQA_QUESTIONS],
        dataset=live_qa_dataset(question, Path(data) if data else None),
        solver=[prompt_template(SOLVER_TEMPLATE), generate()],
        scorer=scorers,
        config=SUBJECT_CONFIG,
    )


@task
def live_qa_judge(
    question: QuestionField = "summary",
    data: str | None = None,
    judgments: str | None = None,
    include_junk: bool = True,
    judge_cache: bool = True,
    panel: Panel = "mean",
) -> Task:
    """A judge against the NIST assessors: the grader role if bound, else the evaluated model.

    Args:
        question: The question wording the judge sees, as in live_qa.
        data: A folder holding the upstream XML and NIST judgments, instead of the downloads.
        judgments: A JSONL file of your own human judgments (question_id, answer, grade 1-4) to
            use instead of NIST's.
        include_junk: Keep the answers NIST marked junk (grade -2), at the lowest level.
        judge_cache: Cache the judge's replies.
        panel: How the levels of a judge panel combine: "mean", "median" or "majority".
    """
    check_panel(panel)
    check_flags(include_junk=include_junk, judge_cache=judge_cache)
    return judged_task(
        "judge_agreement_scorer",
        LIVEQA_JUDGE,
        None,
        [LIVEQA_QUESTIONS, LIVEQA_JUDGMENTS],
        dataset=live_qa_judge_dataset(question, data, judgments, include_junk),
        solver=given_answer(),
        # No task config: the judge's defaults fill only what the user left unset (Inspect's
        # --temperature, --max-tokens, --seed, --reasoning-effort, or the role's own config), and
        # a task config would read as the user's, capping a reasoning judge at 256 tokens.
        scorer=[judge_agreement_scorer(cache=judge_cache, panel=panel), reference_floor()],
    )


@task
def expert_qa(
    split: Split = "domain",
    subset: Subset = "test",
    field: str | list[str] | None = None,
    question_type: str | list[str] | None = None,
    data: str | None = None,
    judge_cache: bool = True,
    panel: Panel = "mean",
) -> Task:
    """ExpertQA long-form questions from experts of 32 fields, graded by the same pinned judge.

    Args:
        split: "domain" (questions sampled per field) or "random" (sampled at random).
        subset: "test" or "validation".
        field: One or more fields to keep, e.g. "Healthcare / Medicine".
        question_type: One or more ExpertQA question types; a question with several is kept
            if any matches.
        data: A folder holding the upstream JSONL files, instead of the downloads.
        judge_cache: Cache judge replies, so re-scoring with the same judge costs nothing.
        panel: How the levels of a judge panel combine: "mean", "median" or "majority".
    """
    check_panel(panel)
    check_flags(judge_cache=judge_cache)
    return judged_task(
        "expert_qa_scorer",
        EXPERT_QA_JUDGE,
        DEFAULT_JUDGE,
        [EXPERT_QA_FILES[(split, subset)]],
        dataset=expert_qa_dataset(split, subset, field, question_type, data),
        solver=[prompt_template(EXPERT_TEMPLATE), generate()],
        scorer=expert_qa_scorer(cache=judge_cache, panel=panel),
        config=EXPERT_CONFIG,
    )


@task
def expert_qa_claims(
    aspect: Aspect = "correctness",
    split: Split = "domain",
    subset: Subset = "test",
    field: str | list[str] | None = None,
    data: str | None = None,
    judge_cache: bool = True,
    panel: Panel = "mean",
) -> Task:
    """A judge's claim-level verdicts against ExpertQA's domain experts.

    Args:
        aspect: "correctness" (rate each claim 1-5, ExpertQA's scale) or "support" (rate 1-3
            how far the claim's evidence passages support it).
        split: "domain" or "random", as for expert_qa.
        subset: "test" or "validation".
        field: One or more fields to keep, e.g. "Healthcare / Medicine".
        data: A folder holding the upstream JSONL files, instead of the downloads.
        judge_cache: Cache the judge's replies.
        panel: How the levels of a judge panel combine: "mean", "median" or "majority".
    """
    check_panel(panel)
    check_flags(judge_cache=judge_cache)
    correctness = aspect == "correctness"
    prompt = CLAIM_CORRECTNESS_JUDGE if correctness else CLAIM_SUPPORT_JUDGE
    judge = claim_correctness_scorer if correctness else claim_support_scorer
    scorers = [judge(cache=judge_cache, panel=panel)]
    if not correctness:
        scorers.append(claim_passage_overlap())
    scorer_name = "claim_correctness_scorer" if correctness else "claim_support_scorer"
    return judged_task(
        scorer_name,
        prompt,
        None,
        [EXPERT_QA_FILES[(split, subset)]],
        dataset=expert_qa_claims_dataset(aspect, split, subset, field, data),
        solver=given_answer("claim"),
        scorer=scorers,
    )

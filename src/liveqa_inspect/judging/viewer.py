"""Inspect View's layout of a judged task's samples."""

from collections.abc import Sequence

from inspect_ai import viewer as view

from liveqa_inspect.judging.scale import Scale


def viewer(
    scorer: str, scale: Scale, grades_a_model: bool, versions: Sequence[str]
) -> view.ViewerConfig:
    """The judge's level first (each version's side by side), coloured over the rubric's whole
    scale so that a level looks the same in every log: neutral for a judge's rating of a
    human-graded item (no better if high)."""
    palette = "good-high" if grades_a_model else "neutral"
    colours = view.ScoreColorScale(palette=palette, min=min(scale.levels), max=max(scale.levels))
    column = view.TaskSamplesColumn
    scores = [column.score(scorer, version) for version in versions] or [column.score(scorer)]
    columns = [column(id="sampleId"), column(id="epoch"), *scores, column(id="input")]
    columns.append(column(id="answer", visible=False) if versions else column(id="answer"))
    samples = view.TaskSamplesView(
        name="versions" if versions else "judged",
        columns=columns if versions else [*columns, column(id="target", visible=False)],
        compact_scores=True if versions else None,
        score_labels=None if versions else {scorer: "judge level"},
        score_color_scales=dict.fromkeys(versions or [scorer], colours),
    )
    grid = view.SampleScoreView(default="grid")
    return view.ViewerConfig(task_samples_view=samples, sample_score_view=grid)

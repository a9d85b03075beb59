"""The judge a run grades with where the grader role names none: HELM's live_qa judge, pinned by
date so a run is repeatable. A pin of the product's, kept out of judging/ (no provider there)."""

DEFAULT_JUDGE = "openai/gpt-4o-2024-05-13"

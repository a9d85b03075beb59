"""What the model under test is asked: the tasks' fixed instructions, as data."""

INSTRUCTION = "Please answer the following consumer health question."
"""The fixed zero-shot instruction of the LiveQA Medical task (as in HELM's live_qa)."""

SOLVER_TEMPLATE = INSTRUCTION + "\n\n{prompt}"

EXPERT_TEMPLATE = (
    "Please answer the following question from an expert in {field}. Give a complete, precise, "
    "long-form answer.\n\n{prompt}"
)
"""ExpertQA's authors also told their systems the question's field; `field` is sample metadata."""

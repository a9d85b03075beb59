"""What a run warns of as it runs, and its report says again from the log: a score that does not
mean what it seems to. Each text is written here once, so the run and `liveqa-report` (and the
Markdown teams paste) say the same; a bare figure would drop the caveat."""


def grades_itself(model: str) -> str:
    return (
        f"The judge ({model}) is the model under test: it grades its own answers, which biases "
        "the score. Bind another judge with --model-role grader=<model>."
    )


def is_smollm2_135m(filename: str) -> bool:
    """The embedded model's file, or another copy or quantisation of it: too small to mean much."""
    return "smollm2-135m" in filename.lower()


def too_small(model: str) -> str:
    return (
        f"SmolLM2-135M ({model}) has 135M parameters: its answers and its verdicts carry no "
        "meaning. This run is a first run and a smoke test of the pipeline, not a measurement."
    )

"""What a log records of its data and grading, to reproduce it and for the report to know it."""

from typing import Any

from liveqa_inspect.data.sources import Asset
from liveqa_inspect.judging.grade import JUDGE_DEFAULTS, JUDGE_ROLE
from liveqa_inspect.judging.prompts import JudgePrompt


def data_provenance(*assets: Asset) -> dict[str, Any]:
    """The pinned files a log's items come from: every task records them, and the report knows
    this package's logs by them (report/loading.py)."""
    return {
        "data": {asset.filename: asset.provenance() for asset in assets},
        "data_license": ", ".join(sorted({asset.license for asset in assets})),
    }


def provenance(
    prompt: JudgePrompt, measures_judge: bool, default: str | None, *assets: Asset
) -> dict[str, Any]:
    """What reproducing a log's grading needs beyond each score's judge and settings; the scale and
    whether it measures a judge, which the report reads rather than infers."""
    return {
        "measures_judge": measures_judge,
        "scale": list(prompt.scale.levels),
        "judge_role": JUDGE_ROLE,
        "judge_default": default or "the model under evaluation",
        "judge_defaults": JUDGE_DEFAULTS.model_dump(exclude_none=True),
        "judge_prompt": prompt.provenance(),
        **data_provenance(*assets),
    }

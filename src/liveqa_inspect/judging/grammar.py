"""The reply's GBNF grammar, for a judge whose provider constrains its output (providers/)."""

import json

from liveqa_inspect.judging.reply import BETWEEN, CLOSE, OPEN, REASONING_CHARS
from liveqa_inspect.judging.scale import Scale


def gbnf(scale: Scale) -> str:
    """A reasoning of anything but `<` (no tag can open inside it), then one level as the rubric
    spells it: left free, a small open-weight model rarely writes the `<score>` tags."""
    levels = " | ".join(json.dumps(name) for name in scale.names)
    return (
        f"root ::= {json.dumps(OPEN)} reasoning {json.dumps(BETWEEN)} level {json.dumps(CLOSE)}\n"
        f"reasoning ::= [^<]{{1,{REASONING_CHARS}}}\n"
        f"level ::= {levels}\n"
    )

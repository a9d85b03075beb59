"""A rubric's levels: how a verdict's level is read and named."""

import re
from dataclasses import dataclass
from decimal import Decimal

from liveqa_inspect.stats.names import level_name

_PLAIN_NUMBER = re.compile(r"[0-9]*\.?[0-9]+|[0-9]+\.")


@dataclass(frozen=True)
class Scale:
    """The levels a rubric offers, in rising order: a verdict must name one of them exactly."""

    levels: tuple[float, ...]

    def read(self, text: str) -> float | None:
        """Plain decimals only (`1.0` and `0.70` too): `1e0`, `-0.3` or `0.7 or 1` are no level."""
        value = _PLAIN_NUMBER.fullmatch(text) and Decimal(text)
        return next((level for level in self.levels if Decimal(str(level)) == value), None)

    @property
    def names(self) -> list[str]:
        return [level_name(level) for level in self.levels]

    def describe(self) -> str:
        """`0, 0.3, 0.7 or 1`, as a rubric names them."""
        return ", ".join(self.names[:-1]) + " or " + self.names[-1]


LIVEQA_SCALE = Scale((0.0, 0.3, 0.7, 1.0))
CLAIM_CORRECTNESS_SCALE = Scale((1.0, 2.0, 3.0, 4.0, 5.0))
CLAIM_SUPPORT_SCALE = Scale((1.0, 2.0, 3.0))
"""No, partial or complete support; ExpertQA's support samples are only ever 2 or 3."""

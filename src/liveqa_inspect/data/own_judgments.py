"""A team's own human judgments (`-T judgments=FILE`, live_qa_judge and its robustness task) as a
log records them, where NIST's judgments record their URL and commit: so the report tells a judge
measured against a team's grades from one measured against NIST's, and a retry after the file
changed is refused (own_set_retry.py). The file is read and checked by live_qa_judge's dataset."""

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Self

from liveqa_inspect.data.recorded import OwnFile

OWN_JUDGMENTS = "own judgments, not NIST"


@dataclass(frozen=True)
class OwnJudgments(OwnFile):
    KIND: ClassVar[str] = "judgments"
    MARK: ClassVar[str] = OWN_JUDGMENTS

    @classmethod
    def of_file(cls, path: Path) -> Self:
        """Its digest and rows (the lines holding a judgment), of a file the dataset has read."""
        content = path.read_bytes()
        rows = sum(1 for line in content.splitlines() if line.strip())
        return cls(path.name, hashlib.sha256(content).hexdigest(), rows)

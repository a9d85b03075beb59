"""The shared identity of a versioned text: its digest is over what it can say, nothing else."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from liveqa_inspect.versioned import Versioned


@dataclass(frozen=True)
class Note(Versioned):
    text: str

    def canonical(self) -> str:
        return self.text


def test_the_digest_is_the_canonical_text_s_and_the_version_is_not_in_it() -> None:
    note = Note(name="note", version="1", text="Grade it 1.")
    digest = hashlib.sha256(b"Grade it 1.").hexdigest()
    assert note.provenance() == {"name": "note", "version": "1", "sha256": digest}
    assert replace(note, version="2").sha256 == digest
    assert replace(note, text="Grade it 0.").sha256 != digest

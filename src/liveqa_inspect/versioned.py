"""A text logged under a name, a version and a sha256 of all it can say, so a reader tells which
wording produced a log: a rewording without a new version shows as a new digest (tests pin it)."""

import hashlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Versioned(ABC):
    name: str
    version: str

    @abstractmethod
    def canonical(self) -> str:
        """Everything the text can say, as the one string its digest is taken over."""

    @cached_property
    def sha256(self) -> str:
        """Computed once: a judge prompt's digest goes into every score."""
        return hashlib.sha256(self.canonical().encode("utf-8")).hexdigest()

    def provenance(self) -> dict[str, str]:
        return {"name": self.name, "version": self.version, "sha256": self.sha256}


def label(provenance: dict[str, str]) -> str:
    """A recorded text as the report names it: `live_qa v1 (sha256 78d46594a2d9)`."""
    return f"{provenance['name']} v{provenance['version']} (sha256 {provenance['sha256'][:12]})"

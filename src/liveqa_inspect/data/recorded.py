"""What a log records of its data (judging/provenance.py writes it): each file by name, a pinned
one with its URL and commit (data/sources.py), a team's own with what it is in their place, so a
log says which of the two its figures rest on. An own file is known by its sha256, whatever its
name."""

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Self


def recorded(metadata: dict[str, Any] | None) -> dict[str, Any]:
    """A log's data files by name, as its eval's metadata holds them."""
    return dict((metadata or {}).get("data") or {})


@dataclass(frozen=True)
class OwnFile:
    """A team's own file: each kind says what it is under its key (`KIND`: `MARK`), where a pinned
    file says where it comes from."""

    filename: str
    sha256: str
    rows: int
    KIND: ClassVar[str]
    MARK: ClassVar[str]

    @property
    def license(self) -> str:
        return self.MARK

    def provenance(self) -> dict[str, Any]:
        counted = {field.name: getattr(self, field.name) for field in fields(self)[1:]}
        return {self.KIND: self.MARK, **counted}

    def __str__(self) -> str:
        return f"{self.filename}: {self.MARK}, sha256 {self.sha256[:12]}"

    @classmethod
    def of_log(cls, metadata: dict[str, Any] | None) -> Self | None:
        for name, source in recorded(metadata).items():
            if isinstance(source, dict) and source.get(cls.KIND) == cls.MARK:
                return cls(name, *(source[field.name] for field in fields(cls)[1:]))
        return None

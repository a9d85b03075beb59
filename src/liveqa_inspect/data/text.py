"""Text clean-up shared by the loaders."""

import re

_WHITESPACE = re.compile(r"\s+")


def normalise(text: str | None) -> str:
    """Collapse the XML's indentation and line breaks so references compare and display cleanly."""
    return _WHITESPACE.sub(" ", text or "").strip()

"""Text clean-up shared by the loaders."""


def normalise(text: str | None) -> str:
    """Collapse the XML's indentation and line breaks so references compare and display cleanly."""
    return " ".join((text or "").split())

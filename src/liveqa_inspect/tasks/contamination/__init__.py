"""contamination."""

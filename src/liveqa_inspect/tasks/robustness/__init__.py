"""robustness."""

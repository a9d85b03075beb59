"""Contamination probes: what the model under test is asked to complete, and the asking."""

"""The tasks: thin wiring of dataset, solver, scorers, viewer and provenance, one module each."""

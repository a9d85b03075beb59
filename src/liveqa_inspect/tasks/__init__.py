"""The task families: one folder each, holding its dataset, solver, scorer, metrics, report
section and task, over the shared core (judging, data, stats, overlap, report, providers)."""

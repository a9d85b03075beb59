"""The loaders, one module a dataset: each turns upstream records into Inspect samples."""

"""One module per input layout, each declaring one `LAYOUT` (`layout.Layout`); the
registry (`transforms/ingestion/registry.py`) lists them. See docs/pipeline.md, "Adding
an input layout"."""

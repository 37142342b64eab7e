"""The reading audit of a finished release (python -m beam_pipelines.audit)."""

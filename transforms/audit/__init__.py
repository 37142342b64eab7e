"""The reading audit of a finished release (python -m beam_pipelines.audit).

- `audit`: The reading audit (issue 32): a reproducible random sample of released queries ...
"""

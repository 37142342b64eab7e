"""Checking and publishing a release: the contract's invariants, validate's checks, and the
upload to the Hugging Face hub.

- `aids_check`: `validate`'s checks of the release's browsing aids: `lm_eval/` and `explorer/` ...
- `export_check`: The released exports cross-checked against the Parquet shards, field by field
- `invariants`: The dataset contract's invariants as pure checks (`docs/dataset-contract.md`)
- `upload`: Preparing a released dataset folder for the Hugging Face hub, and uploading it
- `validation`: Checking a released folder against docs/dataset-contract.md (`validate`)
"""

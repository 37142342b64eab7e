"""Ingestion (paper Figure 2, "read"): input patterns, layouts and their readers -> Articles.

- `inputs`: the file list a run reads, fixed by pre-flight (`listing`: the job reads it);
  `specs`: per-input publisher, origin and column names; `parts`: pieces of large files;
- `readers` (rc-data stories, JSON lines, CSV, Parquet), `arrow` (Hugging Face `datasets`),
  `plaintext`, `web`, `warc`: one layout each;
- `text`: bytes to clean text; `articles`: the record handed to curation;
- `read`: the `ReadArticles` Beam transform that runs them.
"""

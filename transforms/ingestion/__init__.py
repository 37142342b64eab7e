"""Ingestion (paper Figure 2, "read"): input patterns, layouts and their readers -> Articles.

- `inputs`: the file list a run reads, fixed by pre-flight (`listing`: the job reads it);
  `specs`: per-input publisher, origin and column names; `parts`: pieces of large files;
- `layout`: what an input layout is (`Layout`); `registry`: the layouts, one module each
  under `layouts/` (rc-data stories, JSON lines, CSV, TSV, Parquet, Arrow/`datasets`, web
  pages, WARC, title-first text);
- the parsers the layouts call: `readers` (stories, records), `arrow` (`datasets`
  folders), `plaintext`, `web`, `warc`; `estimate`: record counts for progress;
- `text`: bytes to clean text; `articles`: the record handed to curation;
- `read`: the `ReadArticles` Beam transform that runs them.
"""

"""Parsers shared by the input layouts (`layouts/`). Pure functions: bytes or records in,
`Article`s or rejected rows out. They never raise on bad input; they say why it was rejected.

- DeepMind rc-data `.story`: paragraphs separated by blank lines, then `@highlight` blocks.
- Records (JSON lines, CSV rows, Parquet and Arrow rows): `id`, `article` (or `text`),
  `highlights` (list of strings, or one per line), optional `source`, `url`, `origin`,
  `title`, `date`. The Hugging Face `cnn_dailymail` layout is the same with `highlights` as
  one string. Other column names: an input's mapping (`specs.py`).
- Web pages (`.html`), WARC archives and title-first `.txt` files: `web.py`, `warc.py`,
  `plaintext.py`.
Text is cleaned of control characters and its line endings normalised before paragraphs
are split (`text.py`); `counter`, when given, counts the characters removed.
"""
import collections
import csv
import hashlib
import io
import json
import posixpath
from typing import Iterable, Iterator, Optional, Union

from transforms.core import safejson
from transforms.core.rules import Reject, first_rejection, rejected_row
from transforms.ingestion import STAGE
from transforms.ingestion.articles import Article
from transforms.ingestion.layout import strip_compression
from transforms.ingestion.record_rules import (
    FIELD_RULES,
    RECORD_RULES,
    Where,
    body_field,
    highlights_field,
)
from transforms.ingestion.specs import (
    InputSpec,
    column_for,
    columns_problem,
    unknown_columns,
)
from transforms.ingestion.streams import RecordRefused, guarded_rows
from transforms.ingestion.text import clean_field, clean_prose, decode, normalise_text

Parsed = Union[Article, dict]  # an Article, or a rejected row


def file_type(path: str) -> str:
    """The name of a file's layout, or '' when unknown (`registry.file_type`)."""
    from transforms.ingestion.registry import file_type as layout_name
    return layout_name(path)


def article_id_from_path(path: str) -> str:
    """rc-data names each story by the SHA-1 of its URL: keep that id."""
    name = strip_compression(posixpath.basename(path))
    return name[: -len(".story")] if name.endswith(".story") else name


def source_from_path(path: str) -> Optional[str]:
    """The publisher an rc-data folder names (`cnn/stories/`, `dailymail/stories/`)."""
    folders = [p.lower() for p in path.replace("\\", "/").split("/")[:-1]]
    for folder in reversed(folders):
        if "dailymail" in folder or "daily_mail" in folder:
            return "dailymail"
        if "cnn" in folder:
            return "cnn"
    return None


def url_hash(url: str) -> str:
    """The rc-data story id of a URL (SHA-1 hex of the URL)."""
    return hashlib.sha1(url.encode("utf-8")).hexdigest()


def split_story(text: str) -> tuple:
    """Split an rc-data story into (paragraphs, highlights); line endings are normalised."""
    text = normalise_text(text)[0] if "\r" in text else text
    blocks = [b.strip() for b in text.split("\n\n")]
    paragraphs, highlights, in_highlight = [], [], False
    for block in blocks:
        if not block:
            continue
        if block.startswith("@highlight"):
            in_highlight = True
            rest = block[len("@highlight"):].strip()
            if rest:
                highlights.append(rest)
            continue
        if in_highlight:
            highlights.append(block)
            in_highlight = False
        else:
            paragraphs.append(block)
    return tuple(paragraphs), tuple(highlights)


def parse_story(data: bytes, path: str, origin: str,
                counter: Optional[collections.Counter] = None) -> Parsed:
    text, _, rejected = decode(data, path, STAGE, counter if counter is not None
                               else collections.Counter())
    if rejected:
        rejected["article_id"] = article_id_from_path(path)
        return rejected
    paragraphs, highlights = split_story(text)
    return Article(article_id=article_id_from_path(path), paragraphs=paragraphs,
                   highlights=highlights, source=source_from_path(path), url=None,
                   origin=origin, source_file=path)


def _id_field(value) -> Optional[str]:
    """Ids are kept as given, numbers included (0 is an id); '' means absent."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float, str)):
        return str(value).strip() or None
    return None


def article_from_record(record: dict, path: str, origin: str, where: str,
                        counter: Optional[collections.Counter] = None) -> Parsed:
    """One JSON/CSV/Parquet record to an Article, or a rejected row naming the first record
    rule it fails (`record_rules.RECORD_RULES`, then `FIELD_RULES` once its id is known)."""
    why = first_rejection(RECORD_RULES, record, Where(where))
    if why is not None:
        return _rejected(why, path)
    removed = 0
    url, n = clean_field(record.get("url") if isinstance(record.get("url"), str) else None)
    removed += n
    article_id = _id_field(record.get("id"))
    if article_id is not None:
        article_id, n = clean_field(article_id)
        removed += n
    article_id = article_id or (url_hash(url) if url else None)
    why = first_rejection(FIELD_RULES, record, Where(where, article_id))
    if why is not None:
        return _rejected(why, path, article_id)
    if counter is not None and removed:
        counter["control_chars_removed"] += removed
    body = clean_prose(body_field(record), counter)
    cleaned = [clean_prose(h, counter) for h in highlights_field(record["highlights"])]
    paragraphs, _ = split_story(body)
    source = record.get("source") if isinstance(record.get("source"), str) else None
    given_origin = record.get("origin") if isinstance(record.get("origin"), str) else None
    return Article(article_id=article_id, paragraphs=paragraphs,
                   highlights=tuple(h for h in cleaned if h),
                   source=(source or None), url=url or None,
                   origin=given_origin or origin, source_file=path)


def _rejected(why: Reject, path: str, article_id: Optional[str] = None) -> dict:
    return rejected_row(STAGE, why.reason, article_id=article_id, source_file=path,
                        detail=why.detail)


def parse_json_line(raw: bytes, path: str, origin: str, where: str,
                    counter: Optional[collections.Counter] = None,
                    mapping: Optional[InputSpec] = None) -> Optional[Parsed]:
    """One line of a JSON-lines file (None for a blank line)."""
    if not raw.strip():
        return None
    try:
        record = safejson.loads(raw)
    except safejson.JSONTooDeep as err:
        return rejected_row(STAGE, "json_too_deep", source_file=path, detail=f"{where}: {err}")
    except UnicodeDecodeError as err:
        return rejected_row(STAGE, "invalid_utf8", source_file=path,
                            detail=f"{where}: byte {err.start}: {err.reason}")
    except json.JSONDecodeError as err:
        return rejected_row(STAGE, "broken_json_line", source_file=path, detail=f"{where}: {err}")
    return article_from_mapped(record, path, origin, where, counter, mapping)


def parse_jsonl(lines: Iterable[bytes], path: str, origin: str,
                counter: Optional[collections.Counter] = None,
                mapping: Optional[InputSpec] = None) -> Iterator[Parsed]:
    for number, raw in enumerate(lines, start=1):
        parsed = parse_json_line(raw, path, origin, f"line {number}", counter, mapping)
        if parsed is not None:
            yield parsed


def parse_csv(stream: io.TextIOBase, path: str, origin: str,
              counter: Optional[collections.Counter] = None,
              mapping: Optional[InputSpec] = None, dialect: str = "excel",
              missing_reason: str = "csv_missing_columns") -> Iterator[Parsed]:
    """Rows of a delimited text file with a header (`dialect`: the csv module's, e.g.
    `excel-tab` for TSV); a header without the needed columns is one `missing_reason` row."""
    csv.field_size_limit(1 << 30)
    reader = csv.DictReader(stream, dialect=dialect)
    problem = columns_problem(reader.fieldnames, mapping, missing_reason)
    if problem:
        yield rejected_row(STAGE, problem[0], source_file=path, detail=problem[1])
        return
    for number, record in enumerate(guarded_rows(reader, stream), start=2):
        if isinstance(record, RecordRefused):
            yield rejected_row(STAGE, record.reason, source_file=path,
                               detail=f"row {number}: {record.detail}")
            continue
        yield article_from_mapped(record, path, origin, f"row {number}", counter, mapping)


def parse_parquet(batches, path: str, origin: str, first_row: int = 0,
                  counter: Optional[collections.Counter] = None,
                  mapping: Optional[InputSpec] = None,
                  limit: Optional[int] = None) -> Iterator[Parsed]:
    """Rows of Parquet/Arrow record batches; a row holding more than `limit` bytes is
    rejected `record_too_large`, as its JSON line would be."""
    from transforms.ingestion.limits import row_sizes
    from transforms.ingestion.streams import too_large_detail
    row = first_row
    for batch in batches:
        if row == first_row and mapping and mapping.columns:   # the schema's columns
            problem = unknown_columns(mapping.columns, batch.schema.names)
            if problem:
                yield rejected_row(STAGE, "unknown_column", source_file=path, detail=problem)
                return
        sizes = row_sizes(batch) if limit else [0] * batch.num_rows
        big = [n > limit for n in sizes] if limit else [False] * batch.num_rows
        if any(big):
            import pyarrow as pa
            batch = batch.filter(pa.array([not b for b in big]))
        records = iter(batch.to_pylist())
        for size, too_big in zip(sizes, big):
            row += 1
            if too_big:
                yield rejected_row(STAGE, "record_too_large", source_file=path,
                                   detail=too_large_detail(f"row {row}", size, limit))
                continue
            yield article_from_mapped(next(records), path, origin, f"row {row}", counter,
                                      mapping)


# -- per-input settings: column names, publisher (specs.py) ---------------------------------

def _renamed(record: dict, columns: tuple) -> dict:
    """The record under the names `article_from_record` reads."""
    out = {k: record[k] for k in ("source", "origin") if k in record}
    for field, name in (("id", "id"), ("text", "article"), ("summary", "highlights"),
                        ("url", "url")):
        column = column_for(columns, field, record)
        if column is not None and column in record:
            out[name] = record[column]
    return out


def article_from_mapped(record, path: str, origin: str, where: str,
                        counter: Optional[collections.Counter] = None,
                        mapping: Optional[InputSpec] = None) -> Parsed:
    """`article_from_record` under an input's column names, with its publisher (a record's
    own `source` wins) and the title and date columns where present."""
    columns = mapping.columns if mapping else ()
    if not isinstance(record, dict):
        return article_from_record(record, path, origin, where, counter)
    missing = [(f, c) for f, c in columns if c not in record]
    if missing:
        field, column = missing[0]
        return rejected_row(STAGE, f"missing_field:{field}", source_file=path,
                            detail=f"{where}: no column {column!r} (given for {field}); the "
                                   f"record's columns: {', '.join(map(str, record))}")
    article = article_from_record(_renamed(record, columns) if columns else record, path,
                                  origin, where, counter)
    if not isinstance(article, Article):
        return article
    extra = {}
    for field in ("title", "date"):
        column = column_for(columns, field, record)
        value = record.get(column) if column else None
        if isinstance(value, str) and value.strip():
            extra[field] = clean_field(value.strip())[0]
        elif value is not None and not isinstance(value, str) and field == "date":
            extra[field] = str(value)     # a timestamp column (Parquet, Arrow)
    if mapping and mapping.source and not article.source:
        extra["source"] = mapping.source
    return article.with_(**extra) if extra else article

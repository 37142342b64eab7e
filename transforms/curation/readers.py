"""Parsers for the input layouts. Pure functions: bytes or records in, `Article`s or
rejected rows out. They never raise on bad input; they say why it was rejected.

Layouts:
- DeepMind rc-data `.story`: paragraphs separated by blank lines, then `@highlight` blocks.
- JSON lines: `id`, `article` (or `text`), `highlights` (list, or one per line), optional
  `source`, `url`, `origin`. The Hugging Face `cnn_dailymail` layout is the same with
  `highlights` as one string; it is read from `.jsonl`, `.csv` or `.parquet`.
"""
import csv
import hashlib
import io
import json
import posixpath
from typing import Iterable, Iterator, Union

from transforms.curation.articles import Article
from transforms.core.schema import rejected_row

STAGE = "read"
KNOWN_TYPES = ("story", "jsonl", "json", "csv", "parquet")
COMPRESSIONS = (".gz", ".bz2", ".xz", ".zst")

Parsed = Union[Article, dict]  # an Article, or a rejected row


def file_type(path: str) -> str:
    """`story`, `jsonl`, `csv`, `parquet`, or '' for an unknown type (compression ignored)."""
    name = posixpath.basename(path).lower()
    for ext in COMPRESSIONS:
        if name.endswith(ext):
            name = name[: -len(ext)]
    ext = name.rsplit(".", 1)[-1] if "." in name else ""
    if ext in ("json", "jsonl", "ndjson"):
        return "jsonl"
    return ext if ext in KNOWN_TYPES else ""


def article_id_from_path(path: str) -> str:
    """rc-data names each story by the SHA-1 of its URL: keep that id."""
    name = posixpath.basename(path)
    for ext in COMPRESSIONS:
        if name.endswith(ext):
            name = name[: -len(ext)]
    return name[: -len(".story")] if name.endswith(".story") else name


def url_hash(url: str) -> str:
    """The rc-data story id of a URL (SHA-1 hex of the URL)."""
    return hashlib.sha1(url.encode("utf-8")).hexdigest()


def decode_text(data: bytes, path: str):
    """UTF-8 text, or a rejected row saying why the bytes are not text."""
    if b"\x00" in data[:8192]:
        return None, rejected_row(STAGE, "binary_file", source_file=path,
                                  detail="NUL bytes: not a text file")
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as err:
        return None, rejected_row(STAGE, "invalid_utf8", source_file=path,
                                  detail=f"byte {err.start}: {err.reason}")


def split_story(text: str) -> tuple:
    """Split an rc-data story into (paragraphs, highlights)."""
    blocks = [b.strip() for b in text.replace("\r\n", "\n").split("\n\n")]
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


def parse_story(data: bytes, path: str, origin: str) -> Parsed:
    text, rejected = decode_text(data, path)
    if rejected:
        rejected["article_id"] = article_id_from_path(path)
        return rejected
    paragraphs, highlights = split_story(text)
    return Article(article_id=article_id_from_path(path), paragraphs=paragraphs,
                   highlights=highlights, source=None, url=None, origin=origin,
                   source_file=path)


def _highlights_field(value):
    if isinstance(value, str):
        return tuple(h.strip() for h in value.split("\n") if h.strip())
    if isinstance(value, (list, tuple)):
        return tuple(str(h).strip() for h in value if h is not None and str(h).strip())
    return None


def article_from_record(record: dict, path: str, origin: str, where: str) -> Parsed:
    """One JSON/CSV/Parquet record to an Article, or a rejected row naming what is missing."""
    if not isinstance(record, dict):
        return rejected_row(STAGE, "record_not_an_object", source_file=path, detail=where)
    body = record.get("article")
    if body is None:
        body = record.get("text")
    url = record.get("url") or None
    article_id = record.get("id") or (url_hash(url) if url else None)
    if article_id is None:
        return rejected_row(STAGE, "missing_field:id", source_file=path,
                            detail=f"{where}: needs `id` (or `url`)")
    article_id = str(article_id)
    if body is None:
        return rejected_row(STAGE, "missing_field:article", article_id=article_id,
                            source_file=path, detail=f"{where}: needs `article` or `text`")
    if not isinstance(body, str):
        return rejected_row(STAGE, "bad_field:article", article_id=article_id,
                            source_file=path, detail=f"{where}: `article` is not a string")
    if "highlights" not in record:
        return rejected_row(STAGE, "missing_field:highlights", article_id=article_id,
                            source_file=path, detail=where)
    highlights = _highlights_field(record["highlights"])
    if highlights is None:
        return rejected_row(STAGE, "bad_field:highlights", article_id=article_id,
                            source_file=path, detail=f"{where}: not a list or string")
    paragraphs, _ = split_story(body)
    return Article(article_id=article_id, paragraphs=paragraphs, highlights=highlights,
                   source=(record.get("source") or None), url=url,
                   origin=str(record.get("origin") or origin), source_file=path)


def parse_jsonl(lines: Iterable[bytes], path: str, origin: str) -> Iterator[Parsed]:
    for number, raw in enumerate(lines, start=1):
        where = f"line {number}"
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            yield rejected_row(STAGE, "broken_json_line", source_file=path,
                               detail=f"{where}: {err}")
            continue
        yield article_from_record(record, path, origin, where)


CSV_REQUIRED = {"article", "highlights"}


def parse_csv(stream: io.TextIOBase, path: str, origin: str) -> Iterator[Parsed]:
    csv.field_size_limit(1 << 30)
    reader = csv.DictReader(stream)
    columns = set(reader.fieldnames or [])
    missing = sorted(CSV_REQUIRED - columns) + ([] if {"id", "url"} & columns else ["id"])
    if missing:
        yield rejected_row(STAGE, "csv_missing_columns", source_file=path,
                           detail=f"missing {missing}; found {sorted(columns)}")
        return
    for number, record in enumerate(reader, start=2):
        yield article_from_record(record, path, origin, f"row {number}")


def parse_parquet(batches, path: str, origin: str) -> Iterator[Parsed]:
    row = 0
    for batch in batches:
        for record in batch.to_pylist():
            row += 1
            yield article_from_record(record, path, origin, f"row {row}")

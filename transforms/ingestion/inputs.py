"""The corpus a run reads, listed before any pipeline starts (pre-flight).

- every `--input` pattern must match files: a pattern that matches nothing, or names a
  folder, is refused with a hint; files no reader knows are refused when nothing else
  matched, and counted (they become `unknown_file_type` rows) otherwise;
- the total of records to expect, for progress (exact for one-article files and Parquet,
  estimated from the bytes for large JSON-lines/CSV files);
- `--limit N`: the first N records, in sorted file order, as (path, origin, size, cap).
"""
import io
import logging
import os
from dataclasses import dataclass
from typing import NamedTuple, Optional

import fsspec

from transforms.core import io_utils
from transforms.core.config import setting
from transforms.core.preflight import InputError, check_remote
from transforms.ingestion.readers import file_type, is_compressed

log = logging.getLogger("inputs")
ONE_PER_FILE = ("story", "html", "txt")
CRAWLED_KINDS = {"html": "crawled", "warc": "crawled"}
_SAMPLE = 1 << 20


@dataclass(frozen=True)
class ReadConfig:
    part_mb: int = setting(64, "large uncompressed JSONL/CSV/Parquet files are read in "
                               "parts of about this many MB, on several workers")
    allow_no_highlights: bool = setting(
        False, "keep web pages and .txt articles without highlight bullets (the passage is "
               "then the lead alone; ReCoRD's passages always have highlights)")
    limit: Optional[int] = setting(None, "read only the first N records (sorted file "
                                         "order): smoke runs")
    max_record_mb: float = setting(
        16.0, "a JSON line, CSV record or one-article file larger than this is rejected as "
            "record_too_large while it is read (never held in memory)")


class Listed(NamedTuple):
    pattern: str
    origin: str
    files: tuple        # ((path, size), ...)


def default_origin(path: str, origin: str) -> str:
    """The origin of a file: as given, else `crawled` for web pages and archives."""
    return origin or CRAWLED_KINDS.get(file_type(path), "public")


def _is_dir(pattern: str) -> bool:
    fs, path = fsspec.core.url_to_fs(pattern)
    try:
        return fs.isdir(path)
    except Exception:  # noqa: BLE001
        return False


def list_inputs(inputs) -> list:
    """[Listed] for every (pattern, origin), or InputError with one line."""
    listed = []
    for pattern, origin in inputs:
        check_remote(pattern)
        if _is_dir(pattern):
            raise InputError(f"--input {pattern} is a folder: add a glob, e.g. "
                             f"{pattern.rstrip('/')}/*.story or {pattern.rstrip('/')}/**/*.jsonl")
        try:
            files = io_utils.glob_sizes(pattern)
        except Exception as err:  # noqa: BLE001 - a bad pattern is bad input
            raise InputError(f"--input {pattern}: {type(err).__name__}: {err}") from None
        if not files:
            raise InputError(f"--input {pattern} matches no file")
        listed.append(Listed(pattern, origin, tuple(files)))
    unknown = [p for item in listed for p, _ in item.files if not file_type(p)]
    known = sum(len(item.files) for item in listed) - len(unknown)
    if unknown and not known:
        exts = sorted({os.path.splitext(p)[1] or os.path.basename(p) for p in unknown})
        raise InputError(f"no input file has a layout this job reads ({', '.join(exts)}); "
                         "expected .story, .jsonl/.json, .csv, .parquet, .html, .warc or "
                         ".txt (optionally .gz)")
    if unknown:
        log.warning("%d input file(s) of unknown type will be rejected as unknown_file_type "
                    "(e.g. %s)", len(unknown), unknown[0])
    return listed


def _estimate(path: str, size: int, kind: str):
    """(records, exact) of one file."""
    if kind in ONE_PER_FILE:
        return 1, True
    try:
        if kind == "parquet":
            import pyarrow.parquet as pq
            with fsspec.open(path, "rb") as f:
                return pq.ParquetFile(f).metadata.num_rows, True
        if kind in ("jsonl", "csv") and not is_compressed(path):
            with fsspec.open(path, "rb") as f:
                head = f.read(_SAMPLE)
            lines = head.count(b"\n") or 1
            if len(head) >= size:
                return lines - (kind == "csv"), True
            return int(size * lines / len(head)), False
    except Exception:  # noqa: BLE001 - the job reports unreadable files
        pass
    return 0, False


def estimate_records(listed) -> tuple:
    """(records expected, exact?) over every listed file (progress only)."""
    total, exact = 0, True
    for item in listed:
        for path, size in item.files:
            n, ok = _estimate(path, size, file_type(path))
            total += n
            exact &= ok
    return total, exact


def _count_records(path: str, kind: str, need: int) -> int:
    """Records of a file, counting at most `need` (for --limit)."""
    if kind in ONE_PER_FILE:
        return 1
    with fsspec.open(path, "rb", compression="infer") as f:
        if kind == "parquet":
            import pyarrow.parquet as pq
            return pq.ParquetFile(f).metadata.num_rows
        if kind == "csv":
            import csv
            csv.field_size_limit(1 << 30)
            rows = csv.reader(io.TextIOWrapper(f, encoding="utf-8-sig", newline=""))
            next(rows, None)
            return sum(1 for _, _ in zip(range(need), rows))
        if kind == "jsonl":
            return sum(1 for _, line in zip(range(need), (l for l in f if l.strip())))
    return need   # WARC and the like: read up to the cap


def limit_files(listed, limit: int) -> list:
    """[(path, origin, size, cap)] covering the first `limit` records in sorted order."""
    out, left = [], limit
    files = sorted({(path, size, item.origin) for item in listed for path, size in item.files})
    for path, size, origin in files:
        if left <= 0:
            break
        kind = file_type(path)
        if not kind:
            continue
        try:
            n = _count_records(path, kind, left)
        except Exception:  # noqa: BLE001 - the job reports why it cannot be read
            n = 1
        cap = left if n >= left and kind not in ONE_PER_FILE else None
        out.append((path, default_origin(path, origin), size, cap))
        left -= max(1, min(n, left))
    return out

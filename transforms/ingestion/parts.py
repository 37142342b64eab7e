"""Parts of an input file that different workers can read (issue: scale-out).

Small files and compressed files are one part. Large uncompressed files are cut so that one
JSON-lines / CSV / Parquet file of millions of rows is parsed on many workers:
- JSON lines: byte ranges; a line belongs to the range holding its first byte;
- CSV: byte ranges cut where the csv module starts a record, found by one pass of the csv
  module over the file (quoted fields may hold newlines, unquoted ones bare quotes): each
  part parses to the rows the whole file gives; a file it cannot read is one part;
- Parquet: runs of row groups.
"""
import csv
from typing import Iterator, NamedTuple, Optional

import fsspec

from transforms.ingestion.readers import file_type, is_compressed

_SCAN_CHUNK = 8 << 20


class Part(NamedTuple):
    path: str
    origin: str
    kind: str
    size: int
    index: int             # part number within the file
    count: int             # parts of the file
    start: int             # bytes (JSONL, CSV) or row groups (Parquet); 0 for whole files
    end: Optional[int]     # exclusive; None: to the end
    cap: Optional[int]     # read at most this many records (--limit), None: all
    source: str = ""       # the input's publisher and column names (specs.py)
    columns: tuple = ()


def whole(path, origin, kind, size, cap=None, source="", columns=()) -> Part:
    return Part(path, origin, kind, size, 0, 1, 0, None, cap, source, columns)


def jsonl_ranges(size: int, part_bytes: int) -> list:
    n = max(1, -(-size // part_bytes))
    step = -(-size // n)
    return [(i * step, min(size, (i + 1) * step)) for i in range(n)]


def csv_lines(f, start: int = 0) -> Iterator[tuple]:
    """(offset, line bytes) from `start`, split where `TextIOWrapper(newline="")` splits
    (after `\r\n`, `\r` or `\n`: `bytes.splitlines`), so the csv module sees the lines the
    whole-file reader sees."""
    f.seek(start)
    pos, rest = start, b""
    while True:
        chunk = f.read(_SCAN_CHUNK)
        lines = (rest + chunk).splitlines(keepends=True)
        # the last line may go on in the next chunk (or be half of a `\r\n`)
        rest = lines.pop() if chunk and lines else b""
        for line in lines:
            yield pos, line
            pos += len(line)
        if not chunk:
            return


def csv_record_ends(f) -> Iterator[int]:
    """The offset just after each record (the header first) as the csv module reads the
    file: quoted newlines, doubled quotes and bare quotes inside unquoted fields are
    followed exactly as `readers.parse_csv` follows them when it reads the whole file."""
    csv.field_size_limit(1 << 30)
    end = [0]

    def decoded():
        for offset, raw in csv_lines(f):
            end[0] = offset + len(raw)
            yield raw.decode("utf-8-sig" if offset == 0 else "utf-8")

    for _ in csv.reader(decoded()):
        yield end[0]


def csv_boundaries(f, size: int, part_bytes: int) -> list:
    """Offsets where a record starts (the first: just after the header), about
    `part_bytes` apart (see `csv_record_ends`)."""
    ends = csv_record_ends(f)
    starts = [next(ends, 0)]
    target = starts[0] + part_bytes
    for end in ends:
        if target <= end < size:
            starts.append(end)
            target = end + part_bytes
    return starts


def plan_parts(path: str, origin: str, size: int, part_bytes: int,
               cap: Optional[int] = None, source: str = "", columns: tuple = ()) -> list:
    """The parts of one file (never raises: an unreadable file is one part, read later)."""
    kind = file_type(path)
    if cap is not None or size <= part_bytes or is_compressed(path) or kind not in (
            "jsonl", "csv", "parquet"):
        return [whole(path, origin, kind, size, cap, source, columns)]
    try:
        if kind == "jsonl":
            ranges = jsonl_ranges(size, part_bytes)
        elif kind == "csv":
            with fsspec.open(path, "rb") as f:
                starts = csv_boundaries(f, size, part_bytes)
            ranges = list(zip(starts, starts[1:] + [size]))
        else:
            import pyarrow.parquet as pq
            with fsspec.open(path, "rb") as f:
                meta = pq.ParquetFile(f).metadata
            ranges, first, acc = [], 0, 0
            for g in range(meta.num_row_groups):
                acc += meta.row_group(g).total_byte_size
                if acc >= part_bytes:
                    ranges.append((first, g + 1))
                    first, acc = g + 1, 0
            if first < meta.num_row_groups or not ranges:
                ranges.append((first, meta.num_row_groups))
    except Exception:  # noqa: BLE001 - the read step reports why the file cannot be read
        return [whole(path, origin, kind, size, cap, source, columns)]
    return [Part(path, origin, kind, size, i, len(ranges), s, e, None, source, columns)
            for i, (s, e) in enumerate(ranges)]

"""Parts of an input file that different workers can read (issue: scale-out).

Small files and compressed files are one part. Large uncompressed files are cut so that one
JSON-lines / CSV / Parquet file of millions of rows is parsed on many workers:
- JSON lines: byte ranges; a line belongs to the range holding its first byte;
- CSV: byte ranges cut at record boundaries, found by one pass over the bytes that tracks
  whether a position is inside a quoted field (quoted fields may hold newlines);
- Parquet: runs of row groups.
"""
from typing import NamedTuple, Optional

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


def whole(path, origin, kind, size, cap=None) -> Part:
    return Part(path, origin, kind, size, 0, 1, 0, None, cap)


def jsonl_ranges(size: int, part_bytes: int) -> list:
    n = max(1, -(-size // part_bytes))
    step = -(-size // n)
    return [(i * step, min(size, (i + 1) * step)) for i in range(n)]


def csv_boundaries(f, size: int, part_bytes: int) -> list:
    """Offsets (after the header) where a record starts, about `part_bytes` apart."""
    f.seek(0)
    header = f.readline()
    starts, target = [len(header)], len(header) + part_bytes
    pos, odd = len(header), False   # odd: inside a quoted field
    while target < size:
        chunk = f.read(_SCAN_CHUNK)
        if not chunk:
            break
        found = None
        if pos + len(chunk) > target:
            i = max(0, target - pos)
            while True:
                nl = chunk.find(b"\n", i)
                if nl < 0:
                    break
                if not (odd ^ (chunk.count(b'"', 0, nl) % 2 == 1)) and pos + nl + 1 < size:
                    found = pos + nl + 1
                    break
                i = nl + 1
        if found is not None:
            starts.append(found)
            target = found + part_bytes
            f.seek(found)
            odd, pos = False, found
            continue
        odd ^= chunk.count(b'"') % 2 == 1
        pos += len(chunk)
    return starts


def plan_parts(path: str, origin: str, size: int, part_bytes: int,
               cap: Optional[int] = None) -> list:
    """The parts of one file (never raises: an unreadable file is one part, read later)."""
    kind = file_type(path)
    if cap is not None or size <= part_bytes or is_compressed(path) or kind not in (
            "jsonl", "csv", "parquet"):
        return [whole(path, origin, kind, size, cap)]
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
        return [whole(path, origin, kind, size, cap)]
    return [Part(path, origin, kind, size, i, len(ranges), s, e, None)
            for i, (s, e) in enumerate(ranges)]

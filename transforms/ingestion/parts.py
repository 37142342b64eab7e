"""Parts of an input file that different workers can read (issue: scale-out).

Small files and compressed files are one part. A large uncompressed file whose layout can
be split (`Layout.split`) is cut in parts of about `--part_mb`, so that one JSON-lines /
CSV / Parquet file of millions of rows is parsed on many workers (how each layout cuts:
`layouts/json_lines.py`, `layouts/csv_table.py`, `layouts/parquet_table.py`).
"""
from typing import NamedTuple, Optional

from transforms.ingestion import registry
from transforms.ingestion.layout import is_compressed


class Part(NamedTuple):
    path: str
    origin: str
    kind: str              # the layout's name (registry.by_name)
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


def plan_parts(path: str, origin: str, size: int, part_bytes: int,
               cap: Optional[int] = None, source: str = "", columns: tuple = ()) -> list:
    """The parts of one file (never raises: an unreadable file is one part, read later)."""
    layout = registry.layout_of(path)
    kind = layout.name if layout else ""
    if (cap is not None or size <= part_bytes or is_compressed(path) or layout is None
            or layout.split is None):
        return [whole(path, origin, kind, size, cap, source, columns)]
    try:
        ranges = layout.split(path, size, part_bytes)
    except Exception:  # noqa: BLE001 - the read step reports why the file cannot be read
        return [whole(path, origin, kind, size, cap, source, columns)]
    return [Part(path, origin, kind, size, i, len(ranges), s, e, None, source, columns)
            for i, (s, e) in enumerate(ranges)]

"""An input layout (issue 30 item 2): all the read stage knows about one file format.

A layout is one frozen `Layout`, declared in its own module under `layouts/` and listed
once in `registry.py`. Pre-flight (`inputs.py`: listing, column check, progress total,
`--limit`), the part planner (`parts.py`) and the reader (`read.py`) look a file's layout up
in the registry and call it; none of them names a format. The shape follows Beam's
`FileBasedSource` (read the records of a range; splittable or not; an estimate) and
DataTrove's readers (one `read_file` per format; an adapter that maps a record's columns;
a record limit).

What the read stage does for every layout, so a layout need not: open the file (fsspec,
compression inferred unless `compression=None`), read a one-record file whole up to
`--max_record_mb` (`one_per_file`), turn an exception into one `unreadable_file` /
`truncated_file` / `invalid_utf8` / `missing_file` row, apply `--limit`'s cap, reject a
short field over its size limit (`limits.py`) and count everything in the funnel.
"""
import collections
from dataclasses import dataclass
from typing import Callable, NamedTuple, Optional

from transforms.core.rules import rejected_row
from transforms.ingestion import STAGE
from transforms.ingestion.specs import InputSpec
from transforms.ingestion.streams import too_large_detail

COMPRESSIONS = (".gz", ".bz2", ".xz", ".zst")


def strip_compression(name: str) -> str:
    for ext in COMPRESSIONS:
        if name.lower().endswith(ext):
            return name[: -len(ext)]
    return name


def is_compressed(path: str) -> bool:
    return strip_compression(path) != path


class ReadContext(NamedTuple):
    """What a layout's `read` gets besides the file: the run's settings for this part."""
    limit: int                          # bytes one record may hold (--max_record_mb)
    allow_no_highlights: bool           # keep articles without highlight bullets
    counter: collections.Counter        # characters removed, by kind (funnel counts)
    mapping: Optional[InputSpec] = None  # the input's publisher and column names, if any

    def too_large(self, path: str, where: str, size: int) -> dict:
        """The `record_too_large` row of a record of `size` bytes at `where`."""
        return rejected_row(STAGE, "record_too_large", source_file=path,
                            detail=too_large_detail(where, size, self.limit))


@dataclass(frozen=True)
class Layout:
    """One input layout. `read(source, part, ctx)` yields, for one part of one file, an
    `Article` or a rejected row (`rules.rejected_row`) per record, and never raises on
    bad input; `source` is the file's bytes when `one_per_file`, else the open stream."""
    name: str                   # the kind a Part carries: 'jsonl'
    extensions: tuple           # the name endings it claims, compression aside: ('jsonl', 'json')
    read: Callable              # (source, part, ctx) -> Iterator[Article | rejected row]
    help: str                   # how messages name its files: '.jsonl/.json'
    one_per_file: bool = False  # a file is one record (a story, a page)
    origin: str = "public"      # the origin of its files when the input names none
    compression: Optional[str] = "infer"   # None: `read` gets the raw (compressed) stream
    mapped: bool = False        # records have named fields: an input's columns apply
    columns: Optional[Callable] = None     # (stream) -> the file's column names (pre-flight)
    split: Optional[Callable] = None       # (path, size, part_bytes) -> [(start, end)]
    estimate: Optional[Callable] = None    # (path, size) -> (records, exact), for progress
    sampled: bool = False       # `estimate` reads a sample: past 16 files, scale by bytes
    count: Optional[Callable] = None       # (stream, need) -> records, at most `need`
    folder: Optional[Callable] = None      # (url) -> True for a folder it reads whole
    folder_files: Optional[Callable] = None  # (url) -> [(path, size)] of such a folder

    def records(self, path: str, size: int) -> tuple:
        """(records expected, exact?) of one file, for the progress total; may raise."""
        if self.one_per_file:
            return 1, True
        return self.estimate(path, size) if self.estimate else (0, False)

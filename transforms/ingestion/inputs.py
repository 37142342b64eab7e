"""The corpus a run reads, listed before any pipeline starts (pre-flight).

- every `--input` pattern must match files: a pattern that matches nothing, or names a
  folder (other than one `datasets` wrote: its `.arrow` shards), is refused with a hint;
  files no reader knows are refused when nothing else matched, and counted (they become
  `unknown_file_type` rows) otherwise; a mapped column the first file with a header or
  schema (CSV, TSV, Parquet, Arrow) lacks is refused, naming the file's columns;
- the files, fixed here: the job reads this list (`listed_files`), never the globs again;
- the total of records to expect, for progress (exact for one-article files, Parquet and
  local Arrow files; CSV rows and JSON lines counted in the first MB, scaled for larger
  or compressed files: estimate.py);
- `--limit N`: the first N records, in sorted file order, each file with a cap.
Each file's layout (registry.py) says how to do these for its format.
"""
import logging
import os
from dataclasses import dataclass
from typing import NamedTuple, Optional

import fsspec

from transforms.core import io_utils
from transforms.core.config import setting
from transforms.core.preflight import InputError, check_remote
from transforms.ingestion import registry
from transforms.ingestion.specs import InputSpec, as_spec, unknown_columns

log = logging.getLogger("inputs")


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
        16.0, "a JSON line, CSV record, Parquet/Arrow row or one-article file larger than "
              "this is rejected as record_too_large while it is read (text files: never "
              "held in memory)")

    def __post_init__(self):
        if not 0 < self.max_record_mb < float("inf") or self.part_mb < 1:
            raise ValueError("max_record_mb must be a positive finite number and part_mb "
                             "at least 1")


class Listed(NamedTuple):
    pattern: str
    origin: str
    files: tuple        # ((path, size), ...)
    spec: Optional[InputSpec] = None


class InputFile(NamedTuple):
    """One file the job reads, with its input's settings."""
    path: str
    origin: str
    size: int
    cap: Optional[int] = None     # read at most this many records (--limit)
    source: str = ""
    columns: tuple = ()


def default_origin(path: str, origin: str) -> str:
    """The origin of a file: as given, else its layout's (`crawled` for web pages and
    archives, else `public`)."""
    layout = registry.layout_of(path)
    return origin or (layout.origin if layout else "public")


def _is_dir(pattern: str) -> bool:
    fs, path = fsspec.core.url_to_fs(pattern)
    try:
        return fs.isdir(path)
    except Exception:  # noqa: BLE001
        return False


def expand(pattern: str) -> list:
    """[(path, size)]: the files of a folder a layout reads whole (a `datasets` folder's
    shards), else the files a glob matches."""
    folder = registry.folder_layout(pattern)
    if folder:
        return folder.folder_files(pattern)
    return io_utils.glob_sizes(pattern)


def list_inputs(inputs) -> list:
    """[Listed] for every input (an InputSpec or (pattern, origin)), or InputError."""
    listed = []
    for item in inputs:
        spec = as_spec(item)
        pattern, origin = spec.pattern, spec.origin
        check_remote(pattern)
        if _is_dir(pattern) and not registry.folder_layout(pattern):
            raise InputError(f"--input {pattern} is a folder: add a glob, e.g. "
                             f"{pattern.rstrip('/')}/*.story or {pattern.rstrip('/')}/**/*.jsonl"
                             " (a folder is read as such only when `datasets` wrote it: "
                             "dataset_dict.json, state.json or dataset_info.json)")
        try:
            files = expand(pattern)
        except Exception as err:  # noqa: BLE001 - a bad pattern is bad input
            raise InputError(f"--input {pattern}: {type(err).__name__}: {err}") from None
        if not files:
            raise InputError(f"--input {pattern} matches no file")
        listed.append(Listed(pattern, origin, tuple(files), spec))
        check_columns(spec, files)
    unknown = [p for item in listed for p, _ in item.files if not registry.layout_of(p)]
    known = sum(len(item.files) for item in listed) - len(unknown)
    if unknown and not known:
        exts = sorted({os.path.splitext(p)[1] or os.path.basename(p) for p in unknown})
        raise InputError(f"no input file has a layout this job reads ({', '.join(exts)}); "
                         f"expected {registry.KINDS_HELP} (optionally .gz)")
    if unknown:
        log.warning("%d input file(s) of unknown type will be rejected as unknown_file_type "
                    "(e.g. %s)", len(unknown), unknown[0])
    return listed


def file_columns(path: str, layout) -> Optional[list]:
    """The column names of a file whose layout has columns (CSV, Parquet, Arrow), else None."""
    if not layout.columns:
        return None
    with fsspec.open(path, "rb", compression=layout.compression) as f:
        return layout.columns(f)


def check_columns(spec: InputSpec, files) -> None:
    """A mapped column the first CSV/Parquet/Arrow file of an input lacks: InputError
    naming the file's columns (every other file is checked as the job reads it)."""
    if not spec.columns:
        return
    layouts = [registry.layout_of(p) for p, _ in files]
    if not any(layout and layout.mapped for layout in layouts):
        mapped = ", ".join(layout.help for layout in registry.LAYOUTS if layout.mapped)
        raise InputError(f"--input {spec.pattern}: column names apply to {mapped} files; "
                         "this input has none")
    for (path, _), layout in zip(files, layouts):
        if not (layout and layout.columns):
            continue
        try:
            columns = file_columns(path, layout)
        except Exception:  # noqa: BLE001 - the job reports unreadable files
            return
        problem = unknown_columns(spec.columns, columns or [])
        if problem:
            raise InputError(f"--input {spec.pattern}: {problem} ({path})")
        return


def listed_files(listed) -> list:
    """[InputFile] of every listed file, input by input: what the job reads."""
    out = []
    for item in listed:
        spec = item.spec or InputSpec(item.pattern, item.origin)
        for path, size in item.files:
            out.append(InputFile(path, default_origin(path, item.origin), size, None,
                                 spec.source, spec.columns))
    return out


def _estimate(path: str, size: int, layout):
    """(records, exact) of one file."""
    if layout is None:
        return 0, False
    try:
        return layout.records(path, size)
    except Exception:  # noqa: BLE001 - the job reports unreadable files
        return 0, False


SAMPLED_FILES = 16   # JSON-lines/CSV files sampled per layout and compression; then scaled


def estimate_records(listed) -> tuple:
    """(records expected, exact?) over every listed file (progress only). Past the first
    SAMPLED_FILES files of a sampled layout (JSON lines, CSV) and compression, a file
    counts its bytes at their rate."""
    total, exact, rates = 0, True, {}
    for item in listed:
        for path, size in item.files:
            layout = registry.layout_of(path)
            key = (layout and layout.name, path.lower().rsplit(".", 1)[-1])
            rate = rates.setdefault(key, [0, 0, 0]) if layout and layout.sampled else None
            if rate and rate[0] >= SAMPLED_FILES:
                n, ok = int(size * rate[1] / max(1, rate[2])), False
            else:
                n, ok = _estimate(path, size, layout)
                if rate is not None:
                    rate[0], rate[1], rate[2] = rate[0] + 1, rate[1] + n, rate[2] + size
            total += n
            exact &= ok
    return total, exact


def _count_records(path: str, layout, need: int) -> int:
    """Records of a file, counting at most `need` (for --limit)."""
    if layout.one_per_file:
        return 1
    with fsspec.open(path, "rb", compression="infer") as f:
        # a layout that cannot count (WARC): read up to the cap
        return layout.count(f, need) if layout.count else need


def limit_files(listed, limit: int) -> list:
    """[InputFile] covering the first `limit` records in sorted order."""
    out, left = [], limit
    files = sorted({(f.path, f.size, f.origin, f.source, f.columns)
                    for f in listed_files(listed)})
    for path, size, origin, source, columns in files:
        if left <= 0:
            break
        layout = registry.layout_of(path)
        if not layout:
            continue
        try:
            n = _count_records(path, layout, left)
        except Exception:  # noqa: BLE001 - the job reports why it cannot be read
            n = 1
        cap = left if n >= left and not layout.one_per_file else None
        out.append(InputFile(path, origin, size, cap, source, columns))
        left -= max(1, min(n, left))
    return out

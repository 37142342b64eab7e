"""The file list a run reads, fixed before the job starts (issue 22 item 6).

The generate command lists every input's files in pre-flight (inputs.py), writes them to
`DIR/stats/input_files.jsonl` (one InputFile a line: path, origin, size, cap, source,
columns) and the job reads that file: globs are never expanded again inside the job, the
graph holds one path whatever the corpus size, and a listed file gone when the job reads it
is a `missing_file` row in the funnel.
"""
import json
import posixpath
from typing import Iterator, NamedTuple

import fsspec

from transforms.ingestion.inputs import InputFile

FILE = "stats/input_files.jsonl"


class Listing(NamedTuple):
    url: str       # the listing file
    count: int     # files in it


def write(files, url: str) -> Listing:
    """Write [InputFile] to `url` (JSON lines, in order); returns the Listing."""
    files = [InputFile(*f) for f in files]
    fs, path = fsspec.core.url_to_fs(url)
    fs.makedirs(posixpath.dirname(path), exist_ok=True)
    with fs.open(path, "w", encoding="utf-8") as f:
        for item in files:
            row = item._asdict()
            row["columns"] = [list(c) for c in item.columns]
            f.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
    return Listing(url, len(files))


def read(url: str) -> Iterator[InputFile]:
    """The InputFiles of a listing file, in order."""
    with fsspec.open(url, "r", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            row["columns"] = tuple(tuple(c) for c in row["columns"])
            yield InputFile(**row)

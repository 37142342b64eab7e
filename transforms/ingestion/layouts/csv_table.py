"""CSV files with a header row (the Hugging Face `cnn_dailymail` export): one record a row
(`readers.parse_csv`, under the input's column names), each bounded by the record limit
(`streams.CsvSource`).

A large uncompressed CSV is cut in byte ranges only where the csv module starts a record
when it reads the whole file: one pass of the csv module over the file finds them (quoted
fields may hold newlines, unquoted ones bare quotes), so each part parses to the rows the
whole file gives; a part re-reads the header first. A file it cannot read is one part.
"""
import csv
import io
from typing import Iterator

import fsspec

from transforms.ingestion import readers, streams
from transforms.ingestion.estimate import text_records
from transforms.ingestion.layout import Layout

_SCAN_CHUNK = 8 << 20


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


def split(path: str, size: int, part_bytes: int) -> list:
    with fsspec.open(path, "rb") as f:
        starts = csv_boundaries(f, size, part_bytes)
    return list(zip(starts, starts[1:] + [size]))


def read(f, part, ctx):
    if part.count == 1:
        yield from readers.parse_csv(streams.CsvSource(f, ctx.limit), part.path,
                                     part.origin, ctx.counter, ctx.mapping)
        return
    header_end = next(csv_record_ends(f), 0)   # the header as the csv module reads it
    f.seek(0)
    header = f.read(header_end)
    f.seek(part.start)
    body = f.read(part.end - part.start)
    source = streams.CsvSource(io.BytesIO(header + body), ctx.limit)
    for parsed in readers.parse_csv(source, part.path, part.origin, ctx.counter, ctx.mapping):
        if isinstance(parsed, dict) and parsed.get("detail", "").startswith("row "):
            parsed["detail"] = f"part {part.index} " + parsed["detail"]
        yield parsed


def _rows(f):
    csv.field_size_limit(1 << 30)
    return csv.reader(io.TextIOWrapper(f, encoding="utf-8-sig", newline=""))


def columns(f) -> list:
    """The header's column names."""
    return next(_rows(f), [])


def count(f, need: int) -> int:
    """Rows after the header, counting at most `need` (--limit)."""
    rows = _rows(f)
    next(rows, None)
    return sum(1 for _, _ in zip(range(need), rows))


def count_rows(head: bytes) -> int:
    """Rows after the header in complete text, as the csv module reads them."""
    return max(0, sum(1 for _ in csv_record_ends(io.BytesIO(head))) - 1)


def estimate(path: str, size: int) -> tuple:
    return text_records(path, size, count_rows)


LAYOUT = Layout(name="csv", extensions=("csv",), help=".csv", read=read, mapped=True,
                columns=columns, split=split, estimate=estimate, sampled=True, count=count)

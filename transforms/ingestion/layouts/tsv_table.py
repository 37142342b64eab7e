"""Tab-separated files with a header row (`.tsv`), as spreadsheets and many corpora export
them: one record a row, with CSV's fields and column mapping (`readers.parse_csv` with the
csv module's `excel-tab` dialect: a `"`-quoted field may hold tabs and newlines, so
highlights one a line fit in one cell). Each row is bounded by the record limit
(`streams.CsvSource`). A file is read whole, on one worker (no `split`).

The worked example of docs/pipeline.md, "Adding an input layout"."""
import csv
import io

from transforms.ingestion import readers, streams
from transforms.ingestion.estimate import text_records
from transforms.ingestion.layout import Layout

DIALECT = "excel-tab"


def read(f, part, ctx):
    """The rows of one file -> Articles and rejected rows (never raises on bad input)."""
    yield from readers.parse_csv(streams.CsvSource(f, ctx.limit), part.path, part.origin,
                                 ctx.counter, ctx.mapping, dialect=DIALECT,
                                 missing_reason="tsv_missing_columns")


def _rows(text_stream):
    csv.field_size_limit(1 << 30)
    return csv.reader(text_stream, dialect=DIALECT)


def columns(f) -> list:
    """The header's column names (pre-flight checks an input's mapped columns)."""
    return next(_rows(io.TextIOWrapper(f, encoding="utf-8-sig", newline="")), [])


def count(f, need: int) -> int:
    """Rows after the header, counting at most `need` (--limit)."""
    rows = _rows(io.TextIOWrapper(f, encoding="utf-8-sig", newline=""))
    next(rows, None)
    return sum(1 for _, _ in zip(range(need), rows))


def count_rows(head: bytes) -> int:
    """Rows after the header in complete text (the progress estimate's sample)."""
    text = io.StringIO(head.decode("utf-8-sig", "replace"), newline="")
    return max(0, sum(1 for _ in _rows(text)) - 1)


def estimate(path: str, size: int) -> tuple:
    return text_records(path, size, count_rows)


LAYOUT = Layout(name="tsv", extensions=("tsv",), help=".tsv", read=read, mapped=True,
                columns=columns, estimate=estimate, sampled=True, count=count)

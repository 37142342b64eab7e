"""Parquet files: one record a row (`readers.parse_parquet`, under the input's column
names; a row is measured as its JSON line would be against the record limit). A large
uncompressed file is read in runs of row groups on several workers; its row count, for
progress and `--limit`, is in its metadata."""
import fsspec

from transforms.ingestion import readers
from transforms.ingestion.layout import Layout


def read(f, part, ctx):
    import pyarrow.parquet as pq
    pf = pq.ParquetFile(f)
    groups = None if part.count == 1 else list(range(part.start, part.end))
    first = sum(pf.metadata.row_group(g).num_rows for g in range(part.start)) if groups else 0
    batches = pf.iter_batches(batch_size=256, row_groups=groups)
    yield from readers.parse_parquet(batches, part.path, part.origin, first, ctx.counter,
                                     ctx.mapping, ctx.limit)


def split(path: str, size: int, part_bytes: int) -> list:
    """[(first row group, end)] of about `part_bytes` (uncompressed) each."""
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
    return ranges


def columns(f) -> list:
    import pyarrow.parquet as pq
    return pq.ParquetFile(f).schema_arrow.names


def num_rows(f) -> int:
    import pyarrow.parquet as pq
    return pq.ParquetFile(f).metadata.num_rows


def count(f, need: int) -> int:
    return num_rows(f)      # exact, from the metadata


def estimate(path: str, size: int) -> tuple:
    with fsspec.open(path, "rb") as f:
        return num_rows(f), True


LAYOUT = Layout(name="parquet", extensions=("parquet",), help=".parquet", read=read,
                mapped=True, columns=columns, split=split, estimate=estimate, count=count)

"""Hugging Face `datasets` data: `.arrow` files (Arrow IPC streams, read a record batch at
a time) and the folders `save_to_disk` wrote, which stand for their shards (`arrow.py`).
Rows are the same records as Parquet rows (`readers.parse_parquet`)."""
from transforms.ingestion import arrow, readers
from transforms.ingestion.layout import Layout


def read(f, part, ctx):
    yield from readers.parse_parquet(arrow.record_batches(f), part.path, part.origin, 0,
                                     ctx.counter, ctx.mapping, ctx.limit)


def columns(f) -> list:
    return next(arrow.record_batches(f)).schema.names


def count(f, need: int) -> int:
    """Rows of whole record batches until `need` is reached (--limit)."""
    n = 0
    for batch in arrow.record_batches(f):
        n += batch.num_rows
        if n >= need:
            break
    return n


def estimate(path: str, size: int) -> tuple:
    n = arrow.count_rows(path)      # local files only (memory-mapped batch headers)
    return (n, True) if n is not None else (0, False)


LAYOUT = Layout(name="arrow", extensions=("arrow",), help=".arrow", read=read, mapped=True,
                columns=columns, estimate=estimate, count=count,
                folder=arrow.is_datasets_folder, folder_files=arrow.datasets_files)

"""Reading a written release's rows (the split shards of DIR/dataset), batch by batch."""
import fsspec
import pyarrow.parquet as pq

from transforms.core import io_utils
from transforms.core.constants import SPLITS


def shard_files(dataset: str) -> list:
    """The release's split shards, in split then name order."""
    out = []
    for split in SPLITS:
        out += sorted(io_utils.glob(io_utils.join(dataset, f"{split}-*.parquet")))
    return out


def iter_rows(dataset: str, columns=None):
    """Every released row (DATASET_SCHEMA), shard by shard, one row group at a time."""
    for url in shard_files(dataset):
        with fsspec.open(url, "rb") as f:
            for batch in pq.ParquetFile(f).iter_batches(batch_size=512, columns=columns):
                yield from batch.to_pylist()

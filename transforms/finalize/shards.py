"""WriteSplitShards: `<split>-SSSSS-of-NNNNN.parquet` per split, DATASET_SCHEMA, with a
shard count chosen by data volume.

Each split's rows are counted (Count.PerElement); the split gets
`ceil(rows / shard_rows)` shards (or a fixed `num_shards`); a row goes to shard
`stable_hash(id) % n`, so which shard holds a row depends only on the data. One call
receives one shard's rows (GroupByKey on (split, shard)) and streams them to Parquet in
row groups of `ROW_GROUP_ROWS`: memory is one row group, the call's input at most about
`shard_rows` rows. An empty split still gets one shard holding the schema. Row order
inside a shard is the runner's; compare shards as row sets.
"""
import math
from typing import Optional

import apache_beam as beam

from transforms.core import io_utils
from transforms.core.accounting import COUNTS, Count
from transforms.core.hashing import stable_hash
from transforms.finalize.files import open_write
from transforms.finalize.keyed import GroupStepFn
from transforms.finalize.splits import SPLITS

ROW_GROUP_ROWS = 2_000
STEP = "write"


def shard_count(rows: int, shard_rows: int, num_shards: Optional[int]) -> int:
    if num_shards:
        return num_shards
    return max(1, math.ceil(rows / shard_rows))


def shard_name(split: str, index: int, total: int) -> str:
    return f"{split}-{index:05d}-of-{total:05d}.parquet"


def shard_of(query_id: str, total: int) -> int:
    return stable_hash(query_id, salt="shard") % total


class WriteShardFn(GroupStepFn):
    """((split, shard), rows and a None seed) -> the shard file; yields (split, name, rows)."""
    step, what = STEP, "shard"

    def __init__(self, out_dir: str, shard_rows: int, num_shards: Optional[int]):
        self.out_dir, self.shard_rows, self.num_shards = out_dir, shard_rows, num_shards

    def apply(self, item, totals):
        import pyarrow as pa
        import pyarrow.parquet as pq
        from transforms.core.schema import DATASET_SCHEMA
        (split, index), rows = item
        total = shard_count(totals.get(split, 0), self.shard_rows, self.num_shards)
        url = io_utils.join(self.out_dir, shard_name(split, index, total))
        n, batch = 0, []
        with open_write(url) as f, pq.ParquetWriter(f, DATASET_SCHEMA) as writer:
            for row in rows:
                if row is None:
                    continue
                batch.append(row)
                if len(batch) >= ROW_GROUP_ROWS:
                    writer.write_table(pa.Table.from_pylist(batch, schema=DATASET_SCHEMA))
                    n += len(batch)
                    batch = []
            if batch:
                writer.write_table(pa.Table.from_pylist(batch, schema=DATASET_SCHEMA))
                n += len(batch)
        yield from self.group_size(n)
        yield Count(STEP, "in", n)
        yield Count(STEP, "out", n)
        yield self.emit((split, shard_name(split, index, total), n))


class WriteSplitShards(beam.PTransform):
    """Dataset rows -> shard files; returns {"main": (split, file name, rows), "counts"}."""

    def __init__(self, out_dir: str, shard_rows: int, num_shards: Optional[int] = None):
        super().__init__()
        self.out_dir, self.shard_rows, self.num_shards = out_dir, shard_rows, num_shards

    def expand(self, rows):
        shard_rows, num_shards = self.shard_rows, self.num_shards
        totals = beam.pvalue.AsDict(rows
                                    | "Splits" >> beam.Map(lambda r: r["split"])
                                    | "RowsPerSplit" >> beam.combiners.Count.PerElement())

        def key(row, totals):
            n = shard_count(totals.get(row["split"], 0), shard_rows, num_shards)
            return (row["split"], shard_of(row["id"], n)), row

        def seeds(split, totals):
            n = shard_count(totals.get(split, 0), shard_rows, num_shards)
            return [((split, i), None) for i in range(n)]

        keyed = rows | "KeyByShard" >> beam.Map(key, totals)
        every = (rows.pipeline
                 | "EverySplit" >> beam.Create(SPLITS)
                 | "EveryShard" >> beam.FlatMap(seeds, totals))
        written = ((keyed, every)
                   | "WithSeeds" >> beam.Flatten()
                   | "GroupShard" >> beam.GroupByKey()
                   | "WriteShard" >> beam.ParDo(
                       WriteShardFn(self.out_dir, shard_rows, num_shards), totals).with_outputs(
                       COUNTS, main="main"))
        return {"main": written.main, COUNTS: written[COUNTS]}

"""Parquet shards in a canonical order: `<group>-SSSSS-of-NNNNN.parquet`, with a shard count
chosen by data volume, byte-identical whatever the runner and its number of workers.

Each group's rows (a split's, or all rejected rows) are counted (Count.PerElement); the
group gets `ceil(rows / shard_rows)` shards (or a fixed `num_shards`); a row goes to shard
`stable_hash(key) % n`, so which shard holds a row depends only on the data. One call
receives one shard's rows (GroupByKey on (group, shard)), gathers them as Arrow record
batches, sorts them by the key columns (the query id for the dataset) and writes them in
row groups of `ROW_GROUP_ROWS`: the order and the row-group boundaries, and so the bytes,
depend only on the rows. Memory: one shard's rows as Arrow data (at most about
`shard_rows` rows). An empty group still gets one shard holding the schema.
"""
import math
from typing import Optional

import apache_beam as beam

from transforms.core import io_utils
from transforms.core.accounting import COUNTS, Count
from transforms.core.hashing import stable_hash
from transforms.finalize.exports import STEP
from transforms.finalize.exports.files import open_write
from transforms.finalize.splits.keyed import GroupStepFn
from transforms.finalize.splits.rules import SPLITS

ROW_GROUP_ROWS = 2_000


def shard_count(rows: int, shard_rows: int, num_shards: Optional[int]) -> int:
    if num_shards:
        return num_shards
    return max(1, math.ceil(rows / shard_rows))


def shard_name(split: str, index: int, total: int) -> str:
    return f"{split}-{index:05d}-of-{total:05d}.parquet"


def shard_of(query_id: str, total: int) -> int:
    return stable_hash(query_id, salt="shard") % total


def row_key(row: dict, key_columns: tuple) -> str:
    """The text a row's shard is hashed from (the query id for dataset rows)."""
    if len(key_columns) == 1:
        return str(row[key_columns[0]])
    return "\x1f".join("" if row[c] is None else str(row[c]) for c in key_columns)


def canonical_table(batches, schema, key_columns: tuple):
    """The rows of `batches` (Arrow record batches) as one table sorted by `key_columns`
    (ascending, nulls last); with keys that identify a row, a total order."""
    import pyarrow as pa
    import pyarrow.compute as pc
    table = pa.Table.from_batches(batches, schema=schema) if batches else schema.empty_table()
    if table.num_rows < 2:
        return table
    order = pc.sort_indices(table, sort_keys=[(c, "ascending") for c in key_columns])
    return table.take(order)


def write_canonical(url: str, table, schema) -> None:
    """`table` to Parquet at `url` in row groups of ROW_GROUP_ROWS rows."""
    import pyarrow.parquet as pq
    with open_write(url) as f, pq.ParquetWriter(f, schema) as writer:
        if table.num_rows == 0:
            return
        for start in range(0, table.num_rows, ROW_GROUP_ROWS):
            writer.write_table(table.slice(start, ROW_GROUP_ROWS), row_group_size=ROW_GROUP_ROWS)


class WriteShardFn(GroupStepFn):
    """((group, shard), rows and a None seed) -> the shard file, rows in key order; yields
    (group, name, rows). `account`: count the rows as the `write` step's in/out."""
    step, what = STEP, "shard"

    def __init__(self, out_dir: str, shard_rows: int, num_shards: Optional[int],
                 schema=None, key_columns: tuple = ("id",), account: bool = True):
        self.out_dir, self.shard_rows, self.num_shards = out_dir, shard_rows, num_shards
        self.schema, self.key_columns, self.account = schema, key_columns, account

    def apply(self, item, totals):
        import pyarrow as pa

        from transforms.core.schema import DATASET_SCHEMA
        schema = self.schema if self.schema is not None else DATASET_SCHEMA
        (group, index), rows = item
        total = shard_count(totals.get(group, 0), self.shard_rows, self.num_shards)
        batches, batch = [], []
        for row in rows:
            if row is None:
                continue
            batch.append(row)
            if len(batch) >= ROW_GROUP_ROWS:
                batches.append(pa.RecordBatch.from_pylist(batch, schema=schema))
                batch = []
        if batch:
            batches.append(pa.RecordBatch.from_pylist(batch, schema=schema))
        table = canonical_table(batches, schema, self.key_columns)
        name = shard_name(group, index, total)
        write_canonical(io_utils.join(self.out_dir, name), table, schema)
        n = table.num_rows
        yield from self.group_size(n)
        if self.account:
            yield Count(STEP, "in", n)
            yield Count(STEP, "out", n)
        yield self.emit((group, name, n))


class WriteSortedShards(beam.PTransform):
    """Rows -> `<group>-SSSSS-of-NNNNN.parquet` under `out_dir`, each sorted by
    `key_columns`; the group is the row's `group_column`, or `groups[0]` for every row
    without one. Every name in `groups` gets at least one file. Returns {"main": (group,
    file name, rows), "counts"}."""

    def __init__(self, out_dir: str, groups: tuple, shard_rows: int,
                 num_shards: Optional[int] = None, schema=None, key_columns: tuple = ("id",),
                 group_column: Optional[str] = None, account: bool = False):
        super().__init__()
        self.out_dir, self.groups, self.group_column = out_dir, tuple(groups), group_column
        self.shard_rows, self.num_shards = shard_rows, num_shards
        self.schema, self.key_columns, self.account = schema, tuple(key_columns), account

    def expand(self, rows):
        shard_rows, num_shards, key_columns = self.shard_rows, self.num_shards, self.key_columns
        column, only = self.group_column, self.groups[0]
        group_of = (lambda r: r[column]) if column else (lambda r: only)
        totals = beam.pvalue.AsDict(rows
                                    | "Groups" >> beam.Map(group_of)
                                    | "RowsPerGroup" >> beam.combiners.Count.PerElement())

        def key(row, totals):
            group = group_of(row)
            n = shard_count(totals.get(group, 0), shard_rows, num_shards)
            return (group, shard_of(row_key(row, key_columns), n)), row

        def seeds(group, totals):
            n = shard_count(totals.get(group, 0), shard_rows, num_shards)
            return [((group, i), None) for i in range(n)]

        keyed = rows | "KeyByShard" >> beam.Map(key, totals)
        every = (rows.pipeline
                 | "EveryGroup" >> beam.Create(self.groups)
                 | "EveryShard" >> beam.FlatMap(seeds, totals))
        written = ((keyed, every)
                   | "WithSeeds" >> beam.Flatten()
                   | "GroupShard" >> beam.GroupByKey()
                   | "WriteShard" >> beam.ParDo(
                       WriteShardFn(self.out_dir, shard_rows, num_shards, self.schema,
                                    key_columns, self.account), totals).with_outputs(
                       COUNTS, main="main"))
        return {"main": written.main, COUNTS: written[COUNTS]}


class WriteSplitShards(WriteSortedShards):
    """Dataset rows -> `<split>-SSSSS-of-NNNNN.parquet` (DATASET_SCHEMA, sorted by query
    id); counted as the `write` step. Returns {"main": (split, file name, rows), "counts"}."""

    def __init__(self, out_dir: str, shard_rows: int, num_shards: Optional[int] = None):
        super().__init__(out_dir, SPLITS, shard_rows, num_shards, schema=None,
                         key_columns=("id",), group_column="split", account=True)

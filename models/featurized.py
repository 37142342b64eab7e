"""Featurized rows as Parquet: what train_folds writes once and every fold's trainer reads.

A featurized row is one candidate query with its reader features: `id`, `article_id`,
`fold` (fold_of(article_id, k)), `error` (why it could not be featurized, else null),
`gold` (per candidate: is it the answer) and `example` (the reader's numpy arrays in one
blob: a JSON header of (name, dtype, shape) then the arrays' bytes, so any reader's arrays
keep their dtype and shape; ~20x faster to decode than `.npz`). Shards are read batch by
batch (`read_shards`), so a reader of featurized rows never holds more than one batch.
"""
import json
import math
import struct
from typing import Callable, Iterator, Optional

import fsspec
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

SCHEMA = pa.schema([
    pa.field("id", pa.string(), nullable=False),
    pa.field("article_id", pa.string(), nullable=False),
    pa.field("fold", pa.int32(), nullable=False),
    pa.field("error", pa.string(), nullable=True),
    pa.field("gold", pa.list_(pa.bool_()), nullable=True),
    pa.field("example", pa.binary(), nullable=True),
])
ROW_GROUP_ROWS = 1024
KEYS = ("id", "fold", "error", "gold")     # columns that need no decoding


def encode_example(example: dict) -> bytes:
    arrays = {k: np.ascontiguousarray(v) for k, v in example.items()}
    header = json.dumps([[k, a.dtype.str, list(a.shape)] for k, a in arrays.items()]).encode()
    return b"".join([struct.pack("<I", len(header)), header]
                    + [a.tobytes() for a in arrays.values()])


def decode_example(blob: bytes) -> dict:
    (size,) = struct.unpack_from("<I", blob)
    data = bytearray(blob)              # writable arrays (torch.as_tensor takes them as is)
    offset, out = 4 + size, {}
    for key, dtype, shape in json.loads(blob[4:4 + size]):
        dt = np.dtype(dtype)
        count = math.prod(shape)
        out[key] = np.frombuffer(data, dt, count, offset).reshape(shape)
        offset += count * dt.itemsize
    return out


def featurized_row(row: dict, fold: int, featurizer) -> dict:
    """A candidate row -> its featurized row; a row that cannot be featurized keeps its
    reason in `error` (never raises: the trainer skips it, the filter reports it)."""
    from models.features import ScoringError, correct_mask
    out = {"id": row["id"], "article_id": row["article_id"], "fold": fold, "error": None,
           "gold": None, "example": None}
    try:
        cands, example = featurizer(row)
        out["gold"] = correct_mask(row, cands)
        out["example"] = encode_example(example)
    except ScoringError as e:
        out["error"] = str(e)[:2000]
    except Exception as e:  # noqa: BLE001 - bad input gets a reason, not a crash
        out["error"] = f"{type(e).__name__}: {e}"[:2000]
    return out


def write_shard(url: str, rows: list) -> int:
    """Write rows (already in their final order) to one Parquet shard; returns rows."""
    fs, path = fsspec.core.url_to_fs(url)
    fs.makedirs(path.rsplit("/", 1)[0], exist_ok=True)
    with fs.open(path, "wb") as f, pq.ParquetWriter(f, SCHEMA) as writer:
        for i in range(0, len(rows), ROW_GROUP_ROWS):
            writer.write_table(pa.Table.from_pylist(rows[i:i + ROW_GROUP_ROWS], schema=SCHEMA))
        if not rows:
            writer.write_table(SCHEMA.empty_table())
    return len(rows)


def read_shards(shards, fold_filter: Callable, batch_rows: int, columns=None,
                decode: bool = True) -> Iterator[list]:
    """Lists of at most `batch_rows` rows (dicts; `example` decoded) from `shards` in the
    given order, rows in file order, keeping rows whose fold passes `fold_filter`
    (a function of the pyarrow `fold` column returning a boolean mask)."""
    columns = list(columns or SCHEMA.names)
    for url in shards:
        with fsspec.open(url, "rb") as f:
            for batch in pq.ParquetFile(f).iter_batches(batch_size=batch_rows,
                                                        columns=columns):
                batch = batch.filter(fold_filter(batch.column("fold")))
                if not batch.num_rows:
                    continue
                rows = batch.to_pylist()
                if decode and "example" in columns:
                    for r in rows:
                        if r["example"] is not None:
                            r["example"] = decode_example(r["example"])
                yield rows


def fold_mask(fold: int, held_out: bool) -> Callable:
    """fold_filter of the fold's held-out rows (fold == f) or training rows (fold != f)."""
    op = pc.equal if held_out else pc.not_equal
    return lambda column: op(column, pa.scalar(fold, pa.int32()))


def capped(batches: Iterator[list], cap: Optional[int]) -> Iterator[list]:
    """The first `cap` rows of a stream of row lists (all of them when cap is None)."""
    left = cap
    for rows in batches:
        if left is not None:
            if left <= 0:
                return
            rows = rows[:left]
            left -= len(rows)
        yield rows

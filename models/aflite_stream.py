"""AFLite (`models/aflite.py`) over a feature store, every iteration in one call: what the
Beam stage's one AFLite step runs (`transforms/machine_filtering/aflite.py`).

The store: Parquet shards of (query id, featurize's example as
`models.featurized.encode_example` encodes it), each sorted by id, written in parallel by
the stage (a query's shard: a hash of its id; about SHARD_ROWS queries a shard). Per
iteration, two passes over the store, one batch of BATCH_ROWS rows at a time:
1. the sample: the `train_queries` smallest sample keys among the queries still in, held
   (undecoded) in a bounded heap; the heads train on it in id order, as `run_in_memory`;
2. the scores: every query still in; its removal key goes to a histogram of at most
   (LEVELS + 1) x HASH_BINS entries, the plan (`removal_plan`) marks who goes.
Per query the call keeps four numbers in arrays per shard (removed_in, predictability,
pick, removal key), never its features, so it holds at most `train_queries` + BATCH_ROWS
featurized queries (`peak`), whatever the corpus size. Same store, same verdicts as
`run_in_memory` query by query, whatever the shard count or order.
"""
import heapq

import fsspec
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from models import aflite as A
from models.featurized import decode_example

SCHEMA = pa.schema([pa.field("id", pa.string(), nullable=False),
                    pa.field("example", pa.binary(), nullable=False)])
BATCH_ROWS = 512
SHARD_ROWS = 5_000       # queries per shard (one writer call holds one shard)
NONE = -1


def shard_of(query_id: str, shards: int) -> int:
    from transforms.core.hashing import stable_hash
    return stable_hash(query_id, salt="aflite-store") % shards


def shard_count(rows: int) -> int:
    return max(1, -(-rows // SHARD_ROWS))


def shard_name(index: int, total: int) -> str:
    return f"shard-{index:05d}-of-{total:05d}.parquet"


def write_shard(url: str, items) -> int:
    """(query id, encode_example(example)) pairs -> one shard, rows in id order."""
    items = sorted(items, key=lambda kv: kv[0])
    fs, path = fsspec.core.url_to_fs(url)
    fs.makedirs(path.rsplit("/", 1)[0], exist_ok=True)
    with fs.open(path, "wb") as f, pq.ParquetWriter(f, SCHEMA) as writer:
        for i in range(0, len(items), BATCH_ROWS):
            part = items[i:i + BATCH_ROWS]
            writer.write_table(pa.table({"id": [q for q, _ in part],
                                         "example": [b for _, b in part]},
                                        schema=SCHEMA))
        if not items:
            writer.write_table(SCHEMA.empty_table())
    return len(items)


def _batches(url: str, columns: list, rows: int):
    with fsspec.open(url, "rb") as f:
        for batch in pq.ParquetFile(f).iter_batches(batch_size=rows, columns=columns):
            yield [batch.column(c).to_pylist() for c in columns]


def _rows(url: str) -> int:
    with fsspec.open(url, "rb") as f:
        return pq.ParquetFile(f).metadata.num_rows


class _Last(str):
    """An id that sorts in reverse: the heap's top is the largest (sample key, id)."""

    def __lt__(self, other):
        return str.__gt__(self, other)

    def __gt__(self, other):
        return str.__lt__(self, other)


class Streamed:
    """AFLite over the store's `shards` (urls), read `batch_rows` rows at a time: `run()`
    -> the plans of the iterations run; then `verdicts()` -> (query id, {"removed_in",
    "p", "prediction"}) per query. `peak`: the most featurized queries held at once."""

    def __init__(self, shards: list, config: A.AfliteConfig, batch_rows: int = BATCH_ROWS):
        self.shards, self.config, self.batch_rows = list(shards), config, batch_rows
        sizes = [_rows(url) for url in self.shards]
        self.removed = [np.full(n, NONE, np.int32) for n in sizes]
        self.p = [np.full(n, np.nan) for n in sizes]
        self.pick = [np.full(n, NONE, np.int32) for n in sizes]
        self.key = [np.full(n, NONE, np.int64) for n in sizes]
        self.total, self.peak = sum(sizes), 0

    def _scan(self, columns):
        """(shard index, row offsets, columns...) of each batch of every shard."""
        for s, url in enumerate(self.shards):
            start = 0
            for cols in _batches(url, columns, self.batch_rows):
                n = len(cols[0])
                yield (s, range(start, start + n), *cols)
                start += n

    def alive(self) -> int:
        return int(sum((r == NONE).sum() for r in self.removed))

    def sample(self, it: int) -> list:
        """[(query id, example)] the heads of iteration `it` train on, in id order."""
        cfg, heap = self.config, []
        for s, rows, ids, blobs in self._scan(["id", "example"]):
            alive = self.removed[s]
            self.peak = max(self.peak, len(heap) + len(ids))
            for j, qid, blob in zip(rows, ids, blobs):
                if alive[j] != NONE:
                    continue
                item = (-A.sample_key(qid, it, cfg), _Last(qid), blob)
                if len(heap) < cfg.train_queries:
                    heapq.heappush(heap, item)
                elif item > heap[0]:
                    heapq.heapreplace(heap, item)
        return sorted(((str(q), decode_example(b)) for _, q, b in heap),
                      key=lambda qe: qe[0])

    def score(self, it: int, heads: dict, sample_ids: set) -> dict:
        """Every query still in scored by the heads; {removal key: queries}."""
        cfg, hist = self.config, {}
        for s, rows, ids, blobs in self._scan(["id", "example"]):
            removed, ps, picks, keys = self.removed[s], self.p[s], self.pick[s], self.key[s]
            for j, qid, blob in zip(rows, ids, blobs):
                if removed[j] != NONE:
                    continue
                trained = (A.head_draws(qid, it, cfg) if qid in sample_ids
                           else np.zeros(cfg.heads, bool))
                answers, chosen = A.head_answers(heads, decode_example(blob), with_picks=True)
                p = A.predictability(answers, trained)
                ps[j] = np.nan if p is None else p
                picks[j] = A.majority_pick(chosen, trained)
                keys[j] = (A.removal_key(p, qid, it, cfg)
                           if p is not None and p >= cfg.tau else NONE)
                if keys[j] != NONE:
                    hist[int(keys[j])] = hist.get(int(keys[j]), 0) + 1
            self.peak = max(self.peak, len(ids))
        return hist

    def run(self, log=None) -> list:
        cfg, plans = self.config, []
        for it in range(cfg.max_iterations):
            alive = self.alive()
            if alive == 0:
                break
            sample = self.sample(it)
            heads = A.train_heads([e for _, e in sample],
                                  np.stack([A.head_draws(q, it, cfg) for q, _ in sample]),
                                  cfg, cfg.seed * 1000 + it)
            hist = self.score(it, heads, {q for q, _ in sample})
            del sample, heads
            plan = A.removal_plan(hist, alive, self.total, cfg)
            for removed, keys in zip(self.removed, self.key):
                gone = (removed == NONE) & (keys != NONE) & (keys <= plan["threshold"])
                removed[gone] = it
            plans.append(plan)
            if log:
                log(f"AFLite iteration {it}: {alive} in, {plan['eligible']} at predictability "
                    f">= {cfg.tau}, {plan['removed']} removed")
            if plan["stop"]:
                break
        return plans

    def verdicts(self):
        for s, rows, ids in self._scan(["id"]):
            for j, qid in zip(rows, ids):
                p, removed, pick = self.p[s][j], self.removed[s][j], self.pick[s][j]
                yield qid, {"removed_in": None if removed == NONE else int(removed),
                            "p": None if np.isnan(p) else float(p),
                            "prediction": None if pick == NONE else int(pick)}

"""Training and evaluation data streamed from featurized shards, memory bounded by a
shuffle buffer (paper section 3.3: each fold's reader trains on every other fold).

Order: shards in name order, rows in file order (the writer sorts each shard by id), so
the stream depends only on the data. Each epoch re-reads the stream through a shuffle
buffer of `capacity` rows (`shuffled_batches`): while the buffer cannot take the next read,
a training batch is drawn from it at random; when the stream ends, the rows left are put
in id order and permuted. So when the buffer holds a fold's whole training set (and one
read), an epoch is exactly a random permutation of the rows in id order, as an in-memory
trainer does. Reads are small enough that every batch drawn is a full one.
Every row held (buffer, the batch drawn from it, the read that fills it) is counted by a
`Meter`, whose peak never exceeds `capacity`.
"""
import dataclasses
from typing import Callable, Iterator, Optional

import torch

from models.featurized import capped, fold_mask, read_shards
from transforms.core.procfs import rss_bytes


class Meter:
    """The most rows held at once; and the process's resident memory when counting began
    and at its highest seen while rows were held (sampled at each `hold`)."""

    def __init__(self):
        self.peak = 0
        self.rss_start = self.rss_peak = rss_bytes()

    def hold(self, n: int) -> None:
        self.peak = max(self.peak, n)
        if self.rss_peak is not None:
            self.rss_peak = max(self.rss_peak, rss_bytes() or 0)


def _draw(buffer: list, n: int, gen: torch.Generator) -> list:
    """Take `n` rows chosen at random out of `buffer` (in the order drawn)."""
    picked = torch.randperm(len(buffer), generator=gen)[:n].tolist()
    batch = [buffer[i] for i in picked]
    for i in sorted(picked, reverse=True):   # swap-remove, highest index first
        buffer[i] = buffer[-1]
        buffer.pop()
    return batch


def shuffled_batches(reads: Callable[[], Iterator[list]], capacity: int, read_rows: int,
                     batch_size: int, gen: torch.Generator, meter: Meter,
                     key: Callable = lambda r: r["id"]) -> Iterator[list]:
    """One epoch of training batches from `reads()` (lists of at most `read_rows` rows)
    through a shuffle buffer of `capacity` rows (see the module docstring)."""
    if not 0 < read_rows <= min(batch_size, capacity):
        raise ValueError(f"read_rows {read_rows} must be in 1..min(batch_size {batch_size}, "
                         f"capacity {capacity})")
    buffer = []
    for rows in reads():
        while buffer and len(buffer) + read_rows > capacity:
            batch = _draw(buffer, batch_size, gen)
            meter.hold(len(buffer) + len(batch))
            yield batch
        buffer.extend(rows)
        meter.hold(len(buffer))
    buffer.sort(key=key)
    for idx in torch.randperm(len(buffer), generator=gen).split(batch_size):
        yield [buffer[i] for i in idx]


def read_size(capacity: int, batch_size: int) -> int:
    """Rows per read: at most a batch, and small enough that the buffer holds a whole
    batch whenever it must draw one (capacity - read + 1 >= batch)."""
    return max(1, min(batch_size, capacity - batch_size + 1))


@dataclasses.dataclass
class Counts:
    """Rows of one side of a fold: read, usable, skipped (unscorable or, for training, no
    answer among the candidates)."""
    rows: int = 0
    used: int = 0
    skipped: int = 0


def usable(row: dict, require_answer: bool) -> bool:
    return row["error"] is None and (not require_answer or any(row["gold"]))


class FoldStream:
    """The training rows (fold != `fold`) or held-out rows (fold == `fold`) of featurized
    `shards`, as batches of (examples, gold masks), at most `cap` rows read."""

    def __init__(self, shards, fold: int, held_out: bool, cap: Optional[int] = None,
                 capacity: int = 10_000, meter: Optional[Meter] = None):
        self.shards, self.fold, self.held_out, self.cap = sorted(shards), fold, held_out, cap
        self.capacity = capacity
        self.meter = meter or Meter()
        self.require_answer = not held_out
        self.counts = self._count()
        self._kept = None
        self._stacked = None      # `_kept` padded once (`padded_epoch`); False: cannot

    def _rows(self, read_rows: int) -> Iterator[list]:
        """Usable rows only, in stream order, at most `cap` rows read (usable or not)."""
        raw = capped(read_shards(self.shards, fold_mask(self.fold, self.held_out),
                                 read_rows), self.cap)
        for rows in raw:
            kept = [r for r in rows if usable(r, self.require_answer)]
            if kept:
                yield kept

    def _count(self) -> Counts:
        """One pass over the light columns (no features decoded)."""
        c = Counts()
        raw = capped(read_shards(self.shards, fold_mask(self.fold, self.held_out),
                                 min(1024, self.capacity), ("id", "fold", "error", "gold"),
                                 False), self.cap)
        for rows in raw:
            self.meter.hold(len(rows))
            c.rows += len(rows)
            c.used += sum(usable(r, self.require_answer) for r in rows)
        c.skipped = c.rows - c.used
        return c

    def __len__(self) -> int:
        return self.counts.used

    @staticmethod
    def _pair(batch: list):
        return ([r["example"] for r in batch],
                [torch.tensor(r["gold"], dtype=torch.bool) for r in batch])

    def _epoch_rows(self, read_rows: int) -> Iterator[list]:
        """`_rows`, read and decoded once when the whole side fits in the buffer with a read
        to spare: an epoch then depends only on the set of rows (it is a permutation of them
        in id order), so later epochs replay the rows kept instead of reading them again.
        The rows kept are the buffer's own (never more than `capacity`)."""
        if self.counts.rows + read_rows > self.capacity:
            return self._rows(read_rows)
        if self._kept is None:
            self._kept = [r for rows in self._rows(read_rows) for r in rows]
            self.meter.hold(len(self._kept))
        kept = self._kept
        return (kept[i:i + read_rows] for i in range(0, len(kept), read_rows))

    def epoch(self, batch_size: int, gen: torch.Generator):
        """Training: one epoch of shuffled (examples, golds) batches."""
        read_rows = read_size(self.capacity, batch_size)
        for batch in shuffled_batches(lambda: self._epoch_rows(read_rows), self.capacity,
                                      read_rows, batch_size, gen, self.meter):
            yield self._pair(batch)

    def padded_epoch(self, batch_size: int, gen: torch.Generator):
        """`epoch`'s batches already padded, (batch, gold, n). Where the side is held in
        the buffer (`_epoch_rows`), its rows are stacked once (`training.Stacked`) and a
        batch is an index into them: the very tensors per-batch padding builds."""
        from models.training import Stacked, padded
        read_rows = read_size(self.capacity, batch_size)
        stacked = None
        if self.counts.rows + read_rows <= self.capacity:
            self._epoch_rows(read_rows)                    # holds the side in `_kept`
            if self._stacked is None:
                self._stacked = self._kept and Stacked.of(*self._pair(self._kept)) or False
            stacked = self._stacked or None
        if stacked is None:                   # streamed, or too large to stack
            yield from padded(self.epoch(batch_size, gen))
            return
        index = {id(r): i for i, r in enumerate(self._kept)}
        for batch in shuffled_batches(lambda: self._epoch_rows(read_rows), self.capacity,
                                      read_rows, batch_size, gen, self.meter):
            yield *stacked.take(torch.tensor([index[id(r)] for r in batch])), len(batch)

    def in_order(self, batch_size: int = 64):
        """Evaluation: (examples, golds) batches of at most `batch_size` in stream order;
        smaller ones when the buffer could not take the next read."""
        read_rows, pending = min(batch_size, self.capacity), []
        for rows in self._rows(read_rows):
            pending.extend(rows)
            self.meter.hold(len(pending))
            while len(pending) >= batch_size or (
                    pending and len(pending) + read_rows > self.capacity):
                yield self._pair(pending[:batch_size])
                pending = pending[batch_size:]
        if pending:
            yield self._pair(pending)

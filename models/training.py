"""The training loop both readers share: softmax over a query's candidates, maximising the
probability mass on the answer cluster (every correct candidate text)."""
import contextlib
import logging
import random
import time
from dataclasses import dataclass
from typing import Optional

import numpy as np
import torch
from torch.nn.utils.rnn import pad_sequence

from models.batching import (
    MASKED,
    PAD_VALUES,
    candidate_mask,
    model_device,
    pad_batch,
    score_batch,
)
from models.features import ScoringError, correct_mask

log = logging.getLogger(__name__)


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


@contextlib.contextmanager
def torch_threads(n: int):
    """Tiny models train far faster on one thread, above all on a busy machine."""
    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def cloze_loss(scores: torch.Tensor, gold: torch.Tensor, n_cand: torch.Tensor) -> torch.Tensor:
    """-log P(answer cluster) with P a softmax over the real candidates."""
    valid = candidate_mask(n_cand, scores.shape[1])
    all_lse = torch.logsumexp(scores.masked_fill(~valid, MASKED), dim=1)
    gold_lse = torch.logsumexp(scores.masked_fill(~(gold & valid), MASKED), dim=1)
    return (all_lse - gold_lse).mean()


@dataclass
class Featurized:
    """Featurized rows: examples, gold masks, candidate texts; rows that failed are counted."""
    examples: list
    gold: list
    candidates: list
    skipped: int = 0


def featurize(rows, featurizer, require_answer: bool = True) -> Featurized:
    out = Featurized([], [], [])
    for row in rows:
        try:
            cands, example = featurizer(row)
        except ScoringError:
            out.skipped += 1
            continue
        gold = torch.tensor(correct_mask(row, cands), dtype=torch.bool)
        if require_answer and not gold.any():
            out.skipped += 1
            continue
        out.examples.append(example)
        out.gold.append(gold)
        out.candidates.append(cands)
    return out


class InMemory:
    """Featurized rows held in memory as a training source: an epoch is a random
    permutation of them (`FoldStream` is the streamed source with the same interface)."""

    def __init__(self, data: Featurized):
        self.data = data
        self._stacked = None

    def padded_epoch(self, batch_size: int, gen: torch.Generator):
        """`epoch`'s batches already padded, (batch, gold, n): the rows are stacked once
        (`Stacked`), not converted and padded again every epoch."""
        d = self.data
        if self._stacked is None:
            self._stacked = Stacked.of(d.examples, d.gold) or False
        if not self._stacked:                 # too large to stack: pad per batch
            yield from padded(self.epoch(batch_size, gen))
            return
        for idx in torch.randperm(len(d.examples), generator=gen).split(batch_size):
            yield *self._stacked.take(idx), len(idx)

    def __len__(self) -> int:
        return len(self.data.examples)

    def epoch(self, batch_size: int, gen: torch.Generator):
        d = self.data
        for idx in torch.randperm(len(d.examples), generator=gen).split(batch_size):
            yield [d.examples[i] for i in idx], [d.gold[i] for i in idx]

    def in_order(self, batch_size: int = 64):
        d = self.data
        for i in range(0, len(d.examples), batch_size):
            yield d.examples[i:i + batch_size], d.gold[i:i + batch_size]


class Stacked:
    """Examples padded once to the longest ([N, L, ...] per key, with each example's
    length): a batch is an index and a trim to its longest member, the very tensors
    `pad_batch` builds from the same examples."""
    MAX_BYTES = 1 << 28                       # all keys padded; above it `of` returns None

    def __init__(self, tensors: dict, lengths: dict):
        self.tensors, self.lengths = tensors, lengths

    @classmethod
    def of(cls, examples: list, golds: list) -> Optional["Stacked"]:
        if not examples:
            return None
        cols = {k: [torch.as_tensor(e[k]) for e in examples] for k in examples[0]}
        cols[GOLD] = list(golds)
        if any(len({(t.dtype, t.shape[1:]) for t in v}) > 1 for v in cols.values()):
            return None                       # mixed dtypes or trailing shapes: per batch
        padded_bytes = sum(len(v) * max(t.numel() for t in v) * v[0].element_size()
                           for v in cols.values())
        if padded_bytes > cls.MAX_BYTES:
            return None
        return cls({k: pad_sequence(v, batch_first=True, padding_value=PAD_VALUES.get(k, 0))
                    for k, v in cols.items()},
                   {k: torch.tensor([len(t) for t in v]) for k, v in cols.items()})

    def take(self, idx: torch.Tensor) -> tuple:
        out = {k: torch.index_select(t[:, :int(self.lengths[k][idx].max())], 0, idx)
               for k, t in self.tensors.items()}
        return out, out.pop(GOLD)


GOLD = "__gold__"


def padded(batches):
    """(examples, golds) batches -> (padded batch, padded gold, n) as `pad_batch` pads."""
    for examples, golds in batches:
        yield pad_batch(examples), pad_sequence(golds, batch_first=True), len(examples)


def as_source(data):
    """A training source: `Featurized` rows, or anything with `epoch` and `in_order`."""
    return InMemory(data) if isinstance(data, Featurized) else data


def total_steps(n: int, batch_size: int, epochs: int, max_steps: Optional[int]) -> int:
    """Optimizer steps of a run over `n` rows: every epoch ends with a partial batch."""
    steps = epochs * -(-n // batch_size)
    return steps if max_steps is None else min(steps, max_steps)


def to_device(tensors: dict, device: torch.device) -> dict:
    """Host tensors onto `device`; on CUDA through pinned memory, copied asynchronously."""
    if device.type != "cuda":
        return tensors
    return {k: v.pin_memory().to(device, non_blocking=True) for k, v in tensors.items()}


def train_loop(model: torch.nn.Module, data, *, lr: float, epochs: int,
               batch_size: int, seed: int, weight_decay: float = 0.0,
               max_steps: Optional[int] = None, label: str = "training") -> dict:
    """Mini-batch AdamW over `data` (`Featurized` or a streamed source); deterministic for
    a seed on CPU. Logs progress (`Ticker`: steps, examples/s, time left). Returns the
    loss history."""
    from transforms.core.progress import Ticker
    source = as_source(data)
    device = model_device(model)
    groups = model.param_groups(lr) if hasattr(model, "param_groups") else model.parameters()
    opt = torch.optim.AdamW(groups, lr=lr, weight_decay=weight_decay)
    gen = torch.Generator().manual_seed(seed)
    n, step, epoch, losses, t0 = len(source), 0, -1, [], time.time()
    ticker = Ticker(label, total_steps(n, batch_size, epochs, max_steps), logger=log)
    model.train()
    for epoch in range(epochs if n else 0):   # no rows: the reader stays as initialised
        batches = (source.padded_epoch(batch_size, gen) if hasattr(source, "padded_epoch")
                   else padded(source.epoch(batch_size, gen)))
        for batch, gold, n_examples in batches:
            batch = to_device(batch, device)
            gold = to_device({"g": gold}, device)["g"]
            if hasattr(model, "cloze_step"):          # its gradient written out, no graph
                loss = model.cloze_step(batch, gold)
            else:
                loss = cloze_loss(model(**batch), gold, batch["n_cand"])
                opt.zero_grad()
                loss.backward()
            opt.step()
            losses.append(loss.detach())   # no host sync per step (CUDA)
            step += 1
            ticker.update(step, n_examples, lambda: f"epoch {epoch + 1}/{epochs}, loss "
                          f"{np.mean([float(x) for x in losses[-20:]]):.4f}")
            if max_steps is not None and step >= max_steps:
                break
        if max_steps is not None and step >= max_steps:
            break
    model.eval()
    losses = [float(x) for x in losses]
    return {"steps": step, "epochs_run": epoch + 1 if n else 0,
            "first_loss": losses[0] if losses else None,
            "final_loss": float(np.mean(losses[-10:])) if losses else None,
            "seconds": round(time.time() - t0, 3)}


@torch.no_grad()
def evaluate(model: torch.nn.Module, data, batch_size: int = 64) -> dict:
    """Held-out accuracy of argmax prediction, and the random-candidate baseline, over
    `data` (`Featurized` or a streamed source) batch by batch."""
    model.eval()
    device, n, hits, rand = model_device(model), 0, 0, 0.0
    for examples, golds in as_source(data).in_order(batch_size):
        for s, g in zip(score_batch(model, examples, device), golds):
            n += 1
            hits += bool(g[int(torch.argmax(s))])
            rand += float(g.float().mean())
    if not n:
        return {"n": 0, "accuracy": None, "random_baseline": None}
    return {"n": n, "accuracy": hits / n, "random_baseline": rand / n}

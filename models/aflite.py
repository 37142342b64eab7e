"""AFLite (Sakaguchi et al. 2020, Le Bras et al. 2020): adversarial filtering by
predictability instead of by one reader's answers.

Each query's candidates are described by frozen features: what the shortcut baselines see
(`models/baselines.py`: query-only and passage-only features, the most-frequent-entity
cluster, `models/hardness.py`) and the lexical reader's features (`models/features.py`).
In each iteration, `heads` linear candidate rankers are trained on random partitions of
the queries still in (each head a random `train_share` of a sample of at most
`train_queries`); a query's predictability is the share of the heads that did not train on
it that answer it. The most predictable queries (at least `remove_share` of the candidates,
all with predictability >= `tau`) are removed, and the next iteration retrains on the
rest; it stops when fewer than that many reach `tau`, or when `min_keep_share` of the
candidates is left. A shortcut the first heads find is removed, and so is its mirror
image once the remaining queries make it learnable (the lexical k-fold filter leaves
"never the most frequent entity" behind; these heads learn it and remove it).

Pure functions, shared by the Beam stage (`transforms/machine_filtering/aflite_stage.py`)
and the in-memory reference `run_in_memory` (tests and the benchmark check they agree).
"""
import math
import warnings
from dataclasses import dataclass

import numpy as np

from models import hardness as H
from models.baselines import passage_only_features, query_only_features
from models.features import LexicalFeatureConfig, answer_texts, lexical_features

N_BUCKETS = 4096
LEVELS = 1000            # predictability quantised to 1/1000 for the removal histogram
HASH_BINS = 64           # ties within a level broken by query-id hash bins
MASKED = -1e4


@dataclass(frozen=True)
class AfliteConfig:
    heads: int = 32
    train_share: float = 0.5
    train_queries: int = 20_000
    tau: float = 0.75
    remove_share: float = 0.05
    min_keep_share: float = 0.25
    max_iterations: int = 20
    min_queries: int = 100      # fewer candidates: heads of a handful of queries prove nothing
    epochs: int = 40
    lr: float = 0.1
    weight_decay: float = 1e-3
    seed: int = 13


# ------------------------------------------------------------------ features
def most_frequent_features(row: dict, cands: list) -> list:
    """Per candidate: in the most frequent cluster, is the most-frequent baseline's
    prediction, 1/(1 + cluster rank by mentions), log cluster mentions, in the 2nd."""
    clusters = H.alias_clusters(cands)
    ranked = sorted(clusters, key=lambda g: (-H.mentions(g), g[0].mentions[0][0]))
    rank = {c.text: (i, H.mentions(g)) for i, g in enumerate(ranked) for c in g}
    top = max(ranked[0], key=lambda c: (len(c.mentions), -c.mentions[0][0])).text
    return [[float(rank[c.text][0] == 0), float(c.text == top), 1.0 / (1 + rank[c.text][0]),
             math.log1p(rank[c.text][1]), float(rank[c.text][0] == 1)] for c in cands]


def featurize(row: dict) -> tuple:
    """(candidates, {"dense": [n, D] float32, "sparse": [n, S] int64, "gold": [n] bool}).
    Raises ScoringError (a ValueError) for a query no reader can score."""
    cands, dense, sparse = lexical_features(row, LexicalFeatureConfig(n_buckets=N_BUCKETS))
    _, qo = query_only_features(row)
    _, po = passage_only_features(row)
    d = np.concatenate([np.asarray(dense, np.float32), qo["dense"], po["dense"],
                        np.asarray(most_frequent_features(row, cands), np.float32)], 1)
    s = np.concatenate([np.asarray(sparse, np.int64), qo["sparse"], po["sparse"]], 1)
    gold = np.asarray([c.text in answer_texts(row) for c in cands], bool)
    return cands, {"dense": d, "sparse": s, "gold": gold}


# ------------------------------------------------------------------ partitions
def head_draws(query_id: str, iteration: int, config: AfliteConfig) -> np.ndarray:
    """[heads] bool: which heads of `iteration` may train on the query (a seeded draw
    from the query id, so any worker draws the same)."""
    from transforms.core.hashing import stable_hash
    seed = stable_hash(query_id, salt=f"aflite-{config.seed}-{iteration}")
    return np.random.default_rng(seed).random(config.heads) < config.train_share


def sample_key(query_id: str, iteration: int, config: AfliteConfig) -> int:
    """The trainers' sample of an iteration: the `train_queries` smallest keys."""
    from transforms.core.hashing import stable_hash
    return stable_hash(query_id, salt=f"aflite-sample-{config.seed}-{iteration}")


# ------------------------------------------------------------------ heads
def train_heads(examples: list, masks: np.ndarray, config: AfliteConfig, seed: int) -> dict:
    """Train config.heads linear rankers at once on `examples` (featurize's dicts, in a
    fixed order); head j trains on the examples where masks[:, j]. Full-batch AdamW on
    standardised dense features plus hashed sparse weights (a sparse count matrix times
    the bucket weights), the softmax loss's gradient written out (`_gradients`) rather
    than traced by autograd; one CPU thread, so the same inputs give the same bytes.
    Returns numpy weights and the standardisation."""
    import torch

    from models.training import torch_threads
    m = config.heads
    usable = [i for i, e in enumerate(examples) if e["gold"].any()]
    if not usable:
        dim = examples[0]["dense"].shape[1] if examples else 0
        return {"mean": np.zeros(dim, np.float32), "std": np.ones(dim, np.float32),
                "w": np.zeros((m, dim), np.float32), "e": np.zeros((m, N_BUCKETS), np.float32)}
    ex = [examples[i] for i in usable]
    dense = np.concatenate([e["dense"] for e in ex])
    mean, std = dense.mean(0), dense.std(0) + 1e-6
    with torch_threads(1):
        torch.manual_seed(seed)
        x = torch.tensor((dense - mean) / std)                                     # [N, D]
        counts, counts_t = _bucket_counts(np.concatenate([e["sparse"] for e in ex]))
        gold = torch.tensor(np.concatenate([e["gold"] for e in ex]))
        q = torch.tensor(np.repeat(np.arange(len(ex)), [len(e["gold"]) for e in ex]))
        mask = torch.tensor(np.asarray(masks)[usable].astype(np.float32))          # [Q, m]
        weight = mask[q] / mask.sum().clamp(min=1)          # [N, m]: each row's loss share
        w = torch.zeros(m, x.shape[1], requires_grad=True)
        e = torch.zeros(m, N_BUCKETS, requires_grad=True)
        opt = torch.optim.AdamW([w, e], lr=config.lr, weight_decay=config.weight_decay)
        with torch.no_grad():
            for _ in range(config.epochs):
                s = x @ w.T + torch.sparse.mm(counts, e.T.contiguous())           # [N, m]
                d = _gradients(s, gold, q, len(ex)) * weight
                w.grad, e.grad = d.T @ x, torch.sparse.mm(counts_t, d).T.contiguous()
                opt.step()
    return {"mean": mean.astype(np.float32), "std": std.astype(np.float32),
            "w": w.detach().numpy().copy(), "e": e.detach().numpy().copy()}


def _bucket_counts(sparse: np.ndarray):
    """[N, S] bucket ids -> the [N, N_BUCKETS] count matrix and its transpose (CSR), so
    that counts @ e.T is e[:, sparse].sum(-1).T without an [m, N, S] gather."""
    import torch
    rows = np.repeat(np.arange(len(sparse)), sparse.shape[1])
    cols, ones = sparse.ravel(), torch.ones(sparse.size)

    def csr(i, j, shape):
        with warnings.catch_warnings():        # "sparse CSR support is in beta"
            warnings.simplefilter("ignore", UserWarning)
            return torch.sparse_coo_tensor(torch.tensor(np.stack([i, j])), ones, shape,
                                           check_invariants=True).coalesce().to_sparse_csr()
    return (csr(rows, cols, (len(sparse), N_BUCKETS)),
            csr(cols, rows, (N_BUCKETS, len(sparse))))


def _gradients(s, gold, q, n):
    """d/ds of each query's -log P(answer) = lse(all scores) - lse(answer scores), per
    head: softmax over the query's candidates minus softmax over its answers (computed on
    the answer rows alone: the others' terms are exactly 0)."""
    d = _segment_softmax(s, q, n)
    g = gold.nonzero().squeeze(1)
    d[g] -= _segment_softmax(s[g], q[g], n)
    return d


def _segment_softmax(s, q, n):
    """Softmax of the rows of s [N, m] within each query index q [N]."""
    import torch
    idx = q[:, None].expand_as(s)
    top = torch.full((n, s.shape[1]), MASKED).scatter_reduce(0, idx, s, "amax")
    z = (s - top[q]).exp()
    return z / torch.zeros(n, s.shape[1]).index_add(0, q, z)[q]


def head_answers(heads: dict, example: dict, with_picks: bool = False):
    """[heads] bool: whether each head's best candidate is an answer (ties: first); with
    `with_picks`, also each head's candidate index."""
    x = (example["dense"] - heads["mean"]) / heads["std"]
    scores = x @ heads["w"].T + heads["e"][:, example["sparse"]].sum(-1).T        # [n, m]
    picks = np.argmax(scores, axis=0)
    return (example["gold"][picks], picks) if with_picks else example["gold"][picks]


def majority_pick(picks: np.ndarray, trained: np.ndarray) -> int:
    """The candidate index most held-out heads pick (every head's when each trained on
    the query; ties: the first)."""
    held = picks[~trained] if (~trained).any() else picks
    return int(np.bincount(held).argmax())


def predictability(answers: np.ndarray, trained: np.ndarray):
    """Share of the heads that did not train on the query that answer it (None: none)."""
    held = ~trained
    return float(answers[held].mean()) if held.any() else None


# ------------------------------------------------------------------ removal
def removal_key(p: float, query_id: str, iteration: int, config: AfliteConfig) -> int:
    """Sort key of the removal order: most predictable first, ties by a query-id hash bin."""
    from transforms.core.hashing import stable_hash
    level = min(LEVELS, int(math.floor(p * LEVELS + 1e-9)))
    return (LEVELS - level) * HASH_BINS + stable_hash(
        query_id, salt=f"aflite-order-{config.seed}-{iteration}") % HASH_BINS


def removal_plan(histogram: dict, alive: int, total: int, config: AfliteConfig) -> dict:
    """From {removal key: queries with predictability >= tau} of one iteration: remove
    the queries with key <= `threshold` (-1: none); `stop`: no later iteration removes.
    At least k = ceil(remove_share * total) are removed (more only where a key bin ties);
    fewer than k eligible, or reaching min_keep_share of `total`, ends the filtering; under
    `min_queries` candidates nothing is removed (what a few queries' heads find is chance,
    as a fold reader that never trained)."""
    if total < config.min_queries:
        return {"threshold": -1, "removed": 0, "eligible": sum(histogram.values()),
                "stop": True, "too_few_queries": True}
    k = max(1, math.ceil(config.remove_share * total))
    room = alive - math.ceil(config.min_keep_share * total)
    want = min(k, max(0, room))
    threshold, seen = -1, 0
    for key in sorted(histogram):
        if seen >= want:
            break
        seen += histogram[key]
        threshold = key
    eligible = sum(histogram.values())
    return {"threshold": threshold, "removed": seen, "eligible": eligible,
            "stop": eligible < k or alive - seen <= math.ceil(config.min_keep_share * total)}


# ------------------------------------------------------------------ reference
def iteration_sample(alive_ids, iteration: int, config: AfliteConfig) -> list:
    """The ids the heads of `iteration` train on: the train_queries smallest sample keys,
    in id order."""
    keyed = sorted(alive_ids, key=lambda i: sample_key(i, iteration, config))
    return sorted(keyed[:config.train_queries])


def run_in_memory(examples: dict, config: AfliteConfig = AfliteConfig(), log=None) -> dict:
    """AFLite over {query id: featurize's example} held in memory (the reference the
    Beam stage must equal): {query id: {"removed_in": iteration or None,
    "predictability": the last one measured}}."""
    total = len(examples)
    alive = sorted(examples)
    out = {i: {"removed_in": None, "predictability": None} for i in alive}
    for it in range(config.max_iterations):
        sample = iteration_sample(alive, it, config)
        in_sample = set(sample)
        heads = train_heads([examples[i] for i in sample],
                            np.stack([head_draws(i, it, config) for i in sample])
                            if sample else np.zeros((0, config.heads), bool),
                            config, config.seed * 1000 + it)
        hist, keys = {}, {}
        for i in alive:
            trained = (head_draws(i, it, config) if i in in_sample
                       else np.zeros(config.heads, bool))
            p = predictability(head_answers(heads, examples[i]), trained)
            out[i]["predictability"] = p
            if p is not None and p >= config.tau:
                keys[i] = removal_key(p, i, it, config)
                hist[keys[i]] = hist.get(keys[i], 0) + 1
        plan = removal_plan(hist, len(alive), total, config)
        gone = {i for i, key in keys.items() if key <= plan["threshold"]}
        for i in gone:
            out[i]["removed_in"] = it
        alive = [i for i in alive if i not in gone]
        if log:
            log(f"iteration {it}: {len(alive) + len(gone)} in, {plan['eligible']} at "
                f"predictability >= {config.tau}, {len(gone)} removed")
        if plan["stop"]:
            break
    return out

"""95% bootstrap intervals for the hardness report, in one streaming pass (bounded memory).

A cell (baseline, split, section) is a mean over queries of per-query values (EM, F1, or a
0/1 hit). Its interval is the percentile bootstrap, computed as the Poisson bootstrap
(Hanley & MacGibbon 2006; Chamandy et al. 2012): replicate r gives each query the weight
w_r ~ Poisson(1) instead of a multinomial draw, so a replicate's mean is
sum(w_r * value) / sum(w_r) and every cell is a sum that combines in any order. The
weights of a query come from a generator seeded by `stable_hash(query id, seed)`: the same
query has the same weights in every cell, run and worker. An accumulator holds `REPLICATES`
x (values + 1) integers (values in fixed point, `SCALE`), so its memory does not grow with
the queries and the sums are exact whatever order a runner adds them in: the report is the
same bytes for any number of workers.
"""
import apache_beam as beam
import numpy as np

from transforms.core.hashing import stable_hash

REPLICATES = 1000          # bootstrap replicates per cell
SEED = "hardness-ci"       # salt of the per-query weights
SCALE = 1_000_000          # values in fixed point: exact integer sums
MIN_READABLE_N = 30        # cells with fewer queries are marked too small to read
LEVEL = 95


def weights(query_id: str, replicates: int = REPLICATES, seed: str = SEED) -> np.ndarray:
    """The query's Poisson(1) weight in each replicate (int64), fixed by its id."""
    rng = np.random.default_rng(stable_hash(str(query_id), salt=seed))
    return rng.poisson(1.0, replicates).astype(np.int64)


def fixed(values) -> np.ndarray:
    return np.rint(np.asarray(values, dtype=np.float64) * SCALE).astype(np.int64)


class BootstrapMean(beam.CombineFn):
    """(query id, values tuple) -> {"n", "mean": [...], "ci": [[lo, hi], ...]} (0..1).

    Accumulator: [n, exact sums (k,), replicate sums (R, k + 1): weight, weighted values]."""

    def __init__(self, replicates: int = REPLICATES, seed: str = SEED):
        self.replicates, self.seed = replicates, seed
        self._last = (None, None)           # weights of the last query id seen

    def _weights(self, query_id):
        if self._last[0] != query_id:
            self._last = (query_id, weights(query_id, self.replicates, self.seed))
        return self._last[1]

    def create_accumulator(self):
        return [0, None, None]

    def add_input(self, acc, item):
        query_id, values = item
        v = fixed(values)
        w = self._weights(query_id)
        if acc[1] is None:
            acc[1] = np.zeros(len(v), dtype=np.int64)
            acc[2] = np.zeros((self.replicates, len(v) + 1), dtype=np.int64)
        acc[0] += 1
        acc[1] += v
        acc[2][:, 0] += w
        acc[2][:, 1:] += np.outer(w, v)
        return acc

    def merge_accumulators(self, accs):
        out = self.create_accumulator()
        for n, sums, reps in accs:
            if sums is None:
                continue
            if out[1] is None:
                out = [0, np.zeros_like(sums), np.zeros_like(reps)]
            out[0] += n
            out[1] += sums
            out[2] += reps
        return out

    def extract_output(self, acc):
        return summarize(acc)


def summarize(acc) -> dict:
    """n, the sums, the means and their percentile intervals (rounded to 4 places)."""
    n, sums, reps = acc
    if not n:
        return {"n": 0, "sum": [], "mean": [], "ci": []}
    means = (sums / SCALE / n).tolist()
    total = reps[:, 0]
    ok = total > 0                                   # a replicate that drew no query
    boot = reps[ok, 1:] / SCALE / total[ok, None]
    tail = (100 - LEVEL) / 2
    lo, hi = np.percentile(boot, [tail, 100 - tail], axis=0)
    return {"n": int(n), "sum": [round(float(t) / SCALE, 4) for t in sums],
            "mean": [round(m, 4) for m in means],
            "ci": [[round(float(a), 4), round(float(b), 4)] for a, b in zip(lo, hi)]}


def interval(query_values: dict, replicates: int = REPLICATES, seed: str = SEED) -> dict:
    """The same summary without Beam: {query id: values tuple} -> summarize(...)."""
    fn = BootstrapMean(replicates, seed)
    acc = fn.create_accumulator()
    for qid in sorted(query_values):
        acc = fn.add_input(acc, (qid, query_values[qid]))
    return summarize(acc)


def readable(n: int) -> bool:
    return n >= MIN_READABLE_N

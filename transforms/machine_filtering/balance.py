"""The drop sampler of the adversarial filter: dropping every query an adversary answers
can leave a new shortcut (the lexical reader answers the queries whose answer is the
passage's most frequent entity, so the kept ones rarely have it: 21% against 37% of the
candidates on the real corpus). The sampler holds the share of answers that are the
passage's most frequent entity (`models.hardness.stratum`) in [min_share, max_share]:

- `drop` (the default): only drops, and runs last (the `balance` step, after the release
  rules, on the queries they keep: they remove most-frequent answers more often, so a
  share balanced before them fell below the window). Where the released share is outside
  the window, it drops the fewest released queries of the over-represented stratum that
  bring it back to the window's nearest bound; a query the adversary answered is never
  kept.
- `readmit` (asked for by name only): the share is brought to the candidates' share,
  clamped into the window, by keeping back the fewest answered queries of the stratum the
  plain filter starves (and only where all of those are not enough, dropping unanswered
  queries of the other stratum). The released data then holds queries the adversary
  answered (counted as `readmitted`).
- `none`: the plain filter.

Which queries are kept back (or dropped) is deterministic: in each stratum, those of the
smallest `stable_hash(id, salt)` bucket; with AFLite's predictability on the rows, the
unanswered queries dropped are the most predictable ones (`drop_bucket`). Beam: one small combine gathers
per-stratum counts and histograms of the queries' hash buckets (at most 2 x strata x
BUCKETS entries, whatever the corpus size); `plan` turns it into a bucket
threshold per stratum, a side input of Decide (`readmit`) or of the `balance` step (`drop`).
"""
import collections
import math

import apache_beam as beam

from models.hardness import MOST_FREQUENT, OTHER, stratum
from transforms.core.hashing import stable_hash

BUCKETS = 1 << 16
STRATA = (MOST_FREQUENT, OTHER)


def bucket_of(query_id: str, salt: str) -> int:
    return stable_hash(query_id, salt=salt) % BUCKETS


LEVELS, HASH_BINS = 1000, 64       # (LEVELS + 1) x HASH_BINS <= BUCKETS


def drop_bucket(row: dict, salt: str) -> int:
    """The order in which unanswered queries are dropped: with AFLite's predictability on
    the row (`aflite`, `kfold+aflite`), the most predictable first (the queries its heads
    came closest to answering), ties by query-id hash bins; without it, by hash alone."""
    if "aflite_predictability" not in row:
        return bucket_of(row["id"], salt)
    p = row["aflite_predictability"]
    level = 0 if p is None else min(LEVELS, int(math.floor(p * LEVELS + 1e-9)))
    return (LEVELS - level) * HASH_BINS + stable_hash(row["id"], salt=salt) % HASH_BINS


def readmissions(tally: dict, min_share: float, max_share: float) -> dict:
    """{"readmit": {stratum: answered queries kept back}, "drop": {stratum: unanswered
    queries dropped}} so that the kept most-frequent share is the candidates' share
    clamped into [min_share, max_share]: the fewest answered queries of the starved
    stratum are kept back; only when all of them are not enough are unanswered queries
    of the other stratum dropped. `tally`: {stratum: {"candidates": n, "answered": n}}."""
    c = {s: tally.get(s, {}).get("candidates", 0) for s in STRATA}
    a = {s: tally.get(s, {}).get("answered", 0) for s in STRATA}
    k = {s: c[s] - a[s] for s in STRATA}
    out = {"readmit": dict.fromkeys(STRATA, 0), "drop": dict.fromkeys(STRATA, 0)}
    total = c[MOST_FREQUENT] + c[OTHER]
    if not total or not k[MOST_FREQUENT] + k[OTHER]:
        return out
    t = min(max(c[MOST_FREQUENT] / total, min_share), max_share)
    if not 0 < t < 1:
        return out
    share = k[MOST_FREQUENT] / (k[MOST_FREQUENT] + k[OTHER])
    if share == t:
        return out
    # `low`: the stratum the plain filter starves; `p`: the share it must reach
    low, high, p = (MOST_FREQUENT, OTHER, t) if share < t else (OTHER, MOST_FREQUENT, 1 - t)
    want = math.ceil(p * k[high] / (1 - p))
    out["readmit"][low] = n = min(a[low], max(0, want - k[low]))
    kept_low = k[low] + n
    if kept_low / (kept_low + k[high]) < p:     # every answered one is not enough
        out["drop"][high] = k[high] - math.floor(kept_low * (1 - p) / p)
    return out


def thresholds(histogram: dict, wanted: dict) -> dict:
    """{stratum: bucket}: keep back the answered queries whose bucket is at most it (-1:
    none); the smallest bucket whose running count reaches the number wanted, so at
    least that many are kept back (exactly, unless two share the threshold bucket), or
    every answered query when fewer exist."""
    out = {}
    for s in STRATA:
        need, seen, out[s] = wanted.get(s, 0), 0, -1
        if need <= 0:
            continue
        for b in sorted(histogram.get(s, {})):
            seen += histogram[s][b]
            out[s] = b
            if seen >= need:
                break
    return out


def balance_drops(tally: dict, min_share: float, max_share: float) -> dict:
    """{"readmit": none, "drop": {stratum: unanswered queries dropped}}: the fewest drops
    that bring the kept most-frequent share into [min_share, max_share] (to its nearest
    bound); nothing when it is inside, or when the stratum it lacks has no kept query
    (dropping could not restore it)."""
    k = {s: tally.get(s, {}).get("candidates", 0) - tally.get(s, {}).get("answered", 0)
         for s in STRATA}
    out = {"readmit": dict.fromkeys(STRATA, 0), "drop": dict.fromkeys(STRATA, 0)}
    if not k[MOST_FREQUENT] or not k[OTHER]:
        return out
    share = k[MOST_FREQUENT] / (k[MOST_FREQUENT] + k[OTHER])
    if share < min_share:           # too few most-frequent answers: drop others
        out["drop"][OTHER] = k[OTHER] - math.floor(k[MOST_FREQUENT] * (1 - min_share)
                                                   / min_share + 1e-9)
    elif share > max_share:         # too many: drop most-frequent ones
        out["drop"][MOST_FREQUENT] = k[MOST_FREQUENT] - math.floor(
            k[OTHER] * max_share / (1 - max_share) + 1e-9) if max_share < 1 else 0
    return out


def plan(acc: dict, min_share: float, max_share: float, mode: str = "drop") -> dict:
    """The sampler's plan from BalanceTally's output: counts, how many to keep back or
    drop per stratum, and the bucket thresholds that pick them (`mode`: drop, readmit)."""
    n = (readmissions if mode == "readmit" else balance_drops)(acc["tally"], min_share,
                                                                max_share)
    return {"tally": acc["tally"], "readmit": n["readmit"], "drop": n["drop"],
            "threshold": thresholds(acc["histogram"], n["readmit"]),
            "drop_threshold": thresholds(acc.get("unanswered", {}), n["drop"])}


def keeps_back(row: dict, strat: str, the_plan: dict, salt: str) -> bool:
    """Whether an answered query is kept instead of dropped."""
    return bucket_of(row["id"], salt) <= the_plan["threshold"].get(strat, -1)


def drops(row: dict, strat: str, the_plan: dict, salt: str) -> bool:
    """Whether an unanswered query is dropped to restore the share."""
    return drop_bucket(row, salt) <= the_plan.get("drop_threshold", {}).get(strat, -1)


class BalanceTally(beam.CombineFn):
    """(stratum, answered, query id) -> {"tally": {stratum: {candidates, answered}},
    "histogram" / "unanswered": {stratum: {bucket: answered / unanswered queries}}}."""

    def __init__(self, salt: str):
        self.salt = salt

    def create_accumulator(self):
        return {"tally": {}, "histogram": {}, "unanswered": {}}

    def add_input(self, acc, item):
        strat, answered, query_id = item[:3]
        t = acc["tally"].setdefault(strat, {"candidates": 0, "answered": 0})
        t["candidates"] += 1
        t["answered"] += bool(answered)
        h = acc["histogram" if answered else "unanswered"].setdefault(
            strat, collections.Counter())
        # answered: the hash bucket (readmit keeps back by it); unanswered: the drop order
        h[item[3] if len(item) > 3 and not answered else bucket_of(query_id, self.salt)] += 1
        return acc

    def merge_accumulators(self, accs):
        out = self.create_accumulator()
        for acc in accs:
            for s, t in acc["tally"].items():
                o = out["tally"].setdefault(s, {"candidates": 0, "answered": 0})
                for key in o:
                    o[key] += t[key]
            for part in ("histogram", "unanswered"):
                for s, h in acc[part].items():
                    out[part].setdefault(s, collections.Counter()).update(h)
        return out

    def extract_output(self, acc):
        return acc


def row_stratum(row: dict):
    """The row's stratum, or None for a row the filter could not score."""
    if row.get("adversary_correct") is None:
        return None
    try:
        return stratum(row)
    except ValueError:
        return None


def step_mode(settings, step: str) -> str:
    """The sampler's mode at `step`: `readmit` runs in Decide (it needs the answered
    queries); `drop` runs last, in the `balance` step, on the queries the release rules
    keep (so the released share is in the window by construction); else none."""
    if settings.balance == "readmit":
        return "readmit" if step == "adversary" else "none"
    return "drop" if settings.balance == "drop" and step == "balance" else "none"


class BalancePlan(beam.PTransform):
    """Rows -> the sampler's plan (one dict) for Decide or the `balance` step; in mode
    none (default: `settings.balance`) it keeps nothing back and drops nothing.
    `all_kept`: every row counts as an unanswered (kept) query, as in the `balance` step,
    which sees only released queries."""

    def __init__(self, settings, mode=None, all_kept=False):
        super().__init__()
        self.settings, self.all_kept = settings, all_kept
        self.mode = settings.balance if mode is None else mode

    def expand(self, rows):
        s, mode, all_kept = self.settings, self.mode, self.all_kept

        def item(row):
            strat = row_stratum(row)
            answered = False if all_kept else bool(row["adversary_correct"])
            return [] if strat is None else [(strat, answered, row["id"],
                                              drop_bucket(row, s.balance_salt))]
        return (rows
                | "Stratum" >> beam.FlatMap(item)
                | "Tally" >> beam.CombineGlobally(BalanceTally(s.balance_salt))
                | "Plan" >> beam.Map(lambda acc: plan(
                    acc, s.most_frequent_share_min, s.most_frequent_share_max, mode)
                    if mode in ("drop", "readmit") else
                    {"tally": acc["tally"], "readmit": {}, "drop": {}, "threshold": {},
                     "drop_threshold": {}}))

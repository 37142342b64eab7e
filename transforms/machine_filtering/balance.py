"""The drop sampler of the adversarial filter: dropping every query the adversary answers
would leave a new shortcut (a reader that learned "the most frequent entity" answers
those queries, so the kept ones rarely have it as their answer: 19% against 37% of the
candidates on the real corpus). The sampler keeps the share of answers that are the
passage's most frequent entity (`models.hardness.stratum`) at the candidates' share,
clamped into [min_share, max_share], by keeping back the fewest answered queries of the
stratum the plain filter starves.

Which answered queries are kept back is deterministic, seeded by query id: in each
stratum, those of the smallest `stable_hash(id, salt)`. Beam: one small combine gathers
per-stratum counts and a histogram of the answered queries' hash buckets (at most
strata x BUCKETS entries, whatever the corpus size); `plan` turns it into a bucket
threshold per stratum, a side input of Decide.
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


def readmissions(tally: dict, min_share: float, max_share: float) -> dict:
    """{stratum: answered queries to keep back} so that the kept most-frequent share is the
    candidates' share clamped into [min_share, max_share]; `tally` is {stratum:
    {"candidates": n, "answered": n}}. Unanswered queries are always kept."""
    c = {s: tally.get(s, {}).get("candidates", 0) for s in STRATA}
    a = {s: tally.get(s, {}).get("answered", 0) for s in STRATA}
    k = {s: c[s] - a[s] for s in STRATA}
    total = c[MOST_FREQUENT] + c[OTHER]
    out = dict.fromkeys(STRATA, 0)
    if not total or not k[MOST_FREQUENT] + k[OTHER]:
        return out
    target = min(max(c[MOST_FREQUENT] / total, min_share), max_share)
    kept_share = k[MOST_FREQUENT] / (k[MOST_FREQUENT] + k[OTHER])
    if kept_share < target:            # too few most-frequent answers kept
        want = math.ceil(target * k[OTHER] / (1 - target)) if target < 1 else c[MOST_FREQUENT]
        out[MOST_FREQUENT] = min(a[MOST_FREQUENT], max(0, want - k[MOST_FREQUENT]))
    elif kept_share > target:          # too many
        want = math.ceil((1 - target) * k[MOST_FREQUENT] / target) if target > 0 else c[OTHER]
        out[OTHER] = min(a[OTHER], max(0, want - k[OTHER]))
    return out


def thresholds(histogram: dict, wanted: dict) -> dict:
    """{stratum: bucket}: keep back the answered queries whose bucket is at most it (-1:
    none); the smallest bucket whose running count reaches the number wanted, so at
    least that many are kept back (exactly, unless two share the threshold bucket)."""
    out = {}
    for s in STRATA:
        need, seen, out[s] = wanted.get(s, 0), 0, -1
        if need <= 0:
            continue
        for b in sorted(histogram.get(s, {})):
            seen += histogram[s][b]
            if seen >= need:
                out[s] = b
                break
    return out


def plan(acc: dict, min_share: float, max_share: float) -> dict:
    """The sampler's plan from BalanceTally's output: counts, readmissions, thresholds."""
    wanted = readmissions(acc["tally"], min_share, max_share)
    return {"tally": acc["tally"], "readmit": wanted,
            "threshold": thresholds(acc["histogram"], wanted)}


def keeps_back(row: dict, strat: str, the_plan: dict, salt: str) -> bool:
    """Whether an answered query is kept instead of dropped."""
    return bucket_of(row["id"], salt) <= the_plan["threshold"].get(strat, -1)


class BalanceTally(beam.CombineFn):
    """(stratum, answered, query id) -> {"tally": {stratum: {candidates, answered}},
    "histogram": {stratum: {bucket: answered queries}}}."""

    def __init__(self, salt: str):
        self.salt = salt

    def create_accumulator(self):
        return {"tally": {}, "histogram": {}}

    def add_input(self, acc, item):
        strat, answered, query_id = item
        t = acc["tally"].setdefault(strat, {"candidates": 0, "answered": 0})
        t["candidates"] += 1
        if answered:
            t["answered"] += 1
            h = acc["histogram"].setdefault(strat, collections.Counter())
            h[bucket_of(query_id, self.salt)] += 1
        return acc

    def merge_accumulators(self, accs):
        out = self.create_accumulator()
        for acc in accs:
            for s, t in acc["tally"].items():
                o = out["tally"].setdefault(s, {"candidates": 0, "answered": 0})
                for key in o:
                    o[key] += t[key]
            for s, h in acc["histogram"].items():
                out["histogram"].setdefault(s, collections.Counter()).update(h)
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


class BalancePlan(beam.PTransform):
    """Scored rows -> the sampler's plan (one dict) for Decide; with `enabled` False the
    plan keeps nothing back (the plain filter)."""

    def __init__(self, settings):
        super().__init__()
        self.settings = settings

    def expand(self, scored):
        s = self.settings

        def item(row):
            strat = row_stratum(row)
            return [] if strat is None else [(strat, bool(row["adversary_correct"]), row["id"])]
        return (scored
                | "Stratum" >> beam.FlatMap(item)
                | "Tally" >> beam.CombineGlobally(BalanceTally(s.balance_salt))
                | "Plan" >> beam.Map(lambda acc: plan(
                    acc, s.most_frequent_share_min, s.most_frequent_share_max)
                    if s.balance == "most_frequent" else
                    {"tally": acc["tally"], "readmit": {}, "threshold": {}}))

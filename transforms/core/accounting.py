"""Every stage accounts for what came in, what went out and what was rejected.

Stage DoFns emit, per element, a small dict of counts on the `counts` output (and the
same numbers as Beam `Metrics` counters); `SumCounts` adds them up and `stage_accounts`
turns the flat sums into the stats JSON layout:
`{"stages": {stage: {"in", "out", "rejected", "reasons": {...}}}, "summary": {...}}`.
"""
import collections

import apache_beam as beam
from apache_beam.metrics import Metrics

REJECTED = "rejected"
COUNTS = "counts"


class Tally:
    """Counts of one element's trip through a stage, mirrored to Beam Metrics."""

    def __init__(self, stage: str):
        self.stage = stage
        self.counts = collections.Counter()

    def add(self, key: str, n: int = 1):
        if n:
            self.counts[f"{self.stage}.{key}"] += n
            Metrics.counter(self.stage, key).inc(n)

    def rejected(self, reason: str, n: int = 1):
        self.add(f"rejected.{reason}", n)

    def output(self):
        return beam.pvalue.TaggedOutput(COUNTS, dict(self.counts))


class SumCounts(beam.CombineFn):
    """Adds up count dicts; the accumulator is one small dict whatever the corpus size."""

    def create_accumulator(self):
        return collections.Counter()

    def add_input(self, acc, counts):
        acc.update(counts)
        return acc

    def merge_accumulators(self, accs):
        total = collections.Counter()
        for a in accs:
            total.update(a)
        return total

    def extract_output(self, acc):
        return dict(sorted(acc.items()))


def stage_accounts(flat: dict, stages) -> dict:
    """Flat `stage.key` sums -> per-stage in/out/rejected with reasons, in pipeline order."""
    out = {}
    for stage in stages:
        reasons = {k.split(".", 2)[2]: v for k, v in flat.items()
                   if k.startswith(f"{stage}.rejected.")}
        extra = {k.split(".", 1)[1]: v for k, v in flat.items()
                 if k.startswith(f"{stage}.") and k.split(".")[1] not in ("in", "out", "rejected")}
        out[stage] = dict({"in": flat.get(f"{stage}.in", 0), "out": flat.get(f"{stage}.out", 0),
                           "rejected": sum(reasons.values()),
                           "reasons": dict(sorted(reasons.items(), key=lambda kv: -kv[1]))},
                          **extra)
    return out


def unbalanced_stages(accounts: dict) -> list:
    """Stages where in != out + rejected (something was lost): should always be empty."""
    return [s for s, a in accounts.items() if a["in"] != a["out"] + a["rejected"]]

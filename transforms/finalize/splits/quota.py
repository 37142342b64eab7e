"""PlaceByQuota: dev and test keep, per primary origin and in quota hash order, the groups
a first fit keeps within the origin's quota (the origin ratio and the size caps), exactly
as `splits.assign_splits` does, with bounded combines instead of one sorted list:

In quota order, every group fits until the first that does not (the overflow, g*); after
it only groups of at most R = quota - (sum before g*) queries can fit, and of the groups
of size n only the first floor(R / n) can (capacity only shrinks, so the kept ones of a
size are a prefix of that size's groups). The first fit over those few candidates decides
exactly as the scan over all groups does.

    per-(split, origin) totals (CombinePerKey) -> quotas -> per-bucket sums of the quota
    order (CombinePerKey, at most `quota_buckets` entries) -> the bucket holding g* ->
    its groups (GroupByKey) -> g* and R -> the k smallest tail groups per size
    (CombinePerKey) -> the first fit over them (GroupByKey per origin).
"""
import heapq
import math
from typing import Iterable

import apache_beam as beam

from transforms.core.accounting import COUNTS, Count, SumCounts
from transforms.finalize.splits import STEP
from transforms.finalize.splits import rules as S
from transforms.finalize.splits.keyed import GroupStepFn
from transforms.finalize.splits.rules import fits

_EPS = 1e-9


def bucket_of(order: tuple, buckets: int) -> int:
    return min(int(order[0] * buckets), buckets - 1)


def boundary(bucket_sums: dict, quota: float):
    """(first bucket whose running sum exceeds `quota`, the sum before it), or None when
    every group fits."""
    cum = 0
    for b in sorted(bucket_sums):
        if not fits(cum, bucket_sums[b], quota):
            return b, cum
        cum += bucket_sums[b]
    return None


def first_overflow(items: Iterable[tuple], cum_before: int, quota: float):
    """(order of g*, sum before it) from the (order, n) items of the boundary bucket."""
    cum = cum_before
    for order, n in sorted(items):
        if not fits(cum, n, quota):
            return order, cum
        cum += n
    return None


def tail_take(n: int, cum_before: int, quota: float) -> int:
    """How many size-`n` groups after g* can fit at most: floor(R / n)."""
    if n <= 0:
        return 0
    return max(0, math.floor((quota - cum_before + _EPS) / n))


def first_fit(items: Iterable[tuple], cum_before: int, quota: float) -> tuple:
    """The orders of the (order, n) tail candidates the first fit keeps."""
    kept, cum = [], cum_before
    for order, n in sorted(items):
        if fits(cum, n, quota):
            cum += n
            kept.append(order)
    return tuple(kept)


def keeps(order: tuple, overflow, kept_after: frozenset) -> bool:
    """Whether the group at `order` stays in its dev/test split: `overflow` is None (all
    fit) or g*'s order; `kept_after`: the orders after g* the first fit keeps."""
    if overflow is None or order < overflow:
        return True
    return order in kept_after


def quota_table(available: dict, config: S.SplitConfig) -> dict:
    """{(split, origin): (quota, capped)} from {(split, origin): dev/test-valid queries}."""
    table = {}
    for split in ("dev", "test"):
        per_origin = {o: n for (s, o), n in available.items() if s == split}
        quota, capped = S.quotas(per_origin, config, config.cap(split))
        for origin, q in quota.items():
            table[(split, origin)] = (q, capped)
    return table


def _quota(table, split, origin):
    return table.get((split, origin), (0, False))


class OverflowFn(GroupStepFn):
    """((split, origin), [(order, n)] of its boundary bucket) -> (key, (order of g*, sum
    of the groups before it))."""
    step, what = STEP, "boundary_bucket"

    def apply(self, item, info):
        key, members = item
        members = list(members)
        yield from self.group_size(len(members))
        b_star, cum_before = info[key]
        found = first_overflow(members, cum_before, info["quota"][key])
        if found is not None:
            yield self.emit((key, found))


class SmallestK(beam.CombineFn):
    """(order, k) -> the k smallest orders (k travels with the values: floor(R / size))."""

    def create_accumulator(self):
        return 0, []

    def add_input(self, acc, value):
        return self.merge_accumulators([acc, (value[1], [value[0]])])

    def merge_accumulators(self, accs):
        k = max(a[0] for a in accs)
        return k, heapq.nsmallest(k, (o for a in accs for o in a[1]))

    def extract_output(self, acc):
        return acc[1]


class FirstFitFn(GroupStepFn):
    """((split, origin), [(order, n)] tail candidates) -> (key, orders the first fit keeps)."""
    step, what = STEP, "quota_tail"

    def apply(self, item, overflow, table):
        key, candidates = item
        candidates = list(candidates)
        yield from self.group_size(len(candidates))
        _, cum_before = overflow[key]
        yield self.emit((key, frozenset(first_fit(candidates, cum_before,
                                                    _quota(table, *key)[0]))))


class FinalSplitFn(GroupStepFn):
    """(key, summary, (split, reason)) -> (key, (split, reason)) after the quotas."""
    step = STEP

    def __init__(self, config: S.SplitConfig):
        self.config = config

    def apply(self, item, table, overflow, kept_after):
        key, summary, (split, reason) = item
        if split in ("dev", "test"):
            where = (split, summary.primary_origin)
            limit = overflow.get(where)
            if not keeps(S.quota_order(key, self.config), limit and limit[0],
                           kept_after.get(where, frozenset())):
                _, capped = _quota(table, *where)
                split, reason = S.over_quota(split, summary, self.config, capped)
        yield Count(STEP, f"groups_{split or 'rejected'}", 1)
        yield self.emit((key, (split, reason)))


class PlaceByQuota(beam.PTransform):
    """Initial placements -> (group key, (split, reason)) once dev and test keep, per
    primary origin and in quota hash order, the groups the first fit keeps within the
    origin's quota (`splits.assign_splits`, computed as its comment block says)."""

    def __init__(self, config: S.SplitConfig, buckets: int):
        super().__init__()
        self.config, self.buckets = config, buckets

    def expand(self, placed):
        config, buckets = self.config, self.buckets
        side = beam.pvalue.AsSingleton
        evaluation = (placed
                      | "DevTestGroups" >> beam.Filter(lambda t: t[2][0] in ("dev", "test"))
                      | "ByOrigin" >> beam.Map(lambda t: (
                          (t[2][0], t[1].primary_origin),
                          (S.quota_order(t[0], config), t[1].n_dev_test))))
        table = (evaluation
                 | "OriginValues" >> beam.MapTuple(lambda key, v: (key, v[1]))
                 | "OriginTotals" >> beam.CombinePerKey(sum)
                 | "TotalsDict" >> beam.combiners.ToDict()
                 | "Quotas" >> beam.Map(quota_table, config))
        info = (evaluation
                | "BucketValues" >> beam.MapTuple(
                    lambda key, v: (key, {bucket_of(v[0], buckets): v[1]}))
                | "BucketSums" >> beam.CombinePerKey(SumCounts())   # quota_buckets keys at most
                | "Boundary" >> beam.Map(
                    lambda kv, table: (kv[0], boundary(kv[1], _quota(table, *kv[0])[0])),
                    side(table))
                | "Crossing" >> beam.Filter(lambda kv: kv[1] is not None)
                | "CrossingDict" >> beam.combiners.ToDict()
                | "WithQuotas" >> beam.Map(
                    lambda d, table: dict(d, quota={k: _quota(table, *k)[0] for k in d}),
                    side(table)))
        overflow = (evaluation
                    | "InBoundaryBucket" >> beam.Filter(
                        lambda kv, info: kv[0] in info
                        and bucket_of(kv[1][0], buckets) == info[kv[0]][0], side(info))
                    | "BoundaryGroups" >> beam.GroupByKey()
                    | "Overflow" >> beam.ParDo(OverflowFn(), side(info)).with_outputs(
                        COUNTS, main="main"))
        overflow_dict = beam.pvalue.AsDict(overflow.main)

        def candidate(kv, overflow, table):
            key, (order, n) = kv
            if key not in overflow or order <= overflow[key][0]:
                return []
            k = tail_take(n, overflow[key][1], _quota(table, *key)[0])
            return [((key, n), (order, k))] if k else []

        tail = (evaluation
                | "TailCandidates" >> beam.FlatMap(candidate, overflow_dict, side(table))
                | "FirstOfEachSize" >> beam.CombinePerKey(SmallestK())
                | "BackToOrigin" >> beam.FlatMap(
                    lambda kv: [(kv[0][0], (order, kv[0][1])) for order in kv[1]])
                | "TailByOrigin" >> beam.GroupByKey()
                | "FirstFit" >> beam.ParDo(FirstFitFn(), overflow_dict, side(table))
                .with_outputs(COUNTS, main="main"))
        final = placed | "FinalSplit" >> beam.ParDo(
            FinalSplitFn(config), side(table), overflow_dict,
            beam.pvalue.AsDict(tail.main)).with_outputs(COUNTS, main="main")
        counts = ((overflow[COUNTS], tail[COUNTS], final[COUNTS])
                  | "QuotaCounts" >> beam.Flatten())
        return {"main": final.main, COUNTS: counts}



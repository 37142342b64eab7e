"""AssignSplits: each article group to train, dev or test (paper section 3.4), with the
rules of `splits.py`, by keyed joins and bounded combines only.

    rows -> per-article origin counts (CombinePerKey) -> joined with the article's group
    (CoGroupByKey) -> group summaries (CombinePerKey) -> initial split by group hash
    -> dev/test quotas from per-(split, origin) totals (CombinePerKey) -> the first fit
    in quota hash order (splits.assign_splits), from per-bucket sums (CombinePerKey,
    `quota_buckets` entries), the groups of one boundary bucket (GroupByKey) and the
    few tail groups that can still fit (CombinePerKey of the k smallest per size)
    -> final split per group -> back to the articles (CoGroupByKey) -> back to the rows
    (CoGroupByKey on article_id).

No call ever holds the list of groups: the largest holds one group's articles, one
article's rows, one boundary bucket, the tail candidates of one origin (fewer than
R ln R for a remaining capacity R smaller than one group) or one bucket table; each is
reported as `max_group_*`.
"""
import apache_beam as beam

from transforms.core.accounting import (
    COUNTS,
    REJECTED,
    Count,
    RuleStep,
    SumCounts,
    accounted,
)
from transforms.core.schema import DATASET_SCHEMA
from transforms.finalize.row_rules import SPLIT_RULES, Placement
from transforms.finalize.splits import STEP
from transforms.finalize.splits import rules as S
from transforms.finalize.splits.keyed import GroupStepFn, join
from transforms.finalize.splits.quota import PlaceByQuota

DEV_TEST = ("dev_test",)     # the key of dev/test-valid queries among ("origin", o) keys


def origin_count(row: dict) -> dict:
    """One query's counts for its group: its origin, and whether it is valid for dev/test
    (summed per article, then per group, by SumCounts)."""
    return {("origin", row["origin"]): 1, DEV_TEST: int(row["_valid_for"] == "dev_test")}


def origin_counts(sums: dict) -> tuple:
    """({origin: queries}, dev/test-valid queries) of summed `origin_count`s."""
    return ({k[1]: n for k, n in sums.items() if k != DEV_TEST}, sums.get(DEV_TEST, 0))


class ArticleGroupFn(GroupStepFn):
    """(article, {group: [key], counts: [origin counts]}) -> (group key, origin counts)."""
    step, what = STEP, "article_join"

    def apply(self, item):
        _, parts = item
        group, counts = list(parts["group"]), list(parts["counts"])
        yield from self.group_size(len(group) + len(counts))
        if group and counts:
            yield self.emit((group[0], counts[0]))


class InitialSplitFn(GroupStepFn):
    """(group key, summed origin counts) -> (key, summary, (split, reason)) by the group
    hash."""
    step = STEP

    def __init__(self, config: S.SplitConfig):
        self.config = config

    def apply(self, item):
        key, sums = item
        counts, n_dev_test = origin_counts(sums)
        summary = S.GroupSummary(key, tuple(sorted(counts.items())), n_dev_test)
        yield Count(STEP, "groups", 1)
        yield self.emit((key, summary, S.initial_split(summary, self.config)))


class SpreadFn(GroupStepFn):
    """(group key, {articles, split}) -> (article, (split, reason, group key))."""
    step, what = STEP, "group_articles"

    def apply(self, item):
        key, parts = item
        articles, placed = list(parts["articles"]), list(parts["split"])
        yield from self.group_size(len(articles) + len(placed))
        for article in articles:
            yield self.emit((article, placed[0] + (key,)))


def dataset_row(row: dict, split: str) -> dict:
    return dict({name: row[name] for name in DATASET_SCHEMA.names if name != "split"},
                split=split)


class TagSplitFn(RuleStep):
    """(article, {rows, split}) -> dataset rows of the split, or rejected rows
    (row_rules.SPLIT_RULES)."""
    step, rules = STEP, SPLIT_RULES

    def units(self, item) -> int:
        return 0

    def apply(self, item):
        _, parts = item
        rows, placed = list(parts["rows"]), list(parts["split"])
        yield Count(STEP, "max_group", len(rows) + len(placed))
        yield Count(STEP, "max_group_article_rows", len(rows) + len(placed))
        yield Count(STEP, "in", len(rows))
        placement = Placement(*placed[0]) if placed else Placement(None, "no_article_group")
        for row in rows:
            why = self.verdict(row, placement)
            yield dataset_row(row, placement.split) if why is None else self.rejected(why, row)


class AssignSplits(beam.PTransform):
    """Rows with `_valid_for` and (article_id, group key) -> {"main": dataset rows with
    their split, "rejected", "counts"} (module docstring)."""

    def __init__(self, config: S.SplitConfig, buckets: int):
        super().__init__()
        self.config, self.buckets = config, buckets

    def expand(self, inputs):
        rows, groups = inputs
        config = self.config
        article_counts = (rows
                          | "QueryOrigins" >> beam.Map(lambda r: (r["article_id"],
                                                                  origin_count(r)))
                          | "ArticleCounts" >> beam.CombinePerKey(SumCounts()))
        by_group = (join("JoinGroups", group=groups, counts=article_counts)
                    | "ToGroup" >> beam.ParDo(ArticleGroupFn()).with_outputs(COUNTS, main="main"))
        placed = (by_group.main
                  | "GroupCounts" >> beam.CombinePerKey(SumCounts())
                  | "InitialSplit" >> beam.ParDo(InitialSplitFn(config)).with_outputs(
                      COUNTS, main="main"))
        counts = [by_group[COUNTS], placed[COUNTS]]
        if config.limits_dev_test():
            final = placed.main | "PlaceByQuota" >> PlaceByQuota(config, self.buckets)
            counts.append(final[COUNTS])
            final = final["main"]
        else:
            final = placed.main | "AsPlaced" >> beam.Map(lambda t: (t[0], t[2]))
            final = final | "CountPlaced" >> beam.ParDo(CountPlacedFn()).with_outputs(
                COUNTS, main="main")
            counts.append(final[COUNTS])
            final = final.main
        spread = (join("JoinPlacement",
                       articles=groups | "ByGroupKey" >> beam.KvSwap(), split=final)
                  | "ToArticles" >> beam.ParDo(SpreadFn()).with_outputs(COUNTS, main="main"))
        tagged = accounted(join("JoinRows", rows=rows | "KeyByArticle" >> beam.Map(
            lambda r: (r["article_id"], r)), split=spread.main), "TagSplit", TagSplitFn())
        counts += [spread[COUNTS], tagged[COUNTS]]
        return {"main": tagged.main, REJECTED: tagged[REJECTED],
                COUNTS: tuple(counts) | "SplitCounts" >> beam.Flatten()}


class CountPlacedFn(GroupStepFn):
    step = STEP

    def apply(self, item):
        key, (split, reason) = item
        yield Count(STEP, f"groups_{split or 'rejected'}", 1)
        yield self.emit(item)

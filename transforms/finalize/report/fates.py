"""ArticleFates: the article fate table `DIR/dataset/articles/*.parquet` (ARTICLE_FATE_SCHEMA).

One row per input article or record, from generate's `DIR/articles` (where it stopped, or
its candidates), joined by article_id (CoGroupByKey; a call holds one article) with the
queries the filter kept, the queries released and their split, and the rejections of its
queries: the filter's (DIR/filtered/rejected: `adversary`, `release`, `balance`) and finalize's,
each counted per (step, reason) (CombinePerKey of SumCounts, so memory holds counts, not
rows). Where
it stopped contributing:
- generate's stage and reason (no candidate), else, when none of its candidates was kept,
  the last filter step that rejected its queries (`filter_stopped_at`):
  `adversary` / `all_queries_answered` when the adversary answered every one of them;
  else that step's most frequent reason (`release` / `sibling_query` when the release
  rules removed what the adversary left, `balance` / `dropped_for_balance` when the drop
  sampler removed what they kept, ...); with
  no filter rejection for it (DIR/filtered/rejected absent or stale) `adversarial_filter`
  / `none_kept`; else
- the last finalize step that rejected its queries (dedupe, human_validation, split) with
  that step's most frequent reason, when none was released;
- otherwise no stage: `released` queries in `split`.
Each row also names the article's near-duplicate cluster (`near_dup_cluster`, the
cluster's smallest article id; null without a near-duplicate); generate's signature
(`minhash`) is not carried into the table. `source_file` is relative to the input root
(relative.py: the deepest folder holding every input file), so no local path is published.
Counts under `articles.*` let the stage check the table against the funnel
(`filter_rejected`: the filter's rejected rows joined to an article).
"""
import apache_beam as beam

from transforms.core.accounting import COUNTS, Count, SumCounts, count_of
from transforms.core.constants import ANSWERED
from transforms.finalize.exports.relative import InputRoot, released_fate
from transforms.finalize.splits.keyed import GroupStepFn, join

STEP = "articles"
FINALIZE_STEPS = ("dedupe", "human_validation", "split")
FILTER_STEPS = ("adversary", "release", "balance")   # adversarial_filter's, in order
FILTER_COLUMNS = ["stage", "reason", "article_id"]


class ReleasedFn(beam.CombineFn):
    """split -> (queries, split) of one article (all its queries share one split)."""

    def create_accumulator(self):
        return 0, None

    def add_input(self, acc, split):
        n, s = acc
        return n + 1, split if s is None else min(s, split)

    def merge_accumulators(self, accs):
        n, s = 0, None
        for m, t in accs:
            n += m
            if t is not None:
                s = t if s is None else min(s, t)
        return n, s

    def extract_output(self, acc):
        return acc


def stopped_at(rejections: dict):
    """(step, reason) of the last finalize step with rejections, its commonest reason."""
    for step in reversed(FINALIZE_STEPS):
        reasons = {r: n for (s, r), n in rejections.items() if s == step}
        if reasons:
            return step, min(reasons, key=lambda r: (-reasons[r], r))
    return "finalize", "unaccounted"


def _filter_order(step: str) -> tuple:
    return (FILTER_STEPS.index(step), "") if step in FILTER_STEPS else (len(FILTER_STEPS), step)


def filter_stopped_at(rejections: dict):
    """(step, reason) of an article the filter kept no query of: its last filter step with
    rejections (a step it has not heard of counts after `release`) and that step's most
    frequent reason (ties: the first name); `all_queries_answered` when every rejection is
    the adversary's answer; `adversarial_filter` / `none_kept` without a filter rejection."""
    steps = {s for s, _ in rejections if s not in FINALIZE_STEPS}
    if not steps:
        return "adversarial_filter", "none_kept"
    step = max(steps, key=_filter_order)
    reasons = {r: n for (s, r), n in rejections.items() if s == step}
    if step == "adversary" and set(reasons) == {ANSWERED}:
        return step, "all_queries_answered"
    return step, min(reasons, key=lambda r: (-reasons[r], r))


def fate(row: dict, kept: int, released: int, split, rejections: dict) -> dict:
    """The release-side fate of the article's contributing row (one that had candidates);
    `rejections`: {(step, reason): n} of the filter's and finalize's rejected rows."""
    out = dict(row, kept=kept, released=released, split=split if released else None)
    if released:
        out.update(stage=None, reason=None)
    elif not kept:
        step, reason = filter_stopped_at(rejections)
        out.update(stage=step, reason=reason)
    else:
        step, reason = stopped_at(rejections)
        out.update(stage=step, reason=reason)
    return out


class FateFn(GroupStepFn):
    """(article_id, {fates, kept, released, rejected}) -> its fate rows. The counts go to
    the row that gave candidates; kept queries of an article generate gave no candidates
    for are counted `kept_without_fate` (the stage then fails)."""
    step, what = STEP, "article"

    def apply(self, item):
        article_id, parts = item
        parts = {tag: list(values) for tag, values in parts.items()}
        rows = sorted(parts["fates"], key=lambda r: (r.get("stage") is not None,
                                                     r.get("record_id") or "",
                                                     r.get("source_file") or ""))
        cluster = (parts.get("cluster") or [None])[0]
        kept = sum(parts["kept"])
        released, split = (parts["released"] or [(0, None)])[0]
        rejections = (parts["rejected"] or [{}])[0]
        yield from self.group_size(sum(len(v) for v in parts.values()))
        filtered = sum(n for (s, _), n in rejections.items() if s not in FINALIZE_STEPS)
        if filtered:
            yield Count(STEP, "filter_rejected", filtered)
        contributor = rows[0] if rows and rows[0].get("stage") is None else None
        if contributor is None and (kept or released):
            yield Count(STEP, "kept_without_fate", kept)
            out = {"article_id": article_id, "record_id": None, "source_file": None,
                   "origin": None, "stage": "articles", "reason": "no_generation_fate",
                   "candidates": 0, "kept": kept, "released": released,
                   "split": split if released else None, "near_dup_cluster": cluster}
            yield from count_fate(out)
            yield self.emit(out)
        for row in rows:
            if row is contributor:
                out = fate(row, kept, released, split, rejections)
            else:
                out = dict(row, kept=0, released=0, split=None)
            out = with_cluster(out, cluster)
            yield from count_fate(out)
            yield self.emit(out)


def with_cluster(out: dict, cluster) -> dict:
    """The fate row naming its near-duplicate cluster, without generate's signature."""
    out = {k: v for k, v in out.items() if k != "minhash"}
    out["near_dup_cluster"] = cluster
    return out


def count_fate(out: dict):
    yield Count(STEP, "rows", 1)
    yield Count(STEP, "candidates", out["candidates"] or 0)
    yield Count(STEP, "kept", out["kept"])
    yield Count(STEP, "released", out["released"])
    if out["released"]:
        yield Count(STEP, "released_articles", 1)
    else:
        yield Count(STEP, f"stopped:{out['stage']}/{out['reason']}", 1)


class NoIdFateFn(GroupStepFn):
    """A fate row without an article id (a file or record that never became an article)."""
    step = STEP

    def apply(self, row):
        out = with_cluster(dict(row, kept=0, released=0, split=None), None)
        yield from count_fate(out)
        yield self.emit(out)


def read_filter_rejected(p, filtered: str, present: bool = True):
    """The filter's rejected rows (DIR/filtered/rejected: stage, reason, article_id);
    `present=False` where that folder has no file (the driver looks, so the graph builds
    without reading: dry runs stay offline)."""
    from transforms.core import io_utils
    if not present:
        return p | "NoFilterRejected" >> beam.Create([])
    return p | "ReadFilterRejected" >> beam.io.ReadFromParquet(
        io_utils.join(filtered, "rejected", "*.parquet"), columns=FILTER_COLUMNS,
        validate=False)


class ArticleFates(beam.PTransform):
    """(generate fates, kept rows, released rows, rejected rows (the filter's and
    finalize's)[, (article_id, near-duplicate cluster key)]) -> {"main": fate rows,
    "counts"}."""

    def expand(self, inputs):
        fates, kept, released, rejected = inputs[:4]
        clusters = dict(cluster=inputs[4]) if len(inputs) > 4 else {}
        with_id = fates | "FatesWithId" >> beam.Filter(lambda r: r.get("article_id"))
        without_id = (fates
                      | "FatesWithoutId" >> beam.Filter(lambda r: not r.get("article_id"))
                      | "NoIdFates" >> beam.ParDo(NoIdFateFn()).with_outputs(COUNTS, main="main"))
        joined = join(
            "JoinFates",
            fates=with_id | "FateByArticle" >> beam.Map(lambda r: (r["article_id"], r)),
            kept=(kept | "KeptByArticle" >> beam.Map(lambda r: (r["article_id"], 1))
                  | "KeptPerArticle" >> beam.CombinePerKey(sum)),
            released=(released
                      | "ReleasedByArticle" >> beam.Map(lambda r: (r["article_id"], r["split"]))
                      | "ReleasedPerArticle" >> beam.CombinePerKey(ReleasedFn())),
            rejected=(rejected
                      | "WithArticle" >> beam.Filter(lambda r: r.get("article_id"))
                      | "RejectionByArticle" >> beam.Map(
                          lambda r: (r["article_id"], count_of((r["stage"], r["reason"]))))
                      | "RejectionsPerArticle" >> beam.CombinePerKey(SumCounts())),
            **clusters)
        with_fate = joined | "Fate" >> beam.ParDo(FateFn()).with_outputs(COUNTS, main="main")
        root = (fates | "SourceFiles" >> beam.Map(lambda r: r.get("source_file"))
                | "InputRoot" >> beam.CombineGlobally(InputRoot()))
        rows = ((with_fate.main, without_id.main)
                | "AllFates" >> beam.Flatten()
                | "RelativePaths" >> beam.Map(released_fate, beam.pvalue.AsSingleton(root)))
        counts = (with_fate[COUNTS], without_id[COUNTS]) | "FateCounts" >> beam.Flatten()
        return {"main": rows, COUNTS: counts}

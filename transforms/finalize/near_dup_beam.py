"""NearDuplicateClusters: near-duplicate articles clustered from generate's signatures
(near_duplicates.py holds the rules), by Beam steps whose calls never hold the corpus:

    (article, signature) -> one (band, band digest) key per band -> GroupByKey per band
    bucket -> the bucket's candidate pairs, kept where the estimated Jaccard similarity of
    their signatures reaches the threshold -> Distinct pairs -> connected components
    (union-find) -> (article, cluster key).

A band bucket holds the signatures of the articles that agree on that band (one story's
versions; `near_dup_max_bucket` bounds its pair count). The near-duplicate pairs are few
(a handful per story with versions, none for the other articles), so the components run
on one worker over the pair list (`CombineGlobally`); the articles and their signatures
never meet there. Counts go to the `split` step: signatures, candidate and
near-duplicate pairs, clusters, clustered articles, the largest cluster and a size
histogram (`near_dup_size:<n>`).
"""
import apache_beam as beam

from transforms.core.accounting import COUNTS, Count
from transforms.finalize import near_duplicates as N
from transforms.finalize.keyed import GroupStepFn

STEP = "split"


class SignaturesFn(GroupStepFn):
    """A generate fate row -> (article, signature); a row with candidates but no
    signature (a run generated before articles were signed) is counted
    `near_dup_unsigned`."""
    step = STEP

    def apply(self, row):
        if row.get("article_id") and row.get("minhash"):
            yield self.emit((row["article_id"], tuple(row["minhash"])))
        elif row.get("article_id") and row.get("candidates"):
            yield Count(STEP, "near_dup_unsigned", 1)


class BandKeysFn(GroupStepFn):
    """(article, signature) -> ((band, digest), (article, signature)) per band."""
    step = STEP

    def __init__(self, config: N.NearDupConfig):
        self.config = config

    def apply(self, item):
        article, sig = item
        yield Count(STEP, "near_dup_signatures", 1)
        for key in N.band_keys(sig, self.config.near_dup_bands):
            yield self.emit((key, (article, sig)))


class BucketPairsFn(GroupStepFn):
    """((band, digest), [(article, signature)]) -> ((a, b), similarity) for each pair of
    the bucket at or above the threshold."""
    step, what = STEP, "band_bucket"

    def __init__(self, config: N.NearDupConfig):
        self.config = config

    def apply(self, item):
        _, members = item
        sigs = dict(members)
        yield from self.group_size(len(sigs))
        if len(sigs) < 2:
            return
        if len(sigs) > self.config.near_dup_max_bucket:
            yield Count(STEP, "near_dup_big_buckets", 1)
        pairs = N.bucket_pairs(list(sigs), self.config.near_dup_max_bucket)
        yield Count(STEP, "near_dup_candidate_pairs", len(pairs))
        for a, b in pairs:
            if N.estimated_jaccard(sigs[a], sigs[b]) >= self.config.near_dup_threshold:
                yield self.emit((a, b))


class ComponentsFn(beam.CombineFn):
    """Near-duplicate pairs -> {article: cluster key} (union-find on one worker)."""

    def create_accumulator(self):
        return set()

    def add_input(self, acc, pair):
        acc.add(pair)
        return acc

    def merge_accumulators(self, accs):
        out = set()
        for acc in accs:
            out |= acc
        return out

    def extract_output(self, acc):
        return N.components(acc)


def cluster_counts(clusters: dict, n_pairs: int):
    """The funnel's counts of the clusters."""
    sizes = N.cluster_sizes(clusters)
    yield Count(STEP, "near_dup_pairs", n_pairs)
    yield Count(STEP, "near_dup_clusters", len(sizes))
    yield Count(STEP, "near_dup_clustered_articles", len(clusters))
    yield Count(STEP, "max_near_dup_cluster", max(sizes.values(), default=0))
    for size in sizes.values():
        yield Count(STEP, f"near_dup_size:{N.size_bucket(size)}", 1)


class ExplodeFn(GroupStepFn):
    """{article: cluster key} and the pair count -> (article, cluster key) + counts."""
    step = STEP

    def apply(self, clusters, n_pairs):
        yield from cluster_counts(clusters, n_pairs)
        for article in sorted(clusters):
            yield self.emit((article, clusters[article]))


class NearDuplicateClusters(beam.PTransform):
    """(article_id, signature), or generate's fate rows with `fate_rows=True` ->
    {"main": (article_id, cluster key) for every article with a near-duplicate,
    "counts"} (module docstring)."""

    def __init__(self, config: N.NearDupConfig, fate_rows: bool = False):
        super().__init__()
        self.config, self.fate_rows = config, fate_rows

    def expand(self, sigs):
        config, counts = self.config, []
        if self.fate_rows:
            signed = sigs | "Signatures" >> beam.ParDo(SignaturesFn()).with_outputs(
                COUNTS, main="main")
            sigs, counts = signed.main, [signed[COUNTS]]
        keyed = (sigs
                 | "AsTuples" >> beam.Map(lambda kv: (kv[0], tuple(kv[1])))
                 | "OnePerArticle" >> beam.CombinePerKey(min)
                 | "BandKeys" >> beam.ParDo(BandKeysFn(config)).with_outputs(
                     COUNTS, main="main"))
        pairs = (keyed.main
                 | "ByBand" >> beam.GroupByKey()
                 | "BucketPairs" >> beam.ParDo(BucketPairsFn(config)).with_outputs(
                     COUNTS, main="main"))
        distinct = pairs.main | "DistinctPairs" >> beam.Distinct()
        n_pairs = distinct | "CountPairs" >> beam.combiners.Count.Globally()
        clusters = distinct | "Components" >> beam.CombineGlobally(ComponentsFn())
        out = clusters | "Explode" >> beam.ParDo(
            ExplodeFn(), beam.pvalue.AsSingleton(n_pairs)).with_outputs(COUNTS, main="main")
        counts = (tuple(counts) + (keyed[COUNTS], pairs[COUNTS], out[COUNTS])
                  | "NearDupCounts" >> beam.Flatten())
        return {"main": out.main, COUNTS: counts}

"""NearDuplicateClusters: near-duplicate articles clustered from generate's signatures
(near_duplicates.py holds the rules), by Beam steps whose calls never hold the corpus:

    (article, signature) -> one (band, band digest) key per band -> GroupByKey per band
    bucket -> the bucket's candidate pairs, kept where the estimated Jaccard similarity of
    their signatures reaches the threshold -> Distinct pairs -> connected components
    (union-find) -> each component's signatures and pairs (CoGroupByKey on article, then
    GroupByKey on component) -> bounded clusters (near_dup_bound.py) -> (article, cluster
    key), or (article, None) for an article rejected as a bridge.

A band bucket holds the signatures of the articles that agree on that band (one story's
versions; `near_dup_max_bucket` bounds its pair count). The near-duplicate pairs are few
(a handful per story with versions, none for the other articles), so the components run
on one worker over the pair list (`CombineGlobally`); the articles and their signatures
never meet there, only one component's at a time when it is bounded. Counts go to the
`split` step: signatures, candidate and near-duplicate pairs, components and the largest,
clusters, clustered articles, the largest cluster, a size histogram
(`near_dup_size:<n>`), bridges and cut articles rejected, components too large to compare
whole (`near_dup_big_components`).
"""
import apache_beam as beam

from transforms.core.accounting import COUNTS, Count
from transforms.finalize.splits import STEP
from transforms.finalize.splits import near_duplicates as N
from transforms.finalize.splits.keyed import EdgeSetFn, GroupStepFn, join


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
        for pair in N.similar_in_bucket(sigs, pairs, self.config.near_dup_threshold):
            yield self.emit(pair)


class ComponentsFn(EdgeSetFn):
    """Near-duplicate pairs -> {article: component key} (union-find on one worker)."""

    def extract_output(self, acc):
        return N.components(acc)


class ToComponentFn(GroupStepFn):
    """(article, {component: [key], sig: [signature], pairs: [(a, b)]}) -> (component,
    ("s", article, signature)) and (component, ("p", a, b)) for the articles in a pair."""
    step, what = STEP, "near_dup_article"

    def apply(self, item):
        article, parts = item
        comp, sig, pairs = list(parts["component"]), list(parts["sig"]), list(parts["pairs"])
        yield from self.group_size(len(comp) + len(sig) + len(pairs))
        if not comp:
            return
        if sig:
            yield self.emit((comp[0], ("s", article, sig[0])))
        for a, b in pairs:
            yield self.emit((comp[0], ("p", a, b)))


def cluster_counts(got: dict, n_articles: int, n_pairs: int):
    """The funnel's counts of one component's bounded clusters."""
    sizes = N.cluster_sizes(got["clusters"])
    yield Count(STEP, "near_dup_components", 1)
    yield Count(STEP, "max_near_dup_component", n_articles)
    yield Count(STEP, "near_dup_pairs", n_pairs)
    yield Count(STEP, "near_dup_clusters", len(sizes))
    yield Count(STEP, "near_dup_clustered_articles", len(got["clusters"]))
    yield Count(STEP, "max_near_dup_cluster", max(sizes.values(), default=0))
    yield Count(STEP, "near_dup_bridges", len(got["bridges"]))
    yield Count(STEP, "near_dup_cut", len(got["cut"]))
    if not got["full"]:
        yield Count(STEP, "near_dup_big_components", 1)
    for size in sizes.values():
        yield Count(STEP, f"near_dup_size:{N.size_bucket(size)}", 1)


class BoundFn(GroupStepFn):
    """(component, [("s", article, sig) | ("p", a, b)]) -> (article, cluster key) for
    every clustered article, (article, None) for every rejected one (near_dup_bound.py)."""
    step, what = STEP, "near_dup_component"

    def __init__(self, config: N.NearDupConfig):
        self.config = config

    def apply(self, item):
        _, values = item
        sigs, pairs = {}, []
        for value in values:
            if value[0] == "s":
                sigs[value[1]] = tuple(value[2])
            else:
                pairs.append((value[1], value[2]))
        yield from self.group_size(len(sigs) + len(pairs))
        got = N.bound(sigs, sorted(pairs), self.config)
        yield from cluster_counts(got, len(sigs), len(pairs))
        for article in sorted(got["clusters"]):
            yield self.emit((article, got["clusters"][article]))
        for article in got["bridges"] + got["cut"]:
            yield self.emit((article, None))


class NearDuplicateClusters(beam.PTransform):
    """(article_id, signature), or generate's fate rows with `fate_rows=True` ->
    {"main": (article_id, cluster key) for every clustered article and (article_id,
    None) for every bridge, "counts"} (module docstring)."""

    def __init__(self, config: N.NearDupConfig, fate_rows: bool = False):
        super().__init__()
        self.config, self.fate_rows = config, fate_rows

    def expand(self, sigs):
        config, counts = self.config, []
        if self.fate_rows:
            signed = sigs | "Signatures" >> beam.ParDo(SignaturesFn()).with_outputs(
                COUNTS, main="main")
            sigs, counts = signed.main, [signed[COUNTS]]
        one = (sigs
               | "AsTuples" >> beam.Map(lambda kv: (kv[0], tuple(kv[1])))
               | "OnePerArticle" >> beam.CombinePerKey(min))
        keyed = one | "BandKeys" >> beam.ParDo(BandKeysFn(config)).with_outputs(
            COUNTS, main="main")
        pairs = (keyed.main
                 | "ByBand" >> beam.GroupByKey()
                 | "BucketPairs" >> beam.ParDo(BucketPairsFn(config)).with_outputs(
                     COUNTS, main="main"))
        distinct = pairs.main | "DistinctPairs" >> beam.Distinct()
        comps = (distinct
                 | "Components" >> beam.CombineGlobally(ComponentsFn())
                 | "ComponentOf" >> beam.FlatMap(lambda d: sorted(d.items())))
        routed = (join("JoinComponents", component=comps, sig=one,
                       pairs=distinct | "PairByFirst" >> beam.Map(lambda ab: (ab[0], ab)))
                  | "ToComponent" >> beam.ParDo(ToComponentFn()).with_outputs(
                      COUNTS, main="main"))
        out = (routed.main
               | "ByComponent" >> beam.GroupByKey()
               | "Bound" >> beam.ParDo(BoundFn(config)).with_outputs(COUNTS, main="main"))
        counts = (tuple(counts) + (keyed[COUNTS], pairs[COUNTS], routed[COUNTS], out[COUNTS])
                  | "NearDupCounts" >> beam.Flatten())
        return {"main": out.main, COUNTS: counts}

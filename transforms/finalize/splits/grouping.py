"""GroupArticles: articles that share an exact passage text, a URL or a near-duplicate
cluster (near_dup_beam.py) form one group, whose key is its smallest article id (the same
groups as union-find, `splits.group_articles`, over those links).

One union-find pass over all the links, so any input settles (a chain of any depth):

    (article, link key) -> GroupByKey per link key -> a key shared by several articles
    gives the edges (smallest article, other article); a key of one article gives none
    -> union-find over the edges (CombineGlobally) -> (article, group key) for the linked
    articles -> CoGroupByKey with every article (an article in no edge is its own group).

A link key holds one article in the common case (its own passage and URL), so the edges
are few: a handful per story with copies or versions, at most one per article whatever
an attacker links. The union-find holds the linked articles only (one entry each);
memory per other call: the articles of one link key, or one article's keys.

An article the near-duplicate clustering rejected as a bridge (cluster key None) links
nothing: it gets its own group `bridge_group(article)`, which AssignSplits rejects
(`near_duplicate_bridge`), so it can neither join two groups nor be released.
"""
import apache_beam as beam

from transforms.core.accounting import COUNTS, Count
from transforms.finalize.splits.keyed import EdgeSetFn, GroupStepFn, join
from transforms.finalize.splits.rules import bridge_group, link_keys


class ArticleLinksFn(GroupStepFn):
    """(article, {links: [keys], cluster: [key or None]}) -> (link key, article) for each
    of its keys, or, for a bridge, ("group", (article, its bridge group))."""
    what = "article_keys"

    def __init__(self, step: str):
        self.step = step

    def apply(self, item):
        article, parts = item
        keys, cluster = sorted(set(parts["links"])), list(parts["cluster"])
        yield from self.group_size(len(keys) + len(cluster))
        if not keys:
            return
        yield Count(self.step, "articles", 1)
        if cluster and cluster[0] is None:
            yield Count(self.step, "bridge_articles", 1)
            yield self.emit(("group", (article, bridge_group(article))))
            return
        yield self.emit(("article", (article, article)))
        for key in keys + ["n:" + c for c in cluster]:
            yield self.emit(("link", (key, article)))


class KeyEdgesFn(GroupStepFn):
    """(link key, [articles]) -> (smallest, other) for each other article of the key."""
    what = "link_key"

    def __init__(self, step: str):
        self.step = step

    def apply(self, item):
        _, members = item
        members = sorted(set(members))
        yield from self.group_size(len(members))
        for other in members[1:]:
            yield self.emit((members[0], other))


class UnionFindFn(EdgeSetFn):
    """Edges -> {article: group key} for the linked articles (splits.components)."""

    def extract_output(self, acc):
        from transforms.finalize.splits.rules import components
        return components(acc)


class GroupOfFn(GroupStepFn):
    """(article, {article: [itself], root: [group key]}) -> (article, group key)."""
    what = "article_group"

    def __init__(self, step: str):
        self.step = step

    def apply(self, item):
        article, parts = item
        roots = list(parts["root"])
        yield from self.group_size(len(roots) + 1)
        if list(parts["article"]):
            yield self.emit((article, roots[0] if roots else article))


def _tagged(tag):
    return lambda kv: kv[1] if kv[0] == tag else None


def group_sizes(groups, step: str):
    """Counts of the groups: how many, and the articles of the largest."""
    sizes = (groups
             | "GroupSizeKeys" >> beam.Map(lambda kv: (kv[1], 1))
             | "GroupSizes" >> beam.CombinePerKey(sum))
    return sizes | "GroupSizeCounts" >> beam.Map(
        lambda kv: {f"{step}.article_groups": 1, f"{step}.max_article_group": kv[1]})


class GroupArticles(beam.PTransform):
    """Query rows, or (query rows, (article_id, near-duplicate cluster key or None)) ->
    {"main": (article_id, group key), "counts": ...} (module docstring). `rounds` is
    ignored (grouping was label propagation in rounds; kept for callers)."""

    def __init__(self, rounds=None, step: str = "split"):
        super().__init__()
        self.step = step

    def expand(self, inputs):
        step = self.step
        rows, clusters = inputs if isinstance(inputs, tuple) else (inputs, None)
        links = rows | "LinkKeys" >> beam.FlatMap(
            lambda r: [(r["article_id"], k) for k in link_keys(r["passage"], r["url"])])
        if clusters is None:
            clusters = rows.pipeline | "NoClusters" >> beam.Create([])
        per_article = (join("KeysPerArticle", links=links, cluster=clusters)
                       | "ArticleLinks" >> beam.ParDo(ArticleLinksFn(step)).with_outputs(
                           COUNTS, main="main"))
        tagged = per_article.main
        edges = (tagged
                 | "Links" >> beam.Map(_tagged("link")) | "SomeLinks" >> beam.Filter(bool)
                 | "DistinctLinks" >> beam.Distinct()
                 | "ArticlesPerKey" >> beam.GroupByKey()
                 | "KeyEdges" >> beam.ParDo(KeyEdgesFn(step)).with_outputs(COUNTS, main="main"))
        roots = (edges.main
                 | "DistinctEdges" >> beam.Distinct()
                 | "UnionFind" >> beam.CombineGlobally(UnionFindFn())
                 | "Roots" >> beam.FlatMap(lambda d: sorted(d.items())))
        articles = (tagged | "Articles" >> beam.Map(_tagged("article"))
                    | "SomeArticles" >> beam.Filter(bool))
        linked = (join("JoinRoots", article=articles, root=roots)
                  | "GroupOf" >> beam.ParDo(GroupOfFn(step)).with_outputs(COUNTS, main="main"))
        bridges = (tagged | "Bridges" >> beam.Map(_tagged("group"))
                   | "SomeBridges" >> beam.Filter(bool))
        groups = (linked.main, bridges) | "AllGroups" >> beam.Flatten()
        counts = (per_article[COUNTS], edges[COUNTS], linked[COUNTS],
                  group_sizes(groups, step))
        return {"main": groups, COUNTS: counts | "GroupingCounts" >> beam.Flatten()}

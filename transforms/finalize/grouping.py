"""GroupArticles: articles that share an exact passage text, a URL or a near-duplicate
cluster (near_dup_beam.py) form one group, whose key is its smallest article id (the same
groups as union-find, `splits.group_articles`, over those links).

Connected components by keyed joins, never the whole link table on one worker: every
article starts with its own id as label; each round sends the labels to the link keys
(passage digest, URL), takes the minimum per key (GroupByKey) and hands it back to the
key's articles (CoGroupByKey with their state). After `rounds` rounds, an article whose
label still changed in the last round sits in a component deeper than the rounds allow:
it is counted as `unsettled` and the stage fails naming `--group_rounds`.
Memory per call: the articles of one link key, or the keys of one article.
"""
import apache_beam as beam

from transforms.core.accounting import COUNTS, Count
from transforms.finalize.keyed import GroupStepFn, join
from transforms.finalize.splits import link_keys


class InitialLabelFn(GroupStepFn):
    """(article, [link keys]) -> (article, (label = its own id, keys))."""
    what = "article_keys"

    def __init__(self, step: str):
        self.step = step

    def apply(self, item):
        article, keys = item
        keys = tuple(sorted(keys))
        yield from self.group_size(len(keys))
        yield Count(self.step, "articles", 1)
        yield self.emit((article, (article, keys)))


class KeyMinFn(GroupStepFn):
    """(link key, [(article, label)]) -> (article, smaller label) for each article of the
    key whose label is above the key's minimum."""
    what = "link_key"

    def __init__(self, step: str):
        self.step = step

    def apply(self, item):
        _, members = item
        members = list(members)
        yield from self.group_size(len(members))
        low = min(label for _, label in members)
        for article, label in members:
            if label > low:
                yield self.emit((article, low))


class RelabelFn(GroupStepFn):
    """(article, {state: [(label, keys)], lower: [labels]}) -> (article, (label, keys))."""
    what = "relabel"

    def __init__(self, step: str, last: bool):
        self.step, self.last = step, last

    def apply(self, item):
        article, parts = item
        state, lower = list(parts["state"]), list(parts["lower"])
        yield from self.group_size(len(state) + len(lower))
        if not state:
            return
        label, keys = state[0]
        new = min([label] + lower)
        if self.last and new != label:
            yield Count(self.step, "unsettled", 1)
        yield self.emit((article, (new, keys)))


def near_dup_links(rows, clusters):
    """(article, "n:" + cluster key) for the clustered articles that have rows."""
    present = (rows | "RowArticles" >> beam.Map(lambda r: r["article_id"])
               | "DistinctRowArticles" >> beam.Distinct()
               | "PresentKeys" >> beam.Map(lambda a: (a, True)))
    return (join("JoinNearDup", rows=present, cluster=clusters)
            | "NearDupLinks" >> beam.FlatMap(
                lambda kv: [(kv[0], "n:" + c) for c in kv[1]["cluster"]] if kv[1]["rows"] else []))


class GroupArticles(beam.PTransform):
    """Query rows, or (query rows, (article_id, near-duplicate cluster key)) -> {"main":
    (article_id, group key), "counts": ...} (module docstring)."""

    def __init__(self, rounds: int, step: str = "split"):
        super().__init__()
        self.rounds, self.step = rounds, step

    def expand(self, inputs):
        step = self.step
        rows, clusters = inputs if isinstance(inputs, tuple) else (inputs, None)
        links = rows | "LinkKeys" >> beam.FlatMap(
            lambda r: [(r["article_id"], k) for k in link_keys(r["passage"], r["url"])])
        if clusters is not None:
            links = (links, near_dup_links(rows, clusters)) | "AllLinks" >> beam.Flatten()
        edges = (links
                 | "DistinctLinks" >> beam.Distinct()
                 | "KeysPerArticle" >> beam.GroupByKey())
        init = edges | "InitialLabels" >> beam.ParDo(InitialLabelFn(step)).with_outputs(
            COUNTS, main="main")
        state, counts = init.main, [init[COUNTS]]
        for i in range(1, self.rounds + 1):
            lower = (state
                     | f"Round{i}ToKeys" >> beam.FlatMap(
                         lambda kv: [(k, (kv[0], kv[1][0])) for k in kv[1][1]])
                     | f"Round{i}ByKey" >> beam.GroupByKey()
                     | f"Round{i}KeyMin" >> beam.ParDo(KeyMinFn(step)).with_outputs(
                         COUNTS, main="main"))
            relabel = (join(f"Round{i}Join", state=state, lower=lower.main)
                       | f"Round{i}Relabel" >> beam.ParDo(
                           RelabelFn(step, last=i == self.rounds)).with_outputs(
                           COUNTS, main="main"))
            state = relabel.main
            counts += [lower[COUNTS], relabel[COUNTS]]
        groups = state | "GroupKeys" >> beam.MapTuple(lambda article, s: (article, s[0]))
        return {"main": groups,
                COUNTS: tuple(counts) | "GroupingCounts" >> beam.Flatten()}

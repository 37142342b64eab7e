"""Bounded near-duplicate clusters: one connected component of near-duplicate pairs ->
clusters whose members are near-duplicates of their cluster's core, and the articles
that would chain unrelated stories together, rejected (pure functions, numpy only).

Connected components alone let one crafted article chain two stories: a "bridge" that
holds story i and then story i+1 is a near-duplicate of both, and 39 of them put 71 of
72 articles in 4 components, so every query landed in one split. A bridge is no
near-duplicate of both ends *as a version*: its two neighbours share nothing. So, within
a component of at most `near_dup_max_component` articles (all pairs compared from the
signatures; a larger one uses only the pairs found, step 3):
1. *Bridges.* An article with two near-duplicates whose estimated similarity is below
   `near_dup_unrelated` (two different stories) is a bridge: rejected
   (`near_duplicate_bridge`). Versions of one story all share its text, so none is one
   (measured: docs/finalize.md#near-duplicate-articles).
2. *Coherent groups.* The near-duplicates left form connected groups again. A group
   whose members are all related to each other (no pair below `near_dup_unrelated`: the
   versions of one story) is one cluster.
3. *Cores.* Any other group (a chain that drifts from one story to another, or a group
   too large to compare whole) is cut into stars: in order of most near-duplicates (then
   smallest id), an article not yet placed becomes a core and takes every unplaced
   near-duplicate of it; a cluster is a core and its members, each a near-duplicate of the
   core. An article that is also a near-duplicate of another cluster's article would join
   the two: the one that is not a core (of the later cluster when neither is) is rejected
   (`near_duplicate_bridge` too), so no released article has a near-duplicate in another
   cluster.
A cluster of one is no cluster. A cluster's key is its smallest kept article id.
"""
from typing import Iterable

import numpy as np


def similarity_matrix(sigs: list) -> np.ndarray:
    """k x k estimated Jaccard similarities (shares of equal signature values)."""
    m = np.asarray(sigs, dtype=np.uint32)
    out = np.empty((len(m), len(m)), dtype=np.float32)
    for i in range(len(m)):
        out[i] = (m == m[i]).mean(axis=1)
    return out


def find_bridges(near: np.ndarray, unrelated: np.ndarray) -> np.ndarray:
    """Boolean per article: it has two near-duplicates (`near`, k x k, no diagonal) that
    are unrelated to each other (`unrelated`, k x k)."""
    a = near.astype(np.float32)
    return ((a @ unrelated.astype(np.float32)) * a).sum(axis=1) > 0


def star_clusters(ids: list, neighbours: dict) -> tuple:
    """({article: core}, {rejected article}) over a bridge-free graph (module docstring,
    step 2). `neighbours`: {article: set of near-duplicates}."""
    order = sorted(ids, key=lambda a: (-len(neighbours.get(a, ())), a))
    rank = {a: i for i, a in enumerate(order)}
    core_of = {}
    for a in order:
        if a in core_of:
            continue
        core_of[a] = a
        for b in sorted(neighbours.get(a, ())):
            core_of.setdefault(b, a)
    rejected = set()
    for a in sorted(ids):
        for b in sorted(neighbours.get(a, ())):
            if a >= b or core_of[a] == core_of[b] or a in rejected or b in rejected:
                continue
            if core_of[a] == a:
                rejected.add(b)
            elif core_of[b] == b:
                rejected.add(a)
            else:   # both members: the one of the later cluster
                rejected.add(max((a, b), key=lambda x: rank[core_of[x]]))
    return core_of, rejected


def bound_component(sigs: dict, pairs: Iterable[tuple], threshold: float,
                    unrelated: float, max_component: int) -> dict:
    """{"clusters": {article: cluster key}, "bridges": [articles], "cut": [articles],
    "full": whether all pairs were compared} for one component: `sigs` {article:
    signature}, `pairs` its near-duplicate pairs (module docstring)."""
    from transforms.finalize.splits.rules import components
    ids = sorted(sigs)
    neighbours = {a: set() for a in ids}
    bridges, far_pairs = set(), None
    full = len(ids) <= max_component
    if full:
        sim = similarity_matrix([sigs[a] for a in ids])
        near = sim >= threshold
        far = sim < unrelated
        np.fill_diagonal(near, False)
        np.fill_diagonal(far, False)
        bridges = {ids[i] for i in np.flatnonzero(find_bridges(near, far))}
        pairs = [(ids[i], ids[j]) for i, j in zip(*np.nonzero(np.triu(near, 1)))]
        far_pairs = {(ids[i], ids[j]) for i, j in zip(*np.nonzero(np.triu(far, 1)))}
    pairs = [(a, b) for a, b in pairs
             if a in neighbours and b in neighbours and a not in bridges and b not in bridges]
    for a, b in pairs:
        neighbours[a].add(b)
        neighbours[b].add(a)
    parts = {}
    for a, c in components(pairs).items():
        parts.setdefault(c, []).append(a)
    clusters, cut = {}, set()
    for part in parts.values():
        coherent = far_pairs is not None and not any(
            (a, b) in far_pairs for i, a in enumerate(part) for b in part[i + 1:])
        if coherent:
            clusters.update({a: part[0] for a in part})
            continue
        core_of, rejected = star_clusters(part, neighbours)
        cut |= rejected
        members = {}
        for a in part:
            if a not in rejected:
                members.setdefault(core_of[a], []).append(a)
        clusters.update({a: min(m) for m in members.values() if len(m) > 1 for a in m})
    return {"clusters": clusters, "bridges": sorted(bridges), "cut": sorted(cut),
            "full": full}

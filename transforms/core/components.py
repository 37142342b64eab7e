"""Connected components by union-find, the one implementation every room uses: article
groups and near-duplicate clusters (finalize/splits), look-alike letters
(near_dup_text.py), alias clusters (models/hardness.py), sibling sentences (the release
rules)."""
from typing import Callable, Iterable


def components(pairs: Iterable[tuple], nodes: Iterable = ()) -> dict:
    """{node: component key} over the nodes of `pairs` and `nodes` (alone unless a pair
    joins them); a component's key is its smallest member, whatever the order of `pairs`."""
    parent = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for node in nodes:
        find(node)
    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    return {x: find(x) for x in sorted(parent)}


def index_groups(n: int, joined: Callable[[int, int], bool]) -> list:
    """Indices 0..n-1 in components, where `joined(i, j)` (i < j) links two of them: each
    group in index order, the groups ordered by their first index."""
    key = components(((i, j) for i in range(n) for j in range(i + 1, n) if joined(i, j)),
                     range(n))
    groups = {}
    for i in range(n):
        groups.setdefault(key[i], []).append(i)
    return list(groups.values())

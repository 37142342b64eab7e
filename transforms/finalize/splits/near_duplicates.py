"""Near-duplicate articles (updated versions of one story, one wire story reprinted), as
pure functions (no Beam); generate signs each article, `near_dup_beam.py` clusters them.

An article is compared by its whole cleaned text (paragraphs and highlights): generate
holds it, finalize only the passage and queries. The text is folded first
(near_dup_text.py: entities, NFKC, invisible marks, look-alike letters), so a copy
re-spelled with invisible or look-alike characters signs as the story does. Its 5-word
shingles get a MinHash
signature (datasketch, seeded: the same text gives the same signature in every process);
the signature is cut into `bands` bands of `num_perm / bands` rows, and articles that
share a band are candidate pairs (locality-sensitive hashing). A pair whose estimated
Jaccard similarity (the share of equal signature values) reaches the threshold is a
near-duplicate; each connected component of near-duplicates is then bounded
(near_dup_bound.py: bridges between unrelated stories rejected, clusters cut around a
core), and clusters are keyed by their smallest article id. The defaults (threshold
0.35, 240 permutations, 80 bands) were measured on real stories: docs/finalize.md,
benchmarks/near_duplicates.py.
"""
import hashlib
import math
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from transforms.core.config import setting
from transforms.core.signing import (  # noqa: F401
    SignatureConfig,
    article_text,
    shingles,
    signature,
    text_signature,
    words,
)
from transforms.finalize.splits.near_dup_bound import bound_component


@dataclass(frozen=True)
class NearDupConfig:
    """How finalize finds near-duplicate articles from their signatures (LSH, then the
    threshold); measured defaults: docs/finalize.md#near-duplicate-articles."""
    near_dup_threshold: float = setting(
        0.35, "estimated Jaccard similarity of two articles' word shingles at which they are "
             "versions of one story and share a split (above 1: off)")
    near_dup_bands: int = setting(
        80, "LSH bands of a signature (num_perm / bands rows each): more bands make pairs "
            "of lower similarity candidates")
    near_dup_max_bucket: int = setting(
        100, "articles of one band bucket compared pairwise; a larger bucket (boilerplate "
             "text) compares neighbours in id order only, counted as near_dup_big_buckets")
    near_dup_unrelated: float = setting(
        0.1, "estimated Jaccard similarity below which two articles are different stories: "
             "an article that is a near-duplicate of two such articles is a bridge between "
             "them and is rejected (near_duplicate_bridge)")
    near_dup_max_component: int = setting(
        2000, "articles of one connected group of near-duplicates compared all pairwise "
              "(bridges found); a larger group is cut around cores from the pairs found")

    def __post_init__(self):
        for name in ("near_dup_threshold", "near_dup_unrelated"):
            if not math.isfinite(getattr(self, name)):
                raise ValueError(f"{name} must be a finite number, got {getattr(self, name)}")
        if self.near_dup_bands < 1 or self.near_dup_max_bucket < 2:
            raise ValueError("near_dup_bands must be >= 1 and near_dup_max_bucket >= 2")
        if self.near_dup_threshold <= 0:
            raise ValueError("near_dup_threshold must be positive (above 1 turns it off)")
        if not 0 <= self.near_dup_unrelated < min(self.near_dup_threshold, 1.0):
            raise ValueError("near_dup_unrelated must be >= 0 and below near_dup_threshold")
        if self.near_dup_max_component < 2:
            raise ValueError("near_dup_max_component must be at least 2")

    @property
    def enabled(self) -> bool:
        return self.near_dup_threshold <= 1.0


# --- banding and pairs ------------------------------------------------------------------

def band_keys(sig: tuple, bands: int) -> list:
    """One key per band: (band index, digest of that band's rows). Two signatures share a
    key when all rows of one band agree."""
    if len(sig) % bands:
        raise ValueError(f"a signature of {len(sig)} values does not split into "
                         f"near_dup_bands={bands} bands: make generate's near_dup_num_perm "
                         f"a multiple of it")
    rows = len(sig) // bands
    out = []
    for b in range(bands):
        chunk = ",".join(str(v) for v in sig[b * rows:(b + 1) * rows])
        out.append((b, hashlib.sha1(chunk.encode("ascii")).hexdigest()[:16]))
    return out


def estimated_jaccard(a: tuple, b: tuple) -> float:
    """Share of equal signature values: an unbiased estimate of the Jaccard similarity."""
    return sum(x == y for x, y in zip(a, b)) / len(a)


def similar_in_bucket(sigs: dict, pairs: list, threshold: float) -> list:
    """The `pairs` of one bucket's {article: signature} whose estimated_jaccard reaches
    `threshold`, the signatures compared as one array (the same numbers; a bucket of a
    story's 8 versions makes 28 pairs, and the pair meets again in every band)."""
    ids = sorted({a for pair in pairs for a in pair})
    if not pairs or len({len(sigs[a]) for a in ids}) > 1:
        return [p for p in pairs if estimated_jaccard(sigs[p[0]], sigs[p[1]]) >= threshold]
    index = {a: i for i, a in enumerate(ids)}
    table = np.array([sigs[a] for a in ids])
    if table.dtype.kind not in "iu":     # values past int64 mixed with small ones: floats
        return [p for p in pairs if estimated_jaccard(sigs[p[0]], sigs[p[1]]) >= threshold]
    equal = (table[[index[a] for a, _ in pairs]] == table[[index[b] for _, b in pairs]]).sum(1)
    return [p for p, n in zip(pairs, equal.tolist()) if n / table.shape[1] >= threshold]


def jaccard(a: frozenset, b: frozenset) -> float:
    """Exact Jaccard similarity of two shingle sets (the benchmark's reference)."""
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def bucket_pairs(members: list, max_bucket: int) -> list:
    """Candidate pairs (smaller id, larger id) of one band bucket's article ids: all pairs,
    or only neighbours in id order when the bucket holds more than `max_bucket` articles
    (so one boilerplate bucket cannot make a quadratic number of pairs)."""
    ids = sorted(set(members))
    if len(ids) > max_bucket:
        return list(zip(ids, ids[1:]))
    return [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]]


def similar_pairs(sigs: dict, config: NearDupConfig) -> set:
    """{(a, b)} near-duplicate pairs among {article: signature}, by LSH then the threshold
    (the reference the Beam composite matches)."""
    buckets = {}
    for article, sig in sigs.items():
        for key in band_keys(sig, config.near_dup_bands):
            buckets.setdefault(key, []).append(article)
    found = set()
    for members in buckets.values():
        pairs = [p for p in bucket_pairs(members, config.near_dup_max_bucket)
                 if p not in found]
        if pairs:
            found.update(similar_in_bucket(sigs, pairs, config.near_dup_threshold))
    return found


# --- clusters ---------------------------------------------------------------------------

def components(pairs: Iterable[tuple]) -> dict:
    """{article: component key} by union-find over near-duplicate pairs; the key is the
    component's smallest article id. Articles in no pair are absent."""
    from transforms.finalize.splits.rules import components as union_find
    return union_find(pairs)


def bound(sigs: dict, pairs: Iterable[tuple], config: NearDupConfig) -> dict:
    """One component's bounded clusters (near_dup_bound.bound_component)."""
    return bound_component(sigs, pairs, config.near_dup_threshold,
                           config.near_dup_unrelated, config.near_dup_max_component)


def clusters_of(sigs: dict, config: NearDupConfig) -> tuple:
    """({article: cluster key}, {rejected article: "bridge" or "cut"}) of every signed
    article: LSH pairs, components, each bounded (the reference the Beam composite in
    near_dup_beam.py matches)."""
    pairs = similar_pairs(sigs, config)
    comps = components(pairs)
    members, comp_pairs = {}, {}
    for a, c in comps.items():
        members.setdefault(c, {})[a] = sigs[a]
    for a, b in pairs:
        comp_pairs.setdefault(comps[a], []).append((a, b))
    clusters, rejected = {}, {}
    for c in sorted(members):
        got = bound(members[c], comp_pairs.get(c, []), config)
        clusters.update(got["clusters"])
        rejected.update({a: "bridge" for a in got["bridges"]})
        rejected.update({a: "cut" for a in got["cut"]})
    return clusters, rejected


def cluster_sizes(clusters: dict) -> dict:
    """{cluster key: number of articles}."""
    sizes = {}
    for key in clusters.values():
        sizes[key] = sizes.get(key, 0) + 1
    return sizes


def size_bucket(n: int) -> str:
    """The funnel's histogram bucket of a cluster size: 2, 3, 4, 5-9, 10-99, 100+."""
    if n < 5:
        return str(n)
    if n < 10:
        return "5-9"
    return "10-99" if n < 100 else "100+"

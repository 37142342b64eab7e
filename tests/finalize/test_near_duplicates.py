"""Near-duplicate articles: the pure rules (shingles, signatures, banding, components)
without Beam, the Beam composite against the pure reference, and versions of real stories
(made here) against distinct stories on one topic."""
import glob
import pathlib
import random

import apache_beam as beam
import pytest
from apache_beam.testing.test_pipeline import TestPipeline
from apache_beam.testing.util import assert_that, equal_to

from transforms.core.accounting import COUNTS, SumCounts
from transforms.finalize.splits import near_duplicates as N
from transforms.finalize.splits.near_dup_beam import NearDuplicateClusters

SIGN, CONFIG = N.SignatureConfig(), N.NearDupConfig()


def sig(text, sign=SIGN):
    return N.text_signature(text, sign)


def test_shingles_are_lowercased_word_windows():
    assert N.shingles("The cat, the HAT.", 2) == {"the cat", "cat the", "the hat"}
    assert N.shingles("Two words", 5) == {"two words"}
    assert N.shingles(" ,. ", 5) == frozenset()
    assert N.text_signature("...", SIGN) is None


def test_signature_is_deterministic_and_estimates_jaccard():
    words = [f"w{i}" for i in range(400)]
    a = " ".join(words)
    b = " ".join(words[:300] + [f"x{i}" for i in range(100)])
    assert sig(a) == sig(a) and len(sig(a)) == SIGN.near_dup_num_perm
    assert all(isinstance(v, int) for v in sig(a))
    exact = N.jaccard(N.shingles(a, 5), N.shingles(b, 5))
    assert abs(N.estimated_jaccard(sig(a), sig(b)) - exact) < 0.1
    assert sig(a, N.SignatureConfig(near_dup_seed=2)) != sig(a)


def test_band_keys_match_exactly_where_a_band_agrees():
    s = tuple(range(256))
    t = s[:4] + tuple(v + 1 for v in s[4:])
    ks, kt = N.band_keys(s, 64), N.band_keys(t, 64)
    assert len(ks) == 64 and ks[0] == kt[0] and not set(ks[1:]) & set(kt[1:])
    assert [k[0] for k in ks] == list(range(64))
    with pytest.raises(ValueError, match="near_dup_bands=60"):
        N.band_keys(s, 60)


def test_bucket_pairs_are_all_pairs_or_neighbours_in_big_buckets():
    assert N.bucket_pairs(["c", "a", "b", "a"], 10) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert N.bucket_pairs(["c", "a", "b", "d"], 3) == [("a", "b"), ("b", "c"), ("c", "d")]


def test_similar_in_bucket_is_estimated_jaccard_at_the_threshold():
    rng = random.Random(5)
    base = [rng.randrange(2 ** 63) for _ in range(240)]
    sigs = {f"a{i}": tuple(v if rng.random() < 0.2 * i else rng.randrange(2 ** 63)
                           for v in base) for i in range(6)}
    sigs["short"] = tuple(base[:120])                 # another length: compared one by one
    pairs = N.bucket_pairs(list(sigs), 100)
    for threshold in (0.0, 0.35, 0.6, 1.0):
        want = [p for p in pairs if N.estimated_jaccard(sigs[p[0]], sigs[p[1]]) >= threshold]
        assert N.similar_in_bucket(sigs, pairs, threshold) == want
        same = [p for p in pairs if "short" not in p]
        assert N.similar_in_bucket(sigs, same, threshold) == [p for p in want if p in same]
    assert 0 < len(N.similar_in_bucket(sigs, pairs, 0.35)) < len(pairs)
    assert N.similar_in_bucket(sigs, [], 0.35) == []
    # values past int64 beside small ones would make a float array: compared one by one
    big = {"a": (2 ** 63 + 1, 2 ** 53 + 1, 1), "b": (2 ** 63 + 1, 2 ** 53, 1)}
    assert N.similar_in_bucket(big, [("a", "b")], 1.0) == []
    assert N.similar_in_bucket(big, [("a", "b")], 0.6) == [("a", "b")]


def test_components_key_clusters_by_their_smallest_id():
    got = N.components([("b", "c"), ("d", "e"), ("c", "a"), ("e", "f")])
    assert got == {"a": "a", "b": "a", "c": "a", "d": "d", "e": "d", "f": "d"}
    assert N.components([]) == {}
    assert N.cluster_sizes(got) == {"a": 3, "d": 3}
    assert [N.size_bucket(n) for n in (2, 4, 7, 50, 500)] == ["2", "4", "5-9", "10-99", "100+"]


def test_config_checks():
    with pytest.raises(ValueError):
        N.NearDupConfig(near_dup_threshold=0)
    assert not N.NearDupConfig(near_dup_threshold=1.5).enabled
    with pytest.raises(ValueError):
        N.SignatureConfig(near_dup_shingle=0)


# --- real stories ---------------------------------------------------------------------

def real_stories(corpus_dir, topic, n):
    """n BBC stories of one topic folder: (id, paragraphs)."""
    out = []
    for path in sorted(glob.glob(str(corpus_dir / "bbc_news" / topic / "*.txt")))[:n]:
        paras = [p.strip() for p in pathlib.Path(path).read_text(errors="replace").split("\n\n")
                 if p.strip()]
        out.append((f"{topic}-{pathlib.Path(path).stem}", paras[1:]))
    return out


def updated(paras, seed):
    """An updated version: one early sentence reworded, the last paragraph cut."""
    rng = random.Random(seed)
    paras = list(paras[:-1])
    i = rng.randrange(min(2, len(paras)))
    words = paras[i].split()
    del words[rng.randrange(1, len(words) - 1)]
    words.insert(rng.randrange(1, len(words)), "reportedly")
    paras[i] = " ".join(words)
    return paras


def reprint(paras):
    """The wire story another outlet runs: its own lead and sign-off, the same body."""
    return (["NEW YORK (Wire) - Officials confirmed the news late on Tuesday, people familiar "
             "with the matter said."] + paras[1:-1] + ["Reporting by Staff; editing by Desk."])


@pytest.fixture(scope="module")
def versions(corpus_dir):
    """{article id: text}: 12 politics stories (one topic: one election), a version and a
    reprint of each of the first 6, and which ids are one story."""
    stories = [(a, p) for a, p in real_stories(corpus_dir, "politics", 40) if len(p) >= 5][:12]
    texts, story = {}, {}
    for i, (aid, paras) in enumerate(stories):
        texts[aid], story[aid] = N.article_text(paras), aid
        if i < 6:
            texts[aid + "-v2"], story[aid + "-v2"] = N.article_text(updated(paras, i)), aid
            texts[aid + "-wire"], story[aid + "-wire"] = N.article_text(reprint(paras)), aid
    return texts, story


def test_versions_of_real_stories_cluster_and_one_topic_stays_apart(versions):
    texts, story = versions
    sigs = {a: sig(t) for a, t in texts.items()}
    clusters, rejected = N.clusters_of(sigs, CONFIG)
    assert rejected == {}       # versions of one story are never bridges
    for a in texts:
        if a != story[a]:
            assert clusters.get(a) == clusters.get(story[a]) is not None, a
    for a in texts:
        for b in texts:
            if story[a] != story[b]:
                assert clusters.get(a) is None or clusters.get(a) != clusters.get(b), (a, b)
    assert len(set(clusters.values())) == 6


def test_beam_clusters_equal_the_pure_reference(versions):
    texts, _ = versions
    sigs = {a: sig(t) for a, t in texts.items()}
    reference, rejected = N.clusters_of(sigs, CONFIG)
    assert reference and not rejected   # the test can fail: there are clusters to find
    with TestPipeline() as p:
        found = p | beam.Create(sorted(sigs.items())) | NearDuplicateClusters(CONFIG)
        assert_that(found["main"], equal_to(sorted(reference.items())), label="Clusters")
        totals = found[COUNTS] | beam.CombineGlobally(SumCounts())
        assert_that(totals, lambda got: check_counts(got[0], sigs, reference), label="Counts")


def check_counts(got, sigs, reference):
    assert got["split.near_dup_signatures"] == len(sigs)
    assert got["split.near_dup_clusters"] == len(N.cluster_sizes(reference)) == 6
    assert got["split.near_dup_clustered_articles"] == len(reference) == 18
    assert got["split.near_dup_size:3"] == 6 and got["split.max_near_dup_cluster"] == 3
    assert got["split.near_dup_pairs"] >= 12 and got["split.max_group_band_bucket"] >= 2
    assert got["split.near_dup_components"] == 6 and got["split.max_near_dup_component"] == 3
    assert got["split.near_dup_bridges"] == got["split.near_dup_cut"] == 0


def test_big_buckets_compare_neighbours_only():
    sigs = {f"a{i}": tuple([7] * 8) for i in range(5)}
    config = N.NearDupConfig(near_dup_bands=2, near_dup_max_bucket=3)
    assert N.similar_pairs(sigs, config) == {("a0", "a1"), ("a1", "a2"), ("a2", "a3"),
                                             ("a3", "a4")}
    assert set(N.components(N.similar_pairs(sigs, config)).values()) == {"a0"}
    # compared whole (all identical: one coherent cluster), or, past
    # near_dup_max_component, cut around cores of the pairs found: the path a0-...-a4 gives
    # a1 (most pairs, smallest id) with a0 and a2, then a3 with a4; a2 would join them
    assert set(N.clusters_of(sigs, config)[0].values()) == {"a0"}
    small = N.NearDupConfig(near_dup_bands=2, near_dup_max_bucket=3, near_dup_max_component=4)
    clusters, rejected = N.clusters_of(sigs, small)
    assert clusters == {"a0": "a0", "a1": "a0", "a3": "a3", "a4": "a3"}
    assert rejected == {"a2": "cut"}


def test_benchmark_separates_versions_from_one_topic(corpus_dir):
    """benchmarks/near_duplicates.py on a small sample: it measures, and the default
    threshold keeps the versions together and the topics apart there too."""
    from benchmarks import near_duplicates as B
    report = B.measure(corpus_dir, stories=8, per_topic=15)
    full = report["similarity"]["full"]
    assert full["number"]["min"] > 0.9 and full["same_topic:politics"]["max"] < 0.35
    (row,) = [r for r in report["clustering"] if r["threshold"] == 0.35]
    assert row["precision"] == 1.0 and row["recall"] >= 0.9

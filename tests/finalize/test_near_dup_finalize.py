"""Near-duplicate clustering through the finalize stage: versions of real stories (made
here: new id and URL, a sentence reworded, the last paragraph cut; a wire reprint) land in
one split, while distinct stories on one topic stay apart. Without the clustering
(`--near_dup_threshold 2`, the old grouping by exact passage or URL) versions split."""
import collections
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from beam_pipelines import validate
from tests.finalize.test_finalize import run_finalize, write_filtered
from tests.finalize.test_near_duplicates import real_stories, reprint, updated
from transforms.core import manifest
from transforms.core.schema import GENERATION_FATE_SCHEMA
from transforms.finalize.splits import near_duplicates as N

SPLITS = ("train", "dev", "test")


def rows_of(aid, paras):
    """Two kept queries of an article whose passage is its first two paragraphs."""
    passage = paras[0] + "\n" + paras[1] + "\n@highlight\n" + paras[0].split(".")[0]
    name = next(w.strip(".,'\"") for w in passage.split()[1:]
                if w[:1].isupper() and len(w.strip(".,'\"")) > 3)
    spans, at = [], passage.find(name)
    while at != -1:
        spans.append({"start": at, "end": at + len(name), "text": name})
        at = passage.find(name, at + 1)
    entities = [dict(s, label="ORG") for s in spans]
    return [{"id": f"{aid}-q{j}", "passage_id": f"{aid}-p", "article_id": aid, "source": "bbc",
             "origin": "public", "url": f"http://news.example/{aid}", "passage": passage,
             "entities": entities, "query": q, "answers": spans}
            for j, q in enumerate(("@placeholder said on Tuesday.", "Critics of @placeholder spoke."))]


@pytest.fixture(scope="module")
def run_dir(corpus_dir, tmp_path_factory):
    """16 business stories (one topic), 8 of them with an updated version and a reprint."""
    stories = [(a, p) for a, p in real_stories(corpus_dir, "business", 60) if len(p) >= 5][:16]
    rows, texts, story = [], {}, {}
    for i, (aid, paras) in enumerate(stories):
        made = [(aid, paras)]
        if i < 8:
            made += [(aid + "-v2", updated(paras, i)), (aid + "-wire", reprint(paras))]
        for vid, vparas in made:
            rows += rows_of(vid, vparas)
            texts[vid], story[vid] = N.article_text(vparas), aid
    root = tmp_path_factory.mktemp("neardup")
    filtered = write_filtered(root, rows)
    fates_dir = root / "articles"
    path = next(fates_dir.glob("*.parquet"))
    fates = pq.read_table(path).to_pylist()
    for f in fates:       # generate's signatures, as GenerateQueriesFn writes them
        if f["article_id"] in texts:
            f["minhash"] = list(N.text_signature(texts[f["article_id"]], N.SignatureConfig()))
    pq.write_table(pa.Table.from_pylist(fates, schema=GENERATION_FATE_SCHEMA), path)
    manifest.write(str(fates_dir))
    return root, filtered, story


def splits_of(dataset):
    where = collections.defaultdict(set)
    for split in SPLITS:
        for f in dataset.glob(f"{split}-*.parquet"):
            for a in pq.read_table(f, columns=["article_id"]).column("article_id").to_pylist():
                where[a].add(split)
    return where


def version_pairs(story):
    return [(a, s) for a, s in story.items() if a != s]


def test_versions_share_a_split_and_one_topic_is_not_merged(run_dir):
    root, filtered, story = run_dir
    dataset = run_finalize(filtered, root / "dataset")
    where = splits_of(dataset)
    assert all(len(s) == 1 for s in where.values())
    assert len(version_pairs(story)) == 16
    assert [p for p in version_pairs(story) if where[p[0]] != where[p[1]]] == []
    fates = {r["article_id"]: r for f in (dataset / "articles").glob("*.parquet")
             for r in pq.read_table(f).to_pylist()}
    assert "minhash" not in next(iter(fates.values()))
    for a, s in story.items():
        expected = min(a2 for a2, s2 in story.items() if s2 == s) if a != s or s + "-v2" in story \
            else None
        assert fates[a]["near_dup_cluster"] == expected, a
    assert len({fates[a]["near_dup_cluster"] for a in story} - {None}) == 8
    split = json.loads((dataset / "stats.json").read_text())["funnel"]["stages"]["split"]
    assert split["near_dup_clusters"] == 8 and split["near_dup_clustered_articles"] == 24
    assert split["near_dup_size:3"] == 8 and split["max_near_dup_cluster"] == 3
    assert split["near_dup_signatures"] == len(story)
    assert split["near_dup_unsigned"] == 1     # write_filtered's "answered" article: no signature
    assert len({s for v in where.values() for s in v}) == 3
    assert validate.run([str(dataset)]) == []


def test_validate_names_a_cluster_in_two_splits(tmp_path):
    (tmp_path / "articles").mkdir()
    rows = [dict(article_id=a, near_dup_cluster="a", split=s)
            for a, s in (("a", "train"), ("b", "test"), ("c", None))]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "articles" / "x.parquet")
    found = list(validate._check_near_dup_clusters(str(tmp_path)))
    assert found == ["articles: near-duplicate cluster 'a' appears in test and train (leakage)"]


def test_without_clustering_versions_land_in_two_splits(run_dir):
    """The old grouping (exact passage text or URL only) splits versions: the leak."""
    root, filtered, story = run_dir
    dataset = run_finalize(filtered, root / "dataset-off", "--near_dup_threshold", "2")
    where = splits_of(dataset)
    assert [p for p in version_pairs(story) if where[p[0]] != where[p[1]]]
    split = json.loads((dataset / "stats.json").read_text())["funnel"]["stages"]["split"]
    assert "near_dup_clusters" not in split

"""The finalize composites, each run on TestPipeline against the pure rules."""
import collections
import json
import random

import apache_beam as beam
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from apache_beam.testing.test_pipeline import TestPipeline as BeamTestPipeline
from apache_beam.testing.util import assert_that, equal_to

from transforms.core.accounting import COUNTS, REJECTED, SumCounts
from transforms.core.schema import DATASET_SCHEMA
from transforms.finalize.exports.shards import WriteSplitShards
from transforms.finalize.report.dataset_stats import (
    Table1,
    distributions,
    summarize_counts,
    table1,
)
from transforms.finalize.report.fates import ArticleFates
from transforms.finalize.splits import rules as splits
from transforms.finalize.splits.assign import AssignSplits
from transforms.finalize.splits.dedupe import DropDuplicateQueries
from transforms.finalize.splits.grouping import GroupArticles
from transforms.finalize.splits.verdicts import ApplyHumanValidation, verdict_source


def _row(qid, article, passage="P", url=None, query="Q @placeholder", origin="public",
         valid_for=None, split=None):
    row = {"id": qid, "passage_id": f"{article}-p", "article_id": article, "source": "cnn",
           "origin": origin, "url": url, "passage": passage, "query": query,
           "entities": [{"start": 0, "end": 1, "text": passage[:1], "label": "PERSON"}],
           "answers": [{"start": 0, "end": 1, "text": passage[:1]}]}
    if valid_for:
        row["_valid_for"] = valid_for
    if split:
        row["split"] = split
    return row


def _summed(pcoll, label="Counts"):
    return pcoll | label >> beam.CombineGlobally(SumCounts())


def _ids(pcoll, label):
    return pcoll | label >> beam.Map(lambda r: r["id"] if "id" in r else r["record_id"])


def test_drop_duplicate_queries_keeps_the_smallest_id():
    rows = [_row("q2", "a"), _row("q1", "a"), _row("q3", "a", query="other @placeholder"),
            _row("q4", "b")]
    with BeamTestPipeline() as p:
        out = p | beam.Create(rows) | DropDuplicateQueries()
        assert_that(_ids(out.main, "Kept"), equal_to(["q1", "q3", "q4"]), label="KeptIds")
        assert_that(out[REJECTED] | beam.Map(lambda r: (r["record_id"], r["reason"], r["detail"])),
                    equal_to([("q2", "duplicate_query_in_passage", "duplicate of q1")]),
                    label="Rejected")
        assert_that(_summed(out[COUNTS]), equal_to([{
            "dedupe.in": 4, "dedupe.out": 3, "dedupe.max_group": 2,
            "dedupe.rejected.duplicate_query_in_passage": 1}]), label="Sums")


@pytest.mark.parametrize("kind", ["parquet", "jsonl"])
def test_human_validation_joins_verdicts_by_id(tmp_path, kind):
    verdicts = [("q1", "dev_test"), ("q2", "train"), ("q3", "none"), ("q5", "train"),
                ("q5", "dev_test"), ("q9", "dev_test"), ("q6", "maybe"), ("q1", "dev_test")]
    if kind == "parquet":
        pq.write_table(pa.table({"id": [v[0] for v in verdicts],
                                 "valid_for": [v[1] for v in verdicts]}),
                       tmp_path / "validated-00000-of-00001.parquet")
    else:
        (tmp_path / "validated.jsonl").write_text(
            "".join(json.dumps({"id": q, "valid_for": v}) + "\n" for q, v in verdicts) + "\n")
    source = verdict_source(str(tmp_path))
    assert source[0] == kind
    rows = [_row(f"q{i}", "a") for i in range(1, 7)]
    with BeamTestPipeline() as p:
        out = p | beam.Create(rows) | ApplyHumanValidation(source)
        assert_that(out["main"] | beam.Map(lambda r: (r["id"], r["_valid_for"])),
                    equal_to([("q1", "dev_test"), ("q2", "train")]), label="Tagged")
        assert_that(out[REJECTED] | beam.Map(lambda r: (r["record_id"], r["reason"])),
                    equal_to([("q3", "failed_human_validation"), ("q4", "not_human_validated"),
                              ("q5", "conflicting_verdicts"), ("q6", "not_human_validated")]),
                    label="Rejected")
        assert_that(_summed(out[COUNTS]), equal_to([{
            "human_validation.in": 6, "human_validation.out": 2,
            "human_validation.rejected.failed_human_validation": 1,
            "human_validation.rejected.not_human_validated": 2,
            "human_validation.rejected.conflicting_verdicts": 1,
            "human_validation.conflicting_verdicts": 1, "human_validation.invalid_verdicts": 1,
            "human_validation.verdicts": 7, "human_validation.verdicts_without_query": 1,
            "human_validation.max_group": 3, "human_validation.valid_for_train": 1,
            "human_validation.valid_for_dev_test": 1}]), label="Sums")


def _links(n, rng):
    """Random articles: (article, passage text, url) with shared texts and URLs."""
    return [(f"a{i:04d}", f"text {rng.randrange(n * 2)}",
             f"http://x/{rng.randrange(n * 2)}" if rng.random() < 0.8 else None)
            for i in range(n)]


def test_group_articles_equals_union_find():
    rng = random.Random(7)
    links = _links(300, rng)
    rows = [_row(f"{a}-q{j}", a, passage=t, url=u) for a, t, u in links for j in range(2)]
    want = splits.group_articles((a, splits.passage_digest(t), u) for a, t, u in links)
    assert len(set(want.values())) < 250          # there are groups to find
    with BeamTestPipeline() as p:
        out = p | beam.Create(rows) | GroupArticles()
        assert_that(out["main"], equal_to(sorted(want.items())), label="Groups")
        assert_that(_summed(out[COUNTS]) | beam.Map(lambda c: c.get("split.unsettled", 0)),
                    equal_to([0]), label="Settled")


def test_group_articles_settle_a_chain_of_any_depth():
    """A chain z39 - ... - z0 - a0, alternately a shared text and a shared URL, is one
    group (label propagation in 8 rounds failed such chains: issue 28)."""
    chain = [f"z{i:02d}" for i in range(39, -1, -1)] + ["a0"]
    rows = [_row(f"{a}-q", a, passage=f"t{i // 2}", url=f"http://u/{(i + 1) // 2}")
            for i, a in enumerate(chain)]
    rows += [_row("solo-q", "solo", passage="alone", url=None)]
    with BeamTestPipeline() as p:
        out = p | beam.Create(rows) | GroupArticles()
        assert_that(out["main"], equal_to([(a, "a0") for a in chain] + [("solo", "solo")]),
                    label="OneGroup")
        sums = _summed(out[COUNTS])
        assert_that(sums | beam.Map(lambda c: (c["split.article_groups"],
                                               c["split.max_article_group"],
                                               c.get("split.unsettled", 0))),
                    equal_to([(2, 41, 0)]), label="Counts")


def test_a_near_duplicate_bridge_gets_its_own_group_and_links_nothing():
    # b1 shares a's URL and c's passage; as a bridge it must not join a and c
    rows = [_row("a-q", "a", passage="pa", url="http://a"),
            _row("b1-q", "b1", passage="pc", url="http://a"),
            _row("c-q", "c", passage="pc", url="http://c")]
    clusters = [("a", "a"), ("c", "a"), ("b1", None)]
    with BeamTestPipeline() as p:
        out = (p | "Rows" >> beam.Create(rows),
               p | "Clusters" >> beam.Create(clusters)) | GroupArticles()
        assert_that(out["main"], equal_to([("a", "a"), ("c", "a"),
                                           ("b1", splits.bridge_group("b1"))]))


def _assign_reference(rows, config):
    groups = splits.group_articles((r["article_id"], splits.passage_digest(r["passage"]), r["url"])
                                   for r in rows)
    members = collections.defaultdict(list)
    for r in rows:
        members[groups[r["article_id"]]].append((r["origin"], r["_valid_for"] == "dev_test"))
    placed = splits.assign_splits([splits.summarize_group(k, v) for k, v in members.items()],
                                  config)
    kept, rejected = {}, {}
    for r in rows:
        split, reason = placed[groups[r["article_id"]]]
        if split is None:
            rejected[r["id"]] = reason
        elif not splits.validation_allows(r["_valid_for"], split):
            rejected[r["id"]] = f"not_validated_for_{split}"
        else:
            kept[r["id"]] = split
    return kept, rejected


@pytest.mark.parametrize("config", [
    splits.SplitConfig(),
    splits.SplitConfig(0.5, 0.25, 0.25, dev_size=40, test_size=25),
    splits.SplitConfig.paper(train_fraction=0.4, dev_fraction=0.3, test_fraction=0.3),
    splits.SplitConfig.paper(dev_size=30, salt="other"),
    splits.SplitConfig(train_origins=("public",), dev_size=10, test_size=7),
], ids=["default", "caps", "paper", "paper-capped", "caps-reject"])
def test_assign_splits_matches_the_reference_first_fit(config):
    rng = random.Random(11)
    rows = []
    for a, text, url in _links(250, rng):
        origin = "public" if rng.random() < 0.6 else "crawled"
        for j in range(rng.choice([1, 1, 2, 3, 5, 8])):
            rows.append(_row(f"{a}-q{j}", a, passage=text, url=url, origin=origin,
                             valid_for=rng.choice(["train", "dev_test", "dev_test"])))
    kept, rejected = _assign_reference(rows, config)
    assert "train" in kept.values() and len(kept) + len(rejected) == len(rows)
    with BeamTestPipeline() as p:
        rows_pc = p | beam.Create(rows)
        groups = rows_pc | GroupArticles()
        out = (rows_pc, groups["main"]) | AssignSplits(config, buckets=8)
        assert_that(out["main"] | beam.Map(lambda r: (r["id"], r["split"])),
                    equal_to(sorted(kept.items())), label="Splits")
        assert_that(out[REJECTED] | beam.Map(lambda r: (r["record_id"], r["reason"])),
                    equal_to(sorted(rejected.items())), label="Rejected")
        assert_that(out["main"] | beam.Map(lambda r: sorted(r) == sorted(DATASET_SCHEMA.names)),
                    equal_to([True] * len(kept)), label="Columns")


def test_write_split_shards_by_volume_with_an_empty_split(tmp_path):
    rows = [_row(f"q{i:03d}", f"a{i}", split="train" if i < 25 else "test") for i in range(30)]
    rows = [{k: r[k] for k in DATASET_SCHEMA.names} for r in rows]
    with BeamTestPipeline() as p:
        out = p | beam.Create(rows) | WriteSplitShards(str(tmp_path), shard_rows=10)
        assert_that(out["main"] | beam.Map(lambda t: t[1]), equal_to([
            "train-00000-of-00003.parquet", "train-00001-of-00003.parquet",
            "train-00002-of-00003.parquet", "test-00000-of-00001.parquet",
            "dev-00000-of-00001.parquet"]), label="Files")
        assert_that(_summed(out[COUNTS]) | beam.Map(lambda c: (c["write.in"], c["write.out"])),
                    equal_to([(30, 30)]), label="Sums")
    assert pq.read_table(tmp_path / "dev-00000-of-00001.parquet").num_rows == 0
    assert pq.read_schema(tmp_path / "dev-00000-of-00001.parquet") == DATASET_SCHEMA
    train = pq.read_table(sorted(tmp_path.glob("train-*.parquet"))).to_pylist()
    assert sorted(r["id"] for r in train) == [f"q{i:03d}" for i in range(25)]


def _passage(pid, split, text, queries, n_entities):
    return {"passage_id": pid, "article_id": pid, "source": "cnn", "origin": "public",
            "url": None, "split": split, "passage": text,
            "entities": [{"start": 0, "end": 1, "text": "x", "label": "P"}] * n_entities,
            "qas": [{"id": f"{pid}-{i}", "query": q, "answers": []} for i, q in enumerate(queries)]}


def test_table1_has_exact_vocabularies_sums_and_value_counts():
    passages = [_passage("p1", "train", "Ann met Bob in Rome .", ["Ann left .", "Bob ran"], 3),
                _passage("p2", "train", "Bob met Cy", ["Cy ran home"], 2),
                _passage("p3", "dev", "ann saw Dee", ["Dee left ."], 5)]
    with BeamTestPipeline() as p:
        figures = p | beam.Create(passages) | Table1()
        assert_that(figures | beam.Map(table1), equal_to([{
            "train": {"queries": 3, "unique_passages": 2, "passage_vocab": 7, "query_vocab": 7,
                      "tokens_per_passage": 4.5, "entities_per_passage": 2.5,
                      "tokens_per_query": 2.7},
            "dev": {"queries": 1, "unique_passages": 1, "passage_vocab": 3, "query_vocab": 3,
                    "tokens_per_passage": 3.0, "entities_per_passage": 5.0,
                    "tokens_per_query": 3.0},
            "test": {"queries": 0, "unique_passages": 0, "passage_vocab": 0, "query_vocab": 0,
                     "tokens_per_passage": 0.0, "entities_per_passage": 0.0,
                     "tokens_per_query": 0.0},
            "overall": {"queries": 4, "unique_passages": 3, "passage_vocab": 10,
                        "query_vocab": 8, "tokens_per_passage": 4.0,
                        "entities_per_passage": 3.3, "tokens_per_query": 2.8}}]), label="Table1")
        assert_that(figures | beam.Map(lambda f: distributions(f)["train"]), equal_to([{
            "passage_tokens": {3: 1, 6: 1}, "query_tokens": {2: 1, 3: 2},
            "entities": {2: 1, 3: 1}}]), label="Values")


def test_summarize_counts_is_statistics_median():
    import statistics
    for values in ([3], [1, 2], [5, 1, 1, 9], [2, 2, 2, 7, 8], list(range(11))):
        counts = collections.Counter(values)
        assert summarize_counts(counts) == {"min": min(values), "max": max(values),
                                            "median": statistics.median(values)}
    assert summarize_counts({}) == {"min": None, "median": None, "max": None}


def test_article_fates_join_every_article():
    fates = [{"article_id": "a", "record_id": None, "source_file": "a.story", "origin": "public",
              "stage": None, "reason": None, "candidates": 3},
             {"article_id": "a", "record_id": None, "source_file": "a2.story", "origin": "public",
              "stage": "deduplicate", "reason": "duplicate_article_id", "candidates": 0},
             {"article_id": "b", "record_id": None, "source_file": "b.story", "origin": "public",
              "stage": None, "reason": None, "candidates": 2},
             {"article_id": "c", "record_id": None, "source_file": "c.story", "origin": "public",
              "stage": None, "reason": None, "candidates": 4},
             {"article_id": None, "record_id": "x.gz (byte 9)", "source_file": "x.gz",
              "origin": None, "stage": "files", "reason": "truncated_gzip", "candidates": 0}]
    kept = [{"article_id": "a"}, {"article_id": "a"}, {"article_id": "c"}, {"article_id": "c"},
            {"article_id": "d"}]
    released = [{"article_id": "a", "split": "dev"}]
    rejected = [{"article_id": "a", "stage": "dedupe", "reason": "duplicate_query_in_passage"},
                {"article_id": "c", "stage": "human_validation", "reason": "failed_human_validation"},
                {"article_id": "c", "stage": "split", "reason": "not_validated_for_dev"},
                {"article_id": "c", "stage": "split", "reason": "not_validated_for_dev"}]
    with BeamTestPipeline() as p:
        out = (p | "F" >> beam.Create(fates), p | "K" >> beam.Create(kept),
               p | "R" >> beam.Create(released), p | "X" >> beam.Create(rejected)) | ArticleFates()
        assert_that(out["main"] | beam.Map(lambda r: (
            r["article_id"], r["source_file"], r["stage"], r["reason"], r["kept"],
            r["released"], r["split"])), equal_to([
                ("a", "a.story", None, None, 2, 1, "dev"),
                ("a", "a2.story", "deduplicate", "duplicate_article_id", 0, 0, None),
                ("b", "b.story", "adversarial_filter", "none_kept", 0, 0, None),
                ("c", "c.story", "split", "not_validated_for_dev", 2, 0, None),
                ("d", None, "articles", "no_generation_fate", 1, 0, None),
                (None, "x.gz", "files", "truncated_gzip", 0, 0, None)]), label="Fates")
        assert_that(_summed(out[COUNTS]) | beam.Map(
            lambda c: (c["articles.rows"], c["articles.kept"], c["articles.released"],
                       c["articles.kept_without_fate"])), equal_to([(6, 5, 1, 1)]),
            label="Sums")

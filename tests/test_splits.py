"""Split rules as plain functions (no Beam): grouping, placement, origins, caps, validation."""
import collections
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from transforms.finalize import splits
from transforms.finalize.splits import GroupSummary, SplitConfig


def _groups(n, origin="public", queries=3, prefix="a"):
    return [GroupSummary(f"{prefix}{i:05d}", ((origin, queries),), queries) for i in range(n)]


def _by_split(result, groups):
    out = collections.defaultdict(list)
    for g in groups:
        split, reason = result[g.key]
        out[split or reason].append(g)
    return out


def test_group_articles_unions_shared_passage_text_and_url_transitively():
    links = [("a3", "p1", "u1"), ("a1", "p1", None),   # same passage text
             ("a2", "p2", "u1"),                        # same URL as a3
             ("a4", "p4", ""), ("a5", "p5", None)]
    groups = splits.group_articles(links)
    assert groups == {"a1": "a1", "a2": "a1", "a3": "a1", "a4": "a4", "a5": "a5"}


def test_group_articles_ignores_missing_urls():
    groups = splits.group_articles([("a", "p1", None), ("b", "p2", None), ("c", "p3", "")])
    assert set(groups.values()) == {"a", "b", "c"}


def test_default_policy_splits_groups_80_10_10_by_hash_and_is_deterministic():
    groups = _groups(3000)
    result = splits.assign_splits(groups, SplitConfig())
    assert result == splits.assign_splits(list(reversed(groups)), SplitConfig())
    sizes = {k: len(v) for k, v in _by_split(result, groups).items()}
    assert set(sizes) == {"train", "dev", "test"}
    assert 0.77 < sizes["train"] / 3000 < 0.83
    assert 0.08 < sizes["dev"] / 3000 < 0.12 and 0.08 < sizes["test"] / 3000 < 0.12


def test_a_group_keeps_its_split_when_other_groups_are_added():
    small = splits.assign_splits(_groups(200), SplitConfig())
    large = splits.assign_splits(_groups(200) + _groups(500, prefix="b"), SplitConfig())
    assert all(large[k] == v for k, v in small.items())


def test_salt_and_fractions_change_the_assignment():
    groups = _groups(500)
    base = splits.assign_splits(groups, SplitConfig())
    assert splits.assign_splits(groups, SplitConfig(salt="other")) != base
    only_train = splits.assign_splits(groups, SplitConfig(1.0, 0.0, 0.0))
    assert {v for v in only_train.values()} == {("train", None)}


@pytest.mark.parametrize("n_crawled", [600, 3000])
def test_paper_policy_trains_on_public_only_and_draws_dev_test_3_to_7(n_crawled):
    public = _groups(2000, "public", queries=1)
    crawled = _groups(n_crawled, "crawled", queries=1, prefix="c")
    result = splits.assign_splits(public + crawled, SplitConfig.paper())
    by = _by_split(result, public + crawled)
    assert all(g.origins == ("public",) for g in by["train"])
    for split in ("dev", "test"):
        origins = collections.Counter(g.primary_origin for g in by[split])
        assert origins["public"] / (origins["public"] + origins["crawled"]) == pytest.approx(0.3, abs=0.01)
    if n_crawled == 600:   # crawled is scarce: the public groups dev/test cannot use train
        assert len(by["train"]) > 0.8 * 2000 + 100 and not by["dev_test_origin_ratio"]
    else:                  # public is scarce: the unused crawled groups are rejected
        assert len(by["train"]) < 0.8 * 2000 + 50
        assert len(by["dev_test_origin_ratio"]) > 1000
        assert all(g.origins == ("crawled",) for g in by["dev_test_origin_ratio"])


def test_origins_outside_the_policy_are_rejected():
    groups = _groups(10, "blog")
    config = SplitConfig(train_origins=("public",), dev_test_origins=("public",))
    assert set(splits.assign_splits(groups, config).values()) == {(None, "origin_not_in_split_policy")}


def test_a_group_mixing_origins_may_only_go_where_all_its_origins_may():
    mixed = [GroupSummary(f"m{i}", (("crawled", 1), ("public", 5)), 6) for i in range(200)]
    assert mixed[0].primary_origin == "public"
    result = splits.assign_splits(mixed, SplitConfig(train_origins=("public",)))
    assert {split for split, _ in result.values()} == {"dev", "test"}


def test_dev_and_test_size_caps_move_public_groups_back_to_train():
    groups = _groups(1000, queries=2)
    config = SplitConfig(dev_size=20, test_size=30)
    by = _by_split(splits.assign_splits(groups, config), groups)
    assert sum(g.n_queries for g in by["dev"]) == 20
    assert sum(g.n_queries for g in by["test"]) == 30
    assert len(by["train"]) == 1000 - 25


def test_caps_reject_groups_that_cannot_go_to_train():
    groups = _groups(100, "crawled", queries=1)
    config = SplitConfig(train_origins=("public",), dev_size=5, test_size=5)
    by = _by_split(splits.assign_splits(groups, config), groups)
    assert len(by["dev"]) == 5 and len(by["test"]) == 5
    assert len(by["dev_size_cap"]) + len(by["test_size_cap"]) == 90


def test_groups_without_dev_test_validated_queries_go_to_train():
    groups = [GroupSummary(f"g{i}", (("public", 2),), 0) for i in range(300)]
    result = splits.assign_splits(groups, SplitConfig())
    assert set(result.values()) == {("train", None)}
    crawled = [GroupSummary("c", (("crawled", 2),), 0)]
    assert splits.assign_splits(crawled, SplitConfig.paper())["c"] == (None, "no_query_validated_for_dev_test")


def test_summarize_group_counts_origins_and_dev_test_queries():
    g = splits.summarize_group("k", [("public", True), ("crawled", False), ("public", False)])
    assert g == GroupSummary("k", (("crawled", 1), ("public", 2)), 1)
    assert g.n_queries == 3 and g.primary_origin == "public"


def test_config_checks_and_round_trips():
    with pytest.raises(ValueError):
        SplitConfig(train_fraction=-0.1)
    with pytest.raises(ValueError):
        SplitConfig(dev_test_origin_ratio={"public": 0})
    config = SplitConfig.paper(dev_size=10)
    assert SplitConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config
    assert config.allows("train", "public") and not config.allows("train", "crawled")
    assert config.allows("dev", "crawled") and not config.allows("test", "blog")


def test_validation_allows():
    assert splits.validation_allows("train", "train") and splits.validation_allows("dev_test", "train")
    assert splits.validation_allows("dev_test", "dev") and not splits.validation_allows("train", "test")
    assert not splits.validation_allows("none", "train")


def test_dedup_queries_keeps_smallest_id():
    kept, dropped = splits.dedup_queries([{"id": "q2"}, {"id": "q1"}, {"id": "q3"}])
    assert [r["id"] for r in kept] == ["q1"] and [r["id"] for r in dropped] == ["q2", "q3"]


def test_load_validation_reads_jsonl_and_parquet(tmp_path):
    (tmp_path / "jsonl").mkdir()
    (tmp_path / "jsonl" / "validated.jsonl").write_text(
        '{"id": "q1", "valid_for": "train", "n_answers": 1}\n\n{"id": "q2", "valid_for": "none"}\n')
    assert splits.load_validation(str(tmp_path / "jsonl")) == {"q1": "train", "q2": "none"}
    (tmp_path / "pq" / "validated").mkdir(parents=True)
    pq.write_table(pa.table({"id": ["q1", "q3"], "valid_for": ["dev_test", "train"]}),
                   tmp_path / "pq" / "validated" / "part-0.parquet")
    assert splits.load_validation(str(tmp_path / "pq")) == {"q1": "dev_test", "q3": "train"}


def test_load_validation_errors_are_clear(tmp_path):
    with pytest.raises(FileNotFoundError, match="validated"):
        splits.load_validation(str(tmp_path))
    bad = tmp_path / "validated.jsonl"
    bad.write_text('{"query_id": "q1", "valid_for": "train"}\n')
    with pytest.raises(ValueError, match="needs keys 'id' and 'valid_for'"):
        splits.load_validation(str(tmp_path))
    bad.write_text('{"id": "q1", "valid_for": "maybe"}\n')
    with pytest.raises(ValueError, match="valid_for must be one of"):
        splits.load_validation(str(bad))
    (tmp_path / "p" / "validated").mkdir(parents=True)
    pq.write_table(pa.table({"id": ["q1"]}), tmp_path / "p" / "validated" / "x.parquet")
    with pytest.raises(ValueError, match=r"missing column\(s\) \['valid_for'\]"):
        splits.load_validation(str(tmp_path / "p"))

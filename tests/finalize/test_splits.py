"""Split rules as plain functions (no Beam): grouping, placement, origins, caps, validation,
the bounded form of the dev/test first fit, and the settings that make the policy."""
import argparse
import collections
import json
import random

import pytest

from transforms.finalize.config import FinalizeSettings, parse_origins, parse_ratio
from transforms.finalize.splits import quota
from transforms.finalize.splits import rules as splits
from transforms.finalize.splits.rules import GroupSummary, SplitConfig

pytestmark = pytest.mark.fast   # unit tests: `python -m pytest -q -m fast`


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


def test_link_keys_are_the_passage_digest_and_the_url():
    assert splits.link_keys("Some text", None) == ("p:" + splits.passage_digest("Some text"),)
    assert splits.link_keys("Some text", "http://x")[1] == "u:http://x"
    assert splits.link_keys("Some text", "") == splits.link_keys("Some text", None)


def bounded_assign(groups, config, buckets):
    """assign_splits as quota.py computes it: bucket sums, the boundary bucket, the tail."""
    groups = sorted(groups, key=lambda g: g.key)
    result = {g.key: splits.initial_split(g, config) for g in groups}
    for split in ("dev", "test"):
        members = [g for g in groups if result[g.key][0] == split]
        by_origin = collections.defaultdict(list)
        for g in members:
            by_origin[g.primary_origin].append((splits.quota_order(g.key, config), g.n_dev_test, g))
        available = {o: sum(n for _, n, _ in items) for o, items in by_origin.items()}
        quotas, capped = splits.quotas(available, config, config.cap(split))
        for origin, items in by_origin.items():
            q = quotas.get(origin, 0)
            sums = collections.Counter()
            for order, n, _ in items:
                sums[quota.bucket_of(order, buckets)] += n
            found = quota.boundary(sums, q)
            overflow, kept_after = None, frozenset()
            if found is not None:
                b_star, cum = found
                overflow, cum_g = quota.first_overflow(
                    [(o, n) for o, n, _ in items if quota.bucket_of(o, buckets) == b_star], cum, q)
                tail = collections.defaultdict(list)
                for order, n, _ in sorted(items, key=lambda t: t[0]):
                    if order > overflow and len(tail[n]) < quota.tail_take(n, cum_g, q):
                        tail[n].append((order, n))
                kept_after = frozenset(quota.first_fit(
                    [c for cs in tail.values() for c in cs], cum_g, q))
            for order, _, g in items:
                if not quota.keeps(order, overflow, kept_after):
                    result[g.key] = splits.over_quota(split, g, config, capped)
    return result


@pytest.mark.parametrize("buckets", [1, 3, 64, 4096])
@pytest.mark.parametrize("config", [
    SplitConfig(dev_size=60, test_size=45),
    SplitConfig.paper(dev_size=80),
    SplitConfig.paper(train_fraction=0.3, dev_fraction=0.35, test_fraction=0.35),
    SplitConfig(train_origins=("public",), dev_size=25, test_size=5),
])
def test_bounded_first_fit_equals_the_scan_over_all_groups(config, buckets):
    rng = random.Random(buckets)
    groups = []
    for i in range(1500):
        sizes = {"public": rng.choice([0, 1, 1, 2, 4, 9]), "crawled": rng.choice([0, 0, 1, 3, 7])}
        counts = tuple(sorted((o, n) for o, n in sizes.items() if n)) or (("public", 1),)
        total = sum(n for _, n in counts)
        groups.append(GroupSummary(f"g{i:05d}", counts, rng.randint(1, total)))
    reference = splits.assign_splits(groups, config)
    assert bounded_assign(groups, config, buckets) == reference
    assert any(split in ("dev", "test") for split, _ in reference.values())


def test_quota_helpers():
    assert quota.boundary({0: 5, 3: 4, 7: 2}, 8) == (3, 5)
    assert quota.boundary({0: 5, 3: 3}, 8) is None
    assert quota.first_overflow([((0.5, "b"), 3), ((0.4, "a"), 2)], 4, 8) == ((0.5, "b"), 6)
    assert quota.tail_take(3, 6, 13) == 2 and quota.tail_take(9, 6, 13) == 0
    assert quota.first_fit([((0.9, "z"), 1), ((0.6, "x"), 3), ((0.7, "y"), 2)], 6, 10) == \
        ((0.6, "x"), (0.9, "z"))
    assert quota.keeps((0.1, "a"), None, frozenset())
    assert quota.keeps((0.1, "a"), (0.2, "b"), frozenset()) and not quota.keeps(
        (0.3, "c"), (0.2, "b"), frozenset())
    assert quota.keeps((0.3, "c"), (0.2, "b"), frozenset({(0.3, "c")}))


def test_settings_make_the_split_policy():
    assert FinalizeSettings().split_config() == SplitConfig()
    paper = FinalizeSettings(paper_split_policy=True, dev_size=10).split_config()
    assert paper == SplitConfig.paper(dev_size=10)
    own = FinalizeSettings(paper_split_policy=True, train_origins=("public", "crawled"),
                           dev_test_origin_ratio=(("public", 1.0),)).split_config()
    assert own.train_origins == ("crawled", "public") and own.dev_test_origin_ratio == (("public", 1.0),)
    assert own.dev_test_origins == ("crawled", "public")
    assert FinalizeSettings(split_salt="x").split_config().salt == "x"
    with pytest.raises(ValueError, match="fractions"):
        FinalizeSettings(train_fraction=-1)
    with pytest.raises(ValueError, match="group_rounds"):
        FinalizeSettings(group_rounds=0)


def test_flag_parsers():
    assert parse_ratio("public:0.3,crawled:0.7") == (("crawled", 0.7), ("public", 0.3))
    assert parse_ratio("") is None and parse_origins(" , ") is None
    assert parse_origins("public, crawled") == ("crawled", "public")
    for bad in ("public", "public:x", ":0.3"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_ratio(bad)

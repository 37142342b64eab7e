"""Train/dev/test split rules (paper section 3.4), as pure functions (no Beam).

An article, and every article sharing an exact passage text or a URL with it, forms one
group whose key is its smallest article id; a group lands in exactly one split, chosen by
a salted stable hash of that key. Origins are honoured as configured: the paper trained on
the public CNN/DM origin only and drew dev/test 3:7 from public:crawled. Dev and test then
keep, in a second hash order, the groups that fit the origin ratio and the size caps
(first fit; `assign_splits` is the reference the Beam composite in assign.py matches).
"""
import dataclasses
import hashlib
import math
from typing import Iterable, Mapping, Optional

from transforms.core.components import components as union_find
from transforms.core.constants import SPLITS  # noqa: F401 - splits.SPLITS is imported by others
from transforms.core.hashing import stable_hash

VALID_FOR = ("train", "dev_test", "none")
_SCALE = float(2 ** 64)
_EPS = 1e-9


@dataclasses.dataclass(frozen=True)
class SplitConfig:
    """Fractions apply to groups allowed in every split; caps count dev/test queries."""
    train_fraction: float = 0.8
    dev_fraction: float = 0.1
    test_fraction: float = 0.1
    train_origins: Optional[tuple] = None        # None: every origin may go to train
    dev_test_origins: Optional[tuple] = None     # None: every origin may go to dev/test
    dev_test_origin_ratio: Optional[tuple] = None  # ((origin, weight), ...)
    dev_size: Optional[int] = None
    test_size: Optional[int] = None
    salt: str = "split"

    def __post_init__(self):
        fractions = (self.train_fraction, self.dev_fraction, self.test_fraction)
        if min(fractions) < 0 or sum(fractions) <= 0:
            raise ValueError(f"split fractions must be >= 0 with a positive sum, got {fractions}")
        for name in ("train_origins", "dev_test_origins"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, tuple(sorted(value)))
        ratio = self.dev_test_origin_ratio
        if ratio is not None:
            items = sorted((ratio.items() if isinstance(ratio, Mapping) else ratio))
            if any(w < 0 for _, w in items) or sum(w for _, w in items) <= 0:
                raise ValueError(f"dev_test_origin_ratio needs weights >= 0 with a positive sum: {items}")
            object.__setattr__(self, "dev_test_origin_ratio", tuple((o, float(w)) for o, w in items))
        for name in ("dev_size", "test_size"):
            if getattr(self, name) is not None and getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0")

    @classmethod
    def paper(cls, **overrides) -> "SplitConfig":
        """The paper's policy: train from the public origin; dev/test public:crawled 3:7."""
        defaults = dict(train_origins=("public",), dev_test_origins=("public", "crawled"),
                        dev_test_origin_ratio={"public": 0.3, "crawled": 0.7})
        return cls(**{**defaults, **overrides})

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        for name in ("train_origins", "dev_test_origins"):
            d[name] = list(d[name]) if d[name] is not None else None
        if d["dev_test_origin_ratio"] is not None:
            d["dev_test_origin_ratio"] = dict(d["dev_test_origin_ratio"])
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "SplitConfig":
        return cls(**d)

    def allows(self, split: str, origin: str) -> bool:
        allowed = self.train_origins if split == "train" else self.dev_test_origins
        if split != "train" and self.dev_test_origin_ratio is not None:
            weights = dict(self.dev_test_origin_ratio)
            if weights.get(origin, 0.0) <= 0:
                return False
        return allowed is None or origin in allowed

    def limits_dev_test(self) -> bool:
        """Whether an origin ratio or a size cap may move groups out of dev/test."""
        return (self.dev_test_origin_ratio is not None or self.dev_size is not None
                or self.test_size is not None)

    def cap(self, split: str) -> Optional[int]:
        return self.dev_size if split == "dev" else self.test_size


# --- grouping articles that share a passage text or a URL ----------------------------

def passage_digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def link_keys(passage: str, url: Optional[str]) -> tuple:
    """The keys that join articles into groups: the passage text's digest and the URL."""
    keys = ("p:" + passage_digest(passage),)
    return keys + ("u:" + url,) if url else keys


#: the group of an article rejected as a near-duplicate bridge (near_dup_bound.py): no
#: article id holds NUL (readers remove control characters; a file name cannot hold one)
BRIDGE_GROUP = "\x00bridge:"
BRIDGE_REASON = "near_duplicate_bridge"


def bridge_group(article_id: str) -> str:
    return BRIDGE_GROUP + article_id


def is_bridge_group(key: str) -> bool:
    return key.startswith(BRIDGE_GROUP)


def components(pairs: Iterable[tuple], nodes: Iterable = ()) -> dict:
    """{node: component key} by union-find over `pairs` (and `nodes`, alone unless a pair
    joins them); a component's key is its smallest member. Shared by the article groups
    below and the near-duplicate clusters (near_duplicates.py)."""
    return union_find(pairs, nodes)


def group_articles(links: Iterable[tuple]) -> dict:
    """{article_id: group key} from (article_id, passage digest, url) triples: the
    reference the Beam union-find (grouping.py) must match. Articles sharing an
    exact passage text or a URL share a group; its key is its smallest article id."""
    articles, pairs, first_by_key = [], [], {}
    for article_id, digest, url in links:
        articles.append(article_id)
        for key in (("passage", digest), ("url", url)):
            if key[1] is None or key[1] == "":
                continue
            if key in first_by_key:
                pairs.append((article_id, first_by_key[key]))
            else:
                first_by_key[key] = article_id
    return components(pairs, articles)


# --- assigning groups to splits ---------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class GroupSummary:
    """What the split rules need to know about one group of articles."""
    key: str
    origin_queries: tuple      # ((origin, n queries), ...) sorted
    n_dev_test: int            # queries human-validated for dev/test (all when unvalidated)

    @property
    def origins(self) -> tuple:
        return tuple(o for o, _ in self.origin_queries)

    @property
    def n_queries(self) -> int:
        return sum(n for _, n in self.origin_queries)

    @property
    def primary_origin(self) -> str:
        """The origin most of the group's queries come from (ties: smallest name)."""
        return min(self.origin_queries, key=lambda on: (-on[1], on[0]))[0]


def summarize_group(key: str, rows: Iterable[tuple]) -> GroupSummary:
    """`rows`: (origin, valid for dev/test) per query of the group."""
    counts, n_dev_test = {}, 0
    for origin, dev_test_ok in rows:
        counts[origin] = counts.get(origin, 0) + 1
        n_dev_test += bool(dev_test_ok)
    return GroupSummary(key, tuple(sorted(counts.items())), n_dev_test)


def unit_hash(key: str, salt: str) -> float:
    """A number in [0, 1), uniform over keys and stable across processes."""
    return stable_hash(key, salt=salt) / _SCALE


def quota_order(key: str, config: SplitConfig) -> tuple:
    """The second hash order in which dev/test keep their groups."""
    return (unit_hash(key, config.salt + "/quota"), key)


def initial_split(group: GroupSummary, config: SplitConfig):
    """(split, None) or (None, reason), before the dev/test origin ratio and caps; a
    near-duplicate bridge's own group is rejected."""
    if is_bridge_group(group.key):
        return None, BRIDGE_REASON
    train_ok = all(config.allows("train", o) for o in group.origins)
    dev_test_ok = all(config.allows("dev", o) for o in group.origins) and group.n_dev_test > 0
    if not train_ok and not dev_test_ok:
        reason = "origin_not_in_split_policy" if group.n_dev_test else "no_query_validated_for_dev_test"
        return None, reason
    u = unit_hash(group.key, config.salt)
    total = config.train_fraction + config.dev_fraction + config.test_fraction
    eval_total = config.dev_fraction + config.test_fraction
    if train_ok and (not dev_test_ok or u < config.train_fraction / total):
        return "train", None
    if not train_ok:   # dev/test only: rescale u over the dev:test fractions
        if eval_total == 0:
            return None, "origin_not_in_split_policy"
        return ("dev" if u < config.dev_fraction / eval_total else "test"), None
    return ("dev" if u < (config.train_fraction + config.dev_fraction) / total else "test"), None


def quotas(available: dict, config: SplitConfig, cap: Optional[int]):
    """({origin: max queries}, whether the cap binds) for one evaluation split, from the
    dev/test-valid queries its groups hold per primary origin."""
    total = sum(available.values())
    if config.dev_test_origin_ratio is None:
        if cap is None or cap >= total:
            return {o: math.inf for o in available}, False
        return {o: cap * n / total for o, n in available.items()}, True
    weights = {o: w for o, w in config.dev_test_origin_ratio if w > 0}
    weight_sum = sum(weights.values())
    size = min(available.get(o, 0) / (w / weight_sum) for o, w in weights.items())
    capped = cap is not None and cap < size
    if capped:
        size = cap
    return {o: size * w / weight_sum for o, w in weights.items()}, capped


def quota_reason(split: str, capped: bool) -> str:
    return f"{split}_size_cap" if capped else "dev_test_origin_ratio"


def over_quota(split: str, group: GroupSummary, config: SplitConfig, capped: bool):
    """Where a dev/test group that does not fit its quota goes: train when its origins
    allow it, else nowhere with the quota's reason."""
    if all(config.allows("train", o) for o in group.origins):
        return "train", None
    return None, quota_reason(split, capped)


def fits(cum_before: int, n: int, quota: float) -> bool:
    return cum_before + n <= quota + _EPS


def assign_splits(groups: Iterable[GroupSummary], config: SplitConfig) -> dict:
    """{group key: (split, None) or (None, reason)} for every group (the reference).

    Groups are first placed by hash (`initial_split`). Within dev and within test, the
    groups of each primary origin are taken in `quota_order`, first fit: a group is kept
    when the dev/test-valid queries kept so far plus its own fit the origin's quota, else
    it goes to train (when its origins allow it) or is rejected, and the scan goes on.
    `quota.py` computes the same result with bounded combines."""
    groups = sorted(groups, key=lambda g: g.key)
    result = {g.key: initial_split(g, config) for g in groups}
    if not config.limits_dev_test():
        return result
    for split in ("dev", "test"):
        members = [g for g in groups if result[g.key][0] == split]
        available = {}
        for g in members:
            available[g.primary_origin] = available.get(g.primary_origin, 0) + g.n_dev_test
        quota, capped = quotas(available, config, config.cap(split))
        used = {}
        for g in sorted(members, key=lambda g: quota_order(g.key, config)):
            origin = g.primary_origin
            if fits(used.get(origin, 0), g.n_dev_test, quota.get(origin, 0)):
                used[origin] = used.get(origin, 0) + g.n_dev_test
            else:
                result[g.key] = over_quota(split, g, config, capped)
    return result


# --- human validation and duplicate queries -------------------------------------------

def validation_allows(valid_for: str, split: str) -> bool:
    """Train keeps queries valid for train or dev/test; dev and test only dev/test ones."""
    if split == "train":
        return valid_for in ("train", "dev_test")
    return valid_for == "dev_test"


def dedup_queries(rows: Iterable[dict]):
    """(kept, dropped) for the rows of one (passage, query text): keep the smallest id."""
    rows = sorted(rows, key=lambda r: r["id"])
    return rows[:1], rows[1:]

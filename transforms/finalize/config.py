"""Settings and paths of the finalize stage (paper section 3.4: splits, exports, Table 1).

Importable without Beam. Every knob of the split policy is a `setting`, so it is a flag of
`finalize` and `build`, a key of the `[finalize]` TOML table and part of the fingerprint;
the defaults reproduce the released layout (80/10/10 by group hash, every origin anywhere).
"""
import argparse
import posixpath
from dataclasses import dataclass, field
from typing import Optional

from transforms.core.config import setting
from transforms.finalize.report.hardness_settings import HardnessSettings
from transforms.finalize.splits.near_duplicates import NearDupConfig
from transforms.finalize.splits.rules import SplitConfig


def parse_ratio(value: str) -> Optional[tuple]:
    """`public:0.3,crawled:0.7` -> (("crawled", 0.7), ("public", 0.3))."""
    if not value or not value.strip():
        return None
    pairs = [item.split(":") for item in value.split(",") if item.strip()]
    if any(len(p) != 2 or not p[0].strip() for p in pairs):
        raise argparse.ArgumentTypeError(f"expected origin:weight,... got {value!r}")
    try:
        return tuple(sorted((o.strip(), float(w)) for o, w in pairs))
    except ValueError:
        raise argparse.ArgumentTypeError(f"weights must be numbers: {value!r}") from None


def parse_origins(value: str) -> Optional[tuple]:
    """`public,crawled` -> ("crawled", "public"); empty -> None (every origin)."""
    out = tuple(sorted(v.strip() for v in value.split(",") if v.strip()))
    return out or None


@dataclass(frozen=True)
class FinalizeSettings:
    """Split policy, validation policy and output sizing of the released dataset."""
    train_fraction: float = setting(0.8, "share of article groups for train (by group hash)")
    dev_fraction: float = setting(0.1, "share of article groups for dev")
    test_fraction: float = setting(0.1, "share of article groups for test")
    train_origins: Optional[tuple] = setting(
        None, "comma list of origins train may hold", parse=parse_origins,
        show="every origin")
    dev_test_origins: Optional[tuple] = setting(
        None, "comma list of origins dev/test may hold", parse=parse_origins,
        show="every origin")
    dev_test_origin_ratio: Optional[tuple] = setting(
        None, "dev/test queries per origin, e.g. public:0.3,crawled:0.7", parse=parse_ratio,
        show="none")
    paper_split_policy: bool = setting(
        False, "the paper's policy: train from origin public, dev/test public:crawled 3:7 "
               "(the three flags above override it)")
    dev_size: Optional[int] = setting(None, "cap on dev queries")
    test_size: Optional[int] = setting(None, "cap on test queries")
    split_salt: str = setting("split", "salt of the group hash (another salt, other splits)")
    hide_test_answers: bool = setting(
        False, "hidden test set: no answers in the test Parquet shards and record/test.json "
               "(SuperGLUE test never has them); they go to <output>-private/test.json, "
               "outside the release")
    partial_validation: bool = setting(
        False, "release when human-validation verdicts cover only part of the kept queries "
               "(the others are rejected not_human_validated); without it such a run fails")
    shard_rows: int = setting(100_000, "Parquet rows per shard: each split gets "
                                       "ceil(rows / shard_rows) shards")
    num_shards: Optional[int] = setting(None, "a fixed number of Parquet shards per split",
                                        show="by data volume (--shard_rows)")
    group_rounds: int = setting(
        8, "ignored (kept so older configs load): article groups are one union-find pass "
           "over all their links, whatever their depth")
    quota_buckets: int = setting(
        4096, "hash buckets of the dev/test quota threshold (memory of one combine)")
    hardness: HardnessSettings = field(default_factory=HardnessSettings)
    export_part_passages: int = setting(
        10_000, "passages per sorted part of the ReCoRD/SuperGLUE exports (held in memory "
                "by one worker while sorting)")
    lm_eval_task: str = setting(
        "record_release", "task name of the lm-evaluation-harness export (dataset/lm_eval/)")
    explorer_queries: int = setting(
        300, "released queries per split in the explorer page (the smallest ids)")
    explorer_drops: int = setting(
        25, "rejected rows per (stage, reason) in the explorer page's audit trail")
    near_dup: NearDupConfig = field(default_factory=NearDupConfig)
    license: str = setting(
        "unknown", "license in the dataset card's metadata (a Hugging Face license id, "
                   "e.g. cc-by-4.0; the corpus's terms decide it)")
    pretty_name: str = setting("ReCoRD-style cloze reading comprehension",
                               "the dataset card's title and pretty_name")
    source_datasets: str = setting(
        "original", "comma list for the card's source_datasets (e.g. extended|cnn_dailymail)")

    def __post_init__(self):
        for name in ("shard_rows", "group_rounds", "quota_buckets", "export_part_passages"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        for name in ("explorer_queries", "explorer_drops"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be at least 0, got {getattr(self, name)}")
        from transforms.finalize.exports.lm_eval_export import check_task_name
        check_task_name(self.lm_eval_task)
        if self.num_shards is not None and self.num_shards < 1:
            raise ValueError(f"num_shards must be at least 1, got {self.num_shards}")
        self.split_config()   # the split policy's own checks

    def split_config(self) -> SplitConfig:
        """The split rules' config (the paper preset filled in where a flag left it unset)."""
        values = dict(train_fraction=self.train_fraction, dev_fraction=self.dev_fraction,
                      test_fraction=self.test_fraction, dev_size=self.dev_size,
                      test_size=self.test_size, salt=self.split_salt)
        for name in ("train_origins", "dev_test_origins", "dev_test_origin_ratio"):
            if getattr(self, name) is not None:
                values[name] = getattr(self, name)
        return SplitConfig.paper(**values) if self.paper_split_policy else SplitConfig(**values)


@dataclass(frozen=True)
class FinalizePaths:
    filtered: str                       # DIR/filtered (reads kept/ and stats/)
    output: str                         # DIR/dataset
    validated: Optional[str] = None     # human-validation verdicts (id, valid_for)
    run_dir: Optional[str] = None       # DIR (stats/generate.json, articles/); default: parent

    def run_folder(self) -> str:
        if self.run_dir:
            return self.run_dir.rstrip("/")
        return posixpath.dirname(self.filtered.rstrip("/")) or "."


@dataclass(frozen=True)
class FinalizeConfig:
    paths: FinalizePaths
    settings: FinalizeSettings = field(default_factory=FinalizeSettings)

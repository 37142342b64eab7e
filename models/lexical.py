"""`lexical`: a cheap CPU ranker, logistic regression over hand-made candidate features
(frequency, highlights, word overlap around placeholder and mentions, position) plus
hashed entity-type-fit features. Scores are softmaxed over a query's candidates."""
import dataclasses

import numpy as np
import torch
from torch import nn

from models.batching import MASKED, candidate_mask
from models.configs import LexicalConfig  # noqa: F401 - the reader's config
from models.features import DENSE_FEATURES, LexicalFeatureConfig, lexical_features
from models.training import Featurized, torch_threads, train_loop

NAME = "lexical"


class Reader(nn.Module):
    """score = w . dense + sum of the hashed features' weights."""

    def __init__(self, n_dense: int = len(DENSE_FEATURES), n_buckets: int = 4096):
        super().__init__()
        self.linear = nn.Linear(n_dense, 1)
        self.hashed = nn.EmbeddingBag(n_buckets, 1, mode="sum", padding_idx=0)
        nn.init.zeros_(self.hashed.weight)

    def forward(self, dense, sparse, n_cand):
        b, n, _ = dense.shape
        score = self.linear(dense).squeeze(-1)
        if sparse.shape[-1]:
            score = score + self.hashed(sparse.reshape(b * n, -1)).view(b, n)
        return score.masked_fill(~candidate_mask(n_cand, n), MASKED)

    @torch.no_grad()
    def cloze_step(self, batch: dict, gold: torch.Tensor) -> torch.Tensor:
        """`training.cloze_loss` of a batch with its gradient written into the parameters'
        `.grad`, as autograd would give it to float rounding (a linear scorer's softmax
        loss needs no graph, and autograd's EmbeddingBag backward cost most of a step):
        softmax over a query's candidates minus softmax over its answers, over the batch.
        Returns the loss."""
        dense, sparse, n_cand = batch["dense"], batch["sparse"], batch["n_cand"]
        b, n, h = sparse.shape
        valid = candidate_mask(n_cand, n)
        buckets = self.hashed.weight[:, 0]                 # row 0 (padding) stays 0
        score = (dense @ self.linear.weight[0] + self.linear.bias
                 + buckets[sparse].sum(-1)).masked_fill(~valid, MASKED)
        answer = gold & valid
        all_lse = torch.logsumexp(score, 1, keepdim=True)
        gold_lse = torch.logsumexp(score.masked_fill(~answer, MASKED), 1, keepdim=True)
        d = ((score - all_lse).exp() - (score.masked_fill(~answer, MASKED) - gold_lse).exp()
             * answer) * valid / b                  # no inf * 0 where a row has no answer
        self.linear.weight.grad = (d.reshape(-1) @ dense.reshape(b * n, -1))[None]
        self.linear.bias.grad = d.sum().reshape(1)
        grad = torch.zeros_like(buckets).index_add_(
            0, sparse.reshape(-1), d[..., None].expand(b, n, h).reshape(-1))
        grad[self.hashed.padding_idx] = 0.0
        self.hashed.weight.grad = grad[:, None] if h else None    # as autograd leaves it
        return (all_lse - gold_lse).mean()


class Featurizer:
    """row -> (candidates, {"dense": [n, F], "sparse": [n, H], "n_cand": [1]}) as numpy."""

    def __init__(self, **features):
        self.config = LexicalFeatureConfig(**features)

    def __call__(self, row: dict):
        cands, dense, sparse = lexical_features(row, self.config)
        return cands, {"dense": np.asarray(dense, dtype=np.float32).reshape(len(cands), -1),
                       "sparse": np.asarray(sparse, dtype=np.int64).reshape(len(cands), -1),
                       "n_cand": np.asarray([len(cands)], dtype=np.int64)}

    def params(self) -> dict:
        return dataclasses.asdict(self.config)


def make_featurizer(config: LexicalConfig) -> Featurizer:
    """The featurizer of every fold (it depends on the config only)."""
    return Featurizer(**dataclasses.asdict(config.features))


def build(config: LexicalConfig, device: torch.device):
    """A fresh (reader, featurizer, model_params) ready to train."""
    params = {"n_dense": len(DENSE_FEATURES), "n_buckets": config.features.n_buckets}
    return Reader(**params).to(device), make_featurizer(config), params


def fit(model: Reader, data: Featurized, config: LexicalConfig, seed: int,
        label: str = "training") -> dict:
    with torch_threads(1):
        return train_loop(model, data, lr=config.lr, epochs=config.epochs,
                          batch_size=config.batch_size, seed=seed,
                          weight_decay=config.weight_decay, label=label)


def save_extras(fold_dir: str, featurizer: Featurizer) -> dict:
    """Nothing beyond model.pt and the metadata is needed to rebuild the featurizer."""
    return {}


def load_featurizer(fold_dir: str, meta: dict) -> Featurizer:
    return Featurizer(**meta["featurizer"])

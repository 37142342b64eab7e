"""Training of the k fold readers in Beam (paper section 3.3): one element per fold,
spread over workers; each trains on the other folds' articles and writes its reader.

Folds are by article (`fold_of(article_id, k)`, as the generation job assigns them), so
no fold model has seen any query of an article in the fold it scores.
"""
import hashlib
import logging
import time
from typing import Optional

import apache_beam as beam
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import torch

from models import reader_module
from models.checkpoints import fold_dir, resolve_device, save_state_dict
from models.training import evaluate, featurize, seed_everything
from transforms.core.hashing import fold_of
from transforms.core.io_utils import join, read_parquet, write_json
from transforms.machine_filtering.config import TrainConfig, parquet_pattern

log = logging.getLogger(__name__)


def hyperparameters(settings) -> dict:
    import dataclasses
    if settings.model == "transformer":
        return reader_module("transformer").config_dict(settings.transformer())
    return dataclasses.asdict(settings.lexical())


def _sorted_rows(table: pa.Table) -> list:
    """Rows in id order, so training does not depend on how the input was sharded."""
    return table.take(pc.sort_indices(table, [("id", "ascending")])).to_pylist()


def read_fold_split(pattern: str, k: int, fold: int):
    """(train rows, held-out rows) for `fold`: train is every article of the other folds.

    When the candidates' `fold` column agrees with fold_of(article_id, k) (as written by
    the generation job), pyarrow reads each side with a filter on it."""
    keys = read_parquet(pattern, columns=["article_id", "fold"])
    folds = np.array([fold_of(a, k) for a in keys.column("article_id").to_pylist()], np.int64)
    agrees = bool(np.array_equal(folds, keys.column("fold").to_numpy()))
    if agrees:
        train = read_parquet(pattern, filters=[("fold", "!=", fold)])
        held = read_parquet(pattern, filters=[("fold", "==", fold)])
    else:
        table = read_parquet(pattern)
        train, held = table.filter(pa.array(folds != fold)), table.filter(pa.array(folds == fold))
    return _sorted_rows(train), _sorted_rows(held), agrees


def articles_digest(rows) -> str:
    ids = sorted({r["article_id"] for r in rows})
    return hashlib.sha256("\n".join(ids).encode("utf-8")).hexdigest()


def train_fold(fold: int, config: TrainConfig) -> dict:
    """Train the reader of `fold` on every other fold; write checkpoint + metadata.json."""
    cfg, out_root = config.settings, config.paths.output
    t0, k = time.time(), cfg.folds
    train_rows, held_rows, agrees = read_fold_split(parquet_pattern(config.paths.candidates),
                                                    k, fold)
    train_rows, held_rows = train_rows[:cfg.max_train_rows], held_rows[:cfg.max_heldout_rows]
    held_articles = {r["article_id"] for r in held_rows}
    leaked = held_articles & {r["article_id"] for r in train_rows}
    if leaked:   # cannot happen with fold_of; guards the invariant the filter relies on
        raise RuntimeError(f"fold {fold}: {len(leaked)} held-out articles in training rows")
    log.info("fold %d/%d: training %s on %d queries (%d held out)", fold, k, cfg.model,
             len(train_rows), len(held_rows))
    seed = cfg.seed * 1000 + fold
    seed_everything(seed)
    device = resolve_device(cfg.device)
    module = reader_module(cfg.model)
    model, featurizer, model_params = module.build(cfg.reader_config(), device)
    train = featurize(train_rows, featurizer)
    held = featurize(held_rows, featurizer, require_answer=False)
    history = module.fit(model, train, cfg.reader_config(), seed)
    heldout = evaluate(model, held)
    out = fold_dir(out_root, fold)
    save_state_dict(model, join(out, "model.pt"))
    extras = module.save_extras(out, featurizer)
    meta = {
        "fold": fold, "folds": k, "model": cfg.model, "seed": seed, "device": str(device),
        "trained_on_folds": [f for f in range(k) if f != fold], "heldout_fold": fold,
        "fold_assignment": "fold_of(article_id, k)", "fold_column_agrees": agrees,
        "rows": {"train": len(train_rows), "train_used": len(train.examples),
                 "train_skipped": train.skipped, "heldout": len(held_rows),
                 "heldout_scored": len(held.examples), "heldout_skipped": held.skipped},
        "articles": {"train": len({r["article_id"] for r in train_rows}),
                     "heldout": len(held_articles),
                     "train_sha256": articles_digest(train_rows)},
        "hyperparameters": hyperparameters(cfg), "training": history,
        "heldout_accuracy": heldout["accuracy"], "heldout_random_baseline":
            heldout["random_baseline"], "heldout_n": heldout["n"],
        "checkpoint": "model.pt", "model_params": model_params,
        "featurizer": featurizer.params(), "extras": extras,
        "versions": {"torch": torch.__version__, "beam": beam.__version__},
        "elapsed_s": round(time.time() - t0, 2),
    }
    write_json(join(out, "metadata.json"), meta)
    log.info("fold %d/%d: done in %.1fs, held-out accuracy %.3f (random %.3f) on %d queries",
             fold, k, meta["elapsed_s"], heldout["accuracy"] or 0.0,
             heldout["random_baseline"] or 0.0, heldout["n"])
    return meta


class TrainFolds(beam.PTransform):
    """One element per fold, spread over workers; each trains and writes its reader."""

    def __init__(self, config: TrainConfig, hints: Optional[dict] = None):
        super().__init__()
        self.config, self.hints = config, hints or {}

    def expand(self, pbegin):
        return (pbegin
                | "Folds" >> beam.Create(list(range(self.config.settings.folds)))
                | "SpreadFolds" >> beam.Reshuffle()
                | "TrainFold" >> beam.Map(train_fold, self.config).with_resource_hints(
                    **self.hints))


def train_summary(metas: list, config: TrainConfig) -> dict:
    cfg = config.settings
    metas = sorted(metas, key=lambda m: m["fold"])
    n = sum(m["heldout_n"] for m in metas)
    acc = sum((m["heldout_accuracy"] or 0) * m["heldout_n"] for m in metas)
    rnd = sum((m["heldout_random_baseline"] or 0) * m["heldout_n"] for m in metas)
    return {"job": "train_folds", "model": cfg.model, "folds": cfg.folds,
            "candidates": config.paths.candidates, "per_fold": {str(m["fold"]): {
                "train_rows": m["rows"]["train"], "heldout_n": m["heldout_n"],
                "heldout_accuracy": m["heldout_accuracy"],
                "random_baseline": m["heldout_random_baseline"],
                "elapsed_s": m["elapsed_s"]} for m in metas},
            "heldout_n": n, "heldout_accuracy": acc / n if n else None,
            "random_baseline": rnd / n if n else None}

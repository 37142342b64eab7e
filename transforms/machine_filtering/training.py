"""Training of the k fold readers in Beam (paper section 3.3): one element per fold,
spread over workers; each streams the featurized shards, trains on the other folds'
articles, evaluates on its own and writes its reader.

Folds are by article (`fold_of(article_id, k)`, as the generation job assigns them), so
no fold model has seen any query of an article in the fold it scores. A trainer holds at
most `shuffle_buffer` featurized rows at once (`models/streaming.py`), whatever the
corpus size; it reports that figure as `max_rows_in_memory`.
"""
import dataclasses
import logging
import time
from typing import Optional

import apache_beam as beam
import torch

from models import reader_module
from models.checkpoints import fold_dir, resolve_device, save_state_dict
from models.streaming import FoldStream, Meter
from models.training import evaluate, seed_everything
from transforms.core.accounting import COUNTS, Count, StepFn
from transforms.core.io_utils import join, write_json
from transforms.machine_filtering.config import TrainConfig
from transforms.machine_filtering.featurize import combine_digests

log = logging.getLogger(__name__)


def hyperparameters(settings) -> dict:
    if settings.model == "transformer":
        return reader_module("transformer").config_dict(settings.transformer())
    return dataclasses.asdict(settings.lexical())


def train_fold(fold: int, config: TrainConfig, shards: list, articles: dict,
               featurize_counts: Optional[dict] = None) -> dict:
    """Train the reader of `fold` on the other folds' rows of the featurized `shards`;
    write its checkpoint and metadata.json; returns the metadata (with
    `max_rows_in_memory`). `articles`: {fold: {articles, digest}} of FeaturizeCandidates."""
    cfg, out_root = config.settings, config.paths.output
    t0, k = time.time(), cfg.folds
    seed = cfg.seed * 1000 + fold
    seed_everything(seed)
    device = resolve_device(cfg.device)
    module, rc = reader_module(cfg.model), cfg.reader_config()
    model, featurizer, model_params = module.build(rc, device)
    meter = Meter()
    train = FoldStream(shards, fold, held_out=False, cap=cfg.max_train_rows,
                       capacity=cfg.shuffle_buffer, meter=meter)
    held = FoldStream(shards, fold, held_out=True, cap=cfg.max_heldout_rows,
                      capacity=cfg.shuffle_buffer, meter=meter)
    log.info("fold %d/%d: training %s on %d queries (%d held out), streamed from %d shards",
             fold, k, cfg.model, train.counts.rows, held.counts.rows, len(shards))
    history = module.fit(model, train, rc, seed)
    heldout = evaluate(model, held)
    out = fold_dir(out_root, fold)
    save_state_dict(model, join(out, "model.pt"))
    extras = module.save_extras(out, featurizer)
    others = [articles.get(f, {"articles": 0, "digest": "0" * 64}) for f in range(k) if f != fold]
    disagree = (featurize_counts or {}).get("featurize.fold_column_disagrees", 0)
    meta = {
        "fold": fold, "folds": k, "model": cfg.model, "seed": seed, "device": str(device),
        "trained_on_folds": [f for f in range(k) if f != fold], "heldout_fold": fold,
        "fold_assignment": "fold_of(article_id, k)", "fold_column_agrees": disagree == 0,
        "rows": {"train": train.counts.rows, "train_used": train.counts.used,
                 "train_skipped": train.counts.skipped, "heldout": held.counts.rows,
                 "heldout_scored": heldout["n"], "heldout_skipped": held.counts.skipped},
        "articles": {"train": sum(a["articles"] for a in others),
                     "heldout": articles.get(fold, {}).get("articles", 0),
                     "train_digest": combine_digests(a["digest"] for a in others)},
        "hyperparameters": hyperparameters(cfg), "training": history,
        "heldout_accuracy": heldout["accuracy"], "heldout_random_baseline":
            heldout["random_baseline"], "heldout_n": heldout["n"],
        "checkpoint": "model.pt", "model_params": model_params,
        "featurizer": featurizer.params(), "extras": extras,
        "streaming": {"shards": len(shards), "shuffle_buffer": cfg.shuffle_buffer,
                      "max_rows_in_memory": meter.peak,
                      "rss_mb_at_start": _mb(meter.rss_start), "rss_mb_peak": _mb(meter.rss_peak)},
        "versions": {"torch": torch.__version__, "beam": beam.__version__},
        "elapsed_s": round(time.time() - t0, 2),
    }
    write_json(join(out, "metadata.json"), meta)
    log.info("fold %d/%d: done in %.1fs, held-out accuracy %.3f (random %.3f) on %d queries; "
             "at most %d rows in memory", fold, k, meta["elapsed_s"], heldout["accuracy"] or 0.0,
             heldout["random_baseline"] or 0.0, heldout["n"], meter.peak)
    return meta


class TrainFoldFn(StepFn):
    """fold -> its metadata, counted as the `train` step (unit: fold)."""
    step = "train"

    def __init__(self, config: TrainConfig):
        self.config = config

    def apply(self, fold, shards, articles, featurize_counts):
        meta = train_fold(fold, self.config, sorted(url for url, _ in shards), articles,
                          featurize_counts)
        yield Count(self.step, "max_rows_in_memory", meta["streaming"]["max_rows_in_memory"])
        yield meta


class TrainFolds(beam.PTransform):
    """One element per fold, spread over workers; each streams the featurized shards
    (side input: their urls, so training starts once every shard is written)."""

    def __init__(self, config: TrainConfig, shards, articles, featurize_counts,
                 hints: Optional[dict] = None):
        super().__init__()
        self.config, self.hints = config, hints or {}
        self.shards, self.articles, self.featurize_counts = shards, articles, featurize_counts

    def expand(self, pbegin):
        return (pbegin
                | "Folds" >> beam.Create(list(range(self.config.settings.folds)))
                | "SpreadFolds" >> beam.Reshuffle()
                | "TrainFold" >> beam.ParDo(
                    TrainFoldFn(self.config), beam.pvalue.AsList(self.shards),
                    beam.pvalue.AsDict(self.articles),
                    beam.pvalue.AsSingleton(self.featurize_counts))
                .with_resource_hints(**self.hints).with_outputs(COUNTS, main="main"))


def _mb(n: Optional[int]) -> Optional[float]:
    return None if n is None else round(n / 2**20, 1)


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
                "max_rows_in_memory": m["streaming"]["max_rows_in_memory"],
                "rss_mb_at_start": m["streaming"].get("rss_mb_at_start"),
                "rss_mb_peak": m["streaming"].get("rss_mb_peak"),
                "elapsed_s": m["elapsed_s"]} for m in metas},
            "heldout_n": n, "heldout_accuracy": acc / n if n else None,
            "random_baseline": rnd / n if n else None}

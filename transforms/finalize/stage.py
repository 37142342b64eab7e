"""The finalize stage: kept queries -> the released dataset (paper section 3.4).

    ReadKept -> DropDuplicateQueries -> HumanValidation -> GroupArticles -> AssignSplits
    -> WriteShards, WriteExports, Table1, ArticleFates, WriteRejected, Hardness -> WriteReport

Checks its inputs against their manifests first, writes everything under
`<output>.tmp`, and moves it into place only when every check holds: the one funnel from
files read to released queries has no gap, human validation covers every kept query
(unless `partial_validation`), the article groups settled, and the fate table, shards,
exports and Table 1 agree with the funnel. See docs/finalize.md.
"""
import logging

from transforms.core import io_utils, manifest
from transforms.core.outputs import check_owned
from transforms.core.preflight import InputError
from transforms.core.stage import Runtime, StageFailed, on_exit, run_pipeline
from transforms.finalize import NAME
from transforms.finalize.config import FinalizeConfig

log = logging.getLogger(NAME)
SCRATCH = "_scratch"
_ROW_COLUMNS = ("id", "passage_id", "article_id", "source", "origin", "url", "passage",
                "entities", "query", "answers")


def tmp_dir(output: str) -> str:
    return output.rstrip("/") + ".tmp"


def private_tmp(config: FinalizeConfig):
    """Where a hidden-test release writes its private answers first (None: not hidden)."""
    from transforms.finalize.exports.hidden_test import private_folder
    return tmp_dir(private_folder(config.paths.output)) if config.settings.hide_test_answers \
        else None


def kept_folder(config: FinalizeConfig) -> str:
    return io_utils.join(config.paths.filtered, "kept")


def fates_folder(config: FinalizeConfig) -> str:
    return io_utils.join(config.paths.run_folder(), "articles")


def meta(config: FinalizeConfig) -> dict:
    from transforms.core import config as C
    from transforms.finalize.exports.relative import shown_path
    return {"split": config.settings.split_config().to_dict(),
            "validated": shown_path(config.paths.validated, config.paths.run_folder()),
            "settings": C.as_dict(config.settings)}


def project(row: dict) -> dict:
    """A kept row without the adversary's columns."""
    return {name: row[name] for name in _ROW_COLUMNS}


def graph(p, config: FinalizeConfig, source=None, scored=True, filter_rejected=True):
    """The finalize graph on `p` (writes under `<output>.tmp`); nothing is read while it is
    built, so it serves dry runs. `source`: the verdicts' (kind, pattern) as `run` found
    them, else the contract's `<validated>/*.parquet`; `scored`, `filter_rejected`: whether
    the filter's scored/ and rejected/ folders have files (`run` looks; the hardness report
    reads scored/, the article fates rejected/)."""
    import apache_beam as beam

    from transforms.core.accounting import COUNTS, REJECTED
    from transforms.core.schema import ARTICLE_FATE_SCHEMA, REJECTED_SCHEMA
    from transforms.finalize.exports.export_writer import PassageFn, WriteExports
    from transforms.finalize.exports.shards import WriteSortedShards, WriteSplitShards
    from transforms.finalize.report.assemble import WriteReport
    from transforms.finalize.report.dataset_stats import Table1
    from transforms.finalize.report.fates import ArticleFates, read_filter_rejected
    from transforms.finalize.report.hardness import Hardness, read_scored
    from transforms.finalize.report.item_quality import item_flag_counts
    from transforms.finalize.splits.assign import AssignSplits
    from transforms.finalize.splits.dedupe import DropDuplicateQueries
    from transforms.finalize.splits.grouping import GroupArticles
    from transforms.finalize.splits.verdicts import ApplyHumanValidation, verdict_source
    s, paths = config.settings, config.paths
    out = tmp_dir(paths.output)
    if source is None and paths.validated:
        source = verdict_source(paths.validated, listing=False)

    kept = (p
            | "ReadKept" >> beam.io.ReadFromParquet(io_utils.join(kept_folder(config),
                                                                  "*.parquet"), validate=False)
            | "Project" >> beam.Map(project))
    deduped = kept | "DropDuplicateQueries" >> DropDuplicateQueries()
    validated = deduped.main | "HumanValidation" >> ApplyHumanValidation(source)
    fate_rows = p | "ReadArticleFates" >> beam.io.ReadFromParquet(
        io_utils.join(fates_folder(config), "*.parquet"), validate=False)
    clusters = near_duplicate_clusters(p, fate_rows, s.near_dup)
    groups = ((validated["main"], clusters[0])
              | "GroupArticles" >> GroupArticles(s.group_rounds))
    placed = ((validated["main"], groups["main"])
              | "AssignSplits" >> AssignSplits(s.split_config(), s.quota_buckets))
    released = placed["main"]

    public = released
    if s.hide_test_answers:
        from transforms.finalize.exports.hidden_test import public_row
        public = released | "HideTestAnswers" >> beam.Map(public_row)
    shards = public | "WriteShards" >> WriteSplitShards(out, s.shard_rows, s.num_shards)
    passages = (released
                | "KeyByPassage" >> beam.Map(lambda r: ((r["split"], r["passage_id"]), r))
                | "GroupPassage" >> beam.GroupByKey()
                | "BuildPassage" >> beam.ParDo(PassageFn()).with_outputs(COUNTS, main="main"))
    exported = passages.main | "WriteExports" >> WriteExports(
        out, io_utils.join(out, SCRATCH, "exports"), not s.hide_test_answers,
        s.export_part_passages, private_tmp(config))
    figures = passages.main | "Table1" >> Table1()

    rejected = ((deduped[REJECTED], validated[REJECTED], placed[REJECTED])
                | "AllRejected" >> beam.Flatten())
    rejected | "WriteRejected" >> WriteSortedShards(
        io_utils.join(out, "rejected"), ("rejected",), s.shard_rows, schema=REJECTED_SCHEMA,
        key_columns=tuple(REJECTED_SCHEMA.names))
    # the copy: a Flatten sharing an input with a GroupByKey (WriteRejected's) loses its
    # other inputs on Beam's Flink/Spark job servers before 2.65 (apache/beam#34647)
    dropped = ((read_filter_rejected(p, paths.filtered, filter_rejected),
                rejected | "RejectedForFates" >> beam.Map(lambda r: r))
               | "FilterAndFinalizeRejected" >> beam.Flatten())
    fates = (fate_rows, kept, released, dropped, clusters[0]) | "ArticleFates" >> ArticleFates()
    fates["main"] | "WriteArticleFates" >> WriteSortedShards(
        io_utils.join(out, "articles"), ("articles",), s.shard_rows,
        schema=ARTICLE_FATE_SCHEMA, key_columns=tuple(ARTICLE_FATE_SCHEMA.names))

    hard = ((released, kept, read_scored(p, paths.filtered, scored))
            | "Hardness" >> Hardness(s.hardness))
    counts = ((deduped[COUNTS], validated[COUNTS], groups[COUNTS], placed[COUNTS],
               shards[COUNTS], passages[COUNTS], exported[COUNTS], fates[COUNTS]) + clusters[1:]
              + (item_flag_counts(released),) | "AllCounts" >> beam.Flatten())
    return ((counts, figures, shards["main"], exported["main"], hard)
            | "WriteReport" >> WriteReport(out, paths.run_folder(), paths.filtered,
                                           meta(config)))


def near_duplicate_clusters(p, fate_rows, config):
    """((article_id, near-duplicate cluster key), *their counts) from the signatures in
    generate's fate rows; none when the threshold turns the clustering off."""
    import apache_beam as beam

    from transforms.core.accounting import COUNTS
    from transforms.finalize.splits.near_dup_beam import NearDuplicateClusters
    if not config.enabled:
        return (p | "NoNearDuplicates" >> beam.Create([]),)
    found = fate_rows | "NearDuplicates" >> NearDuplicateClusters(config, fate_rows=True)
    return found["main"], found[COUNTS]


def check_inputs(config: FinalizeConfig):
    """(kept manifest, verdict source or None), after checking every input; raises
    ManifestError / FileNotFoundError / ValueError with one line."""
    from transforms.finalize.report.assemble import read_upstream
    from transforms.finalize.splits.verdicts import check_source
    kept = manifest.check(kept_folder(config), "kept queries")
    manifest.check(fates_folder(config), "article fates")
    read_upstream(config.paths.run_folder(), config.paths.filtered)
    source = None
    if config.paths.validated:
        try:
            source = check_source(config.paths.validated)
        except ValueError as err:
            raise InputError(str(err)) from None
        folder = config.paths.validated
        if not folder.endswith((".parquet", ".jsonl")) and manifest.read(folder) is not None:
            manifest.check(folder, "human-validation verdicts")
    return kept, source


def write_browsing_aids(config: FinalizeConfig, out: str, stats: dict) -> None:
    """The lm-evaluation-harness task and the explorer page, from the written release."""
    from transforms.finalize.exports.lm_eval_export import task_rows, write_lm_eval
    from transforms.finalize.report.explorer import write_explorer
    s = config.settings
    write_lm_eval(out, s.lm_eval_task, task_rows(stats))
    sample = write_explorer(out, config.paths.run_folder(), config.paths.filtered,
                            s.explorer_queries, s.explorer_drops, config.paths.validated)
    log.info("finalize: explorer/index.html shows %d queries, %d drop reasons, %d adversary "
             "answers; lm_eval/%s.yaml", sample["queries"], sample["drop_reasons"],
             sample["answered"], s.lm_eval_task)


def run(config: FinalizeConfig, runtime: Runtime = Runtime()) -> dict:
    """Check the inputs, build the dataset under `<output>.tmp`, check it, move it into
    place; returns the stats.json it wrote."""
    from transforms.core.progress import Display
    from transforms.finalize.exports import files, fingerprint
    from transforms.finalize.report.assemble import empty_split_warning, problems
    from transforms.finalize.report.item_quality import record_labels
    from transforms.finalize.splits.split_warnings import split_warnings
    paths, s = config.paths, config.settings
    kept, source = check_inputs(config)
    tmp, private = tmp_dir(paths.output), private_tmp(config)
    owned = {paths.output: paths.output}          # a release it replaces holds only its files
    if private:
        from transforms.finalize.exports.hidden_test import private_folder
        owned[private_folder(paths.output)] = private_folder(paths.output)
    check_owned(owned)
    files.remove(tmp)
    if private:
        files.remove(private)
    log.info("finalize: %d kept queries from %s -> %s", kept["rows"], paths.filtered,
             paths.output)
    display = Display(NAME, ("dedupe", "queries", kept["rows"]), {"split": "released"})
    scored, dropped = (bool(io_utils.glob(io_utils.join(paths.filtered, folder, "*.parquet")))
                       for folder in ("scored", "rejected"))
    # a half-written tmp is removed however the command ends (a full disk wants its space)
    forget = on_exit(lambda: [files.remove_quietly(t) for t in (tmp, private) if t])
    try:
        seconds = run_pipeline(NAME, lambda p: graph(p, config, source, scored, dropped),
                               runtime, display=display, size=kept["rows"])
    except BaseException:
        files.remove_quietly(tmp)
        forget()
        raise
    files.remove(io_utils.join(tmp, SCRATCH))
    stats = io_utils.read_json(io_utils.join(tmp, "stats.json"))
    found = problems(stats, kept["rows"], s.partial_validation, s.group_rounds)
    if found:
        forget()
        raise StageFailed("finalize: " + "; ".join(found) + f" (nothing published; the "
                          f"output is left in {tmp})")
    from transforms.finalize.report.human_performance import add_to_release
    stats = add_to_release(tmp, paths.validated, paths.filtered, stats)
    stats = record_labels(tmp, paths.run_folder(), stats)    # a reading audit's labels
    write_browsing_aids(config, tmp, stats)
    release, described = fingerprint.stamp(tmp)
    manifest.write(tmp, described)
    files.publish(tmp, paths.output)
    if private:
        from transforms.finalize.exports.hidden_test import private_folder
        manifest.write(private)
        files.publish(private, private_folder(paths.output))
        log.info("finalize: hidden test: the test answers are in %s (not part of the "
                 "release; evaluate --data %s/test.json)", private_folder(paths.output),
                 private_folder(paths.output))
    forget()
    log.info("finalize: release fingerprint sha256:%s (on the card; `validate --expect`)",
             release)
    table = stats["table1"]
    log.info("finalize: done in %.1f s; released %s queries (train %d, dev %d, test %d), "
             "%d passages; rejected %s", seconds, table["overall"]["queries"],
             table["train"]["queries"], table["dev"]["queries"], table["test"]["queries"],
             table["overall"]["unique_passages"],
             {step: stats["funnel"]["stages"][step]["reasons"]
              for step in ("dedupe", "human_validation", "split")})
    unsigned = stats["funnel"]["stages"]["split"].get("near_dup_unsigned", 0)
    if unsigned:
        log.warning("finalize: %d articles of %s have no near-duplicate signature (generated "
                    "before articles were signed?): versions of one story among them may land "
                    "in two splits; rerun generate", unsigned, fates_folder(config))
    for split in ("train", "dev", "test"):
        if not table[split]["queries"]:
            log.warning("%s", empty_split_warning(stats, split, s.split_config()))
    for warning in split_warnings(stats):
        log.warning("finalize: %s", warning)
    return stats

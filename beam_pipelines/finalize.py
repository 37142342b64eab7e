"""Turn the adversarially filtered candidates into the released dataset (paper section 3.4).

    python -m beam_pipelines.finalize --filtered DIR/filtered --output DIR/dataset \
        [--validated RESULTS] [--run_dir DIR] [split policy flags] [Beam options]

read kept queries -> drop duplicate queries -> human validation -> splits -> Parquet shards,
ReCoRD JSON, SuperGLUE jsonl, stats.json, dataset card. Everything is written under
`<output>.tmp` and moved into place at the end, so a killed run leaves no half dataset.
See docs/finalize.md.
"""
import argparse
import json
import logging
import posixpath

import apache_beam as beam
import fsspec
from apache_beam.metrics import Metrics
from apache_beam.options.pipeline_options import SetupOptions

from beam_pipelines.common import pipeline_options, run_main
from transforms.finalize import dataset_card
from transforms.finalize import dataset_stats
from transforms.finalize import exports
from transforms.core import io_utils
from transforms.finalize import splits
from transforms.core.schema import DATASET_SCHEMA, REJECTED_SCHEMA, rejected_row

STAGE = "finalize"
SHARD_TEMPLATE = "-SSSSS-of-NNNNN"
_INPUT_COLUMNS = set(exports.DATASET_COLUMNS) - {"split"}


def _reject(row, reason, detail=None):
    Metrics.counter(STAGE, reason).inc()
    return beam.pvalue.TaggedOutput("rejected", rejected_row(
        STAGE, reason, article_id=row.get("article_id"), record_id=row.get("id"), detail=detail))


def _dataset_row(row: dict) -> dict:
    return {name: row[name] for name in DATASET_SCHEMA.names}


class DropDuplicateQueries(beam.PTransform):
    """Within a passage, keep one query per exact query text (the smallest id)."""

    def expand(self, rows):
        def split_duplicates(key_rows):
            kept, dropped = splits.dedup_queries(key_rows[1])
            yield from kept
            for row in dropped:
                yield _reject(row, "duplicate_query_in_passage", f"duplicate of {kept[0]['id']}")

        return (rows
                | "KeyByPassageQuery" >> beam.Map(lambda r: ((r["passage_id"], r["query"]), r))
                | "GroupSameQuery" >> beam.GroupByKey()
                | "KeepFirst" >> beam.FlatMap(split_duplicates).with_outputs("rejected", main="rows"))


class ApplyHumanValidation(beam.PTransform):
    """Tag each row with `_valid_for`; without validation results every query is dev_test."""

    def __init__(self, validation):
        super().__init__()
        self.validation = validation

    def expand(self, rows):
        if self.validation is None:
            return {"rows": rows | "AllValid" >> beam.Map(lambda r: dict(r, _valid_for="dev_test")),
                    "rejected": rows.pipeline | "NoValidationRejects" >> beam.Create([])}

        def tag(row, validation):
            valid_for = validation.get(row["id"])
            if valid_for is None:
                yield _reject(row, "not_human_validated")
            elif valid_for == "none":
                yield _reject(row, "failed_human_validation")
            else:
                yield dict(row, _valid_for=valid_for)

        table = rows.pipeline | "ValidationResults" >> beam.Create([self.validation])
        out = rows | "TagValidity" >> beam.FlatMap(tag, beam.pvalue.AsSingleton(table)).with_outputs(
            "rejected", main="rows")
        return {"rows": out.rows, "rejected": out.rejected}


class AssignSplits(beam.PTransform):
    """Group articles sharing a passage text or URL, then place each group by the rules."""

    def __init__(self, config: splits.SplitConfig):
        super().__init__()
        self.config = config

    def expand(self, rows):
        groups = (rows
                  | "ArticleLinks" >> beam.Map(
                      lambda r: (r["article_id"], splits.passage_digest(r["passage"]), r["url"] or None))
                  | "DistinctLinks" >> beam.Distinct()
                  | "CollectLinks" >> beam.combiners.ToList()
                  | "UnionFind" >> beam.Map(splits.group_articles))
        keyed = rows | "KeyByGroup" >> beam.Map(
            lambda r, g: (g[r["article_id"]], r), beam.pvalue.AsSingleton(groups))
        assignment = (keyed
                      | "QueryOrigins" >> beam.MapTuple(
                          lambda k, r: (k, (r["origin"], r["_valid_for"] == "dev_test")))
                      | "GroupByArticleGroup" >> beam.GroupByKey()
                      | "Summarize" >> beam.MapTuple(splits.summarize_group)
                      | "CollectSummaries" >> beam.combiners.ToList()
                      | "ApplySplitRules" >> beam.Map(splits.assign_splits, config=self.config))

        def tag(key_row, assignment):
            key, row = key_row
            split, reason = assignment[key]
            if split is None:
                yield _reject(row, reason, f"article group {key}")
            elif not splits.validation_allows(row["_valid_for"], split):
                yield _reject(row, f"not_validated_for_{split}", f"valid_for={row['_valid_for']}")
            else:
                Metrics.counter(STAGE, f"queries_{split}").inc()
                yield _dataset_row(dict(row, split=split))

        out = keyed | "TagSplit" >> beam.FlatMap(tag, beam.pvalue.AsSingleton(assignment)).with_outputs(
            "rejected", main="rows")
        return {"rows": out.rows, "rejected": out.rejected}


class WriteSplitShards(beam.PTransform):
    """`<split>-SSSSS-of-NNNNN.parquet` per split, with the explicit DATASET_SCHEMA."""

    def __init__(self, out_dir: str, num_shards: int):
        super().__init__()
        self.out_dir, self.num_shards = out_dir, num_shards

    def expand(self, rows):
        parts = rows | "BySplit" >> beam.Partition(lambda r, n: splits.SPLITS.index(r["split"]), 3)
        for split, part in zip(splits.SPLITS, parts):
            part | f"Write{split.title()}Parquet" >> beam.io.WriteToParquet(
                io_utils.join(self.out_dir, split), schema=DATASET_SCHEMA, file_name_suffix=".parquet",
                shard_name_template=SHARD_TEMPLATE, num_shards=self.num_shards)
        return rows.pipeline | "ShardsDone" >> beam.Create([None])


def _write_text(url: str, text: str):
    fs, path = fsspec.core.url_to_fs(url)
    fs.makedirs(posixpath.dirname(path), exist_ok=True)
    with fs.open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _write_bytes(url: str, data: bytes):
    fs, path = fsspec.core.url_to_fs(url)
    fs.makedirs(posixpath.dirname(path), exist_ok=True)
    with fs.open(path, "wb") as f:
        f.write(data)


class WriteExports(beam.PTransform):
    """record/<split>.json and superglue/<train|val|test>.jsonl, one writer per split."""

    def __init__(self, out_dir: str, test_answers_in_record: bool):
        super().__init__()
        self.out_dir, self.test_answers = out_dir, test_answers_in_record

    def expand(self, passages):
        out_dir, test_answers = self.out_dir, self.test_answers

        def write(split, items):
            items = [p for p in items if p is not None]   # the seed marks an empty split
            record = exports.record_json(items, with_answers=test_answers or split != "test")
            _write_text(io_utils.join(out_dir, "record", f"{split}.json"), exports.dumps_record_json(record))
            lines = exports.superglue_lines(items, with_answers=split != "test")
            _write_text(io_utils.join(out_dir, "superglue", f"{exports.SUPERGLUE_SPLIT[split]}.jsonl"),
                        exports.dumps_jsonl(lines))
            return split, len(items)

        seeds = passages.pipeline | "EverySplit" >> beam.Create([(s, None) for s in splits.SPLITS])
        return ((passages | "KeyBySplit" >> beam.Map(lambda p: (p["split"], p)), seeds)
                | "WithSeeds" >> beam.Flatten()
                | "GroupSplit" >> beam.GroupByKey()
                | "WriteJson" >> beam.MapTuple(write))


class PassageSummaryFn(beam.DoFn):
    def setup(self):
        self.tokenizer = dataset_stats.Tokenizer()

    def process(self, passage):
        yield dataset_stats.passage_summary(passage, self.tokenizer)


def finalize_account(table, n_in, reasons) -> dict:
    """This job's entry of the funnel, in the generator's accounting layout."""
    out = {s: table["table1"][s]["queries"] for s in splits.SPLITS}
    return {"job": STAGE, "stages": {STAGE: {
        "in": n_in, "out": sum(out.values()), "rejected": sum(reasons.values()),
        "reasons": dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])))}},
        "summary": {"queries": out,
                    "passages": {s: table["table1"][s]["unique_passages"] for s in splits.SPLITS}}}


def write_stats_and_card(table, out_dir, config, funnel, n_in, reasons, num_shards):
    """stats.json, the histograms and README.md."""
    funnel = dict(funnel, **{STAGE: finalize_account(table, n_in, reasons)})
    account = funnel[STAGE]["stages"][STAGE]
    stats = {
        "summary": dict({f"{s}_queries": table["table1"][s]["queries"] for s in splits.SPLITS},
                        passages=table["table1"]["overall"]["unique_passages"],
                        rejected=account["rejected"]),
        "table1": table["table1"],
        "distributions": {s: {k: dataset_stats.summarize_distribution(v) for k, v in d.items()}
                          for s, d in table["distributions"].items()},
        "config": config,
        "funnel": funnel,
    }
    _write_text(io_utils.join(out_dir, "stats.json"), json.dumps(stats, indent=2) + "\n")
    for file, key, label in dataset_card.HISTOGRAMS:
        _write_bytes(io_utils.join(out_dir, file),
                     dataset_card.histogram_png(table["distributions"], key, label))
    shard_files = {s: [f"{s}-{i:05d}-of-{num_shards:05d}.parquet" for i in range(num_shards)]
                   for s in splits.SPLITS}
    _write_text(io_utils.join(out_dir, "README.md"), dataset_card.render_card(stats, shard_files))
    return stats


def _counts_dict(pairs):
    return {k: v for k, v in sorted(pairs)}


def build_pipeline(p, args, config, validation, funnel, out_dir, check_files=True):
    rows = p | "ReadKept" >> beam.io.ReadFromParquet(args.kept_pattern, validate=check_files)
    deduped = rows | "DropDuplicateQueries" >> DropDuplicateQueries()
    validated = deduped.rows | "HumanValidation" >> ApplyHumanValidation(validation)
    placed = validated["rows"] | "AssignSplits" >> AssignSplits(config)
    final = placed["rows"]
    rejected = ((deduped.rejected, validated["rejected"], placed["rejected"])
                | "AllRejected" >> beam.Flatten())

    final | "WriteShards" >> WriteSplitShards(out_dir, args.num_shards)
    rejected | "WriteRejected" >> beam.io.WriteToParquet(
        io_utils.join(out_dir, "rejected", "part"), schema=REJECTED_SCHEMA, file_name_suffix=".parquet",
        shard_name_template=SHARD_TEMPLATE, num_shards=1)

    passages = (final
                | "KeyByPassage" >> beam.Map(lambda r: ((r["split"], r["passage_id"]), r))
                | "GroupPassage" >> beam.GroupByKey()
                | "BuildPassage" >> beam.MapTuple(lambda _, rs: exports.passage_record(rs)))
    passages | "WriteExports" >> WriteExports(out_dir, not args.hide_test_answers)

    counts = {
        "input_queries": rows | "CountInput" >> beam.combiners.Count.Globally(),
        "rejected_by_reason": (rejected | "Reasons" >> beam.Map(lambda r: r["reason"])
                               | "CountReasons" >> beam.combiners.Count.PerElement()
                               | "ReasonsToList" >> beam.combiners.ToList()
                               | "ReasonsDict" >> beam.Map(_counts_dict)),
    }
    table = (passages
             | "SummarizePassages" >> beam.ParDo(PassageSummaryFn())
             | "Table1" >> beam.CombineGlobally(dataset_stats.DatasetStatsFn()))
    table | "WriteStatsAndCard" >> beam.Map(
        lambda t, n, reasons: write_stats_and_card(
            t, out_dir, {"split": config.to_dict(), "validated": args.validated},
            funnel, n, reasons, args.num_shards),
        beam.pvalue.AsSingleton(counts["input_queries"]),
        beam.pvalue.AsSingleton(counts["rejected_by_reason"]))


# --- driver -----------------------------------------------------------------------------

def _csv(value):
    return tuple(v.strip() for v in value.split(",") if v.strip()) if value else None


def _ratio(value):
    if not value:
        return None
    pairs = [item.split(":") for item in value.split(",") if item.strip()]
    if any(len(p) != 2 for p in pairs):
        raise argparse.ArgumentTypeError(f"expected origin:weight,... got {value!r}")
    return tuple((o.strip(), float(w)) for o, w in pairs)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Splits, shards and exports of the released dataset.")
    parser.add_argument("--filtered", required=True, help="DIR/filtered (reads kept/*.parquet)")
    parser.add_argument("--output", required=True, help="DIR/dataset")
    parser.add_argument("--validated", help="human-validation output (validated/*.parquet or validated.jsonl)")
    parser.add_argument("--run_dir", help="DIR holding stats/ and adversary/stats/ (default: parent of --filtered)")
    parser.add_argument("--train_fraction", type=float, default=0.8)
    parser.add_argument("--dev_fraction", type=float, default=0.1)
    parser.add_argument("--test_fraction", type=float, default=0.1)
    parser.add_argument("--train_origins", type=_csv, help="comma list; default every origin")
    parser.add_argument("--dev_test_origins", type=_csv, help="comma list; default every origin")
    parser.add_argument("--dev_test_origin_ratio", type=_ratio, help="e.g. public:0.3,crawled:0.7")
    parser.add_argument("--paper_split_policy", action="store_true",
                        help="train from origin public; dev/test public:crawled 3:7 (flags above override)")
    parser.add_argument("--dev_size", type=int, help="cap on dev queries")
    parser.add_argument("--test_size", type=int, help="cap on test queries")
    parser.add_argument("--split_salt", default="split")
    parser.add_argument("--num_shards", type=int, default=1, help="Parquet shards per split")
    parser.add_argument("--workers", type=int, default=None,
                        help="DirectRunner worker processes (default: one per core; 1: in-process)")
    parser.add_argument("--hide_test_answers", action="store_true",
                        help="leave answers out of record/test.json (SuperGLUE test never has them)")
    args, beam_args = parser.parse_known_args(argv)
    args.kept_pattern = io_utils.join(args.filtered, "kept", "*.parquet")
    args.run_dir = args.run_dir or posixpath.dirname(args.filtered.rstrip("/"))
    return args, beam_args


def split_config(args) -> splits.SplitConfig:
    settings = dict(train_fraction=args.train_fraction, dev_fraction=args.dev_fraction,
                    test_fraction=args.test_fraction, dev_size=args.dev_size,
                    test_size=args.test_size, salt=args.split_salt)
    for name in ("train_origins", "dev_test_origins", "dev_test_origin_ratio"):
        if getattr(args, name) is not None:
            settings[name] = getattr(args, name)
    return splits.SplitConfig.paper(**settings) if args.paper_split_policy else splits.SplitConfig(**settings)


def read_funnel(args) -> dict:
    """Merge the earlier stages' stats/*.json files into one funnel dict."""
    patterns = [io_utils.join(args.run_dir, "stats", "*.json"),
                io_utils.join(args.run_dir, "adversary", "stats", "*.json"),
                io_utils.join(args.filtered, "stats", "*.json")]
    named = [(path, io_utils.read_json(path)) for pattern in patterns for path in io_utils.glob(pattern)]
    return dataset_stats.merge_funnel(named)


def check_input(pattern: str):
    files = io_utils.glob(pattern)
    if not files:
        raise FileNotFoundError(f"no filtered candidates match {pattern}")
    import pyarrow.parquet as pq
    with fsspec.open(files[0], "rb") as f:
        names = set(pq.read_schema(f).names)
    missing = _INPUT_COLUMNS - names
    if missing:
        raise ValueError(f"{files[0]}: missing column(s) {sorted(missing)}")


def publish(tmp: str, final: str):
    """Move the finished tmp directory into place, replacing an earlier dataset."""
    fs, tmp_path = fsspec.core.url_to_fs(tmp)
    _, final_path = fsspec.core.url_to_fs(final)
    if fs.exists(final_path):
        fs.rm(final_path, recursive=True)
    fs.mv(tmp_path, final_path, recursive=True)


def graph(p, argv, build_args=None):
    """Build the graph on `p` without running it or reading any input (runners' --dry_run);
    human-validation results and the funnel are read only by `run`."""
    args, _ = parse_args(argv)
    build_pipeline(p, args, split_config(args), None, {}, args.output.rstrip("/") + ".tmp",
                   check_files=False)
    return args


def run(argv=None, save_main_session=True) -> dict:
    """Run the job; returns the stats.json it wrote (its `summary` has the split sizes)."""
    args, beam_args = parse_args(argv)
    config = split_config(args)
    check_input(args.kept_pattern)
    validation = splits.load_validation(args.validated) if args.validated else None
    funnel = read_funnel(args)
    tmp = args.output.rstrip("/") + ".tmp"
    fs, tmp_path = fsspec.core.url_to_fs(tmp)
    if fs.exists(tmp_path):
        fs.rm(tmp_path, recursive=True)

    options = pipeline_options(beam_args, args.workers)
    options.view_as(SetupOptions).save_main_session = save_main_session
    pipeline = beam.Pipeline(options=options)
    build_pipeline(pipeline, args, config, validation, funnel, tmp)
    pipeline.run().wait_until_finish()

    stats = io_utils.read_json(io_utils.join(tmp, "stats.json"))
    publish(tmp, args.output)
    for split in splits.SPLITS:
        row = stats["table1"][split]
        logging.info("finalize: %s: %d queries, %d passages", split, row["queries"], row["unique_passages"])
        if not row["queries"]:
            logging.warning("finalize: %s is empty; check the split policy against the input's "
                            "origins and size (%s)", split, config)
    logging.info("finalize: rejected %s", stats["funnel"][STAGE]["stages"][STAGE]["reasons"])
    logging.info("finalize: wrote %s", args.output)
    return stats


def main():
    run_main(run)


if __name__ == "__main__":
    main()

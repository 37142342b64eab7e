"""Generation job: news articles -> ReCoRD-style cloze candidates (paper sections 3.1-3.2).

    python -m beam_pipelines.generate --input PATTERN [--input PATTERN ...] \
        [--origin NAME ...] --output DIR [Beam options]

Writes DIR/candidates/*.parquet, DIR/rejected/*.parquet and DIR/stats/generate.json
(see docs/dataset-contract.md). With no --input it runs on the bundled sample corpus.
"""
import argparse
import logging
import time

import apache_beam as beam

from beam_pipelines.common import InputError, pipeline_options, run_main, sample_inputs
from transforms.core.accounting import COUNTS, REJECTED, SumCounts, stage_accounts, unbalanced_stages
from transforms.curation.annotation import AnnotateConfig
from transforms.curation.clean import CleanConfig
from transforms.generation.cloze import QueryConfig
from transforms.generation.pipeline import (STAGES, CurateArticles, GenerateClozeQueries, GenerateConfig,
                                   ReadArticles)
from transforms.core.io_utils import join, read_json, write_json
from transforms.generation.passages import PassageConfig
from transforms.core.schema import CANDIDATE_SCHEMA, REJECTED_SCHEMA
from transforms.generation.sentences import SentenceConfig

log = logging.getLogger("generate")
STATS_FILE = "stats/generate.json"


def build_parser() -> argparse.ArgumentParser:
    d = GenerateConfig()
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--input", action="append", default=argparse.SUPPRESS,
                   help="fsspec pattern of .story / .jsonl / .csv / .parquet files (.gz too); "
                        "repeatable (default: the bundled sample corpus)")
    p.add_argument("--origin", action="append", default=[],
                   help="corpus partition of the matching --input (e.g. public, crawled); "
                        "one value applies to all inputs")
    p.add_argument("--output", required=True, help="output directory (local or gs://)")
    p.add_argument("--folds", type=int, default=d.query.folds,
                   help="k of the k-fold adversarial filter (fold = stable_hash(article_id) %% k)")
    p.add_argument("--min_prefix_tokens", type=int, default=d.passage.min_prefix_tokens,
                   help="tokens the passage's article prefix must reach")
    p.add_argument("--min_entities", type=int, default=d.passage.min_entities,
                   help="distinct entities a passage needs")
    p.add_argument("--min_sentence_tokens", type=int, default=d.sentence.min_tokens,
                   help="tokens a query sentence needs")
    p.add_argument("--max_shared_ngram", type=int, default=d.sentence.max_shared_ngram,
                   help="a sentence sharing a word n-gram of this size with the passage is dropped")
    p.add_argument("--max_article_chars", type=int, default=d.clean.max_article_chars,
                   help="longer articles are rejected as scraping accidents")
    p.add_argument("--spacy_model", default=d.annotate.spacy_model,
                   help="installed spaCy pipeline name or local path "
                        "(e.g. a transformer pipeline on GPU workers)")
    p.add_argument("--nlp_batch_size", type=int, default=d.annotate.batch_size,
                   help="articles per nlp.pipe call")
    p.add_argument("--workers", type=int, default=None,
                   help="local worker processes; 1 runs in-process (default: one per core)")
    return p


def config_from_args(args) -> GenerateConfig:
    return GenerateConfig(
        clean=CleanConfig(max_article_chars=args.max_article_chars),
        annotate=AnnotateConfig(spacy_model=args.spacy_model, batch_size=args.nlp_batch_size),
        passage=PassageConfig(min_prefix_tokens=args.min_prefix_tokens,
                              min_entities=args.min_entities),
        sentence=SentenceConfig(min_tokens=args.min_sentence_tokens,
                                max_shared_ngram=args.max_shared_ngram),
        query=QueryConfig(folds=args.folds))


def inputs_with_origins(patterns, origins) -> list:
    if not origins:
        origins = ["public"]
    if len(origins) == 1:
        origins = origins * len(patterns)
    if len(origins) != len(patterns):
        raise SystemExit(f"--origin given {len(origins)} times for {len(patterns)} --input "
                         "patterns: give one per input, or one for all")
    return list(zip(patterns, origins))


class WriteStats(beam.PTransform):
    """Sum every stage's counts and write the funnel as JSON."""

    def __init__(self, path, meta):
        super().__init__()
        self.path, self.meta = path, meta

    def expand(self, counts):
        def write(flat):
            accounts = stage_accounts(flat, STAGES)
            stats = dict(self.meta, stages=accounts, unbalanced=unbalanced_stages(accounts),
                         summary=summarise(accounts))
            write_json(self.path, stats)
            return stats

        return (counts
                | "SumCounts" >> beam.CombineGlobally(SumCounts())
                | "WriteStatsJson" >> beam.Map(write))


def summarise(accounts) -> dict:
    passages = accounts["passage"]["out"]
    articles = accounts["clean"]["in"]
    queries = accounts["query"]["out"]
    per = lambda n, d: round(n / d, 2) if d else None  # noqa: E731
    return {"articles": articles, "passages": passages,
            "sentences_kept": accounts["sentence"]["out"], "queries": queries,
            "tokens_per_passage": per(accounts["passage"].get("tokens", 0), passages),
            "entities_per_passage": per(accounts["passage"].get("entity_mentions", 0), passages),
            "queries_per_article": per(queries, articles),
            "queries_per_passage": per(queries, passages)}


def build_pipeline(p, inputs, output, config: GenerateConfig, meta=None):
    """The generation graph, stage by stage as in the paper's Figure 2."""
    read = p | "ReadArticles" >> ReadArticles(inputs)
    curated = read["main"] | "CurateArticles" >> CurateArticles(config.clean, config.annotate)
    queries = curated["main"] | "GeneratePassagesQueriesAnswers" >> GenerateClozeQueries(config)
    queries["main"] | "WriteCandidates" >> beam.io.WriteToParquet(
        join(output, "candidates", "candidates"), schema=CANDIDATE_SCHEMA,
        file_name_suffix=".parquet")
    ((read[REJECTED], curated[REJECTED], queries[REJECTED])
     | "AllRejected" >> beam.Flatten()
     | "WriteRejected" >> beam.io.WriteToParquet(
         join(output, "rejected", "rejected"), schema=REJECTED_SCHEMA,
         file_name_suffix=".parquet"))
    ((read[COUNTS], curated[COUNTS], queries[COUNTS])
     | "AllCounts" >> beam.Flatten()
     | "Funnel" >> WriteStats(join(output, STATS_FILE), meta or {}))
    return queries["main"]


def graph(p, argv, build_args=None):
    """Build the job's graph on pipeline `p` from command-line flags, without running it
    (the runners' --dry_run uses this)."""
    args, _ = build_parser().parse_known_args(argv)
    inputs = inputs_with_origins(getattr(args, "input", None) or sample_inputs(), args.origin)
    config = config_from_args(args)
    meta = {"job": "generate", "inputs": [list(i) for i in inputs], "config": _asdict(config)}
    build_pipeline(p, inputs, args.output, config, meta)
    return args


def run(argv=None):
    """Run the job; returns the stats dict it wrote."""
    args, beam_args = build_parser().parse_known_args(argv)
    log.info("generate: %s -> %s", getattr(args, "input", None) or "the bundled sample corpus",
             args.output)
    started = time.monotonic()
    with beam.Pipeline(options=pipeline_options(beam_args, args.workers)) as p:
        graph(p, argv)
    stats = read_json(join(args.output, STATS_FILE))
    log.info("generate: done in %.1f s\n%s", time.monotonic() - started, format_funnel(stats))
    read = stats["stages"]["read"]
    if read["out"] == 0:
        source = getattr(args, "input", None) or "the sample corpus"
        raise InputError(f"no article could be read from {source}: "
                         f"{read['reasons'] or 'no input'} (rejected rows in "
                         f"{join(args.output, 'rejected')})")
    if stats["summary"]["queries"] == 0:
        raise InputError(f"no cloze query was generated from {read['out']} article(s); "
                         f"see the funnel above and {join(args.output, 'rejected')}")
    return stats


def _asdict(config):
    import dataclasses
    return dataclasses.asdict(config)


def format_funnel(stats) -> str:
    lines = [f"{'stage':<12} {'in':>8} {'out':>8} {'rejected':>8}  top reasons"]
    for stage, a in stats["stages"].items():
        reasons = ", ".join(f"{k} {v}" for k, v in list(a["reasons"].items())[:3])
        lines.append(f"{stage:<12} {a['in']:>8} {a['out']:>8} {a['rejected']:>8}  {reasons}")
    s = stats["summary"]
    lines.append(f"tokens/passage {s['tokens_per_passage']}  entities/passage "
                 f"{s['entities_per_passage']}  queries/article {s['queries_per_article']}")
    return "\n".join(lines)


def main():
    run_main(run)


if __name__ == "__main__":
    main()

"""The generate stage: news articles -> cloze candidates (paper sections 3.1-3.2).

    ReadArticles -> CurateArticles -> GenerateClozeQueries -> candidates, rejected, fates

Writes DIR/candidates, DIR/rejected, DIR/articles (one fate row per input article) and
DIR/stats/generate.json (the funnel), each folder with its manifest.
"""
import dataclasses
import logging
from dataclasses import dataclass, field

from transforms.core import io_utils, manifest
from transforms.core.funnel import Step
from transforms.core.preflight import InputError
from transforms.core.signing import SignatureConfig
from transforms.core.stage import Runtime, StageFailed, run_pipeline
from transforms.curation.annotation import AnnotateConfig
from transforms.curation.clean import CleanConfig
from transforms.generation.cloze import QueryConfig
from transforms.generation.passages import PassageConfig
from transforms.generation.sentences import SentenceConfig
from transforms.ingestion.inputs import ReadConfig

log = logging.getLogger("generate")
NAME = "generate"
OUTPUTS = ("candidates", "rejected", "articles", "stats")
STATS_FILE = "stats/generate.json"
STEPS = (
    Step("inputs", "pattern", expand=True), Step("files", "file"),
    Step("records", "file", expand=True), Step("read", "record"), Step("clean", "article"),
    Step("deduplicate", "article"), Step("distinct_text", "article"),
    Step("distinct_url", "article"), Step("annotate", "article"), Step("passage", "article"),
    Step("sentences", "passage", expand=True), Step("sentence", "sentence"),
    Step("mentions", "sentence", expand=True), Step("query", "mention"),
)
#: Steps whose rejected rows end an article's (or a file's) contribution.
ARTICLE_STEPS = ("files", "read", "clean", "deduplicate", "distinct_text", "distinct_url",
                 "annotate", "passage")


@dataclass(frozen=True)
class GenerateSettings:
    """Every knob of the generation job; the paper's numbers are the defaults."""
    read: ReadConfig = field(default_factory=ReadConfig)
    clean: CleanConfig = field(default_factory=CleanConfig)
    annotate: AnnotateConfig = field(default_factory=AnnotateConfig)
    passage: PassageConfig = field(default_factory=PassageConfig)
    sentence: SentenceConfig = field(default_factory=SentenceConfig)
    query: QueryConfig = field(default_factory=QueryConfig)
    near_dup: SignatureConfig = field(default_factory=SignatureConfig)


@dataclass(frozen=True)
class GeneratePaths:
    inputs: tuple          # ((pattern, origin), ...); origin '' means by file type
    output: str            # the run directory


@dataclass(frozen=True)
class GenerateConfig:
    paths: GeneratePaths
    settings: GenerateSettings = field(default_factory=GenerateSettings)


def clean_config(settings: GenerateSettings) -> CleanConfig:
    if settings.read.allow_no_highlights:
        return dataclasses.replace(settings.clean, min_highlights=0)
    return settings.clean


def graph(p, config: GenerateConfig, files=None):
    """The generation graph on `p`, stage by stage as in the paper's Figure 2. `files`:
    the files pre-flight listed (a listing.Listing or [InputFile]); None: the job expands
    the input patterns itself."""
    import apache_beam as beam

    from transforms.core.accounting import COUNTS, REJECTED
    from transforms.core.schema import (
        CANDIDATE_SCHEMA,
        GENERATION_FATE_SCHEMA,
        REJECTED_SCHEMA,
        ROW_GROUP,
    )
    from transforms.curation.curate import CurateArticles
    from transforms.generation.generate import FATES, GenerateClozeQueries
    from transforms.ingestion.read import ReadArticles
    s, out = config.settings, config.paths.output
    read = p | "ReadArticles" >> ReadArticles(config.paths.inputs, s.read, files)
    curated = read["main"] | "CurateArticles" >> CurateArticles(clean_config(s), s.annotate)
    queries = curated["main"] | "GeneratePassagesQueriesAnswers" >> GenerateClozeQueries(
        s.passage, s.sentence, s.query, s.near_dup)
    queries["main"] | "WriteCandidates" >> beam.io.WriteToParquet(
        io_utils.join(out, "candidates", "candidates"), schema=CANDIDATE_SCHEMA,
        file_name_suffix=".parquet", **ROW_GROUP)
    rejected = ((read[REJECTED], curated[REJECTED], queries[REJECTED])
                | "AllRejected" >> beam.Flatten())
    rejected | "WriteRejected" >> beam.io.WriteToParquet(
        io_utils.join(out, "rejected", "rejected"), schema=REJECTED_SCHEMA,
        file_name_suffix=".parquet", **ROW_GROUP)
    stopped = rejected | "ArticleRejections" >> beam.FlatMap(rejection_fate)
    ((queries[FATES], stopped)
     | "AllFates" >> beam.Flatten()
     | "WriteFates" >> beam.io.WriteToParquet(
         io_utils.join(out, "articles", "articles"), schema=GENERATION_FATE_SCHEMA,
         file_name_suffix=".parquet", **ROW_GROUP))
    from transforms.core.accounting import WriteFunnel
    ((read[COUNTS], curated[COUNTS], queries[COUNTS])
     | "AllCounts" >> beam.Flatten()
     | "Funnel" >> WriteFunnel(io_utils.join(out, STATS_FILE), STEPS, meta(config), summarise))
    return queries["main"]


def rejection_fate(row: dict):
    """A fate row for a rejection that ends an article (not a sentence or a query)."""
    if row["stage"] in ARTICLE_STEPS:
        record = None if row.get("article_id") else (row.get("source_file") or "") + (
            f" ({row['detail'][:80]})" if row.get("detail") else "")
        yield {"article_id": row.get("article_id"), "record_id": record,
               "source_file": row.get("source_file"), "origin": None, "stage": row["stage"],
               "reason": row["reason"], "candidates": 0, "minhash": None}


def meta(config: GenerateConfig) -> dict:
    from transforms.core import config as C
    from transforms.ingestion.specs import as_spec
    inputs = [[s.pattern, s.origin] + ([{"source": s.source, "columns": dict(s.columns)}]
                                       if s.source or s.columns else [])
              for s in map(as_spec, config.paths.inputs)]
    return {"job": NAME, "inputs": inputs,
            "config": C.as_dict(config.settings)}


def summarise(accounts) -> dict:
    passages = accounts["passage"]["out"]
    articles = accounts["clean"]["in"]
    queries = accounts["query"]["out"]

    def per(n, d):
        return round(n / d, 2) if d else None
    return {"articles": articles, "passages": passages,
            "sentences_kept": accounts["sentence"]["out"], "queries": queries,
            "tokens_per_passage": per(accounts["passage"].get("tokens", 0), passages),
            "entities_per_passage": per(accounts["passage"].get("entity_mentions", 0), passages),
            "queries_per_article": per(queries, articles),
            "queries_per_passage": per(queries, passages)}


def run(config: GenerateConfig, runtime: Runtime = Runtime(), files=None, total=None) -> dict:
    """Run the job; returns the stats dict it wrote. `total`: the articles the pre-flight
    expects (for progress)."""
    from transforms.core.progress import Display
    from transforms.ingestion import listing
    out = config.paths.output
    if files is not None:   # the list pre-flight fixed: the job reads it from the run folder
        files = listing.write(files, io_utils.join(out, listing.FILE))
    display = Display(NAME, ("read", "records", total),
                      {"annotate": "annotated", "query": "queries"})
    seconds = run_pipeline(NAME, lambda p: graph(p, config, files), runtime, display=display,
                           size=total)
    for folder in OUTPUTS:
        manifest.write(io_utils.join(out, folder))
    stats = io_utils.read_json(io_utils.join(out, STATS_FILE))
    log.info("generate: done in %.1f s\n%s", seconds, format_funnel(stats))
    if stats["gaps"]:
        raise StageFailed("generate: the funnel does not balance: " + "; ".join(stats["gaps"]))
    read = stats["stages"]["read"]
    if read["reasons"].get("missing_file"):
        log.warning("generate: %d input file(s) listed when the run started were gone when "
                    "read (missing_file rows in %s)", read["reasons"]["missing_file"],
                    io_utils.join(out, "rejected"))
    if read["out"] == 0:
        raise InputError(f"no article could be read from the input: "
                         f"{stats['stages']['files']['reasons'] or read['reasons'] or 'no input'}"
                         f" (rejected rows in {io_utils.join(out, 'rejected')})")
    if stats["summary"]["queries"] == 0:
        raise InputError(f"no cloze query was generated from {read['out']} article(s); see "
                         f"the funnel above and {io_utils.join(out, 'rejected')}")
    return stats


def format_funnel(stats) -> str:
    lines = [f"{'step':<14} {'in':>8} {'out':>8} {'rejected':>8}  top reasons"]
    for step, a in stats["stages"].items():
        reasons = ", ".join(f"{k} {v}" for k, v in list(a["reasons"].items())[:3])
        mark = "*" if a.get("expand") else " "
        lines.append(f"{step:<13}{mark} {a['in']:>8} {a['out']:>8} {a['rejected']:>8}  {reasons}")
    s = stats["summary"]
    lines.append(f"tokens/passage {s['tokens_per_passage']}  entities/passage "
                 f"{s['entities_per_passage']}  queries/article {s['queries_per_article']}"
                 "   (* a step that changes the unit counted)")
    return "\n".join(lines)

"""Composite PTransforms of the generation job (paper sections 3.1-3.2, Figure 2):

    ReadArticles -> CurateArticles -> BuildPassages -> SelectSentences -> GenerateQueries

Each stage's main output feeds the next; rejected rows (with stage and reason) and count
dicts go to the `rejected` and `counts` outputs. Work is per article: nothing gathers the
corpus on one worker.
"""
import io
import logging
import time
from dataclasses import dataclass, field

import apache_beam as beam
import fsspec
import pyarrow.parquet as pq

from transforms.core import io_utils
from transforms.curation import readers
from transforms.core.accounting import COUNTS, REJECTED, Tally
from transforms.curation.annotation import AnnotateConfig, Annotator
from transforms.curation.clean import CleanConfig, clean_article
from transforms.generation.cloze import QueryConfig, passage_row, queries_for_sentence
from transforms.curation.coref import RuleBasedResolver
from transforms.core.hashing import short_digest
from transforms.generation.passages import PassageConfig, build_passage
from transforms.core.schema import rejected_row
from transforms.generation.sentences import SentenceConfig, select_sentence
from transforms.curation.spacy_runtime import freeze_long_lived

log = logging.getLogger(__name__)
STAGES = ("read", "clean", "deduplicate", "annotate", "passage", "sentence", "query")


@dataclass(frozen=True)
class GenerateConfig:
    """Every knob of the generation job; the paper's numbers are the defaults."""
    clean: CleanConfig = field(default_factory=CleanConfig)
    annotate: AnnotateConfig = field(default_factory=AnnotateConfig)
    passage: PassageConfig = field(default_factory=PassageConfig)
    sentence: SentenceConfig = field(default_factory=SentenceConfig)
    query: QueryConfig = field(default_factory=QueryConfig)


def _outputs(main, rejected, counts) -> dict:
    """A composite's outputs: its main PCollection plus merged rejected rows and counts."""
    return {"main": main,
            REJECTED: tuple(rejected) | "MergeRejected" >> beam.Flatten(),
            COUNTS: tuple(counts) | "MergeCounts" >> beam.Flatten()}


def _with_outputs(pcoll, label, fn):
    return pcoll | label >> beam.ParDo(fn).with_outputs(REJECTED, COUNTS, main="main")


# ---------------------------------------------------------------- read
class ExpandInputs(beam.DoFn):
    """(pattern, origin) -> (path, origin) for every file the fsspec pattern matches."""

    def process(self, item):
        pattern, origin = item
        tally = Tally("read")
        try:
            files = io_utils.glob(pattern, files_only=True)
        except Exception as err:  # noqa: BLE001 - a bad pattern is bad input
            log.error("cannot expand input %s: %s", pattern, err)
            files = []
        if not files:
            tally.add("in")
            tally.rejected("no_files_match")
            yield beam.pvalue.TaggedOutput(REJECTED, rejected_row(
                "read", "no_files_match", source_file=pattern,
                detail=f"the input pattern {pattern!r} matches no file"))
            yield tally.output()
        for path in files:
            yield path, origin


class ReadFile(beam.DoFn):
    """Parse one file into Articles; unreadable files and records become rejected rows."""

    def process(self, item):
        path, origin = item
        tally = Tally("read")
        for parsed in self._parse(path, origin):
            tally.add("in")
            if isinstance(parsed, dict):
                tally.rejected(parsed["reason"])
                yield beam.pvalue.TaggedOutput(REJECTED, parsed)
            else:
                tally.add("out")
                yield parsed
        yield tally.output()

    @staticmethod
    def _parse(path, origin):
        kind = readers.file_type(path)
        if not kind:
            yield rejected_row("read", "unknown_file_type", source_file=path,
                               detail=f"{path}: expected .story, .jsonl/.json, .csv or "
                                      ".parquet (optionally compressed, e.g. .gz)")
            return
        try:
            with fsspec.open(path, "rb", compression="infer") as f:
                if kind == "story":
                    yield readers.parse_story(f.read(), path, origin)
                elif kind == "jsonl":
                    yield from readers.parse_jsonl(f, path, origin)
                elif kind == "csv":
                    text = io.TextIOWrapper(f, encoding="utf-8", errors="strict", newline="")
                    yield from readers.parse_csv(text, path, origin)
                else:
                    batches = pq.ParquetFile(f).iter_batches(batch_size=256)
                    yield from readers.parse_parquet(batches, path, origin)
        except UnicodeDecodeError as err:
            yield rejected_row("read", "invalid_utf8", source_file=path, detail=str(err))
        except Exception as err:  # noqa: BLE001 - unreadable file: say why, keep going
            yield rejected_row("read", "unreadable_file", source_file=path,
                               detail=f"{type(err).__name__}: {err}")


class ReadArticles(beam.PTransform):
    """Input patterns (with their origin) -> Articles, spread across workers."""

    def __init__(self, inputs):
        super().__init__()
        self.inputs = list(inputs)

    def expand(self, pbegin):
        files = (pbegin
                 | "InputPatterns" >> beam.Create(self.inputs)
                 | "ExpandPatterns" >> beam.ParDo(ExpandInputs()).with_outputs(
                     REJECTED, COUNTS, main="main"))
        read = (files.main
                | "SpreadFiles" >> beam.Reshuffle()
                | "ParseFiles" >> beam.ParDo(ReadFile()).with_outputs(
                    REJECTED, COUNTS, main="main"))
        return _outputs(read.main, (files[REJECTED], read[REJECTED]),
                        (files[COUNTS], read[COUNTS]))


# ---------------------------------------------------------------- curate
class CleanFn(beam.DoFn):
    def __init__(self, config: CleanConfig):
        self.config = config

    def process(self, article):
        tally = Tally("clean")
        tally.add("in")
        result = clean_article(article, self.config)
        if isinstance(result, dict):
            tally.rejected(result["reason"])
            yield beam.pvalue.TaggedOutput(REJECTED, result)
        else:
            tally.add("out")
            yield result
        yield tally.output()


def content_key(article) -> str:
    return short_digest(*article.paragraphs, "@", *article.highlights, article.source_file)


class KeepOnePerId(beam.DoFn):
    """Of articles sharing an id, keep the one with the smallest content digest."""

    def process(self, item):
        article_id, articles = item
        articles = sorted(articles, key=content_key)
        tally = Tally("deduplicate")
        tally.add("in", len(articles))
        tally.add("out")
        yield articles[0]
        for dup in articles[1:]:
            tally.rejected("duplicate_article_id")
            yield beam.pvalue.TaggedOutput(REJECTED, rejected_row(
                "deduplicate", "duplicate_article_id", article_id=article_id,
                source_file=dup.source_file,
                detail=f"kept the copy from {articles[0].source_file}"))
        yield tally.output()


class AnnotateFn(beam.DoFn):
    """spaCy NER and sentences for a batch of articles; the model loads once per worker."""

    def __init__(self, config: AnnotateConfig):
        self.config = config
        self.annotator = None
        self._done = 0
        self._started = None

    def setup(self):
        self.annotator = Annotator(self.config)
        freeze_long_lived()

    def process(self, batch):
        tally = Tally("annotate")
        tally.add("in", len(batch))
        try:
            results = self.annotator.annotate(batch)
        except Exception:  # noqa: BLE001 - isolate the article that breaks the model
            results = []
            for article in batch:
                try:
                    results.extend(self.annotator.annotate([article]))
                except Exception as err:  # noqa: BLE001
                    tally.rejected("annotation_error")
                    yield beam.pvalue.TaggedOutput(REJECTED, rejected_row(
                        "annotate", "annotation_error", article_id=article.article_id,
                        source_file=article.source_file, detail=f"{type(err).__name__}: {err}"))
        tally.add("out", len(results))
        yield from results
        yield tally.output()
        self._progress(len(batch))

    def _progress(self, n):
        self._started = self._started or time.monotonic()
        before, self._done = self._done, self._done + n
        if self._done // 200 > before // 200:
            rate = self._done / max(time.monotonic() - self._started, 1e-9)
            log.info("annotate: %d articles on this worker (%.1f articles/s)", self._done, rate)


class CurateArticles(beam.PTransform):
    """Clean, drop duplicate ids, and annotate entities and sentences (section 3.1)."""

    def __init__(self, clean: CleanConfig, annotate: AnnotateConfig):
        super().__init__()
        self.clean, self.annotate = clean, annotate

    def expand(self, articles):
        cleaned = _with_outputs(articles, "Clean", CleanFn(self.clean))
        unique = (cleaned.main
                  | "KeyById" >> beam.Map(lambda a: (a.article_id, a))
                  | "GroupById" >> beam.GroupByKey()
                  | "KeepOnePerId" >> beam.ParDo(KeepOnePerId()).with_outputs(
                      REJECTED, COUNTS, main="main"))
        n = self.annotate.batch_size
        annotated = (unique.main
                     | "BatchArticles" >> beam.BatchElements(min_batch_size=n, max_batch_size=n)
                     | "AnnotateEntities" >> beam.ParDo(AnnotateFn(self.annotate)).with_outputs(
                         REJECTED, COUNTS, main="main"))
        return _outputs(annotated.main, (cleaned[REJECTED], unique[REJECTED], annotated[REJECTED]),
                        (cleaned[COUNTS], unique[COUNTS], annotated[COUNTS]))


# ---------------------------------------------------------------- generate
class BuildPassageFn(beam.DoFn):
    def __init__(self, config: PassageConfig):
        self.config = config

    def setup(self):
        self.resolver = RuleBasedResolver()

    def process(self, annotated):
        tally = Tally("passage")
        tally.add("in")
        result = build_passage(annotated, self.config, self.resolver)
        if isinstance(result, dict):
            tally.rejected(result["reason"])
            yield beam.pvalue.TaggedOutput(REJECTED, result)
        else:
            tally.add("out")
            tally.add("tokens", result.n_tokens)
            tally.add("entity_mentions", len(result.entities))
            yield result
        yield tally.output()


class SelectSentencesFn(beam.DoFn):
    """Apply the paper's sentence rules; emits (passage, kept sentences) per article."""

    def __init__(self, config: SentenceConfig):
        self.config = config

    def process(self, passage):
        tally = Tally("sentence")
        grams, clusters = passage.trigrams(), passage.clusters()
        kept = []
        for s in passage.sentences:
            tally.add("in")
            reason = select_sentence(s, grams, clusters, self.config)
            if reason is None:
                tally.add("out")
                kept.append(s)
                continue
            tally.rejected(reason)
            yield beam.pvalue.TaggedOutput(REJECTED, rejected_row(
                "sentence", reason, article_id=passage.article.article_id,
                record_id=f"{passage.passage_id}-{s.index:03d}", detail=s.text))
        yield passage, tuple(kept)
        yield tally.output()


class GenerateQueriesFn(beam.DoFn):
    def __init__(self, config: QueryConfig):
        self.config = config

    def process(self, item):
        passage, sentences = item
        tally = Tally("query")
        shared = passage_row(passage, self.config)
        for s in sentences:
            for kind, row in queries_for_sentence(passage, s, shared):
                tally.add("in")
                if kind == "query":
                    tally.add("out")
                    yield row
                else:
                    tally.rejected(row["reason"])
                    yield beam.pvalue.TaggedOutput(REJECTED, row)
        yield tally.output()


class GenerateClozeQueries(beam.PTransform):
    """Passages -> sentences -> cloze queries with answers and folds (section 3.2)."""

    def __init__(self, config: GenerateConfig):
        super().__init__()
        self.config = config

    def expand(self, annotated):
        c = self.config
        passages = _with_outputs(annotated, "BuildPassages", BuildPassageFn(c.passage))
        sentences = _with_outputs(passages.main, "SelectSentences", SelectSentencesFn(c.sentence))
        queries = _with_outputs(sentences.main, "GenerateQueries", GenerateQueriesFn(c.query))
        return _outputs(queries.main, (passages[REJECTED], sentences[REJECTED], queries[REJECTED]),
                        (passages[COUNTS], sentences[COUNTS], queries[COUNTS]))

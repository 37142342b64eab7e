"""CurateArticles: clean, keep one copy of each article, annotate (paper section 3.1).

Funnel steps: clean -> deduplicate (one per id) -> distinct (one per normalised text; a
crawled article whose text or URL is in the run's public input is dropped, the paper's
no-overlap rule) -> annotate. Work is per article or per small group: nothing gathers the
corpus on one worker; `max_group` reports the largest group a call received.
"""
import collections
import logging
import re
import time
from typing import NamedTuple

import apache_beam as beam

from transforms.core.accounting import (
    COUNTS,
    REJECTED,
    Count,
    RuleStep,
    StepFn,
    accounted,
    merged,
    reject,
)
from transforms.core.hashing import short_digest
from transforms.core.rules import Rule, is_rejected
from transforms.curation.annotation import AnnotateConfig, Annotator
from transforms.curation.clean import CleanConfig, clean_article
from transforms.curation.spacy_runtime import freeze_long_lived

log = logging.getLogger(__name__)
PUBLIC = "public"
_WORDS = re.compile(r"\w+")


class CleanFn(RuleStep):
    """The cleaned article (clean.py: its rule tables, `CLEANING_RULES`), or its
    rejection; the lines and pieces dropped are counted by reason."""
    step = "clean"

    def __init__(self, config: CleanConfig):
        self.config = config

    def apply(self, article):
        dropped = collections.Counter()
        result = clean_article(article, self.config, dropped)
        for reason, n in sorted(dropped.items()):
            yield Count(self.step, f"pieces_dropped.{reason}", n)
        yield self.rejected(result, article) if is_rejected(result) else result


def content_key(article) -> str:
    return short_digest(*article.paragraphs, "@", *article.highlights, article.source_file)


def text_key(article) -> str:
    """The normalised text of the article body: lower-cased words, nothing else."""
    words = _WORDS.findall(" ".join(article.paragraphs).lower())
    return short_digest(" ".join(words), length=24)


def url_key(url: str) -> str:
    u = url.strip().lower()
    u = re.sub(r"^https?://(www\.)?", "", u)
    u = re.sub(r"^web\.archive\.org/web/\d+[a-z_]*/(https?://)?(www\.)?", "", u)
    return u.split("#")[0].split("?")[0].rstrip("/")


class Copy(NamedTuple):
    """What the deduplication rules see beside an article: the copy kept of those that
    share its id, normalised text or URL (`kind`)."""
    kept: object
    kind: str = "id"


def _same(ctx: Copy) -> str:
    return f"same {ctx.kind} as {ctx.kept.article_id} ({ctx.kept.origin}, {ctx.kept.source_file})"


DEDUPLICATE_RULES = (
    Rule("kept_copy", "duplicate_article_id",
         lambda a, ctx, c: a is ctx.kept or (False, f"kept the copy from {ctx.kept.source_file}")),
)
DISTINCT_RULES = (
    Rule("public_kept", "overlaps_public_corpus",
         lambda a, ctx, c: a is ctx.kept or ctx.kept.origin != PUBLIC or a.origin == PUBLIC
         or (False, _same(ctx))),
    Rule("kept_copy", "duplicate_article_{kind}",
         lambda a, ctx, c: a is ctx.kept or (False, _same(ctx))),
)


class KeepOnePerId(RuleStep):
    """Of articles sharing an id, keep the one with the smallest content digest
    (`DEDUPLICATE_RULES`)."""
    step, rules = "deduplicate", DEDUPLICATE_RULES

    def units(self, item):
        return len(item[1])

    def apply(self, item):
        _, articles = item
        articles = sorted(articles, key=content_key)
        yield Count("deduplicate", "max_group", len(articles))
        yield articles[0]
        for dup in articles[1:]:
            yield self.judge(dup, Copy(articles[0]))


def _keeper(articles):
    """The copy kept: public before other origins, then the smallest id."""
    return min(articles, key=lambda a: (a.origin != PUBLIC, a.article_id, content_key(a)))


class KeepDistinct(RuleStep):
    """Of articles sharing a normalised text or a URL (`kind`), keep one (public first,
    then the smallest id); a crawled copy of a public article overlaps the public corpus
    (`DISTINCT_RULES`)."""
    rules = DISTINCT_RULES

    def __init__(self, step: str, kind: str):
        self.step, self.kind = step, kind

    def units(self, item):
        return len(item[1])

    def apply(self, item):
        key, articles = item
        articles = list(articles)
        yield Count(self.step, "max_group", len(articles))
        kept = _keeper(articles)
        yield kept
        for a in sorted(articles, key=lambda a: (a.article_id, content_key(a))):
            if a is not kept:
                yield self.judge(a, Copy(kept, self.kind))


class AnnotateFn(StepFn):
    """spaCy NER and sentences for a batch of articles; the model loads once per worker."""
    step = "annotate"

    def __init__(self, config: AnnotateConfig):
        self.config = config
        self.annotator = None
        self._done = 0
        self._started = None

    def setup(self):
        self.annotator = Annotator(self.config)
        freeze_long_lived()

    def units(self, batch):
        return len(batch)

    def apply(self, batch):
        try:
            results = self.annotator.annotate(batch)
        except Exception:  # noqa: BLE001 - isolate the article that breaks the model
            results = []
            for article in batch:
                try:
                    results.extend(self.annotator.annotate([article]))
                except Exception as err:  # noqa: BLE001
                    yield reject("annotate", "annotation_error", article_id=article.article_id,
                                 source_file=article.source_file,
                                 detail=f"{type(err).__name__}: {err}")
        yield from results
        self._progress(len(batch))

    def _progress(self, n):
        self._started = self._started or time.monotonic()
        before, self._done = self._done, self._done + n
        if self._done // 200 > before // 200:
            rate = self._done / max(time.monotonic() - self._started, 1e-9)
            log.info("annotate: %d articles on this worker (%.1f articles/s)", self._done, rate)


class CurateArticles(beam.PTransform):
    """Clean, keep one copy of each article, and annotate entities and sentences."""

    def __init__(self, clean: CleanConfig, annotate: AnnotateConfig):
        super().__init__()
        self.clean, self.annotate = clean, annotate

    def expand(self, articles):
        cleaned = accounted(articles, "Clean", CleanFn(self.clean))
        unique = accounted(cleaned.main
                           | "KeyById" >> beam.Map(lambda a: (a.article_id, a))
                           | "GroupById" >> beam.GroupByKey(), "KeepOnePerId", KeepOnePerId())
        by_text = accounted(unique.main
                            | "KeyByText" >> beam.Map(lambda a: (text_key(a), a))
                            | "GroupByText" >> beam.GroupByKey(), "KeepDistinctText",
                            KeepDistinct("distinct_text", "text"))
        with_url = by_text.main | "SplitByUrl" >> beam.Partition(
            lambda a, n: 0 if a.url else 1, 2)
        by_url = accounted(with_url[0]
                           | "KeyByUrl" >> beam.Map(lambda a: (url_key(a.url), a))
                           | "GroupByUrl" >> beam.GroupByKey(), "KeepDistinctUrl",
                           KeepDistinct("distinct_url", "url"))
        # articles without a URL pass the URL step unchanged, and are counted through it
        no_url = accounted(with_url[1], "NoUrl", PassThrough("distinct_url"))
        distinct = (by_url.main, no_url.main) | "Distinct" >> beam.Flatten()
        n = self.annotate.batch_size
        annotated = accounted(distinct
                              | "BatchArticles" >> beam.BatchElements(min_batch_size=n,
                                                                       max_batch_size=n),
                              "AnnotateEntities", AnnotateFn(self.annotate))
        rejected, counts, _ = merged("Curate", cleaned, unique, by_text, by_url, no_url,
                                     annotated)
        return {"main": annotated.main, REJECTED: rejected, COUNTS: counts}


class PassThrough(StepFn):
    def __init__(self, step: str):
        self.step = step

    def apply(self, element):
        yield element

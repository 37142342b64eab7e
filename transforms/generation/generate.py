"""GenerateClozeQueries: passages -> sentences -> cloze queries (paper section 3.2).

Funnel steps: passage (articles -> passages) -> sentences (expand: passages -> the
candidate sentences of the rest of each article) -> sentence (the paper's rules) ->
mentions (expand: kept sentences -> their entity mentions) -> query (one cloze query per
mention). Each passage also leaves one row of the article fate table: how many candidate
queries its article gave (with the MinHash signature of the whole article, which
finalize clusters near-duplicates by), or why it gave none.
"""
import apache_beam as beam

from transforms.core.accounting import (COUNTS, REJECTED, Count, StepFn, Uncounted, accounted,
                                        merged, reject)
from transforms.curation.coref import RuleBasedResolver
from transforms.generation.cloze import QueryConfig, passage_row, queries_for_sentence
from transforms.generation.passages import PassageConfig, build_passage
from transforms.generation.sentences import (SentenceConfig, passage_ngrams, select_sentence,
                                            singletons_unchecked)
from transforms.finalize.near_duplicates import SignatureConfig, article_text, text_signature

FATES = "fates"


def fate_row(article, stage=None, reason=None, candidates=0, record_id=None,
             minhash=None) -> dict:
    """One row of the article fate table at generation (see schema.FATE_SCHEMA)."""
    return {"article_id": getattr(article, "article_id", None), "record_id": record_id,
            "source_file": getattr(article, "source_file", None),
            "origin": getattr(article, "origin", None), "stage": stage, "reason": reason,
            "candidates": candidates, "minhash": minhash}


def article_signature(article, config: SignatureConfig):
    """The MinHash signature of the whole article (near_duplicates.py), as a list."""
    sig = text_signature(article_text(article.paragraphs, article.highlights), config)
    return list(sig) if sig is not None else None


class BuildPassageFn(StepFn):
    step = "passage"

    def __init__(self, config: PassageConfig, rules: str = "record"):
        self.config, self.rules = config, rules

    def setup(self):
        self.resolver = RuleBasedResolver()

    def apply(self, annotated):
        result = build_passage(annotated, self.config, self.resolver, self.rules)
        if isinstance(result, dict):
            yield reject(**result)
            return
        yield Count("passage", "tokens", result.n_tokens)
        yield Count("passage", "entity_mentions", len(result.entities))
        yield Count("sentences", "in", 1)
        yield Count("sentences", "out", len(result.sentences))
        yield result


class SelectSentencesFn(StepFn):
    """The paper's sentence rules; emits (passage, kept sentences) per passage."""
    step = "sentence"

    def __init__(self, config: SentenceConfig):
        self.config = config

    def units(self, passage):
        return len(passage.sentences)

    def apply(self, passage):
        grams, clusters = passage_ngrams(passage, self.config), passage.clusters()
        unchecked = singletons_unchecked(passage, self.config)
        kept = []
        for s in passage.sentences:
            reason = select_sentence(s, grams, clusters, self.config, unchecked)
            if reason is None:
                kept.append(s)
                continue
            yield reject("sentence", reason, article_id=passage.article.article_id,
                         record_id=f"{passage.passage_id}-{s.index:03d}", detail=s.text)
        yield Count("sentence", "out", len(kept))
        yield Count("mentions", "in", len(kept))
        yield Count("mentions", "out", sum(len(s.mentions) for s in kept))
        yield Uncounted((passage, tuple(kept)))


class GenerateQueriesFn(StepFn):
    """One cloze query per mention of a kept sentence; one fate row per passage, with the
    article's signature when it gave candidates."""
    step = "query"

    def __init__(self, config: QueryConfig, signature: SignatureConfig = SignatureConfig()):
        self.config, self.signature = config, signature

    def units(self, item):
        return sum(len(s.mentions) for s in item[1])

    def apply(self, item):
        passage, sentences = item
        shared = passage_row(passage, self.config)
        n = 0
        for s in sentences:
            for kind, row in queries_for_sentence(passage, s, shared):
                if kind == "query":
                    n += 1
                    yield row
                else:
                    yield reject(**row)
        article = passage.article
        if not sentences:
            fate = fate_row(article, "sentence", "no_candidate_sentence")
        elif not n:
            fate = fate_row(article, "query", "no_answerable_query")
        else:
            fate = fate_row(article, candidates=n,
                            minhash=article_signature(article, self.signature))
        yield beam.pvalue.TaggedOutput(FATES, fate)


class GenerateClozeQueries(beam.PTransform):
    """Annotated articles -> cloze queries with answers and folds; plus fate rows."""

    def __init__(self, passage: PassageConfig, sentence: SentenceConfig, query: QueryConfig,
                 signature: SignatureConfig = SignatureConfig()):
        super().__init__()
        self.passage, self.sentence, self.query = passage, sentence, query
        self.signature = signature

    def expand(self, annotated):
        passages = accounted(annotated, "BuildPassages",
                             BuildPassageFn(self.passage, self.sentence.rules))
        sentences = accounted(passages.main, "SelectSentences",
                              SelectSentencesFn(self.sentence))
        queries = sentences.main | "GenerateQueries" >> beam.ParDo(
            GenerateQueriesFn(self.query, self.signature)).with_outputs(REJECTED, COUNTS, FATES, main="main")
        rejected, counts, _ = merged("Generate", passages, sentences, queries)
        return {"main": queries.main, REJECTED: rejected, COUNTS: counts,
                FATES: queries[FATES]}

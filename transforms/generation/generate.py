"""GenerateClozeQueries: passages -> sentences -> cloze queries (paper section 3.2).

Funnel steps: passage (articles -> passages) -> sentences (expand: passages -> the
candidate sentences of the rest of each article) -> sentence (the paper's rules) ->
mentions (expand: kept sentences -> their entity mentions) -> query (one cloze query per
mention). Each passage also leaves one row of the article fate table: how many candidate
queries its article gave (with the MinHash signature of the whole article, which
finalize clusters near-duplicates by), or why it gave none.
"""
import apache_beam as beam

from transforms.core.accounting import (
    COUNTS,
    REJECTED,
    Count,
    RuleStep,
    Uncounted,
    accounted,
    merged,
)
from transforms.core.rules import is_rejected
from transforms.core.signing import SignatureConfig, article_text, text_signature
from transforms.curation.coref import RuleBasedResolver
from transforms.generation.cloze import (
    QUERY_RULES,
    QueryConfig,
    passage_row,
    queries_for_sentence,
)
from transforms.generation.passages import PASSAGE_RULES, PassageConfig, build_passage
from transforms.generation.sentences import (
    SENTENCE_RULES,
    SentenceConfig,
    sentence_context,
)

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


class BuildPassageFn(RuleStep):
    """The passage of an annotated article, or its rejection (passages.PASSAGE_RULES)."""
    step = "passage"

    rules = PASSAGE_RULES

    def __init__(self, config: PassageConfig, profile: str = "record"):
        self.config, self.profile = config, profile

    def setup(self):
        self.resolver = RuleBasedResolver()

    def apply(self, annotated):
        result = build_passage(annotated, self.config, self.resolver, self.profile)
        if is_rejected(result):
            yield self.rejected(result, annotated.article)
            return
        yield Count("passage", "tokens", result.n_tokens)
        yield Count("passage", "entity_mentions", len(result.entities))
        yield Count("sentences", "in", 1)
        yield Count("sentences", "out", len(result.sentences))
        yield result


class SelectSentencesFn(RuleStep):
    """The paper's sentence rules (sentences.SENTENCE_RULES, the profile's table); emits
    (passage, kept sentences) per passage."""
    step = "sentence"

    def __init__(self, config: SentenceConfig):
        self.config, self.rules = config, SENTENCE_RULES[config.rules]

    def units(self, passage):
        return len(passage.sentences)

    def apply(self, passage):
        context = sentence_context(passage, self.config)
        kept = []
        for s in passage.sentences:
            why = self.verdict(s, context)
            if why is None:
                kept.append(s)
                continue
            yield self.rejected(why, detail=s.text, article_id=passage.article.article_id,
                                record_id=f"{passage.passage_id}-{s.index:03d}")
        yield Count("sentence", "out", len(kept))
        yield Count("mentions", "in", len(kept))
        yield Count("mentions", "out", sum(len(s.mentions) for s in kept))
        yield Uncounted((passage, tuple(kept)))


class GenerateQueriesFn(RuleStep):
    """One cloze query per mention of a kept sentence (cloze.QUERY_RULES); one fate row
    per passage, with the article's signature when it gave candidates."""
    step, rules = "query", QUERY_RULES

    def __init__(self, config: QueryConfig, signature: SignatureConfig = SignatureConfig()):
        self.config, self.signature = config, signature

    def units(self, item):
        return sum(len(s.mentions) for s in item[1])

    def apply(self, item):
        passage, sentences = item
        article = passage.article
        shared = passage_row(passage, self.config)
        n = 0
        for s in sentences:
            for qid, row in queries_for_sentence(passage, s, shared):
                if is_rejected(row):
                    yield self.rejected(row, detail=s.text, article_id=article.article_id,
                                        record_id=qid)
                else:
                    n += 1
                    yield row
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

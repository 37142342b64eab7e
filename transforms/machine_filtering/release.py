"""The `release` step of the adversarial_filter stage: the queries the adversary kept,
grouped by passage, through the release rules (`release_rules.py`); rejected
rows carry the rule's reason and detail, and are counted by reason in the funnel
(`release.in` is `adversary.out`). The `restates_passage` rule reads each query's
restatement evidence, measured here per passage with the encoder the worker loads once;
`restates_words` and `list_line` read the passage's lemmas (`lexical.lemmatize`), from the
spaCy pipeline the worker loads once."""
import apache_beam as beam

from transforms.core.accounting import Count, RuleStep, accounted
from transforms.machine_filtering.lexical import lemmatize, load_lemmatizer
from transforms.machine_filtering.release_rules import (
    RELEASE_RULES,
    SIBLING_RULES,
    STAGE,
    ReleaseConfig,
    release_passage,
)
from transforms.machine_filtering.restatement import passage_evidence


class ReleaseRules(RuleStep):
    """(passage id, its kept queries) -> released queries; the others rejected."""
    step, rules = STAGE, RELEASE_RULES + SIBLING_RULES

    def __init__(self, config: ReleaseConfig):
        self.config = config
        self.encoder = None
        self.nlp = None

    def setup(self):
        """The restatement encoder (frozen MiniLM) and the lemmatizer, once per worker."""
        if self.config.restates_passage and self.encoder is None:
            from models.embedding_reader import SentenceEncoder
            self.encoder = SentenceEncoder()
        if self.config.needs_lemmas and self.nlp is None:
            self.nlp = load_lemmatizer(self.config.lemma_model)

    def units(self, element) -> int:
        return sum(1 for _ in element[1])

    def apply(self, element):
        rows = sorted(element[1], key=lambda r: r["id"])
        evidence = passage_evidence(rows, self.encoder) if self.encoder is not None else None
        lemmas = lemmatize(self.nlp, rows) if self.nlp is not None else None
        released, rejected = release_passage(rows, self.config, evidence, lemmas)
        yield Count(STAGE, "passages", 1)
        for row, why in rejected:
            yield self.rejected(why, row)
        yield from released


def release_step(kept, config: ReleaseConfig):
    """Accounted result (main, rejected, counts) of the release rules over `kept`."""
    grouped = (kept
               | "ReleaseKeyByPassage" >> beam.Map(lambda r: (r["passage_id"], r))
               | "ReleaseGroupByPassage" >> beam.GroupByKey())
    return accounted(grouped, "ReleaseRules", ReleaseRules(config))

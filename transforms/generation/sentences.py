"""Sentence selection (paper section 3.2, step 3). One named rule per condition of the
paper; `select_sentence` applies them in order and reports the first one that fails."""
from dataclasses import asdict, dataclass
from typing import Callable, NamedTuple, Optional

from transforms.core.config import setting
from transforms.generation.passages import CandidateSentence, ngrams

STAGE = "sentence"


@dataclass(frozen=True)
class SentenceConfig:
    min_tokens: int = setting(10, "tokens a query sentence needs (paper: at least 10)",
                              flag="min_sentence_tokens")
    max_shared_ngram: int = setting(
        3, "a sentence sharing a word n-gram of this size with the passage is dropped "
        "(paper: 3)")


class Rule(NamedTuple):
    name: str
    reason: str      # formatted with the config's fields
    check: Callable  # (sentence, passage_trigrams, passage_clusters, config) -> bool


def has_min_tokens(sentence: CandidateSentence, config: SentenceConfig) -> bool:
    return sentence.n_tokens >= config.min_tokens


_CLOSERS = "\"'”’)]» "


def is_not_question(text: str) -> bool:
    return not text.rstrip(_CLOSERS).endswith("?")


def shares_no_ngram(words, passage_ngrams: frozenset, n: int = 3) -> bool:
    return not any(g in passage_ngrams for g in ngrams(words, n))


def has_named_entity(sentence: CandidateSentence) -> bool:
    return len(sentence.mentions) > 0


def entities_have_passage_antecedent(sentence: CandidateSentence, clusters: frozenset) -> bool:
    return all(m.cluster in clusters for m in sentence.mentions)


SENTENCE_RULES = (
    Rule("min_tokens", "under_{min_tokens}_tokens",
         lambda s, grams, clusters, c: has_min_tokens(s, c)),
    Rule("not_question", "question",
         lambda s, grams, clusters, c: is_not_question(s.text)),
    Rule("no_shared_ngram", "shares_{max_shared_ngram}gram_with_passage",
         lambda s, grams, clusters, c: shares_no_ngram(s.words, grams, c.max_shared_ngram)),
    Rule("has_entity", "no_named_entity",
         lambda s, grams, clusters, c: has_named_entity(s)),
    Rule("entities_in_passage", "entity_not_in_passage",
         lambda s, grams, clusters, c: entities_have_passage_antecedent(s, clusters)),
)


def select_sentence(sentence: CandidateSentence, passage_ngrams: frozenset,
                    passage_clusters: frozenset,
                    config: SentenceConfig = SentenceConfig()) -> Optional[str]:
    """None when the sentence is kept, else the reason of the first rule it fails."""
    for rule in SENTENCE_RULES:
        if not rule.check(sentence, passage_ngrams, passage_clusters, config):
            return rule.reason.format(**asdict(config))
    return None

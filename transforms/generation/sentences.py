"""Sentence selection (paper section 3.2, step 3). One named rule per condition of the
paper, in two rule tables (`--rules`):

- `paper`: section 3.2 as written;
- `record` (default): the rules as the released ReCoRD data shows they were applied: the
  question rule looks at the last character (ReCoRD keeps sentences ending in `?"`); the
  3-gram rule compares tokens as written (case kept; a punctuation mark is a token, so no
  3-gram runs across it) and ignores 3-grams that touch entity words ("of New York" does
  not make a sentence a paraphrase); an entity has its precedent when it is coreferent
  with a passage entity or its name is written in the passage, and in an article ReCoRD
  would have crawled (`crawled` origin) an entity the article mentions once is not
  checked. See docs/rules.md (measured by benchmarks/regeneration.py).

Both tables start with `STORY_RULES`: text that is not a sentence of the story (a photo
caption: no end mark, as Daily Mail captions have none, or "X is pictured here ...", or
a Daily Mail caption that kept a full stop, told by its present-tense pose verb
(`scene_captions.py`: "AP McCoy celebrates after winning ..."); a
squad or transfer list line; a promotion) makes no query, whatever the profile (docs/rules.md, "Text that is not a
sentence").

`select_sentence` applies a table in order and reports the first rule that fails
(transforms/core/rules.py convention: check(sentence, context, config)).
"""
import re
from dataclasses import dataclass
from typing import NamedTuple, Optional

from transforms.core.config import setting
from transforms.core.rules import Rule, first_rejection
from transforms.curation.fragments import has_glued_text, is_cut_off, is_live_feed
from transforms.curation.promotions import is_promotion
from transforms.curation.scene_captions import is_scene_caption
from transforms.generation.passages import (
    CandidateSentence,
    Passage,
    ngrams,
    written_ngrams,
)

STAGE = "sentence"
PROFILES = ("record", "paper")


@dataclass(frozen=True)
class SentenceConfig:
    min_tokens: int = setting(10, "tokens a query sentence needs (paper: at least 10)",
                              flag="min_sentence_tokens")
    max_shared_ngram: int = setting(
        3, "a sentence sharing a word n-gram of this size with the passage is dropped "
        "(paper: 3)")
    rules: str = setting(
        "record", "sentence rule table: 'paper' applies section 3.2 as written, 'record' "
        "as the released ReCoRD data shows it was applied (docs/rules.md)", choices=PROFILES)
    singletons_unchecked: str = setting(
        "crawled", "record profile, rule 5: whose entities mentioned once in their article "
        "need no passage precedent: 'crawled' articles (as ReCoRD's dev/test, annotated by "
        "a coreference model that leaves such an entity in no cluster), 'all', 'none'",
        choices=("crawled", "all", "none"))


class Context(NamedTuple):
    """What the rules see of the passage (and its article's publisher, `source`)."""
    passage_ngrams: frozenset
    passage_clusters: frozenset
    singletons_unchecked: bool = False
    source: str = ""


def has_min_tokens(sentence: CandidateSentence, config: SentenceConfig) -> bool:
    return sentence.n_tokens >= config.min_tokens


_CLOSERS = "\"'”’)]» "


def is_not_question(text: str) -> bool:
    """paper: a question mark before closing quotes or brackets still makes a question."""
    return not text.rstrip(_CLOSERS).endswith("?")


def last_char_not_question(text: str) -> bool:
    """record: only a sentence whose last character is "?" is a question."""
    return not text.rstrip().endswith("?")


def shares_no_ngram(words, passage_ngrams: frozenset, n: int = 3) -> bool:
    return not any(g in passage_ngrams for g in ngrams(words, n))


def shares_no_cased_ngram(sentence: CandidateSentence, passage_ngrams: frozenset,
                          n: int = 3) -> bool:
    """record: no shared n-gram of tokens as written (case kept: "She gave birth" in the
    passage does not reject "she gave birth to"; a punctuation mark is a token no n-gram
    runs across: 'his "passion" for' does not share "his passion for"), among those
    touching no entity word."""
    return not any(g in passage_ngrams for g in written_ngrams(
        sentence.text, [(m.start, m.end) for m in sentence.mentions], n))


def has_named_entity(sentence: CandidateSentence) -> bool:
    return len(sentence.mentions) > 0


def entities_have_passage_antecedent(sentence: CandidateSentence, clusters: frozenset) -> bool:
    return all(m.cluster in clusters for m in sentence.mentions)


def entities_have_passage_precedent(sentence: CandidateSentence, clusters: frozenset,
                                    singletons_unchecked: bool = False) -> bool:
    """record: every entity is coreferent with a passage entity, or its name is written
    in the passage (a mention there that NER or coreference missed), or it is a place
    whose name ends with a place the passage writes ("Gran Colombia" / "Colombia",
    `passages.place_tail_in_text`); with
    `singletons_unchecked`, an entity no other mention of the article is coreferent with
    is not checked (a coreference model's output has no cluster for it)."""
    k = len(sentence.mentions)
    named = sentence.named_in_passage or (False,) * k
    once = (sentence.mentioned_once or (False,) * k) if singletons_unchecked else (False,) * k
    return all(m.cluster in clusters or n or o
               for m, n, o in zip(sentence.mentions, named, once))


_END_MARK = re.compile(r"[.!?…]['\"’”)\]]*$")
_PICTURED = re.compile(
    r"^(?:Pictured|Above|Below|Left|Right|Top|Bottom|Inset|Main picture|Main image)\b\s*[,:;-]"
    r"|\b(?:is|are|was|were) (?:pictured|seen|shown|photographed) (?:here|above|below|left|"
    r"right|centre|center|top|bottom|in (?:this|the) (?:photo|picture|image|photograph))\b")


def is_caption(text: str) -> bool:
    """A photo caption, not a sentence of the story: no end mark ("Race winner Rosberg
    celebrates with the trophy on the podium in Bahrain": Daily Mail captions carry no
    full stop, the body's sentences do), or a sentence about the picture ("Smith is
    pictured here with his wife.", "Pictured: the scene")."""
    text = text.strip()
    return not _END_MARK.search(text) or bool(_PICTURED.search(text))


# one entry of a squad or transfer list: "Colin Kazim-Richards, forward (Feyenoord)",
# "In: Erik Sviatchenko, defender (Midtjylland, £1.5m)" (a list label may open the first)
_ROSTER_ENTRY = re.compile(
    r"^(?:[A-Z][a-z]{1,12}:\s*)?(?:@placeholder|[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,3}), "
    r"[a-z][a-z -]{1,30} \([^()]{1,60}\)$")


def is_roster_line(text: str) -> bool:
    """A squad or transfer list written as one line, not a sentence of the story: two or
    more entries, each a name, a lower-case role and a bracket (club, fee), separated by
    semicolons ("In:Colin Kazim-Richards, forward (Feyenoord); Erik Sviatchenko, defender
    (Midtjylland, £1.5m)."). Prose with semicolons has clauses, not such entries."""
    entries = [e.strip() for e in text.strip().rstrip(".;").split(";")]
    return len(entries) >= 2 and all(_ROSTER_ENTRY.match(e) for e in entries)


SCENE_CAPTION_SOURCES = frozenset({"", "unknown", "dailymail"})
STORY_RULES = (
    Rule("not_caption", "caption", lambda s, ctx, c: not is_caption(s.text)),
    # a caption written as a sentence: Daily Mail pages and pages of no known publisher
    Rule("not_scene_caption", "caption", lambda s, ctx, c: (
        ctx is not None and ctx.source not in SCENE_CAPTION_SOURCES)
         or not is_scene_caption(s.text)),
    Rule("not_promotion", "promotion", lambda s, ctx, c: not is_promotion(s.text)),
    Rule("not_live_feed", "live_feed", lambda s, ctx, c: not is_live_feed(s.text)),
    Rule("not_glued", "glued_text", lambda s, ctx, c: not has_glued_text(s.text)),
    Rule("not_cut_off", "cut_text", lambda s, ctx, c: not is_cut_off(s.text)),
    Rule("not_roster_line", "roster_line", lambda s, ctx, c: not is_roster_line(s.text)),
)
MIN_TOKENS = Rule("min_tokens", "under_{min_tokens}_tokens",
                  lambda s, ctx, c: has_min_tokens(s, c))
HAS_ENTITY = Rule("has_entity", "no_named_entity", lambda s, ctx, c: has_named_entity(s))
ENTITIES_IN_PASSAGE = Rule(
    "entities_in_passage", "entity_not_in_passage",
    lambda s, ctx, c: entities_have_passage_antecedent(s, ctx.passage_clusters))

PAPER_RULES = STORY_RULES + (
    MIN_TOKENS,
    Rule("not_question", "question", lambda s, ctx, c: is_not_question(s.text)),
    Rule("no_shared_ngram", "shares_{max_shared_ngram}gram_with_passage",
         lambda s, ctx, c: shares_no_ngram(s.words, ctx.passage_ngrams, c.max_shared_ngram)),
    HAS_ENTITY,
    ENTITIES_IN_PASSAGE,
)
RECORD_RULES = STORY_RULES + (
    MIN_TOKENS,
    Rule("not_question_last_char", "question",
         lambda s, ctx, c: last_char_not_question(s.text)),
    Rule("no_shared_cased_ngram_outside_entities", "shares_{max_shared_ngram}gram_with_passage",
         lambda s, ctx, c: shares_no_cased_ngram(s, ctx.passage_ngrams, c.max_shared_ngram)),
    HAS_ENTITY,
    Rule("entities_have_passage_precedent", "entity_not_in_passage",
         lambda s, ctx, c: entities_have_passage_precedent(s, ctx.passage_clusters,
                                                           ctx.singletons_unchecked)),
)
SENTENCE_RULES = {"paper": PAPER_RULES, "record": RECORD_RULES}


def passage_ngrams(passage: Passage, config: SentenceConfig = SentenceConfig()) -> frozenset:
    """The passage n-grams the profile's 3-gram rule compares with (record: tokens as
    written, those that touch no entity word; paper: every lower-cased word n-gram)."""
    if config.rules == "record":
        return passage.cased_ngrams(config.max_shared_ngram)
    return passage.trigrams(config.max_shared_ngram)


def singletons_unchecked(passage: Passage, config: SentenceConfig = SentenceConfig()) -> bool:
    """Whether rule 5 leaves an entity mentioned once unchecked in this passage's article
    (record profile: `singletons_unchecked` names the origins)."""
    if config.rules != "record" or config.singletons_unchecked == "none":
        return False
    return config.singletons_unchecked == "all" or passage.article.origin == "crawled"


def sentence_context(passage: Passage, config: SentenceConfig = SentenceConfig()) -> Context:
    """What the sentence rules see of a passage (its n-grams, clusters, and whether rule
    5 leaves its singletons unchecked)."""
    return Context(passage_ngrams(passage, config), passage.clusters(),
                   singletons_unchecked(passage, config), passage.article.source or "")


def select_sentence(sentence: CandidateSentence, passage_ngrams: frozenset,
                    passage_clusters: frozenset,
                    config: SentenceConfig = SentenceConfig(),
                    unchecked_singletons: bool = False) -> Optional[str]:
    """None when the sentence is kept, else the reason of the first rule it fails (the
    table as `SelectSentencesFn` applies it, for tests and benchmarks)."""
    rejected = first_rejection(SENTENCE_RULES[config.rules], sentence,
                               Context(passage_ngrams, passage_clusters, unchecked_singletons),
                               config)
    return None if rejected is None else rejected.reason

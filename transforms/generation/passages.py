"""Passage building (paper section 3.2, steps 1-2).

The passage is the shortest prefix of whole paragraphs (whole sentences when the article
has no paragraph breaks, or a paragraph runs over 150 tokens) that reaches 100 tokens, followed by the highlights in ReCoRD
layout (`\n@highlight\n<highlight>`); its first part must name at least four entities
(`count_entities`: names for the `record` profile, coreference clusters for `paper`). The
rest of the article yields candidate sentences; a sentence repeated word for word (a
Daily Mail caption repeating the body) counts once.
"""
import collections
import re
from dataclasses import dataclass
from typing import Union

from transforms.core.config import setting
from transforms.core.constants import HIGHLIGHT_SEP
from transforms.core.hashing import short_digest
from transforms.core.rules import Reject, Rule, first_rejection
from transforms.core.word_find import written_as_whole_words  # noqa: F401 (tests)
from transforms.curation.aliases import bracketed_aliases
from transforms.curation.annotation import AnnotatedArticle
from transforms.curation.coref import (
    CoreferenceResolver,
    RuleBasedResolver,
    normalise_name,
)
from transforms.curation.gender import mention_cue
from transforms.curation.names import GENERIC_ORG_WORDS
from transforms.curation.person_cues import person_cue
from transforms.curation.split_names import not_an_answer
from transforms.ingestion.articles import Article

STAGE = "passage"


@dataclass(frozen=True)
class PassageConfig:
    min_prefix_tokens: int = setting(
        100, "tokens the passage's article prefix must reach (paper: at least 100)")
    min_entities: int = setting(
        4, "distinct entities the passage's first part needs (paper: at least four)")
    max_paragraph_tokens: int = setting(
        150, "a longer paragraph is text without paragraph breaks (Daily Mail): its "
        "sentences stand as the paragraphs the prefix is made of")


@dataclass(frozen=True)
class Entity:
    start: int
    end: int      # exclusive
    text: str
    label: str
    cluster: str
    not_answer: str = ""   # why it is in no answer set (split_names.not_an_answer)


@dataclass(frozen=True)
class CandidateSentence:
    """A sentence from the rest of the article, with its mentions (offsets in `text`)."""
    index: int
    text: str
    n_tokens: int
    words: tuple
    mentions: tuple   # of Entity
    entity_words: tuple = ()   # per word: True where it lies in an entity mention
    named_in_passage: tuple = ()   # per mention: its name is written in the passage
    mentioned_once: tuple = ()     # per mention: no other mention of the article is coreferent


@dataclass(frozen=True)
class Passage:
    article: Article
    passage_id: str
    text: str
    n_prefix_tokens: int
    n_tokens: int
    entities: tuple          # of Entity, in passage order
    sentence_words: tuple    # word tuples of every passage sentence (highlights included)
    sentences: tuple         # CandidateSentence, the rest of the article
    sentence_entity_words: tuple = ()   # per passage sentence: its words' entity flags

    def trigrams(self, n: int = 3, outside_entities: bool = False) -> frozenset:
        """The passage's word n-grams; `outside_entities`: only those touching no entity
        word (the record profile's reading of the 3-gram rule)."""
        if not outside_entities:
            return frozenset(g for words in self.sentence_words for g in ngrams(words, n))
        flags = self.sentence_entity_words or tuple(() for _ in self.sentence_words)
        return frozenset(g for words, f in zip(self.sentence_words, flags)
                         for g in plain_ngrams(words, f, n))

    def cased_ngrams(self, n: int = 3) -> frozenset:
        """The token n-grams of the passage body and of each highlight as written (case
        kept, no n-gram across a punctuation mark), none touching an entity word (the
        record profile's 3-gram reading, `written_ngrams`)."""
        out, offset = set(), 0
        for part in self.text.split(HIGHLIGHT_SEP):
            end = offset + len(part)
            spans = [(e.start - offset, e.end - offset) for e in self.entities
                     if offset <= e.start and e.end <= end]
            out.update(written_ngrams(part, spans, n))
            offset = end + len(HIGHLIGHT_SEP)
        return frozenset(out)

    def clusters(self) -> frozenset:
        return frozenset(e.cluster for e in self.entities)


_WORD = re.compile(r"\w+(?:[-'’.]\w+)*")
_TOKEN = re.compile(r"\w+(?:[-'’.]\w+)*|[^\w\s]")
_ALNUM = re.compile(r"[^\W_]")      # a character str.isalnum() holds for (\w but "_")
_POSSESSIVE_END = re.compile(r"(?:'s|’s|'|’)$")


def name_in_text(name: str, text: str) -> bool:
    """The name is written in the text as whole words, case kept ("Vick" in "Michael
    Vick's"; a possessive and a leading "the" of the mention do not count); a generic
    word alone ("Army", "National", "Post") is no name."""
    name = _POSSESSIVE_END.sub("", name.strip())
    if name.startswith(("the ", "The ")) and len(name) > 4:
        name = name[4:]
    if name.lower() in GENERIC_ORG_WORDS:
        return False
    return bool(name) and written_as_whole_words(name, text)


PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})


def place_tail_in_text(name: str, label: str, text: str) -> bool:
    """A place whose name ends with a place name the passage writes ("Gran Colombia",
    "Colombia"): a precedent for rule 5 in the `record` reading, as ReCoRD's train
    data keeps such a sentence (a real SuperGLUE sample), though the two are distinct
    entities whose answer sets stay apart (coref.py)."""
    words = name.split()
    return label in PLACE_LABELS and any(
        words[k][:1].isupper() and name_in_text(" ".join(words[k:]), text)
        for k in range(1, len(words)))


def _overlap_test(spans):
    """(start, end) -> whether [start, end) overlaps one of `spans`: one table of covered
    characters instead of a scan of every span per word (the scan where a span or the
    word is empty or reversed, whose overlap a table cannot mark)."""
    spans = list(spans)

    def scan(a, b):
        return any(a < e and s < b for s, e in spans)
    if not all(0 <= s < e for s, e in spans):
        return scan
    covered = bytearray(max((e for _, e in spans), default=0))
    for s, e in spans:
        covered[s:e] = b"\x01" * (e - s)
    return lambda a, b: covered.find(1, a, b) >= 0 if a < b else scan(a, b)


def cased_words(text: str, spans=()) -> list:
    """(word, in an entity) for the words of `text` as written, case kept, punctuation
    left out; `spans` are the (start, end) of its entity mentions."""
    overlaps = _overlap_test(spans)
    return [(m.group(), overlaps(m.start(), m.end())) for m in _WORD.finditer(text)]


def written_tokens(text: str, spans=()) -> list:
    """(token, barred) for the tokens of `text` as written: words and punctuation marks;
    a mark, or a word inside an entity mention (`spans`), is barred from n-grams."""
    overlaps = _overlap_test(spans) if spans else None
    out = []
    for m in _TOKEN.finditer(text):
        token = m.group()
        out.append((token, _ALNUM.search(token) is None
                    or overlaps is not None and overlaps(*m.span())))
    return out


def written_ngrams(text: str, spans=(), n: int = 3):
    """The record 3-gram reading: n-grams of tokens as written (case kept) with no
    punctuation mark and no entity word in them ('his "passion" for' has no "his passion
    for"; "in 1999, aged 81" no "in 1999 aged")."""
    return cased_ngrams(written_tokens(text, spans), n)


def cased_ngrams(words, n):
    """The n-grams of `cased_words` output none of whose words lies in an entity."""
    if n < 1:
        return (tuple(w for w, _ in words[i:i + n]) for i in range(len(words) - n + 1)
                if not any(f for _, f in words[i:i + n]))
    return _clear_windows([w for w, _ in words], [f for _, f in words], n)


def _clear_windows(texts, flags, n):
    """tuple(texts[i:i + n]) for each i, in order, where no flag of flags[i:i + n] is true
    (n >= 1): one pass counting the unflagged words since the last flag, instead of a
    scan of every window's flags."""
    run = 0
    for j, f in enumerate(flags):
        run = 0 if f else run + 1
        if run >= n:
            yield tuple(texts[j - n + 1:j + 1])


def ngrams(words, n):
    return (tuple(words[i:i + n]) for i in range(len(words) - n + 1))


def plain_ngrams(words, entity_flags, n):
    """The n-grams of `words` none of whose words lies in an entity mention."""
    flags = tuple(entity_flags) or (False,) * len(words)
    return (tuple(words[i:i + n]) for i in range(len(words) - n + 1)
            if not any(flags[i:i + n]))


def prefix_units(annotated: AnnotatedArticle, max_paragraph_tokens: int = 150) -> list:
    """Units the prefix is made of: (segment, start, end, n_tokens, sentences).
    Whole paragraphs; the sentences of the article when it is one paragraph, and of a
    paragraph over `max_paragraph_tokens` (text without paragraph breaks)."""
    paras = annotated.paragraphs
    units = []
    for p in paras:
        if len(paras) > 1 and p.n_tokens <= max_paragraph_tokens:
            units.append((p, 0, len(p.text), p.n_tokens, p.sentences))
        else:
            units += [(p, s.start, s.end, s.n_tokens, (s,)) for s in p.sentences]
    return units


def shortest_prefix(token_counts, min_tokens: int) -> int:
    """Number of leading units whose tokens first reach `min_tokens` (0 if never)."""
    total = 0
    for i, n in enumerate(token_counts, start=1):
        total += n
        if total >= min_tokens:
            return i
    return 0


def _mentions_in(segment, start, end, shift):
    """(start, end, text, label, gender cue, why no answer, person cue) of the segment's
    mentions in [start, end)."""
    spans = [(m.start, m.end) for m in segment.mentions]
    return [(m.start + shift, m.end + shift, m.text, m.label,
             mention_cue(segment.text, m.start, m.end),
             not_an_answer(segment.text, m.start, m.end, m.label, spans),
             person_cue(segment.text, m.start, m.end))
            for m in segment.mentions if m.start >= start and m.end <= end]


def count_entities(entities, prefix_end: int, rules: str = "record") -> int:
    """Distinct entities of the passage's first part (its article prefix: the paper's
    "first part of news article ... at least four different entities"): `record` counts
    names, as ReCoRD's released passages show ("Japan" and "Japanese" are two); `paper`
    counts coreference clusters."""
    scope = [e for e in entities if e.end <= prefix_end]
    if rules == "record":
        return len({normalise_name(e.text, e.label) for e in scope})
    return len({e.cluster for e in scope})


@dataclass(frozen=True)
class PassageFacts:
    """What the passage rules (`PASSAGE_RULES`, the transforms/core/rules.py convention)
    read of a built passage: an article whose passage fails one gives no passage."""
    body_tokens: int      # tokens of the whole article body
    prefix_units: int     # leading units whose tokens reach min_prefix_tokens (0: none do)
    entities: int         # distinct entities of the prefix (`count_entities`)


PASSAGE_RULES = (
    Rule("min_prefix_tokens", "prefix_under_{min_prefix_tokens}_tokens",
         lambda f, ctx, c: f.prefix_units > 0
         or (False, f"the whole article body has {f.body_tokens} tokens")),
    Rule("min_entities", "under_{min_entities}_entities",
         lambda f, ctx, c: f.entities >= c.min_entities
         or (False, f"{f.entities} distinct entities in the passage's first part")),
)


def build_passage(annotated: AnnotatedArticle, config: PassageConfig = PassageConfig(),
                  resolver: CoreferenceResolver = RuleBasedResolver(),
                  rules: str = "record") -> Union[Passage, Reject]:
    """The passage and its candidate sentences, or the Reject of the first rule of
    `PASSAGE_RULES` it fails."""
    article = annotated.article
    units = prefix_units(annotated, config.max_paragraph_tokens)
    k = shortest_prefix([u[3] for u in units], config.min_prefix_tokens)
    parts, raw, words, flags, offset = [], [], [], [], 0
    for segment, start, end, _, sents in units[:k]:
        if parts:
            offset += 1  # the joining space
        raw += _mentions_in(segment, start, end, offset - start)
        words += [s.words for s in sents]
        flags += [s.entity_words for s in sents]
        parts.append(segment.text[start:end])
        offset += end - start
    text = " ".join(parts)
    for h in annotated.highlights:
        offset = len(text) + len(HIGHLIGHT_SEP)
        raw += _mentions_in(h, 0, len(h.text), offset)
        words += [s.words for s in h.sentences]
        flags += [s.entity_words for s in h.sentences]
        text += HIGHLIGHT_SEP + h.text

    sentences_raw, seen = [], set()
    for segment, _, _, _, sents in units[k:]:
        for s in sents:
            if s.words and s.words in seen:
                continue   # said twice (a photo caption repeating the body): once
            seen.add(s.words)
            sentences_raw.append((s, _mentions_in(segment, s.start, s.end, -s.start),
                                  segment.text[s.start:s.end]))
    all_mentions = [m[2:5] + m[6:] for m in raw] + [
        m[2:5] + m[6:] for _, ms, _ in sentences_raw for m in ms]
    same = [pair for seg in annotated.paragraphs + annotated.highlights
            for pair in bracketed_aliases(seg.text, seg.mentions)]
    all_keys = resolver.clusters(all_mentions, same) if same else resolver.clusters(all_mentions)
    per_cluster = collections.Counter(all_keys)
    keys = iter(all_keys)
    entities = tuple(Entity(*m[:4], cluster=next(keys), not_answer=m[5]) for m in raw)
    sentences = []
    for i, (s, ms, text_) in enumerate(sentences_raw):
        mentions = tuple(Entity(*m[:4], cluster=next(keys), not_answer=m[5]) for m in ms)
        sentences.append(CandidateSentence(
            i, text_, s.n_tokens, s.words, mentions, s.entity_words,
            tuple(name_in_text(m.text, text) or place_tail_in_text(m.text, m.label, text)
                  for m in mentions),
            tuple(per_cluster[m.cluster] == 1 for m in mentions)))
    sentences = tuple(sentences)

    facts = PassageFacts(sum(u[3] for u in units), k,
                         count_entities(entities, len(" ".join(parts)), rules))
    rejected = first_rejection(PASSAGE_RULES, facts, None, config)
    if rejected is not None:
        return rejected
    n_prefix = sum(u[3] for u in units[:k])
    return Passage(
        article=article, passage_id=short_digest(article.article_id, text, length=20),
        text=text, n_prefix_tokens=n_prefix,
        n_tokens=n_prefix + sum(h.n_tokens for h in annotated.highlights),
        entities=entities, sentence_words=tuple(words), sentences=sentences,
        sentence_entity_words=tuple(flags))

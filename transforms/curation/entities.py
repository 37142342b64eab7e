"""Entity spans marked as ReCoRD marks them. Pure functions over (text, start, end, label).

ReCoRD's spans (AllenNLP NER, CoNLL-2003 conventions) differ from spaCy's raw ones:
- no title: "Hugo Chavez" in "President Hugo Chavez", "Jeff Flake" in "Sen. Jeff Flake"
  (0 of ~2,000 real spans start with Mr, Mrs or Dr); the title stays in the text;
- no leading "the" or "a", no leading bullet, quote or dash; no trailing possessive;
- "Caracas" and "Venezuela" for "Caracas, Venezuela": a comma list is several entities,
  and so is a pair joined by a spaced dash ("Sauber - Ferrari"), a bullet list
  ("Minnesota • Iceland • Nigeria") or a hyphen-joined pair of names known on their own
  ("Los Angeles-San Francisco");
- nothing trailing: no score ("Palace 2-1"), ordinal ("Perez 15th"), lower-case word
  ("Sheffield Eagles at"), unbalanced bracket, or text after a colon or a spaced dash
  ("Tian Tian - whose");
- names: a span with no capital letter ("septum", "turkey") is not a name.
Datelines keep their entity: the real samples mark "CNN" in "(CNN)" and in
"Caracas, Venezuela (CNN) --".
Names of several words: compounds.py (kept whole over a number, "Formula 4"; split at a
preposition between two names, "Rayo against Real Madrid"), consistency.py.
"""
import re
from typing import List, Optional, Tuple

from transforms.core.constants import PERSON
from transforms.curation.compounds import split_at_preposition, split_hyphen_pair  # noqa: F401
from transforms.curation.countries import country_of
from transforms.curation.gender import given_name_gender
from transforms.curation.names import (
    CAPITALS_ONLY_TITLES,
    ROLE_TITLES,
    ROYAL_TITLES,
    TITLE_ABBREVIATIONS,
    TITLE_NOUNS,
    TITLE_PARTS,
)

Span = Tuple[int, int, str]   # start, end (exclusive), label

# lower-case name particles: "al Qaeda", "Osama bin Laden", "Vincent van Gogh"
PARTICLES = frozenset({"al", "el", "bin", "ibn", "de", "da", "di", "van", "von", "der", "den",
                       "du", "la", "le", "dos", "das", "del", "della", "ter", "ten", "abu"})
# lower-case prefixes joined by a hyphen to a name: "anti-Obama", "ex-Mirror", "Then-U.S."
HYPHEN_PREFIXES = frozenset({"anti", "pro", "ex", "post", "pre", "neo", "non", "mid", "then",
                             "former", "all", "pan", "trans", "un", "semi", "co", "self"})
_LEADING_JUNK = "•·*>|-–—~\"'‘’“”«»([{,;:./\\ "
_TRAILING_JUNK = "•·*|-–—~\"'‘“”«»([{,;:/\\ "
_DASH = re.compile(r"\s+(?:-{1,2}|–|—)\s+|\s*[•·|]\s*")   # a dash pair, a bullet list
_COMMA = re.compile(r",\s+")
_SCORE = re.compile(r"^(?:\d+-\d+|\d+(?:st|nd|rd|th)|\d+[:.]\d+(?:[:.]\d+)?|\(\d+\))$")
_POSSESSIVE = ("'s", "’s", "'", "’")
_GLUED_QUOTE = re.compile(r"[a-z]:['‘\"“]|[a-z]['‘\"“][A-Z]")
_CAP = re.compile(r"[A-Z]")
# words that with titles make a title, never a name alone ("Secretary of State" -> "State")
_TITLE_GLUE = frozenset({"of", "state", "vice", "prime", "deputy", "former", "acting", "then"})


_NON_SPACE = re.compile(r"\S+")
_PARTICLE_HYPHEN = re.compile(r"^(?:%s)-" % "|".join(sorted(PARTICLES)))
_PREFIX_HYPHEN = re.compile(r"([A-Za-z]+)-(?=[A-Z])")


def _words(text: str, start: int, end: int) -> List[Tuple[int, int]]:
    return [(m.start() + start, m.end() + start) for m in _NON_SPACE.finditer(text[start:end])]


def _strip_chars(text: str, start: int, end: int) -> Tuple[int, int]:
    while start < end and text[start] in _LEADING_JUNK:
        start += 1
    while start < end:
        ch = text[end - 1]
        if ch in _TRAILING_JUNK:
            end -= 1
        elif ch == ")" and text.count("(", start, end) < text.count(")", start, end):
            end -= 1
        elif ch == "]" and "[" not in text[start:end]:
            end -= 1
        else:
            break
    return start, end


def _cut_open_bracket(text: str, start: int, end: int) -> Tuple[int, int]:
    """'Midwifery Council (NMC' -> 'Midwifery Council'."""
    span = text[start:end]
    i = span.find("(")
    if i > 0 and ")" not in span[i:]:
        end = start + len(span[:i].rstrip())
    return start, end


def _is_lower_word(w: str) -> bool:
    core = w.strip(_LEADING_JUNK)
    return bool(core) and not _CAP.search(core) and core[0].isalpha()


def is_title_run(words: List[str], label: str) -> int:
    """How many leading words of a span are a title: 'Mr', 'Sen.', 'President', 'Prime
    Minister', 'Secretary of State', 'Lt. Col.'. Word titles ('President', 'General') count
    for people only: 'General Motors' keeps its name."""
    n, seen_title = 0, False
    for i, w in enumerate(words[:-1]):
        key = w.strip(".,").lower().replace("’", "'")
        if key in CAPITALS_ONLY_TITLES and not w.strip(".,").isupper():
            break                     # "Di Palma", not "DI Palma"
        if key in TITLE_ABBREVIATIONS or (label == PERSON and key in TITLE_NOUNS):
            n, seen_title = i + 1, True
        elif label == PERSON and key in TITLE_PARTS:
            if seen_title:
                n = i + 1
        else:
            break
    return n if seen_title else 0


def strip_title(text: str, start: int, end: int, label: str) -> Tuple[int, int, str]:
    """The span without its leading title; a span that had an abbreviated title (Mr, Dr)
    names a person whatever spaCy's label, and so does a span another label got that is a
    person's title and name (`titled_person`: "Secretary of State Rex Tillerson" tagged
    ORG)."""
    words = _words(text, start, end)
    k = is_title_run([text[s:e] for s, e in words], label)
    if not k:
        k = _title_into_span(text, start, [text[s:e] for s, e in words])
        if k:                 # "Secretary of " + "State Rex Tillerson" (ORG), "President
            return words[k][0], end, PERSON      # Donald Trump" (GPE)
    if not k or k >= len(words):
        return start, end, label
    first = text[words[k][0]:words[k][1]]
    if not _CAP.match(first[:1]):
        return start, end, label
    abbreviated = text[words[0][0]:words[0][1]].strip(".").lower() in TITLE_ABBREVIATIONS
    return words[k][0], end, (PERSON if abbreviated else label)


_WORDS_BEFORE = re.compile(r"((?:[A-Za-z][\w.'’]* ){1,3})$")


def _title_into_span(text: str, start: int, words: List[str]) -> int:
    """How many leading words of a span finish a person's title (`titled_person`) that
    may have begun in the words right before it, where the model cut the span inside the
    title: "Secretary of " + "State Rex Tillerson" -> 1; 0 when none."""
    m = _WORDS_BEFORE.search(text, max(0, start - 40), start)
    before = m.group(1).split() if m else []
    for j in range(len(before) + 1):
        head = before[j:]
        k = titled_person(head + words) - len(head)
        if k > 0:
            return k
    return 0


def titled_person(words: List[str]) -> int:
    """How many leading words are a person's title when a model tagged title and name as
    something else ("Secretary of State Rex Tillerson" ORG, "President Donald Trump"
    GPE): a title of two words or more ("Secretary of State", "Prime Minister", "Attorney
    General"), or one word title before a given name the name lists know ("President
    Donald Trump"), then a name of two capitalised words or more; else 0. "General
    Motors", "Major League Baseball" and "Captain America" keep their names."""
    k = is_title_run(words, PERSON)
    if not k:
        return 0
    rest = [w.strip(".,") for w in words[k:]]
    if len(rest) < 2 or not all(_CAP.match(w[:1]) for w in rest):
        return 0
    if k >= 2 and any(w.strip(".,").lower() in TITLE_NOUNS for w in words[:k]):
        return k
    return k if given_name_gender(" ".join(rest).lower()) else 0


def _strip_leading(text: str, start: int, end: int, at_sentence_start: bool) -> int:
    while True:
        words = _words(text, start, end)
        if len(words) < 2:
            break
        w = text[words[0][0]:words[0][1]]
        lw = w.lower()
        if lw in ("the", "a", "an") and (w[0].islower() or at_sentence_start or (
                lw == "the" and country_of(text[words[1][0]:end]))):
            start = words[1][0]       # "(The United States should)": the country
        elif w.islower() and lw not in PARTICLES and not _PARTICLE_HYPHEN.match(lw):
            start = words[1][0]
        else:
            break
        at_sentence_start = False
    # a lower-case prefix glued by a hyphen: "anti-Obama", "ex-Mirror", "Then-U.S."
    m = _PREFIX_HYPHEN.match(text[start:end])
    if m and m.group(1).lower() in HYPHEN_PREFIXES:
        start += m.end()
    return start


def _strip_trailing(text: str, start: int, end: int) -> int:
    while True:
        words = _words(text, start, end)
        if len(words) < 2:
            break
        w = text[words[-1][0]:words[-1][1]]
        if _SCORE.match(w) or (_is_lower_word(w) and w.lower() not in PARTICLES):
            end = words[-2][1]
        else:
            break
    return end


def _strip_possessive(text: str, start: int, end: int) -> int:
    for trail in _POSSESSIVE:
        if text[start:end].endswith(trail) and end - start > len(trail):
            return end - len(trail)
    return end


_QUOTE_GAP = re.compile(r"[\w.]['’\"”] (?=[A-Z])")


def _pieces(text: str, start: int, end: int) -> List[Tuple[int, int]]:
    """Split at a colon (the part before it), a closing quote ("voting Labour' Eddie
    Izzard": the quote ends the first name), a spaced dash and a comma list."""
    span = text[start:end]
    i = span.find(": ")
    if i > 0:
        end = start + i
        span = text[start:end]
    m = _QUOTE_GAP.search(span)
    if m:
        return _pieces(text, start, start + m.start() + 1) + \
            _pieces(text, start + m.end(), end)
    parts, cursor = [], start
    for m in _DASH.finditer(span):
        parts.append((cursor, start + m.start()))
        cursor = start + m.end()
    parts.append((cursor, end))
    out = []
    for s, e in parts:
        cursor = s
        for m in _COMMA.finditer(text[s:e]):
            out.append((cursor, s + m.start()))
            cursor = s + m.end()
        out.append((cursor, e))
    return [(s, e) for s, e in out if e > s]


# labels whose names are titles and may hold any word ("Gone with the Wind")
TITLED_LABELS = frozenset({"WORK_OF_ART", "EVENT", "LAW", "PRODUCT"})


# the office a minister's or a secretary's title names ("Secretary of Defense James
# Mattis", "Minister for Health Sussan Ley"): part of the title, no name of its own
OFFICE_WORDS = frozenset({
    "state", "defense", "defence", "health", "home", "foreign", "education", "energy",
    "transport", "transportation", "justice", "labor", "labour", "agriculture", "commerce",
    "treasury", "interior", "finance", "trade", "culture", "environment", "and"})
_OFFICE_TITLE = re.compile(r"\b(?:Secretary|Minister|secretary|minister) (?:of|for) (?:the )?$")
_NAME_AFTER = re.compile(r" [A-Z][a-z]+ [A-Z]")      # a full name: "James Mattis"
_OFFICE_AFTER = re.compile(r" (?:Secretary|Minister|Ministers|Secretaries)\b")


def is_title_office(text: str, start: int, end: int) -> bool:
    """A span of office words between "Secretary of" / "Minister for" and a person's name
    is the end of the title ("Defense" in "US Secretary of Defense James Mattis"), as
    ReCoRD marks it (no span there); before no full name it stays ("the Secretary of
    Defense said", "Secretary of Home Affairs"). Office words right before "Secretary" or
    "Minister" are the title's first words, never a name: "Health" in "Health Secretary
    Jeremy Hunt" (tagged ORG; a reader took "the @placeholder" for a body's name)."""
    words = text[start:end].split()
    if not (words and all(w.lower() in OFFICE_WORDS for w in words) and words[0][:1].isupper()):
        return False
    return ((_OFFICE_TITLE.search(text, max(0, start - 30), start) is not None
             and _NAME_AFTER.match(text, end) is not None)
            or _OFFICE_AFTER.match(text, end) is not None)


_RANKING = re.compile(r"(?:[Ww]orld )?No\.? ?\d+")
_WORLD_BEFORE = re.compile(r"\b[Ww]orld $")


def is_world_ranking(text: str, start: int, end: int) -> bool:
    """A player's world ranking is a number, not a name ("the world No 4 and second
    seed", "World No 4 is looking for his ninth title": tagged LAW and EVENT); "No 10"
    alone (Downing Street) stays."""
    span = text[start:end]
    return _RANKING.fullmatch(span) is not None and (
        span[:5].lower() == "world" or _WORLD_BEFORE.search(text, max(0, start - 6), start)
        is not None)


def mark_span(text: str, start: int, end: int, label: str,
              sentence_start: bool = False) -> List[Span]:
    """ReCoRD's spans for one raw NER span: none, one, or several (a list)."""
    start, end = _cut_open_bracket(text, start, end)
    if is_title_office(text, start, end):
        return []
    if _GLUED_QUOTE.search(text, start, end):
        return []     # tokenisation junk: "said:'Oh"
    out = []
    pieces = _pieces(text, start, end)
    if label not in TITLED_LABELS:
        pieces = [p for s, e in pieces for p in split_at_preposition(text, s, e)]
    for s, e in pieces:
        first = sentence_start and s == start
        span = _one(text, s, e, label, first)
        if span:
            out.append(span)
    return out


def _one(text: str, start: int, end: int, label: str, sentence_start: bool) -> Optional[Span]:
    start, end = _strip_chars(text, start, end)
    if start >= end:
        return None
    start = _strip_leading(text, start, end, sentence_start)
    start, end, label = strip_title(text, start, end, label)
    end = _strip_trailing(text, start, end)
    start, end = _strip_chars(text, start, end)
    end = _strip_possessive(text, start, end)
    start, end = _strip_chars(text, start, end)
    span = text[start:end]
    if not span or not is_name(span) or is_world_ranking(text, start, end):
        return None
    return (start, end, label)


# words the model takes for names in quoted speech and lyrics ("the "Bye, Bye" chorus")
INTERJECTIONS = frozenset({"bye", "hello", "hi", "oh", "ah", "hey", "wow", "yes", "no", "ok",
                           "okay", "thanks", "please", "sorry", "yeah", "amen", "cheers"})


def is_name(span: str) -> bool:
    """A span that can be a named entity: a capital letter or a leading digit ("9/11",
    "2014 World Cup"), not a lone title or title words ("State", "Dr"), not only
    lower-case words."""
    if not (_CAP.search(span) or span[:1].isdigit()):
        return False
    words = [w.strip(".").lower() for w in span.split()]
    if all(w in ROLE_TITLES or w in _TITLE_GLUE for w in words):
        return False
    if span[:1].isdigit() and not _CAP.search(span):
        return False
    return span.lower() not in INTERJECTIONS


def is_royal_title(word: str) -> bool:
    return word.strip(".").lower() in ROYAL_TITLES

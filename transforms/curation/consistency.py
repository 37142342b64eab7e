"""Document-level label consistency of entity mentions (one article at a time).

An NER model tags a name in one sentence and misses it in the next; ReCoRD's spans do not
("Trump", "Ward" and "Twitter" are marked at every occurrence in the real samples). So:
- a string tagged as an entity once in an article is tagged at its other occurrences
  (whole words, case-sensitive, where no mention is already marked; inside single quotes
  too, "grew familiar with 'Taurus'", but never inside a word, "O'Neill");
- a string carries one label across the article, the one it gets most often;
- a person's surname alone is a mention of a person ("Ward" for "Kelli Ward");
- a hyphen-joined pair whose two sides are entities of the article on their own is two
  mentions ("Los Angeles-San Francisco"), and so is a possessive pair ("Tom Wood's
  Northampton") and two names glued together ("Malaga Benzema",
  `compounds.split_glued_person`);
- a name of several words is tagged whole at every occurrence, over the shorter mentions
  the model made inside it ("ADAC Formula 4", not "Formula" alone);
- a demonym right before a name made with a number is part of it ("German Formula 4");
- a known name is tagged before a lower-case hyphen tail ("U.S.-bound", "Bush-era") and
  after a lower-case prefix ("pro-Trump"), never inside a hyphenated name;
- a name the model found only inside a lower-case compound ("Semitism" of
  "anti-Semitism", "Semitic" of "anti-Semitic") is no mention: a name after a prefix
  stays one only where the article names it on its own, or it is a country or a demonym
  ("pro-Trump", "anti-American"; `inside_compound`);
- never before a currency sign ("US" of "US$13");
- person or not: a surname is a person's, a place or a club tagged PERSON is not
  (person_labels.py).
A common word tagged a thing or a place only where it opens a headline or a sentence
("Broadband set to ..." beside "TV over broadband") is no mention
(`is_common_word_opening`); nor is a frequent English word of any label but a group's
that the article never capitalises mid-sentence ("Criminal complaint: Cop used ..."),
and such a word glued to the front of a person's full name is cut off it ("Adventurer
Tomasz Furmanek"): common_words.py.
Not propagated: a one-word string that also appears in lower case in the article (a common
word capitalised at a sentence start: "Drew up plans" / "drew"; an acronym is no such word:
"US" is tagged though "us" is written), month and day names.
Mentions are (start, end, label) triples, offsets inside their segment's text.
"""
import collections
import functools
import re
from typing import List, Sequence, Tuple

from transforms.curation.common_words import (
    common_word_names,
    cut_descriptors,
    mid_sentence_capitals,
)
from transforms.curation.compounds import (
    ends_in_number,
    split_glued_person,
    split_hyphen_pair,
    split_possessive_pair,
)
from transforms.curation.countries import country_of, is_known_place
from transforms.curation.entities import HYPHEN_PREFIXES
from transforms.curation.initialisms import untagged_initialism_labels
from transforms.curation.person_labels import (
    clipped_name_labels,
    settle_person_labels,
)
from transforms.curation.wordlists import CALENDAR_WORDS

Triple = Tuple[int, int, str]

LABEL_ORDER = ("PERSON", "ORG", "GPE", "NORP", "LOC", "FAC", "EVENT", "PRODUCT",
               "WORK_OF_ART", "LAW", "LANGUAGE")
NEVER_PROPAGATED = CALENDAR_WORDS | {"The", "A", "An", "I"}


def label_counts(texts: Sequence[str], mention_lists) -> dict:
    counts = collections.defaultdict(collections.Counter)
    for text, mentions in zip(texts, mention_lists):
        for s, e, label in mentions:
            counts[text[s:e]][label] += 1
    return counts


def majority_labels(texts: Sequence[str], mention_lists) -> dict:
    counts = label_counts(texts, mention_lists)
    rank = {lab: i for i, lab in enumerate(LABEL_ORDER)}
    return {name: min(c.items(), key=lambda kv: (-kv[1], rank.get(kv[0], 99), kv[0]))[0]
            for name, c in counts.items()}


def inside_compound(text: str, start: int) -> bool:
    """A mention at `start` right after a lower-case prefix and a hyphen ("anti-")."""
    if text[start - 1:start] != "-":
        return False
    m = re.search(r"(?<![\w-])([a-z]+)-$", text[max(0, start - 12):start])
    return bool(m) and m.group(1) in HYPHEN_PREFIXES


def drop_compound_names(texts: Sequence[str], mention_lists) -> list:
    """The mentions without the names found only inside a lower-case compound."""
    alone = {t[s:e] for t, ms in zip(texts, mention_lists) for s, e, _ in ms
             if not inside_compound(t, s)}
    return [[(s, e, lab) for s, e, lab in ms
             if not inside_compound(t, s) or t[s:e] in alone or country_of(t[s:e])]
            for t, ms in zip(texts, mention_lists)]


def propagatable(name: str, lower_words: set) -> bool:
    if len(name) < 2 or name in NEVER_PROPAGATED or not re.search(r"[A-Z]", name):
        return False
    # an acronym is no common word capitalised: "US" is tagged though "us" is written
    return " " in name or name.lower() not in lower_words or is_acronym(name)


def is_acronym(name: str) -> bool:
    """Two or more capitals and nothing else but dots: "US", "U.S.", "NFL"."""
    letters = name.replace(".", "")
    return len(letters) >= 2 and letters.isalpha() and letters.isupper()


def consistent_mentions(texts: Sequence[str], mention_lists) -> List[List[Triple]]:
    """The mentions of each segment of one article after the rules above, sorted."""
    mention_lists = drop_compound_names(texts, mention_lists)
    mid_capitals = mid_sentence_capitals(texts)
    mention_lists = cut_descriptors(texts, mention_lists, mid_capitals)
    known = {t[s:e] for t, ms in zip(texts, mention_lists) for s, e, _ in ms}
    countries = {k for k in known if country_of(k)}
    tagged = collections.defaultdict(set)
    seen = collections.Counter()
    adjacent = set()
    for t, ms in zip(texts, mention_lists):
        for s, e, label in ms:
            tagged[t[s:e]].add(label)
            seen[t[s:e]] += 1
        ordered = sorted(ms)
        adjacent |= {(t[a:b], t[c:d]) for (a, b, _), (c, d, _) in zip(ordered, ordered[1:])
                     if t[b:c] == " "}
    split_lists = []
    for text, mentions in zip(texts, mention_lists):
        out = []
        for s, e, label in mentions:
            others = known - {text[s:e]}
            if "-" in text[s:e]:
                pieces = split_hyphen_pair(text, s, e,
                                           others | countries | _country_words(text[s:e]))
            else:
                pieces = [q for a, b in split_possessive_pair(text, s, e, others | countries)
                          for q in split_glued_person(text, a, b, label, tagged, seen,
                                                       adjacent)]
            out += [(a, b, label) for a, b in pieces]
        split_lists.append(out)
    labels = majority_labels(texts, split_lists)
    for name, label in list(labels.items()):
        surname = name.split()[-1] if label == "PERSON" and " " in name else ""
        if len(surname) >= 3 and surname[0].isupper() and surname not in labels \
                and surname.strip(".").lower() not in ("jr", "sr", "ii", "iii", "iv"):
            labels[surname] = "PERSON"   # "Ward" for "Kelli Ward"
    labels = settle_person_labels(labels, texts)
    labels.update(clipped_name_labels(labels, texts))   # "Juve" for "Juventus"
    labels.update(untagged_initialism_labels(labels, texts))   # "QPR"
    lower_words = {w for t in texts for w in re.findall(r"\b[a-z][a-z'’-]*\b", t)}
    common = {n for n, lab in labels.items() if is_common_word_opening(n, lab, texts,
                                                                       lower_words)}
    common |= common_word_names(labels, mid_capitals, lower_words)
    split_lists = [[m for m in ms if t[m[0]:m[1]] not in common]
                   for t, ms in zip(texts, split_lists)]
    labels = {n: lab for n, lab in labels.items() if n not in common}
    names = sorted((n for n in labels if propagatable(n, lower_words)),
                   key=lambda n: (-len(n), n))
    result = []
    for text, mentions in zip(texts, split_lists):
        current = {}
        for s, e, lab in mentions:
            current.setdefault((s, e), lab)
        for name in names:     # longest first
            if name not in text:
                continue
            for start, end in name_occurrences(name, text):
                if not after_hyphen_prefix(text, start):
                    continue
                inside = whole_name_over(current, start, end, " " in name)
                if inside is not None:
                    for k in inside:
                        del current[k]
                    current[(start, end)] = labels[name]
        merged = sorted((s, e, labels.get(text[s:e], lab)) for (s, e), lab in current.items())
        result.append(join_demonym_names(text, merged))
    return result


COMMON_WORD_LABELS = frozenset({"GPE", "LOC", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW",
                                "LANGUAGE"})
_OPENING = re.compile(r"(?:^|[.!?:][\"'’”)\]]*\s+)[\"'‘“(\[]?$")


def is_common_word_opening(name: str, label: str, texts: Sequence[str],
                           lower_words: set) -> bool:
    """A common word capitalised where a headline or a sentence opens, tagged a thing or
    a place ("Broadband set to revolutionise TV", "Broadband to them would not be
    about ..." beside "TV over broadband"): one word, not an acronym nor a known place,
    written in lower case in the article, and capitalised only where a segment or a
    sentence opens. People, organisations and groups keep their tags ("Labour",
    "Bush"): the small model tags them from the context, not from the capital."""
    if label not in COMMON_WORD_LABELS or " " in name or is_acronym(name) \
            or name.lower() not in lower_words or is_known_place(name):
        return False
    found = [(t, start) for t in texts for start, _ in name_occurrences(name, t)]
    return bool(found) and all(_OPENING.search(t[:start]) for t, start in found)


def after_hyphen_prefix(text: str, start: int) -> bool:
    """A name at `start` may follow a hyphen only after a lower-case prefix ("pro-Trump",
    "anti-Obama"), never inside a hyphenated name ("Louis-Dreyfus")."""
    if text[start - 1:start] != "-":
        return True
    m = re.search(r"(?<![\w-])([a-z]+)-$", text[max(0, start - 12):start])
    return bool(m) and m.group(1) in HYPHEN_PREFIXES


_NAME_BEFORE = r"(?<![\w#@])(?<!\w['’])"
_NAME_AFTER = r"(?![\w$€£¥]|-(?![a-z]))"
_BEFORE, _AFTER = re.compile(_NAME_BEFORE), re.compile(_NAME_AFTER)


@functools.lru_cache(maxsize=1024)
def _name_pattern(name: str):
    """A known name, not inside a word ("O'Neill" has no "Neill"); after an opening quote,
    yes; not before a currency sign or a hyphen that does not open a lower-case word.
    The rule as one regular expression; `name_occurrences` applies it without compiling
    one per name (~1 ms each, ~5,000 distinct names per 270 articles)."""
    return re.compile(_NAME_BEFORE + re.escape(name) + _NAME_AFTER)


def name_occurrences(name: str, text: str) -> list:
    """[(start, end)] of `name` in `text` as `_name_pattern(name).finditer(text)` finds
    them (left to right, not overlapping): `str.find` for the name, the two precompiled
    context checks at its ends."""
    if not name:
        return [m.span() for m in _name_pattern(name).finditer(text)]
    out, i = [], text.find(name)
    while i >= 0:
        end = i + len(name)
        if _BEFORE.match(text, i) and _AFTER.match(text, end):
            out.append((i, end))
            i = text.find(name, end)
        else:
            i = text.find(name, i + 1)
    return out


def whole_name_over(current: dict, start: int, end: int, several_words: bool):
    """The mentions an occurrence of a known name replaces: none when it overlaps nothing;
    for a name of several words, the shorter mentions lying inside it; None (the
    occurrence is not tagged) when it crosses a mention or is one already."""
    overlapping = [k for k in current if k[0] < end and start < k[1]]
    if not overlapping:
        return []
    if several_words and all(start <= s and e <= end and (s, e) != (start, end)
                             for s, e in overlapping):
        return overlapping
    return None


def join_demonym_names(text: str, mentions: List[Triple]) -> List[Triple]:
    """"German" + "Formula 4" -> "German Formula 4": a demonym (NORP) right before a name
    made with a number is part of that name."""
    out = []
    for s, e, label in mentions:
        if out and out[-1][2] == "NORP" and text[out[-1][1]:s] == " " \
                and ends_in_number(text[s:e]):
            out[-1] = (out[-1][0], e, label)
        else:
            out.append((s, e, label))
    return out


def _country_words(span: str) -> set:
    """The sides of a hyphen pair that are countries or demonyms ("Somali-American")."""
    return {p for p in span.split("-") if p and country_of(p)}

"""A person's name whatever label NER gave it, for coreference (paper section 3.1; issue
32, item 2: surname and full-name forms joined "whatever label NER gave them").

The small model tags a person's full name GPE or ORG ("36-year-old Kevone Charleston" ORG,
"NBA player Thabo Sefolosha" GPE) and the lone surname something else again ("Charleston
is suspected ..." GPE), so the answer set of a query on the surname left the full name
out (a fresh7/fresh8 reading). `person_labels.py` already makes a surname a person where
the full name is tagged PERSON; here the sentence says it is a person:
- a person cue is what the words around one mention show (`PERSON_CUE_RULES`): a title,
  role or kinship noun right before it ("Prof", "player", "brother"), an age ("36-year-old
  X", "X, 36,"), a possessive before a kin noun ("Patz's parents"), a human verb right
  after it ("said", "admitted", "is suspected"), a possessive before "lawyer", "family"
  ..., or ", who" after it;
- `coreference_labels` then reads a name as a person for coreference only (the mentions
  keep NER's labels) by three named rules (`person_names`): a full name with a person cue
  (`cued_full_name`); a full name opening with a given name of the lists whose last word
  the article tags PERSON alone (`given_name_and_person_surname`: "Clive Ruggles" NORP
  beside "Prof Ruggles"); a one-word name with a person cue that ends a person's full
  name (`cued_surname`). The resolver joins them as it joins any person's names, and a
  surname two full names end with stays ambiguous (no query). A one-word name with no
  cue beside a full name found a person here only joins no person (`uncued_surnames`:
  "in Charleston, South Carolina" is the city).
The strong cues (`STRONG_CUES`: a title or role before, an age, a kin noun) are the only
ones a known place, a country or a full name takes: "Washington said" is the US
government, "Goldman Sachs said" and "Goldman Sachs's lawyers" a bank; "Mr Washington"
is a person. Pure functions; no Beam.
"""
import functools
import re
from typing import NamedTuple, Optional, Sequence

from transforms.curation.countries import country_of, is_demonym, is_known_place
from transforms.curation.gender import gender_cue, is_given_name
from transforms.curation.names import (
    CLUB_WORDS,
    GENERIC_ORG_WORDS,
    INSTITUTION_HEADS,
    ORG_SUFFIXES,
    TITLE_WORDS,
)

PERSON = "PERSON"
# roles and nouns for people that the title tables do not hold ("NBA player X")
ROLE_NOUNS = frozenset({
    "player", "teammate", "team-mate", "suspect", "victim", "driver", "rider", "boxer",
    "golfer", "author", "writer", "director", "producer", "founder", "candidate",
    "activist", "student", "teacher", "pupil", "gunman", "defendant", "comedian",
    "musician", "artist", "chef", "officer", "colleague", "friend", "survivor", "inmate",
})
HUMAN_VERBS = frozenset({
    "said", "says", "told", "tells", "added", "admitted", "admits", "revealed", "reveals",
    "explained", "insisted", "claimed", "recalled", "wrote", "tweeted", "confessed",
    "apologised", "apologized", "testified", "pleaded", "smiled", "laughed", "died",
    "married", "thanked", "joked", "recalls", "insists",
})
PASSIVE_PERSON = frozenset({"suspected", "accused", "charged", "arrested", "sentenced",
                            "convicted", "born", "married", "jailed", "injured", "killed"})
KIN_NOUNS = frozenset({
    "parents", "wife", "husband", "mother", "father", "son", "daughter", "brother",
    "sister", "girlfriend", "boyfriend", "widow", "children", "kids", "mum", "mom", "dad",
    "fiancee", "fiance", "uncle", "aunt", "grandmother", "grandfather", "sons", "daughters",
})
# what an organisation has too ("Goldman Sachs's lawyers"): a cue for a lone surname only
RELATIVE_NOUNS = frozenset({"family", "lawyer", "lawyers", "attorney", "attorneys",
                            "spokesman", "spokeswoman", "agent", "relatives"})
_WORD_BEFORE = re.compile(r"([A-Za-z][\w'’-]*)\.? +$")   # no comma: "NFL chief, Atlanta ..."
_AGE_BEFORE = re.compile(r"\b\d{1,3}-year-old\s+$")
_AGE_AFTER = re.compile(r",\s+\d{1,3},")
_WHO_AFTER = re.compile(r",\s+who\b")
_VERB_AFTER = re.compile(r"(?:\s+\w+ly)?\s+([a-z]+)\b")
_PASSIVE_AFTER = re.compile(r"\s+(?:is|was|has been|had been|were)\s+([a-z]+)\b")
_POSSESSIVE_AFTER = re.compile(r"(?:'s|’s|'|’)\s+([a-z]+)(?:\s+([a-z]+))?\b")


def title_or_role_before(text: str, start: int, end: int) -> bool:
    """'Prof Ruggles', 'NBA player Thabo Sefolosha', "Kaling's brother Vijay
    Chokalingam" (a title or a role right before it, or the kinship nouns of gender.py);
    a list is no title: "NFL chief, Atlanta Falcons owner"."""
    m = _WORD_BEFORE.search(text[max(0, start - 40):start])
    word = m.group(1).lower().replace("’", "'") if m else ""
    return word in TITLE_WORDS or word in ROLE_NOUNS or gender_cue(text, start) is not None


def age_next_to(text: str, start: int, end: int) -> bool:
    """'36-year-old Kevone Charleston', 'Charleston, 36, of Austell'."""
    return bool(_AGE_BEFORE.search(text[max(0, start - 20):start])
                or _AGE_AFTER.match(text, end))


def human_verb_after(text: str, start: int, end: int) -> bool:
    """'Chokalingam revealed', 'Sefolosha said', 'Charleston is suspected of'."""
    m = _VERB_AFTER.match(text, end)
    p = _PASSIVE_AFTER.match(text, end)
    return bool(m and m.group(1) in HUMAN_VERBS or p and p.group(1) in PASSIVE_PERSON)


def kin_after_possessive(text: str, start: int, end: int) -> bool:
    """"Etan Patz's parents", "Sterling's estranged wife" (one word may stand between)."""
    m = _POSSESSIVE_AFTER.match(text, end)
    return bool(m and (m.group(1) in KIN_NOUNS or m.group(2) in KIN_NOUNS))


def relative_after_possessive(text: str, start: int, end: int) -> bool:
    """"Chokalingam's lawyer", "Sefolosha's family"."""
    m = _POSSESSIVE_AFTER.match(text, end)
    return bool(m and (m.group(1) in RELATIVE_NOUNS or m.group(2) in RELATIVE_NOUNS))


def who_after(text: str, start: int, end: int) -> bool:
    """'Sefolosha, who turns 31 in May'."""
    return bool(_WHO_AFTER.match(text, end))


# (reason, test): the first that holds is the mention's person cue
PERSON_CUE_RULES = (
    ("title_or_role_before", title_or_role_before),
    ("age", age_next_to),
    ("kin_after_possessive", kin_after_possessive),
    ("human_verb_after", human_verb_after),
    ("relative_after_possessive", relative_after_possessive),
    ("who_after", who_after),
)
# the cues a known place or a country takes ("Mr Washington"; "Washington said" is the
# US government), and a full name: an organisation says, is charged, has lawyers
STRONG_CUES = frozenset({"title_or_role_before", "age", "kin_after_possessive"})


def person_cue(text: str, start: int, end: int) -> Optional[str]:
    """The reason of the first person cue of the mention text[start:end], else None."""
    for reason, test in PERSON_CUE_RULES:
        if test(text, start, end):
            return reason
    return None


def _counts_for(name: str, cue: Optional[str]) -> bool:
    """A cue counts for a name; a known place, a country or a full name takes the strong
    cues only."""
    if cue is None:
        return False
    return cue in STRONG_CUES or not (" " in name or is_known_place(name) or country_of(name))


def _place_word(word: str) -> bool:
    return is_known_place(word) or bool(country_of(word)) or is_demonym(word)


class Mention(NamedTuple):
    text: str
    label: str
    cue: Optional[str]     # person_cue's reason


# words of an organisation's name, never of a person's ("the 50-year-old Food Network
# standout", "the Atlanta Falcons")
ORG_NAME_WORDS = GENERIC_ORG_WORDS | INSTITUTION_HEADS | ORG_SUFFIXES | CLUB_WORDS


def cued_full_name(name: str, mentions: Sequence[Mention]) -> bool:
    """A name of two or three capitalised words, not opened by a place, a country, a
    demonym or a title, with no word of an organisation's name, one of whose mentions
    carries a strong person cue, is a person: "36-year-old Kevone Charleston" (ORG), "NBA
    player Thabo Sefolosha" (GPE)."""
    words = name.split()
    return (2 <= len(words) <= 3 and all(w[:1].isupper() for w in words)
            and not _place_word(words[0]) and words[0].lower() not in TITLE_WORDS
            and not any(w.lower().strip(".") in ORG_NAME_WORDS for w in words)
            and any(_counts_for(name, m.cue) for m in mentions))


def given_name_and_person_surname(name: str, person_words: set) -> bool:
    """A name of two or three words opening with a given name of the lists (gender.py)
    and ending with a one-word name the article tags PERSON is that person's full name:
    "Clive Ruggles" (NORP) beside "Prof Ruggles"."""
    words = name.split()
    return (2 <= len(words) <= 3 and is_given_name(words[0])
            and words[-1] in person_words and not _place_word(words[-1]))


def cued_surname(name: str, mentions: Sequence[Mention], person_fulls: set) -> bool:
    """A one-word name, no demonym, with a person cue, that ends a person's full name of
    the article, is that person's surname: "Charleston is suspected" beside "Kevone
    Charleston", "Chokalingam revealed" beside "Vijay Chokalingam"."""
    return (" " not in name and not is_demonym(name)
            and any(f.split()[-1] == name for f in person_fulls)
            and any(_counts_for(name, m.cue) for m in mentions))


def glued_to_a_name(name: str, names) -> bool:
    """A name whose words but the last are a name of two words or more the article
    writes is two names glued: "goalkeeper Gianluigi Buffon Hart has labelled ..." (a
    caption run into the next sentence) beside "Gianluigi Buffon" is no third person
    ending with "Hart"."""
    words = name.split()
    return len(words) >= 3 and " ".join(words[:-1]) in names


def person_names(mentions: Sequence[Mention]) -> dict:
    """{name: reason} for each name (as written, possessive dropped) not tagged PERSON that
    `NAME_RULES` find a person's."""
    by_name = {}
    for m in mentions:
        by_name.setdefault(_bare(m.text), []).append(m)
    tagged = {n for n, ms in by_name.items() if any(m.label == PERSON for m in ms)}
    person_words = {n for n in tagged if " " not in n}
    found = {}
    for name, ms in by_name.items():
        if name in tagged or " " not in name or glued_to_a_name(name, by_name):
            continue
        if cued_full_name(name, ms):
            found[name] = "cued_full_name"
        elif given_name_and_person_surname(name, person_words):
            found[name] = "given_name_and_person_surname"
    fulls = {n for n in tagged | set(found) if " " in n}
    for name, ms in by_name.items():
        if name not in tagged and " " not in name and cued_surname(name, ms, fulls):
            found[name] = "cued_surname"
    return found


def uncued_surnames(mentions: Sequence[Mention], found: dict) -> set:
    """One-word names (as written) the rules above must not make a person's surname: no
    mention tagged PERSON, none with a person cue, and every full name ending with them a
    person by these rules only (a cue a known place does not take counts as none:
    "Washington said"). "in Charleston, South Carolina" stays the city beside
    "36-year-old Kevone Charleston" (ORG); a full name tagged PERSON keeps its surname
    whatever its label, as before (person_labels.py)."""
    by_name = {}
    for m in mentions:
        by_name.setdefault(_bare(m.text), []).append(m)
    tagged_fulls = {n for n, ms in by_name.items()
                    if " " in n and any(m.label == PERSON for m in ms)}
    found_fulls = {n for n in found if " " in n}
    return {name for name, ms in by_name.items()
            if " " not in name and name not in found
            and not any(m.label == PERSON or _counts_for(name, m.cue) for m in ms)
            and any(f.split()[-1] == name for f in found_fulls)
            and not any(f.split()[-1] == name for f in tagged_fulls)}


_POSSESSIVE_END = re.compile(r"(?:'s|’s|'|’)$")
_THE_OPENING = re.compile(r"^(?:the|The)\s+")


@functools.lru_cache(maxsize=4096)    # asked for each mention of the same name
def _bare(text: str) -> str:
    return _THE_OPENING.sub("", _POSSESSIVE_END.sub("", text.strip()))


def coreference_labels(mentions: Sequence[tuple]) -> tuple:
    """(mentions, apart): the resolver's (text, label[, gender cue]) mentions from (text,
    label, gender cue, person cue) ones, a label PERSON where `person_names` finds the
    name a person's, and the indices of the mentions that join no person's full name
    (`uncued_surnames`); mentions without a fourth item pass unchanged."""
    if not any(len(m) > 3 for m in mentions):
        return list(mentions), frozenset()
    plain = [Mention(m[0], m[1], m[3] if len(m) > 3 else None) for m in mentions]
    found = person_names(plain)
    apart = uncued_surnames(plain, found)
    return ([(m[0], PERSON if _bare(m[0]) in found else m[1]) + tuple(m[2:3])
             for m in mentions],
            frozenset(i for i, m in enumerate(mentions) if _bare(m[0]) in apart))

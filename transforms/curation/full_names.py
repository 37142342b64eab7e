"""A person's full name whatever label NER gave it, read from the words it is made of
(paper section 3.1, coreference; issue 32, item 2: "surname and title-prefixed forms joined
whatever label NER gave them").

The small model tags a full name ORG, GPE or NORP ("Muhammadu Buhari" ORG, "Mason
Rudolph" ORG, "Malala Yousafzai" GPE) and the same person's surname or given name alone
PERSON ("Buhari", "Malala"), so coreference kept the full name apart and the answer set of
a query on the short form left it out (the release rule `incomplete_answers` then rejects
the query). `person_full_names` finds such a name in an article's labels:
- two or three words, each capitalised, none in capitals (an acronym), tagged what the
  small model tags people most (`FULL_NAME_LABELS`: ORG, GPE, NORP; never a facility,
  product, work or event: "Westgate Mall", "Golden Globes" FAC, "Ford Focus");
- its last word is a one-word name the article tags PERSON (the surname: "Buhari"), and
  writes once at least without "the" before it ("the Moon" tagged PERSON is no surname
  of "Blue Moon"), or
  its first word is (the given name: "Malala"), where the name is no ORG or the word a
  given name of the lists (gender.py): a firm is named after a surname ("Ford Motor"
  beside "Ford"), and the lists cannot tell an unknown given name from a surname;
- its other words are name words (`is_name_word`): no place head ("Fort Jackson"),
  title, organisation, club or event word ("Ford Motor", "Jackson Memorial Hospital"),
  country, demonym or known place, nor a word the article tags alone another label than
  PERSON ("Burnley Townsend", a club glued to its player, beside "Burnley" ORG);
- no other name of several words written as a name in the article has that word (a span
  with a lower-case word, "Garrett hit Rudolph", is none): two people sharing a
  surname ("Frank Jordan" / "Louis Jordan") or a span glued to another name ("Falklands
  War Clarkson" beside "Jeremy Clarkson") leave it alone.
`person_labels.settle_person_labels` makes such names PERSON; coreference then joins them
as it joins any person's names, its gender rules (gender.py: "Mrs Phillips" never joins
"Ronald Phillips") and ambiguity checks included. The word tables are shared with the
release rule that finds the names left out (`quality.left_out.left_out_full_name`).
Pure functions; no Beam, no model.
"""
import re
from typing import Dict, Sequence

from transforms.core.word_find import is_word_char
from transforms.curation.countries import country_of, is_demonym, is_known_place
from transforms.curation.gender import is_given_name
from transforms.curation.name_match import normalise_name
from transforms.curation.names import (
    CLUB_PREFIXES,
    CLUB_WORDS,
    GENERIC_ORG_WORDS,
    ORG_SUFFIXES,
    TITLE_PARTS,
    TITLE_WORDS,
)

PERSON = "PERSON"
# Words of a club's name beside its town, first or last ("Borussia Dortmund", "Wakefield
# Trinity", "Bristol Rovers", "Real Madrid"); CLUB_WORDS are the English last words.
CLUB_NAME_WORDS = CLUB_WORDS | CLUB_PREFIXES | frozenset({
    "borussia", "trinity", "county", "real", "sporting", "olympique", "olympic", "dynamo",
    "dinamo", "inter", "atletico", "bayern", "celtic", "thistle", "wednesday", "harlequins",
    "rhinos", "warriors", "giants", "wolves", "saints", "hearts", "stanley", "alexandra",
    "academical", "vale", "dons", "rugby", "fc", "afc", "rfc", "cricket", "hockey",
})
# The one word that makes a place's event, not a club ("Boston Marathon").
EVENT_WORDS = frozenset({
    "marathon", "open", "games", "olympics", "festival", "show", "fair", "cup", "derby",
    "race", "regatta", "masters", "classic", "grand", "prix", "carnival", "parade",
    "summit", "conference", "agreement", "accord", "declaration", "treaty", "protocol",
    "convention", "airport", "station", "bridge", "street", "road", "square", "park",
    "stadium", "arena", "hall", "harbour", "harbor", "bay", "river", "valley", "hills",
    "times", "post", "herald", "globe", "tribune", "mail", "star", "journal", "gazette",
    "chronicle", "echo", "telegraph", "evening", "weekly", "area", "region", "metro",
})
# First words of a place's name ending in a surname-like word ("Fort Jackson").
PLACE_HEADS = frozenset({
    "fort", "lake", "mount", "mt", "port", "cape", "camp", "point", "new", "north",
    "south", "east", "west", "upper", "lower", "great", "little", "st", "saint", "san",
    "santa", "los", "las", "el", "la", "le", "glen", "loch", "isle", "bishop", "old",
})
# What the small model tags a person's full name when it misses the person.
FULL_NAME_LABELS = frozenset({"ORG", "GPE", "NORP"})
MAX_FULL_NAME_WORDS = 3
_WORD = re.compile(r"[^\W\d_][\w'’.-]*")


def is_name_word(word: str) -> bool:
    """A word a person's full name may be made of beside the name it shares: no place,
    country, demonym, title, organisation, club or event word."""
    w = word.lower().strip(".")
    return (len(w) >= 2 and w.replace("-", "").replace("'", "").isalpha()
            and w not in PLACE_HEADS | TITLE_WORDS | TITLE_PARTS | GENERIC_ORG_WORDS
            | CLUB_NAME_WORDS | ORG_SUFFIXES | EVENT_WORDS
            and not (country_of(word) or is_demonym(word) or is_known_place(word)))


def _written_as_name(text: str) -> bool:
    """Every word capitalised and none in capitals ("Muhammadu Buhari", not "BBC Smith");
    a leading "the" aside."""
    raw = _WORD.findall(re.sub(r"^[Tt]he\s+", "", text.strip()))
    return bool(raw) and all(r[:1].isupper() and not (len(r) > 1 and r.isupper())
                             for r in raw)


def shared_word(name: str, label: str, people: set, words_of: Dict[str, set],
                things: frozenset = frozenset()) -> str:
    """The word by which `name` (an article's string, tagged `label`) is the full name of a
    person the article names alone (`people`: one-word names tagged PERSON), else "";
    `words_of`: the words of each other name of several words written as a name in the
    article; `things`: one-word names it tags no PERSON (module docstring)."""
    if label not in FULL_NAME_LABELS or not _written_as_name(name):
        return ""
    words = normalise_name(name, PERSON).split()
    if not 2 <= len(words) <= MAX_FULL_NAME_WORDS or len(_WORD.findall(name)) > len(words) + 1:
        return ""
    for shared, rest in ((words[-1], words[:-1]), (words[0], words[1:])):
        if shared not in people or is_demonym(shared) or country_of(shared):
            continue
        if shared == words[0] and label == "ORG" and not is_given_name(shared):
            continue          # "Ford Motor" beside "Ford": a firm named after a surname
        if not all(is_name_word(w) and w not in things for w in rest):
            continue
        if any(shared in other for key, other in words_of.items() if key != " ".join(words)):
            continue          # two people share it, or another name glued to it
        return shared
    return ""


def after_the_only(name: str, texts: Sequence[str]) -> bool:
    """Every time the texts write `name` alone (not inside a longer capitalised name),
    "the" comes right before it ("the Moon", "the Globes"): a thing's name, not a
    person's."""
    before = [w for t in texts for w in words_before(name, t)]
    alone = [w for w in before if w in ("the", "The") or not w[:1].isupper()]
    return bool(alone) and all(w in ("the", "The") for w in alone)


def _before_pattern(name: str):
    """The rule's statement (and the test oracle of `words_before`): `name` not inside a
    word, with the word before it, if any."""
    return re.compile(r"(?:(\S+)\s+)?(?<![\w'’-])" + re.escape(name) + r"(?![\w-])")


def _ends_alone(name: str, text: str, at: int) -> bool:
    """`name` written at `at`, no word character nor hyphen right after it."""
    end = at + len(name)
    return text.startswith(name, at) and (end == len(text) or not (
        is_word_char(text[end]) or text[end] == "-"))


def _match_before(name: str, text: str, p: int):
    """`_before_pattern(name).match(text, p)` as (end, word before or ""), else None."""
    if not text[p].isspace():
        e = p
        while e < len(text) and not text[e].isspace():
            e += 1
        f = e
        while f < len(text) and text[f].isspace():
            f += 1
        if f > e and _ends_alone(name, text, f):
            return f + len(name), text[p:e]
    if _ends_alone(name, text, p) and (p == 0 or not (
            is_word_char(text[p - 1]) or text[p - 1] in "'’-")):
        return p + len(name), ""
    return None


def _first_start(text: str, at: int) -> int:
    """The first place a match holding the name written at `at` can start: the word
    before the spaces before it."""
    i = at
    while i > 0 and text[i - 1].isspace():
        i -= 1
    while i > 0 and not text[i - 1].isspace():
        i -= 1
    return i


def words_before(name: str, text: str) -> list:
    """The word before each match of `_before_pattern(name)` in `text`, left to right
    ("" where none), as `finditer` gives them, without compiling a pattern per name:
    each match holds a place `str.find` finds the name, and starts no earlier than the
    word before it, so only those few starts are tried."""
    if not name or name[0].isspace():
        return [m.group(1) or "" for m in _before_pattern(name).finditer(text)]
    out, pos, tried = [], 0, 0
    at = text.find(name)
    while at >= 0:
        found = None
        for p in range(max(pos, tried, _first_start(text, at)), at + 1):
            found = _match_before(name, text, p)
            if found:
                break
        if found:
            pos = tried = found[0]
            out.append(found[1])
            at = text.find(name, pos)
        else:
            tried = at + 1
            at = text.find(name, at + 1)
    return out


def person_full_names(labels: Dict[str, str], texts: Sequence[str] = ()) -> set:
    """The strings of `labels` ({string: label}, one article of `texts`) that are a
    person's full name by `shared_word`, whatever their label."""
    people, things = set(), set()
    words_of = {}
    for text, label in labels.items():
        words = normalise_name(text, PERSON).split()
        if len(words) == 1:
            person = label == PERSON and not after_the_only(text, texts)
            (people if person else things).add(words[0])
        elif len(words) >= 2 and _written_as_name(text):
            words_of[" ".join(words)] = set(words)
    return {text for text, label in labels.items()
            if label != PERSON and shared_word(text, label, people, words_of,
                                               frozenset(things))}

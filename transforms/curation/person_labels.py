"""Person or not: one article's labels made consistent with the names it gives
(consistency.py applies this after choosing each string's majority label). Pure
functions; no Beam, no model.

A small NER model tags a place or a club PERSON ("Swansea", "Jordan") and a surname
something else ("Tillerson" ORG beside "Secretary of State Rex Tillerson"); the first
makes a real person the only PERSON of a passage (a trivial query), the second leaves
the surname out of the person's answer set. So, for a one-word string:
- the surname of a person's full name in the article is a person ("Tillerson" beside
  "Rex Tillerson", "Jordan" beside "Louis Jordan"), whatever the model said, unless it
  is a demonym ("Kenyan");
- a string tagged PERSON that is no word of a person's full name in the article, and no
  given name of the name lists (gender.py), is not a person when it is clearly a place or
  an organisation: a known place (`countries.is_known_place`: a country, its demonym, an
  ISO 3166-2 subdivision: "the Kent athlete", "Trinidad and Tobago", "Briton"), or the
  first word of a name of another label in the article ("Swansea" beside "Swansea
  City").
- a string tagged PERSON that ends with a club's word and opens with no given name is a
  club ("Manchester United", "Glasgow Rangers"; `names.CLUB_WORDS`), and so is that word
  alone when the article names such a club ("United", "Rangers"; but "David Villa" and
  "Villa" stay a person): with clubs tagged PERSON a real person is the only PERSON of a
  sports passage. A capitalised word that clips exactly one one-word
  organisation or place name of the article ("Juve" of "Juventus", "Barca" of
  "Barcelona"; `spelling.is_clipped_form`; no country's name, no given name: "Port" is
  no "Portugal", "Phil" (of "Philip") no "Philadelphia") is that name's organisation, tagged or not,
  written between no capitalised words (`clipped_name_labels`); coreference joins it.
- a string tagged PERSON that ends with a party's members in the plural ("Ulster
  Unionists", "Liberal Democrats"; `PARTY_PLURALS`) is a party (NORP): a held-out reader
  found "vote @placeholder" answered by "Ulster Unionists" tagged PERSON, so the party
  cue of the release rules could not read it.
- a name of two words or more opening with a place's generic word ("County Armagh",
  "Lake Geneva", "Mount Everest"; `PLACE_OPENERS`) tagged PERSON is a place: a held-out
  reader's "Ms @placeholder" had "County Armagh" as the passage's only other "person".
- a full name of two or three words tagged another label whose last (first) word the
  article tags PERSON alone is that person's ("Muhammadu Buhari" ORG beside "Buhari",
  "Malala Yousafzai" GPE beside "Malala"; `full_names.person_full_names`): coreference
  joins it to the short form, and the entities list says PERSON, as for a surname
  above (release rules read labels: a person tagged ORG is a false rival of an ORG
  answer and no rival of a PERSON one).
Being tagged a place once elsewhere is no such evidence: the small model tags surnames
GPE or ORG as often as it tags them PERSON ("Gatlin", "Gebrselassie", "Cragg" in BBC
sport articles), so a tie is settled by the majority rule as before. A lone first name
of a person named in full ("Chelsea" beside "Chelsea Clinton") stays a person; a full
name never changes label here.
"""
import bisect
import functools
import re
from typing import Dict, Optional, Sequence

from transforms.core.constants import PERSON
from transforms.curation.countries import country_of, is_demonym, is_known_place
from transforms.curation.full_names import person_full_names
from transforms.curation.gender import FEMALE_NAMES, MALE_NAMES, is_given_name
from transforms.curation.names import CLUB_WORDS, TITLE_WORDS
from transforms.curation.spelling import is_clipped_form


def full_names(labels: Dict[str, str]) -> list:
    """The words of the article's person names of two words or more; a name with "of"
    in it ends with a place ("Abdullah of Jordan")."""
    return [n.split() for n, lab in labels.items()
            if lab == PERSON and len(n.split()) >= 2 and "of" not in n.split()]


def other_label(name: str, labels: Dict[str, str]) -> Optional[str]:
    """The label a one-word string tagged PERSON has when it is clearly no person, else
    None (the rules in the module docstring)."""
    if is_given_name(name):
        return None                       # "Steve" of the "Steve Redgrave Trust"
    if is_known_place(name):
        return "NORP" if is_demonym(name) else "GPE"
    heads = sorted(labels[n] for n in labels
                   if len(n.split()) >= 2 and n.split()[0] == name and labels[n] != PERSON)
    return heads[0] if heads else None


def is_club_name(name: str) -> bool:
    """'Manchester United', 'Glasgow Rangers': a club's word last, no given name first."""
    words = name.split()
    return (len(words) >= 2 and words[-1].lower() in CLUB_WORDS
            and not is_given_name(words[0]))


def settle_club_labels(labels: Dict[str, str]) -> Dict[str, str]:
    """Clubs tagged PERSON (the rule above) relabelled ORG."""
    clubs = {n for n, lab in labels.items() if lab == PERSON and is_club_name(n)}
    tails = {n.split()[-1] for n in labels if is_club_name(n)}
    return {n: ("ORG" if lab == PERSON and (n in clubs or n in tails) else lab)
            for n, lab in labels.items()}


# a party's members in the plural: a name ending in one is a party ("Ulster Unionists",
# "Liberal Democrats", "the Tories"), never one person
PARTY_PLURALS = frozenset({"unionists", "democrats", "republicans", "conservatives",
                           "nationalists", "socialists", "liberals", "loyalists", "greens",
                           "tories", "communists"})


def is_party_name(name: str) -> bool:
    """'Ulster Unionists', 'Tories': a party's members in the plural last, no given name
    first ("Danny Greens" is a person)."""
    words = name.split()
    return (bool(words) and words[-1].lower() in PARTY_PLURALS
            and (len(words) == 1 or not is_given_name(words[0])))


def settle_party_labels(labels: Dict[str, str]) -> Dict[str, str]:
    """Parties tagged PERSON ("Ulster Unionists") relabelled NORP, spaCy's label for
    political groups."""
    return {n: ("NORP" if lab == PERSON and is_party_name(n) else lab)
            for n, lab in labels.items()}


# a place's generic first word: "County Armagh", "Lake Geneva", "Mount Everest" are places
PLACE_OPENERS = {"county": "GPE", "lake": "LOC", "mount": "LOC", "cape": "LOC",
                 "isle": "LOC", "gulf": "LOC", "loch": "LOC", "river": "LOC"}


def settle_place_labels(labels: Dict[str, str]) -> Dict[str, str]:
    """Names of two words or more opening with a place's generic word, tagged PERSON
    ("County Armagh"), relabelled a place."""
    def place(name):
        words = name.split()
        return PLACE_OPENERS.get(words[0].lower()) if len(words) >= 2 else None
    return {n: (place(n) or lab) if lab == PERSON else lab for n, lab in labels.items()}


def settle_person_labels(labels: Dict[str, str], texts: Sequence[str] = ()) -> Dict[str, str]:
    """`labels` ({string: majority label}) of the article `texts` after the rules above."""
    labels = settle_place_labels(settle_party_labels(settle_club_labels(labels)))
    labels.update(dict.fromkeys(person_full_names(labels, texts), PERSON))   # "Muhammadu Buhari"
    names = full_names(labels)
    surnames = {w[-1] for w in names}
    parts = surnames | {w[0] for w in names}
    out = dict(labels)
    for name, label in labels.items():
        if " " in name.strip():
            continue
        if name in surnames and label != PERSON and not is_demonym(name):
            out[name] = PERSON
        elif label == PERSON and name not in parts:
            out[name] = other_label(name, labels) or PERSON
    return out


@functools.lru_cache(maxsize=1)
def _given_names() -> tuple:
    return tuple(sorted(MALE_NAMES | FEMALE_NAMES))


def opens_given_name(word: str) -> bool:
    """'Phil' opens 'philip', 'Chris' 'christopher': a given name or its short form."""
    w = word.lower()
    names = _given_names()
    i = bisect.bisect_left(names, w)
    return i < len(names) and names[i].startswith(w)


CLIPPED_TARGET_LABELS = frozenset({"ORG", "GPE", "LOC"})
_CAPITALISED = re.compile(r"(?:(\S+) )?(?<![\w'’.-])([A-Z][a-z]{3,})(?![\w-])(?! [A-Z])")


def lone_capitalised(text: str) -> set:
    """Capitalised words of four letters or more with no capitalised word, capital or
    number right before them ("S Murray", "Radio 5 Live") nor a capitalised word after."""
    return {m.group(2) for m in _CAPITALISED.finditer(text)
            if not ((m.group(1) or " ")[0].isupper() or (m.group(1) or " ")[0].isdigit())}


def clipped_name_labels(labels: Dict[str, str], texts: Sequence[str]) -> Dict[str, str]:
    """{word: "ORG"} for each capitalised word of `texts` untagged or tagged a person
    (no word of a person's full name: "Juve" PERSON), written
    with no capitalised word right before or after it, that clips exactly one one-word
    name of the article tagged an organisation or a place, not a country's name nor a
    demonym ("Juve" of "Juventus"; "Port" is no "Portugal"), and opens no given name and
    is no title ("Queen" is no "Queensland")."""
    targets = [n for n, lab in labels.items() if lab in CLIPPED_TARGET_LABELS
               and n.isalpha() and not country_of(n) and not is_demonym(n)]
    parts = {w for name in full_names(labels) for w in name}
    out = {}
    for word in sorted({w for t in texts for w in lone_capitalised(t)}):
        if labels.get(word, PERSON) != PERSON or word in parts or opens_given_name(word) \
                or word.lower() in TITLE_WORDS:       # "the Queen's Birthday"
            continue          # "Phil" (of "Philip") is no clipped "Philadelphia"
        fits = [n for n in targets if is_clipped_form(word.lower(), n.lower())]
        if len(fits) == 1:
            out[word] = "ORG"
    return out

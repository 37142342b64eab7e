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
  sports passage.
- a string tagged PERSON that ends with a party's members in the plural ("Ulster
  Unionists", "Liberal Democrats"; `PARTY_PLURALS`) is a party (NORP): a held-out reader
  found "vote @placeholder" answered by "Ulster Unionists" tagged PERSON, so the party
  cue of the release rules could not read it.
- a name of two words or more opening with a place's generic word ("County Armagh",
  "Lake Geneva", "Mount Everest"; `PLACE_OPENERS`) tagged PERSON is a place: a held-out
  reader's "Ms @placeholder" had "County Armagh" as the passage's only other "person".
Being tagged a place once elsewhere is no such evidence: the small model tags surnames
GPE or ORG as often as it tags them PERSON ("Gatlin", "Gebrselassie", "Cragg" in BBC
sport articles), so a tie is settled by the majority rule as before. A lone first name
of a person named in full ("Chelsea" beside "Chelsea Clinton") stays a person; a full
name never changes label here.
"""
from typing import Dict, Optional

from transforms.core.constants import PERSON
from transforms.curation.countries import is_demonym, is_known_place
from transforms.curation.gender import is_given_name
from transforms.curation.names import CLUB_WORDS


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


def settle_person_labels(labels: Dict[str, str]) -> Dict[str, str]:
    """`labels` ({string: majority label}) after the rules above."""
    labels = settle_place_labels(settle_party_labels(settle_club_labels(labels)))
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

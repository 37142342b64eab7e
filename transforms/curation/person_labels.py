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
  sports passage. That word written alone and untagged is a mention of the club when
  the article names exactly one club ending with it and never writes the word before
  another capitalised word ("United" for "Dundee United", not where "United Nations" is
  written; `club_word_labels`).
Being tagged a place once elsewhere is no such evidence: the small model tags surnames
GPE or ORG as often as it tags them PERSON ("Gatlin", "Gebrselassie", "Cragg" in BBC
sport articles), so a tie is settled by the majority rule as before. A lone first name
of a person named in full ("Chelsea" beside "Chelsea Clinton") stays a person; a full
name never changes label here.
"""
import re
from typing import Dict, Optional, Sequence

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


def settle_person_labels(labels: Dict[str, str]) -> Dict[str, str]:
    """`labels` ({string: majority label}) after the rules above."""
    labels = settle_club_labels(labels)
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


def club_word_labels(labels: Dict[str, str], texts: Sequence[str]) -> Dict[str, str]:
    """{club word: the club's label} for each club word ("United") that ends exactly one
    club name of the article ("Dundee United", not tagged a person), is no string of
    `labels` yet, and is never followed by a capitalised word ("United States")."""
    clubs = {}
    for name, label in labels.items():
        if is_club_name(name) and label != PERSON:
            clubs.setdefault(name.split()[-1], []).append((name, label))
    out = {}
    for word, named in clubs.items():
        if len(named) != 1 or word in labels:
            continue
        if not any(re.search(r"\b%s [A-Z]" % re.escape(word), t) for t in texts):
            out[word] = named[0][1]
    return out

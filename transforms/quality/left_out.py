"""Left-out names across labels: passage mentions that name the answer, or the entity the
answer's mention stands for, though NER gave them a label `flags.incomplete_answers`
keeps apart (issue 32's readers). Pure functions over one row; no Beam, no model.

- `left_out_club`: the answer is place-tagged ("Dortmund", "Wakefield") and the passage
  also names a club or company made of it and more ("Borussia Dortmund", "Wakefield
  Trinity", "Lordstown Motors"), left out of the answers. Either the answer's mention is
  the club, and the answer set misses its full name, or it is the town beside a club of
  its name, and a reader cannot tell which is meant: wrong either way. The longer name
  has a club word (`CLUB_NAME_WORDS`: "United", "Borussia", "Trinity") or is the answer
  plus one word that is neither generic ("London Zoo", "Oxford University") nor an
  event's ("Boston Marathon", "Monaco Grand Prix"); a place's own longer names ("Hull
  City Council") are neither. And the reverse: an ORG-tagged answer ("Newport") beside
  itself and one club word tagged a place ("Newport County" tagged GPE), and a one-word
  answer that is no place beside itself and a facility head tagged FAC ("Grenfell" /
  "Grenfell Tower").
- `left_out_full_name`: the answer is one name word ("Buhari", "Charleston") and a
  mention of two or three words that ends with it and opens with no place, title or
  organisation word ("Muhammadu Buhari" tagged ORG, "Kevone Charleston" tagged ORG
  beside "Charleston" tagged GPE) is left out: the person's full name, whatever label
  NER gave it ("Fort Jackson", "Lake Jackson" and "Iraq Al-Douri" are not).
"""
import re
from typing import Optional

from transforms.curation.countries import country_of, is_demonym, is_known_place
from transforms.curation.full_names import CLUB_NAME_WORDS, EVENT_WORDS, is_name_word
from transforms.curation.name_match import normalise_name
from transforms.curation.names import (
    GENERIC_ORG_WORDS,
    INSTITUTION_HEADS,
)
from transforms.curation.variants import is_city
from transforms.quality.aliases import PLACES, answer_spans

# Club words that are also a place's own words ("Hull City Council" is no club).
_PLACE_CLUB_WORDS = frozenset({"city", "town", "county"})
_WORD = re.compile(r"[^\W\d_][\w'’.-]*")


def _words(text: str, label) -> list:
    return [w for w in normalise_name(text, label).split() if w not in ("the", "-")]


def _left_out(row: dict):
    spans = answer_spans(row)
    entities = row.get("entities") or ()
    answers = [e for e in entities if (e["start"], e["end"]) in spans]
    return answers, [e for e in entities if (e["start"], e["end"]) not in spans]


def club_extra(extra: set) -> bool:
    """The words a longer name adds to a place's make a club or a company: a club word
    (not only a place's own "City"), or one word, neither generic nor an event's."""
    if extra & (GENERIC_ORG_WORDS - _PLACE_CLUB_WORDS) or extra & INSTITUTION_HEADS:
        return False
    if extra & (CLUB_NAME_WORDS - _PLACE_CLUB_WORDS):
        return True
    if extra <= _PLACE_CLUB_WORDS:
        return True                         # "Stoke City", "Notts County"
    return (len(extra) == 1 and not extra & EVENT_WORDS
            and not any(is_known_place(w) or is_demonym(w) for w in extra))


def _acronyms(text: str) -> set:
    """Lower-case forms of the words a name writes in capitals ("BBC AI" -> bbc, ai)."""
    return {w.lower() for w in re.findall(r"[A-Z][A-Z.&]+", text)}


def left_out_club(row: dict) -> Optional[str]:
    """The first left-out ORG mention that is a club (or company) named by a place-tagged
    answer and more ("Borussia Dortmund" beside the answer "Dortmund"), else None; never
    for a country ("England Cricket", "Pakistan Taliban": a country's bodies, and its
    national team is the country in ReCoRD's answers) nor an acronym ("BBC AI")."""
    answers, others = _left_out(row)
    places = [set(_words(e["text"], e.get("label"))) for e in answers
              if e.get("label") in PLACES and not country_of(e["text"])]
    for e in others:
        if e.get("label") != "ORG":
            continue
        words = set(_words(e["text"], "ORG"))
        for a in places:
            extra = words - a
            if a and words > a and club_extra(extra) \
                    and not extra & (_acronyms(e["text"]) - CLUB_NAME_WORDS):
                return e["text"]
    return _club_tagged_place(answers, others)


def _club_tagged_place(answers: list, others: list) -> Optional[str]:
    """The reverse: an ORG-tagged answer ("Newport") and a place-tagged mention that is
    it and one club word ("Newport County" tagged GPE): the club's full name (round 17);
    not a place GeoNames or the country table knows by that name ("Kansas City")."""
    clubs = [set(_words(e["text"], "ORG")) for e in answers
             if e.get("label") == "ORG" and not country_of(e["text"])]
    for e in others:
        if e.get("label") not in PLACES or _is_place_word(e["text"]):
            continue              # "Kansas City", "Mexico City": the city itself
        words = set(_words(e["text"], "ORG"))
        if any(a and words > a and len(words - a) == 1 and words - a <= CLUB_NAME_WORDS
               for a in clubs):
            return e["text"]
    return _facility_of_name(answers, others)


# the head nouns a facility's name adds to the word that names it ("Grenfell Tower")
# (not "Stadium", "Arena": a sponsor's, "Etihad Stadium" is not the airline)
FACILITY_HEADS = frozenset({"tower", "airport", "bridge", "prison", "palace", "castle",
                            "abbey", "cathedral", "racecourse"})


def _facility_of_name(answers: list, others: list) -> Optional[str]:
    """A one-word answer that is no place nor person ("Grenfell" tagged ORG) beside itself
    and one facility head tagged FAC ("Grenfell Tower"): the building's full name (round
    18); not a town beside a building of its name ("Windsor Castle"), nor "Trump Tower"."""
    ones = {w for e in answers if e.get("label") not in ("GPE", "LOC", "PERSON")
            for w in [_one_word(e)] if w and not _is_place_word(w)}
    for e in others:
        words = _words(e["text"], "FAC")
        if e.get("label") == "FAC" and len(words) == 2 and words[0] in ones \
                and words[1] in FACILITY_HEADS:
            return e["text"]
    return None


def _one_word(e: dict) -> Optional[str]:
    words = _words(e["text"], "PERSON")
    return words[0] if len(words) == 1 and not (country_of(e["text"])
                                                 or is_demonym(e["text"])) else None


def left_out_full_name(row: dict) -> Optional[str]:
    """The first left-out mention that is a person's full name a one-word answer is part
    of, else None: one of another label than PERSON ending with the answer ("Muhammadu
    Buhari" tagged ORG or GPE beside "Buhari"), or a PERSON one opening or ending with
    a place-tagged answer that is no city or known place ("Frida Kahlo" beside "Frida"
    tagged GPE; `incomplete_answers` reads a person's name against a person's)."""
    answers, others = _left_out(row)
    ones = {_one_word(e): e.get("label") for e in answers if _one_word(e)}
    for e in others:
        raw = _WORD.findall(e["text"])
        words = _words(e["text"], "PERSON")
        if not 2 <= len(words) <= 3 or len(raw) < len(words):
            continue
        given = raw[-len(words):-1]
        if not all(r[:1].isupper() and not r.isupper() and is_name_word(r) for r in given):
            continue
        if e.get("label") != "PERSON":
            if words[-1] in ones:
                return e["text"]
        elif any(ones.get(w) in PLACES and not _is_place_word(w) for w in (words[0], words[-1])):
            return e["text"]
    return None


def _is_place_word(word: str) -> bool:
    return is_known_place(word) or is_city(word)

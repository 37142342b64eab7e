"""Two entities the passage names only together: "Thierry Henry, Graeme Souness and Jamie
Redknapp analysed at half-time", then "@placeholder said, 'It's a decent forearm smash.'"
Every mention of the answer stands in one list ("A, B and C", "A and B", "A or B") with
another entity of its NER label, so nothing in the passage tells the reader which of them
the query means: both fit. Release rule `coordinated_rival` (issue 32, ambiguous items).

- A list: passage entities of one label, each next to the one before it with only a comma,
  "and", "or", "&" or "as well as" between (`GAP`), at least one link not a bare comma
  ("Munich, Germany" is a place and its country, not a list). A news list's appositives
  are part of the gap (`APPOSITIVE_GAP`): an age ("Richard McLuckie, 48, and Stuart
  Mackenzie-Walker, 51") and a relation the second is named by ("..., 48, and his friend
  Stuart ...", "Copeland, 31, and his wife, Katrine Saltare").
- The rival: another entity of the answer's label in the list with every answer mention,
  not an answer alias (the answer set holds the answer's cluster), sharing no word with
  an answer, not written in the query, whole or by a name word ("Shauneen said
  @placeholder was afraid": the query then tells them apart; `coordinated_partner`'s
  case, not this one).
- The query may tell them apart by gender: a title or role noun before the placeholder
  ("Pratcher's father, @placeholder") or pronouns of one gender after it ("@placeholder
  had to endure three days without her beloved other half"); a rival whose passage cue
  (on its name or its surname alone: "Ms Boyle") or given name is of the other gender is
  then no rival (`gender.py`).
Pure functions; no Beam.
"""
import re
from typing import Optional

from transforms.curation.gender import (
    FEMALE,
    FEMALE_NAMES,
    MALE,
    MALE_NAMES,
    gender_cue,
    mention_cue,
)
from transforms.quality.flags import FUNCTION_WORDS

PLACEHOLDER = "@placeholder"
GAP = re.compile(r"^(?:,|,? and|,? or|,? &|and|or|&|,? as well as)$")
#: an age after the first name and/or a relation noun before the second: ", 48, and his
#: friend", ", 31, and his wife,", ", 51, and" (a relation: a possessive and one or two
#: lower-case words)
APPOSITIVE_GAP = re.compile(
    r"^(?:,\s*\d{1,3}\s*)?,?\s*(?:and|or|&)(?:\s+(?:his|her|their)(?:\s+[a-z-]+){1,2},?)?$")
_JOINS = re.compile(r"\b(?:and|or)\b|&")
_WORD = re.compile(r"[\w'’.-]+")
_MALE_PRONOUNS = re.compile(r"\b(?:he|him|his|himself)\b", re.IGNORECASE)
_FEMALE_PRONOUNS = re.compile(r"\b(?:she|her|hers|herself)\b", re.IGNORECASE)


def _key(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split())


def _gap(text: str) -> bool:
    """What lies between two list members: a plain join or one with an appositive."""
    return bool(GAP.match(text) or APPOSITIVE_GAP.match(text))


def entity_lists(passage: str, entities: list) -> list:
    """The passage's lists of entities (see the module docstring), each a list of entity
    dicts in passage order."""
    ents = sorted((e for e in entities if e.get("end", 0) > e.get("start", 0)),
                  key=lambda e: (e["start"], e["end"]))
    lists, run = [], []
    for e in ents:
        if run and run[-1]["label"] == e.get("label") and run[-1]["end"] <= e["start"] \
                and _gap(passage[run[-1]["end"]:e["start"]].strip()):
            run.append(e)
            continue
        lists.append(run)
        run = [e]
    lists.append(run)
    return [r for r in lists if len(r) > 1 and any(
        _JOINS.search(passage[a["end"]:b["start"]]) for a, b in zip(r, r[1:]))]


def query_gender(query: str) -> Optional[str]:
    """The gender the query gives the placeholder: a title or role noun right before it,
    else the pronouns after it when all are of one gender ("@placeholder had to endure
    three days without her beloved"); None when it says none."""
    at = query.find(PLACEHOLDER)
    if at < 0:
        return None
    if cue := gender_cue(query, at):
        return cue
    after = query[at + len(PLACEHOLDER):]
    male, female = bool(_MALE_PRONOUNS.search(after)), bool(_FEMALE_PRONOUNS.search(after))
    return MALE if male and not female else FEMALE if female and not male else None


def _name_gender(name: str) -> Optional[str]:
    """The gender of a name's first word when the given-name lists know it ("Muriel",
    "Frederick Noble"); None else."""
    first = (name.split() or [""])[0].strip(".'").lower()
    return MALE if first in MALE_NAMES else FEMALE if first in FEMALE_NAMES else None


def _gender_of(passage: str, mentions: list) -> Optional[str]:
    cues = {mention_cue(passage, m["start"], m["end"]) for m in mentions}
    cues |= {_name_gender(m.get("text") or "") for m in mentions
             if m.get("label") == "PERSON"}
    cues.discard(None)
    return cues.pop() if len(cues) == 1 else None


def _named_in(name: str, query: str) -> bool:
    """The query (lower case) names the rival: its whole name, or one of its name words
    other than a function word ("Shauneen said @placeholder was afraid" names Shauneen
    Boyle)."""
    return name in query or any(
        len(w) > 2 and w not in FUNCTION_WORDS and re.search(rf"\b{re.escape(w)}\b", query)
        for w in _WORD.findall(name))


def _mentions_of(name: str, entities) -> list:
    """The passage mentions of a rival: its name, and its surname alone ("Ms Boyle" for
    Shauneen Boyle), so a title anywhere gives its gender."""
    last = (name.split() or [""])[-1]
    return [e for e in entities if _key(e.get("text") or "") in (name, last)]


def coordinated_rival(row: dict) -> Optional[str]:
    """Why another entity of the answer's label fits the query as well (the passage names
    the answer only in lists with it), or None."""
    passage, query = row.get("passage") or "", row.get("query") or ""
    answers = row.get("answers") or ()
    entities = row.get("entities") or ()
    if not answers or not passage:
        return None
    names = {_key(a.get("text") or "") for a in answers}
    words = {w for n in names for w in _WORD.findall(n)}
    labels = {e.get("label") for e in entities if _key(e.get("text") or "") in names}
    lists = entity_lists(passage, list(entities))
    starts = {a["start"] for a in answers}
    q, gender = _key(query), query_gender(query)
    shared = None
    for start in sorted(starts):
        holding = [r for r in lists if any(e["start"] == start for e in r)]
        rivals = {_key(e["text"]) for r in holding for e in r
                  if e.get("label") in labels and _key(e["text"]) not in names
                  and not words & set(_WORD.findall(_key(e["text"])))
                  and not _named_in(_key(e["text"]), q)}
        shared = rivals if shared is None else shared & rivals
        if not shared:
            return None
    if gender is not None:
        shared = {n for n in shared
                  if _gender_of(passage, _mentions_of(n, entities)) in (None, gender)}
    if not shared:
        return None
    rival = sorted(shared)[0]
    return (f"every answer mention is listed with {rival!r} ({len(starts)} mention(s)); "
            f"nothing tells the two apart")

"""Two places of one passage that both fit a locative slot: a country (or US state) and a
city in it. "He grew up in @placeholder" answered by Germany, where the passage also
names Munich, is answered as well by Munich: both are true, and nothing in the query
chooses between them. Release rule `place_rival` (issue 32, ambiguous items).

- The slot is locative: the placeholder right after a place preposition (`LOCATIVE`: "in",
  "from", "near", "across", "outside" ...) and followed by punctuation or a function word
  (`FOLLOWERS`), or in "@placeholder-based". Not after "of", not a possessor or modifier:
  "the mayor of @placeholder", "in @placeholder state", "to @placeholder's farm sector".
  Or the slot names where an event happened ("the @placeholder raid"): there a city and
  its US state or UK nation fit, a whole country does not ("the U.S. shooting").
- The answer is a country, UK nation or US state, and the passage names, as another place
  entity (GPE, LOC), a city or state that lies in it ("protests throughout @placeholder":
  India, with Jaipur in the passage); or the reverse, the answer a city and the passage
  naming its country, nation or state ("a start-up in @placeholder": Belfast, with
  Northern Ireland; "the weather in @placeholder": Mumbai, with India), unless the query
  says what kind of place it is in apposition ("in @placeholder, the Mexican beach
  resort"), which a country does not fit. The query's own places are no rivals, and neither is a dateline's place
  ("MUNICH, Germany (CNN) --": where the story was filed).
- Places from `place_types`' GeoNames tables (cities of at least `MIN_POPULATION`): a name
  is read as its most populous city, and a name that is also a country or a US state
  ("Georgia", "Washington", "New York") is read as that, never as a city.
Pure functions; no Beam.
"""
import re
from typing import Optional

from transforms.curation.countries import country_of
from transforms.machine_filtering.metonymy import dateline_end
from transforms.machine_filtering.place_types import city_home, us_state_code

PLACE_LABELS = frozenset({"GPE", "LOC"})
PLACEHOLDER = "@placeholder"
# a slot that says what kind of place it is ("in @placeholder, the Mexican beach resort")
_APPOSITION = re.compile(r"^\s*,\s*(?:a|an|the|its|their)\b", re.IGNORECASE)
LOCATIVE = frozenset({"in", "from", "near", "across", "outside", "inside", "around",
                      "throughout", "into", "to", "at", "within", "towards", "toward"})
MIN_POPULATION = 100_000
_BEFORE = re.compile(r"([A-Za-z]+)\s*$")
_AFTER = re.compile(r"^\s+([A-Za-z]\w*)")
# words that may follow a place noun phrase ("in Libya on Sept. 11", "in Paris and Lyon")
FOLLOWERS = frozenset("and or on in at to for from until since after before during when where "
                      "while as with by but than last this that which who over under "
                      "because if".split())


def place_of(name: str) -> Optional[tuple]:
    """("country", code, None), ("state", "us", state) or ("city", code, state or None)
    for a place name (`place_types`' reading: a country or US state before a city; a
    city of at least `MIN_POPULATION`), else None."""
    if code := country_of(name):
        return ("country", code, None)
    if state := us_state_code(name):
        return ("state", "us", state)
    home = city_home(name)
    if home is not None and home[2] >= MIN_POPULATION:
        return ("city", home[0], home[1])
    return None


_UK_NATIONS = {"gb-eng": "ENG", "gb-nir": "NIR", "gb-sct": "SCT", "gb-wls": "WLS"}


def contains(outer: tuple, inner: tuple) -> bool:
    """Whether place `outer` holds place `inner` (a country its cities and states, a US
    state its cities, a UK nation its cities: Northern Ireland holds Belfast)."""
    if outer[0] == "country" and outer[1] in _UK_NATIONS:
        return inner[0] == "city" and inner[1] == "gb" and inner[2] == _UK_NATIONS[outer[1]]
    if outer[0] == "country":
        return inner[0] in ("city", "state") and inner[1] == outer[1]
    if outer[0] == "state":
        return inner[0] == "city" and inner[1] == "us" and inner[2] == outer[2]
    return False


def _regional(place: tuple) -> bool:
    """A US state or a UK nation: an event's place as well as its city; a whole country
    is not ("the Texas raid" reads as "the Houston raid", "the U.S. shooting" does not)."""
    return place[0] == "state" or (place[0] == "country" and place[1] in _UK_NATIONS)


# an event named by where it happened ("the @placeholder raid": Houston or Texas)
_EVENT_AFTER = re.compile(
    r"^\s+(?:raids?|attacks?|shootings?|bombings?|blasts?|explosions?|crash(?:es)?|fires?|"
    r"protests?|riots?|rall(?:y|ies)|earthquakes?|floods?|massacres?|siege|stand-?off|"
    r"killings?|murders?|derailment|rampage|outbreak|demonstrations?|marathon)\b")


def locative_slot(query: str) -> bool:
    """The placeholder after a place preposition and not a modifier of the next word ("in
    @placeholder state", "to @placeholder credibility"), or in "@placeholder-based", or
    naming where an event happened ("the @placeholder raid", `_EVENT_AFTER`)."""
    at = query.find("@placeholder")
    if at < 0:
        return False
    rest = query[at + len("@placeholder"):]
    if rest.startswith(("'", "’")):
        return False                      # "to @placeholder's farm sector": a possessor
    if rest.lower().startswith("-based"):
        return True
    if _EVENT_AFTER.match(rest) and re.search(r"\b(?:the|a|an|this|last year's|that)\s+$",
                                             query[:at], re.IGNORECASE):
        return True                       # "the @placeholder raid": where it happened
    m = _BEFORE.search(query[:at])
    if not m or m.group(1).lower() not in LOCATIVE:
        return False
    nxt = _AFTER.match(rest)
    return nxt is None or nxt.group(1) in FOLLOWERS


def place_rival(row: dict) -> Optional[str]:
    """Why another passage place fits the locative slot as well as the answer, or None."""
    query = row.get("query") or ""
    if not locative_slot(query):
        return None
    answers = sorted({a["text"] for a in row.get("answers") or ()})
    found = [(a, p) for a in answers if (p := place_of(a))]
    after = query[query.find(PLACEHOLDER) + len(PLACEHOLDER):]
    event = _EVENT_AFTER.match(after) is not None     # "the @placeholder raid"
    if event:
        found = [(a, p) for a, p in found if p[0] == "city" or _regional(p)]
    places = [(a, p) for a, p in found if p[0] != "city"]
    cities = [(a, p) for a, p in found if p[0] == "city"] if not _APPOSITION.match(
        after) else []
    if not places and not cities:
        return None
    filed = dateline_end(row.get("passage") or "")
    q = query.lower()
    for e in row.get("entities") or ():
        text = e.get("text") or ""
        if (e.get("label") not in PLACE_LABELS or text in answers
                or e.get("start", 0) < filed or text.lower() in q):
            continue
        other = place_of(text)
        if other is None or (event and other[0] != "city" and not _regional(other)):
            continue                      # "the U.S. shooting" does not read as "San Jose"
        for name, p in places:
            if contains(p, other):
                return (f"{text!r}, a place in {name!r}, is in the passage: either fits the "
                        f"slot")
        for name, p in cities:
            if contains(other, p):
                return (f"{text!r}, where {name!r} lies, is in the passage: either fits the "
                        f"slot")
    return None

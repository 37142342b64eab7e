"""The slot's own syntax as a type cue, for the release rule `only_compatible_entity`
(issue 32): a placeholder written as a noun's pre-modifier ("the @placeholder government",
"loss of @placeholder customers", "@placeholder shares fell") or as the first part of a
hyphenated adjective ("@placeholder-owned homes", "a @placeholder-based firm") can only be
filled by a few kinds of name, and a reader who sees one entity of those kinds in the
passage needs no reading. Held-out blind readers marked such released items trivial (the
only country, the only organisation, the only company of the passage).

- the slot's cue (`SLOT_CUES`, named patterns, each with the kinds of name it takes and
  its reason): what only a country or a people has ("the @placeholder army"); what a place,
  a people or an organisation has ("@placeholder officials"); what a company, a country or
  a people's market has ("@placeholder shares"); what only a company has ("@placeholder
  chief executive", "the firm @placeholder"); an owner ("@placeholder-owned": a company, a
  country, a people; in the corpus 0 of 14 "X-owned/-led/-backed" name a person); a base
  or birthplace ("@placeholder-based": any place, or a product, "Linux-based");
- an entity's kinds (`entity_kinds`): a country, a people (NORP votes, a party's name
  aside: `PARTY_NAME`), a party, a capital, a city, a US state, a region (`place_types`),
  a town (an unknown place written with its state or country: "Sanford, Florida"), an
  unknown place (GPE by the mention votes of `entity_types`, unknown to GeoNames: it
  could be a country), geography (LOC alone: a river, a mountain), an organisation (ORG
  votes), a company (`fine_types.may_be_company`), a product (PRODUCT or WORK_OF_ART votes).

`only_slot_entity` rejects when the cue takes the answer and no other passage entity the
query does not name (`entity_types.named_in_query`, or a country the query names by name
or demonym). General English, no corpus fitting; pure functions, no Beam.
"""
import collections
import re
from typing import NamedTuple, Optional

from transforms.curation.countries import country_of
from transforms.machine_filtering.entity_types import (
    fits,
    mention_votes,
    named_in_query,
)
from transforms.machine_filtering.fine_types import COMPANY_WORDS, may_be_company
from transforms.machine_filtering.metonymy import dateline_end
from transforms.machine_filtering.place_types import (
    CAPITAL,
    CITY,
    COUNTRY,
    REGION,
    US_STATE,
    place_types,
    query_countries,
)
from transforms.quality.aliases import PLACEHOLDER, clusters, plain
from transforms.quality.cues import COUNTRY as COUNTRY_VOTE

PEOPLE, PLACE, GEOGRAPHY, ORGANISATION, COMPANY, PRODUCT, PARTY = (
    "people", "unknown_place", "geography", "organisation", "company", "product", "party")
NATION = frozenset({COUNTRY, PEOPLE, CAPITAL, PLACE})
CIVIC = NATION | {CITY, US_STATE, REGION}
PLACES = CIVIC | {GEOGRAPHY}
OWNER = frozenset({COUNTRY, PEOPLE, CAPITAL, ORGANISATION, COMPANY})


class SlotCue(NamedTuple):
    name: str
    pattern: re.Pattern
    kinds: frozenset        # the kinds of name the slot takes
    reason: str


_P = re.escape(PLACEHOLDER)
# a head noun that is also a verb ("Apple shares its data"): not followed by its object
_NO_OBJECT = r"(?! (?:a|an|the|his|her|its|their|our|this|that|these|those|them|him|it|up|out)\b)"


def _head(name: str, heads: str, kinds, reason: str, verbs: bool = False) -> SlotCue:
    pattern = rf"(?<![\w'’-]){_P} (?:{heads})\b" + (_NO_OBJECT if verbs else "")
    return SlotCue(name, re.compile(pattern, re.IGNORECASE), frozenset(kinds), reason)


def _hyphen(name: str, words: str, kinds, reason: str) -> SlotCue:
    return SlotCue(name, re.compile(rf"{_P}-(?:{words})\b", re.IGNORECASE), frozenset(kinds),
                   reason)


SLOT_CUES = (
    _hyphen("owner_hyphen", "owned|run|controlled|backed|funded|led|sponsored|operated|"
                            "supported|financed", OWNER,
            "an owner, backer or leader: a company or organisation, a country or a people "
            "('Viacom-owned', 'US-led', 'Saudi-backed', 'Labour-led')"),
    _hyphen("base_hyphen", "based|born|bred|raised|headquartered", PLACES | {PRODUCT},
            "a base or birthplace: any place ('London-based', 'Texan-born'), or a product "
            "('Linux-based')"),
    _head("company_modifier", "chief executive|ceo|chief executives|shareholders|share price|"
                              "share prices|stores|boardroom|chief financial officer",
          {COMPANY}, "what a company has: its chief executive, shareholders, stores"),
    SlotCue("company_apposition", re.compile(
        rf"\b(?:{COMPANY_WORDS}) {_P}\b(?!['’])|{_P}, (?:the|a|an) (?:[\w-]+ ){{0,2}}"
        rf"(?:{COMPANY_WORDS})\b", re.IGNORECASE), frozenset({COMPANY}),
        "a company word set beside the name ('the retailer @placeholder', '@placeholder, "
        "the builder'): a company"),
    _head("market_modifier", "shares|stocks?|stock market|stock markets|bonds|share index|"
                             "stock futures|equities", CIVIC | {COMPANY},
          "what a company or a country's market has: shares, stocks ('Apple shares', "
          "'European shares')", verbs=True),
    _head("government_modifier", "government|governments|regime|administration",
          NATION | {PARTY}, "a government: a country's, a people's or a party's ('the "
                            "Labour government'); a US state's or a city's is rarely written "
                            "so ('the Texas government': 0 of 35 'the X government' in the "
                            "corpus)"),
    _head("nation_modifier", "army|armies|military|embassy|embassies|"
                             "navy|air force|armed forces|troops|soldiers|diplomats|"
                             "ambassador|consulate|foreign minister|"
                             "foreign ministry|defen[cs]e ministry|intelligence services?|"
                             "state media|nationals|citizenship|passport|passports",
          NATION, "what a sovereign state or a people has (a city, a US state, a person "
                  "rarely: 'the Texas army'); a capital stands for its government; not "
                  "'parliament': states and seats have one ('the Queensland parliament', "
                  "'the Westminster parliament')"),
    _head("customer_modifier", "customers|consumers|shoppers|users|subscribers|clients",
          CIVIC | {COMPANY}, "a company's customers, or a place's or a people's"),
    _head("staff_modifier", "officials|authorities|investors|workers|employees|staff|"
                            "executives|spokesman|spokeswoman|spokesperson",
          CIVIC | {ORGANISATION, COMPANY},
          "what a place, a people or an organisation has: officials, staff"),
    _head("civic_modifier", "market|markets|economy|taxpayers|lawmakers|"
                            "politicians|citizens|residents|businesses|exports|imports|"
                            "population|police|public",
          CIVIC, "what a place or a people has (an organisation has none): a market, an "
                 "economy, voters"),
)


def slot_cue(query: str) -> Optional[tuple]:
    """(cue, the words matched) of the first `SLOT_CUES` pattern the query matches."""
    text = plain(query)
    for cue in SLOT_CUES:
        m = cue.pattern.search(text)
        if m:
            return cue, m.group(0)
    return None


_NORP = frozenset({"NORP"})
# a party's or a ruling movement's name words, whatever NER's label ("Labour" tagged ORG)
PARTY_NAME = re.compile(r"\b(?:party|labour|tor(?:y|ies)|conservatives?|liberals?|democrats?|"
                        r"democratic|republicans?|socialists?|communists?|greens?|"
                        r"nationalists?|unionists?|junta|taliban|hamas|hezbollah|fatah)\b",
                        re.IGNORECASE)
_PLACE_VOTES = frozenset({"GPE", "LOC"}) | COUNTRY_VOTE
_STATE_VOTES = frozenset({"GPE"}) | COUNTRY_VOTE
_PRODUCT = frozenset({"PRODUCT", "WORK_OF_ART"})
# "Sanford, Florida", "Tikrit, Iraq": a place written with its state or country is a town
_IN_STATE = re.compile(r"^,? ((?:[A-Z][\w.'’-]*\s?){1,3})")


def _town(passage: str, m: dict) -> bool:
    after = _IN_STATE.match(passage[m["end"]:m["end"] + 40])
    return bool(after) and bool(place_types(after.group(1).strip()) & {US_STATE, COUNTRY})
_ORG = frozenset({"ORG"})


def entity_kinds(row: dict) -> dict:
    """{cluster key: set of kinds} ('@answer': the answer's); see the module docstring.
    A capital named only in the dateline ("WASHINGTON (CNN) --") is no capital kind."""
    passage, votes, companies = row.get("passage") or "", mention_votes(row), may_be_company(row)
    filed = dateline_end(passage)
    mentions = collections.defaultdict(list)
    for key, m in clusters(row):
        mentions[key].append(m)
    out = {}
    for key, ms in mentions.items():
        v, kinds = votes.get(key, []), set()
        for m in ms:
            fine = place_types(m.get("text") or "")
            kinds |= fine - {CAPITAL} | ({CAPITAL} if CAPITAL in fine and m["start"] >= filed
                                         else set())
        if fits(v, COUNTRY_VOTE):
            kinds.add(COUNTRY)
        party = any(PARTY_NAME.search(m.get("text") or "") for m in ms)
        if fits(v, _NORP) and COUNTRY not in kinds and not party:
            kinds.add(PEOPLE)
        if not kinds and any(_town(passage, m) for m in ms):
            kinds.add(CITY)
        if fits(v, _PLACE_VOTES) and not kinds:
            kinds.add(PLACE if fits(v, _STATE_VOTES) else GEOGRAPHY)
        if fits(v, _ORG):
            kinds.add(ORGANISATION)
        if companies.get(key):
            kinds.add(COMPANY)
        if party:
            kinds.add(PARTY)
        if fits(v, _PRODUCT):
            kinds.add(PRODUCT)
        out[key] = kinds
    return out


def only_slot_entity(row: dict) -> Optional[str]:
    """The rejection's detail when the slot's cue (`slot_cue`) takes the answer and no
    other passage entity the query does not name; else None."""
    found = slot_cue(row.get("query") or "")
    if found is None:
        return None
    cue, words = found
    kinds = entity_kinds(row)
    if not kinds.get("@answer", set()) & cue.kinds:
        return None
    named = named_in_query(row)
    countries = query_countries(row.get("query") or "")
    texts = collections.defaultdict(set)
    for key, m in clusters(row):
        texts[key].add(m.get("text") or "")
    for key, k in kinds.items():
        if key == "@answer" or key in named or any(country_of(t) in countries
                                                   for t in texts[key] if country_of(t)):
            continue
        if k & cue.kinds:
            return None
    return (f"slot cue {cue.name} {words!r} -> {'/'.join(sorted(cue.kinds))}; the answer "
            f"is the only such entity of {len(kinds)} in the passage (kinds by GeoNames, "
            f"mention votes and name words)")

"""A kind noun beside the slot as a type cue, for the release rule `only_compatible_entity`
(issue 32): "Brazil's sovereignty over the @placeholder region", "the @placeholder virus",
"the town of @placeholder", "@placeholder, a town on the border": the query names the kind
of thing the answer is, and a reader who finds one passage entity of that kind needs no
reading. Held-out blind readers marked such released items trivial (the only region, the
only disease, the only prison, the only town of the passage).

- the kinds (`KINDS`, each with its nouns, its reason, the NER labels and GeoNames types
  that make an entity a possible one): towns, regions, waters, mountains, islands,
  diseases, laws, prisons, airports, stadiums, hospitals, festivals, awards, places of
  worship, museums, parks, ships (a ship prefix too: "MV", "HMS"), spacecraft;
- the query's kind (`query_kind`, `QUERY_FORMS`): the kind noun right after the slot ("the
  @placeholder region"; lower case: "@placeholder City" is a name), "the town of
  @placeholder", "@placeholder, a town in ...", the noun right before it for parks, ships
  and spacecraft ("Ghana's largest wildlife refuge, @placeholder"), a law in apposition
  to its noun ("this bill, the @placeholder"), or a disease's or a
  ship's own verbs ("infected with @placeholder", "crew members of the @placeholder");
- an entity's kinds (`entity_kinds`), from the passage itself: a mention followed by the
  kind noun ("the Amazon region", "Fresnes prison", "the Ebola virus"), after one and "of"
  ("the town of Bhaktapur"), in apposition ("Narva, a town on ..."), or a name ending in
  it ("Religious Freedom Restoration Act"); for towns and regions, GeoNames too
  (`place_types`). A known place or a people is never a disease, a law or a building
  ("Texas prison", "Saudi law" name a place's, not the thing's name).

`only_kind_entity` rejects when the answer is of the query's kind and no other passage
entity the query does not name is or could be (an entity of the kind's labels with no
kind evidence, an unknown place for a place kind), while at least one other entity the
query does not name exists. Pure functions, no Beam.
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
from transforms.machine_filtering.place_types import (
    CAPITAL,
    CITY,
    REGION,
    place_types,
    query_countries,
)
from transforms.quality.aliases import PLACEHOLDER, clusters, plain
from transforms.quality.cues import COUNTRY as COUNTRY_VOTE


class Kind(NamedTuple):
    name: str
    nouns: str             # the kind's nouns, lower case (a regex alternation)
    labels: frozenset      # NER labels of an entity that could be of it, no evidence shown
    places: frozenset      # GeoNames types that make an entity of it (a place kind)
    place: bool            # a place kind: an unknown place could be of it
    reason: str


def _kind(name, nouns, labels=(), places=(), place=False, reason=""):
    return Kind(name, nouns, frozenset(labels), frozenset(places), place, reason)


_PLACE_LABELS = ("GPE", "LOC")
KINDS = (
    _kind("town", "towns?|city|cities|villages?|hamlets?|suburbs?|municipality",
          _PLACE_LABELS, {CITY, CAPITAL}, True,
          "a settlement: GeoNames' cities, or a place the passage calls a town"),
    _kind("region", "regions?|provinces?|territory|territories|basin|rainforest|jungle|"
                    "desert|peninsula|valley|valleys|heartland", _PLACE_LABELS, {REGION}, True,
          "a region or a stretch of land ('the Amazon region', 'the Swat valley')"),
    _kind("water", "rivers?|lakes?|sea|bay|strait|estuary", ("LOC",), (), True,
          "a river, a lake or a sea"),
    _kind("mountain", "mountains?|mount|peak|volcano|glacier", ("LOC",), (), True,
          "a mountain or a volcano"),
    _kind("island", "islands?|isle|atoll|archipelago", _PLACE_LABELS, (), True,
          "an island"),
    _kind("disease", "virus|viruses|disease|diseases|outbreak|epidemic|pandemic|infections?|"
                     "fever|flu|syndrome|vaccines?|bacteria|bacterium|patients|symptoms|"
                     "strain", (), (), False,
          "a disease or the germ behind it ('the Ebola virus', 'infected with Ebola')"),
    _kind("law", "act|bill|amendment|legislation|statute", ("LAW",), (), False,
          "a law's name ('the Religious Freedom Restoration Act'); not 'law' itself: 'under "
          "Saudi law' names a country's"),
    _kind("prison", "prisons?|jails?|penitentiary|gaol|detention centre|detention center",
          ("FAC",), (), False, "a prison"),
    _kind("airport", "airports?|airfield|air base|airbase", ("FAC",), (), False,
          "an airport"),
    _kind("stadium", "stadium|stadiums|arena|racecourse|velodrome", ("FAC",), (), False,
          "a stadium"),
    _kind("hospital", "hospitals?|clinic|hospice", ("FAC",), (), False, "a hospital"),
    _kind("festival", "festivals?|carnival", ("EVENT",), (), False, "a festival"),
    _kind("award", "awards?|prizes?|trophy|medal", ("EVENT", "WORK_OF_ART"), (), False,
          "an award"),
    _kind("worship", "church|cathedral|mosque|temple|chapel|abbey|synagogue", ("FAC",), (),
          False, "a place of worship"),
    _kind("museum", "museum|gallery", ("FAC",), (), False, "a museum or a gallery"),
    _kind("park", "parks?|national park|wildlife refuge|refuges?|sanctuary|sanctuaries|"
                  "game reserve|nature reserve", ("FAC",), (), False,
          "a park or a wildlife refuge"),
    _kind("vessel", "ships?|vessels?|boats?|yachts?|ferry|ferries|tankers?|liners?|"
                    "submarines?|warships?|trawlers?|frigates?|destroyers?", (), (), False,
          "a ship: the passage calls it one, or its name opens with a ship prefix ('MV')"),
    _kind("spacecraft", "satellites?|spacecraft|probes?|rovers?|telescopes?|constellation|"
                        "space station|lander|orbiter", (), (), False,
          "a satellite, a probe or a telescope"),
)
# a ship's name prefix ("MV Akademik Shokalskiy", "HMS Queen Elizabeth", "USS Cole")
_VESSEL_PREFIX = re.compile(r"^(?:MV|MS|MT|HMS|HMAS|HMCS|HMNZS|USS|USNS|RMS|SS|RV|FV|INS)\s+[A-Z]")
# ... or the noun right before its name ("the icebreaker ship Xue Long")
_VESSEL_BEFORE = re.compile(r"\b(?:%s)(?:e?s)? $" % next(k.nouns for k in KINDS if k.name == "vessel"),
                            re.IGNORECASE)
_BY_NAME = {k.name: k for k in KINDS}
_P = re.escape(PLACEHOLDER)
# what may follow an appositive kind noun ("Narva, a town on the border", "..., a town.")
_APPOSITION_END = (r"(?=\s*(?:[,.;:)!?]|$)|\s+(?:in|on|near|of|outside|close|north|south|"
                   r"east|west|that|which|where|with|at)\b)")


class QueryForm(NamedTuple):
    name: str
    pattern: str           # {N}: the kind's nouns
    kinds: tuple           # the kinds it is read for (empty: every kind)
    reason: str


QUERY_FORMS = (
    QueryForm("noun_after", rf"(?<![\w'’-]){_P} (?:{{N}})(?![\w'’-])", (),
              "the kind noun right after the slot, lower case ('the @placeholder region')"),
    QueryForm("noun_of", rf"\b(?:{{N}}) of (?:the )?{_P}(?![\w-])",
              ("town", "region", "island", "mountain", "water"),
              "'the town of @placeholder', 'the island of @placeholder' (not a law's or a "
              "disease's: 'the laws of X', 'an outbreak of' is read below)"),
    QueryForm("apposition", rf"{_P}, (?:a|an|the) (?:[\w-]+ ){{{{0,3}}}}(?:{{N}})"
                            rf"{_APPOSITION_END}", (),
              "'@placeholder, a town in ...': the slot's apposition names its kind"),
    QueryForm("noun_before", rf"\b(?:{{N}}),? {_P}(?![\w'’-])", ("park", "vessel", "spacecraft"),
              "the kind noun right before the slot: 'Ghana's largest wildlife refuge, "
              "@placeholder', 'the ship @placeholder'"),
    QueryForm("noun_apposition", rf"\b(?i:this|that|the|a|new|proposed) (?:{{N}}), the {_P}"
                                 rf"(?![\w'’-])(?!,? (?:said|says|told|tells|added|reported)\b)",
              ("law",),
              "a law named in apposition to its noun: 'this bill, the @placeholder'"),
    QueryForm("vessel_verb", rf"\b(?:aboard|on board|crew(?: members)? of|captain of|"
                             rf"sinking of|sank the) (?:the )?{_P}(?![\w'’-])", ("vessel",),
              "who sails on or sinks it: a ship ('crew members of the @placeholder')"),
    QueryForm("disease_verb", rf"\b(?:infected with|infection (?:by|with)|infections (?:by|"
                              rf"with)|cases of|outbreak of|epidemic of|vaccine against|"
                              rf"immune to|died of|died from) (?:the )?{_P}(?![\w'’-])",
              ("disease",), "what is caught, spread or vaccinated against: a disease"),
)


def _compiled():
    out = []
    for form in QUERY_FORMS:
        for kind in KINDS:
            if not form.kinds or kind.name in form.kinds:
                nouns = "" if "{N}" not in form.pattern else kind.nouns + r")(?:e?s)?(?:"
                out.append((form, kind, re.compile(form.pattern.replace("{N}", nouns)
                                                   .replace("{{", "{").replace("}}", "}"))))
    return tuple(out)


_FORMS = _compiled()


def query_kind(query: str) -> Optional[tuple]:
    """(kind, form name, the words matched) of the first `QUERY_FORMS` pattern (in
    `KINDS` order) the query matches, else None. Case is kept: a capitalised noun after
    the slot is part of a name ("@placeholder City")."""
    text = plain(query)
    for form, kind, pattern in _FORMS:
        m = pattern.search(text)
        if m:
            return kind, form.name, m.group(0)
    return None


def _evidence_patterns(kind: Kind) -> tuple:
    n = kind.nouns + r")(?:e?s)?(?:"                  # plurals too: "outbreaks"
    return (re.compile(rf"^ (?:{n})(?![\w'’-])(?! of\b)", re.IGNORECASE),      # after
            re.compile(rf"\b(?:{n}) of (?:the )?$", re.IGNORECASE),             # before, "of"
            re.compile(rf"^, (?:a|an|the) (?:[\w-]+ ){{0,3}}(?:{n}){_APPOSITION_END}",
                       re.IGNORECASE),
            re.compile(rf"(?:^|\s)(?:{n})$", re.IGNORECASE))                    # its name


_EVIDENCE = {k.name: _evidence_patterns(k) for k in KINDS}
_NATION = frozenset({"NORP"}) | COUNTRY_VOTE
_PLACE_VOTES = frozenset(_PLACE_LABELS) | COUNTRY_VOTE


def mention_kinds(passage: str, m: dict, known_place: bool) -> set:
    """The kinds the passage calls one mention (module docstring); a known place is no
    disease, law or building, and a name ending in "City" is no town
    ("Manchester City")."""
    name = plain(m.get("text") or "").strip(".,'’ ")
    before, after = passage[max(0, m["start"] - 40):m["start"]], passage[m["end"]:][:60]
    out = set()
    for kind in KINDS:
        after_rx, of_rx, appos_rx, name_rx = _EVIDENCE[kind.name]
        said = after_rx.search(after) or of_rx.search(before) or appos_rx.search(after)
        if said or (kind.name != "town" and name_rx.search(name)):
            out.add(kind.name)
    if _VESSEL_PREFIX.match(name) or _VESSEL_BEFORE.search(before):
        out.add("vessel")
    if known_place:
        out = {k for k in out if _BY_NAME[k].place}
    return out


def entity_kinds(row: dict) -> dict:
    """{cluster key: set of kind names} ('@answer': the answer's), by the passage's words
    (`mention_kinds`; not for a country or a people: "the Iraqi city of", "French
    towns"), and, for a place kind, GeoNames (`Kind.places`) where the mentions vote for
    a place (not a person called "Weston")."""
    passage, votes = row.get("passage") or "", mention_votes(row)
    out = collections.defaultdict(set)
    for key, m in clusters(row):
        fine = place_types(m.get("text") or "")
        if not fits(votes.get(key, []), _NATION):       # "the French town of": a modifier
            out[key] |= mention_kinds(passage, m, bool(fine))
        if fits(votes.get(key, []), _PLACE_VOTES):       # "Tim Weston" is no town
            out[key] |= {k.name for k in KINDS if fine & k.places}
    return dict(out)


def could_be(kind: Kind, kinds: set, votes: list, known_types: frozenset) -> bool:
    """An entity with no kind evidence that may still be of `kind`: of the kind's labels
    and, for a place kind, a place GeoNames does not know (a town, "Crimea")."""
    if kinds or not fits(votes, kind.labels):
        return False
    return not known_types if kind.place else True


def _named(row: dict, mentions: dict) -> set:
    """Keys of the entities the query names: its words (`named_in_query`), or a country it
    names by name or demonym ("on Estonia's border", "the Russian border")."""
    countries = query_countries(row.get("query") or "")
    return named_in_query(row) | {k for k, ms in mentions.items() if any(
        country_of(m.get("text") or "") in countries for m in ms if country_of(m.get("text")
                                                                               or ""))}


def only_kind_entity(row: dict) -> Optional[str]:
    """The rejection's detail when the query's kind noun (`query_kind`) fits the answer and
    no other passage entity the query does not name, and another such entity exists;
    else None."""
    found = query_kind(row.get("query") or "")
    if found is None:
        return None
    kind, form, words = found
    kinds, votes = entity_kinds(row), mention_votes(row)
    mentions = collections.defaultdict(list)
    for key, m in clusters(row):
        mentions[key].append(m)

    def types(key):
        return frozenset().union(*(place_types(m.get("text") or "") for m in mentions[key]))

    answer = kinds.get("@answer", set())
    if kind.name not in answer and not (kind.place and could_be(
            kind, answer, votes.get("@answer", []), types("@answer"))):
        return None
    named = _named(row, mentions)
    others = [k for k in mentions if k != "@answer" and k not in named]
    if not others:
        return None
    for key in others:
        if kind.name in kinds.get(key, set()) or could_be(kind, kinds.get(key, set()),
                                                          votes.get(key, []), types(key)):
            return None
    return (f"kind noun {form} {words!r} -> {kind.name}; the answer is the only such entity "
            f"of {len(mentions)} in the passage the query does not name (kinds by the "
            f"passage's own words and GeoNames)")

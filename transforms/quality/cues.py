"""Type cues: words of a query that fix the type of the entity at `@placeholder`, as a
reader sees it without the passage ("Mr @placeholder" is a person, "the @placeholder
club" an organisation, "the city of @placeholder" a place). Each cue is a named pattern
around the placeholder and the entity labels it leaves possible; `query_cue` gives the
first that matches, in table order (the narrowest first). General English cues, not
fitted to a corpus: honorifics, offices, family and team roles before a name; an age or
"who" after it, or a personal pronoun later in its sentence; team, company, kind of
organisation, party, country and state words next to it; a place preposition before it
(docs/adversary.md, "Release rules"). `COUNTRY` is a vote, not an NER label: a country's
name or demonym carries it (`machine_filtering.entity_types`).
"""
import re
from typing import NamedTuple, Optional

from transforms.quality.aliases import PLACEHOLDER, plain

PERSON = frozenset({"PERSON"})
TEAM = frozenset({"ORG", "GPE", "NORP"})      # clubs, and national sides named by country
ORG = frozenset({"ORG"})
PLACE = frozenset({"GPE", "LOC", "FAC"})
STATE = frozenset({"GPE", "NORP", "LOC"})
PARTY = frozenset({"NORP", "ORG"})            # "the Communist parties", "the Labour party"

_P = re.escape(PLACEHOLDER)
# words that, right before a name, make it a person's ("Mr", "President", "his wife")
PERSON_WORDS = (
    "mr|mrs|ms|miss|mx|dr|prof|professor|sir|dame|lord|lady|president|senator|sen|rep|"
    "congressman|congresswoman|gov|governor|mayor|minister|chancellor|secretary|judge|"
    "justice|prince|princess|king|queen|pope|duke|duchess|coach|manager|boss|captain|"
    "skipper|striker|midfielder|defender|goalkeeper|keeper|winger|detective|det|officer|"
    "sergeant|sgt|constable|pc|insp|inspector|spokesman|spokeswoman|spokesperson|actor|"
    "actress|singer|rapper|presenter|chairman|chairwoman|ambassador|bishop|archbishop|rev|"
    "reverend|rabbi|imam|pastor|wife|husband|son|daughter|mother|father|brother|sister|"
    "girlfriend|boyfriend|fiance|fiancee|fiancé|fiancée|widow|widower|uncle|aunt|nephew|"
    "niece|grandson|granddaughter|grandmother|grandfather|cousin|teammate|team-mate|"
    "colleague|defendant|victim")
TEAM_AFTER = ("boss|manager|coach|striker|midfielder|defender|goalkeeper|keeper|winger|"
              "forward|captain|skipper|chairman|owner|side|team|squad|players?|fans|"
              "supporters|teammates?|team-mates?")
COMPANY_BEFORE = ("firm|company|retailer|giant|brand|broadcaster|carmaker|airline|bank|"
                  "chain|supermarket|publisher|manufacturer|start-up|startup")
COMPANY_AFTER = "ceo|chief executive|shares|stores|employees|headquarters|shareholders"
PLACE_WORDS = "city|town|village|capital|country|nation|state|county|province|region|island"
STATE_AFTER = ("government|capital|embassy|border|authorities|president|prime minister|"
               "citizens?|nationals?|troops|army|military|forces|soldiers|coast|parliament|"
               "economy|people|voters|adults")
PRONOUNS = "he|she|him|his|her|himself|herself"
# a kind of organisation named by a noun right after "the @placeholder" ("the Changing
# Places group"); not council/committee/union, said of towns and parties too
ORG_KINDS = ("group|charity|organisation|organization|campaign group|foundation|trust|"
             "association|agency|society|institute|movement|network|coalition|alliance|"
             "company|firm|club|outfit|brand|retailer|chain|label|publisher")
# what a country has and a city or a people rarely does ("the @placeholder crude oil
# supply", "@placeholder law enforcement"): read as a country (`COUNTRY`)
NATIONAL_AFTER = ("crude|oil supply|oil supplies|oil production|gas supply|energy supply|"
                  "exports?|imports?|trade deficit|national debt|currency|gdp|treasury|navy|"
                  "air force|armed forces|intelligence services?|intelligence agencies|"
                  "law enforcement|lawmakers|diplomats|consulate|constitution|taxpayers|"
                  "ambassador|foreign ministry|foreign minister|defence ministry|"
                  "defense department|state department|state media|state television")
COUNTRY = frozenset({"COUNTRY"})   # a vote a country's name or demonym carries (entity_types)


class Cue(NamedTuple):
    name: str
    pattern: re.Pattern
    labels: frozenset


def _cue(name: str, pattern: str, labels: frozenset, flags=re.IGNORECASE) -> Cue:
    return Cue(name, re.compile(pattern, flags), labels)


CUES = (
    _cue("title_or_role_before", rf"\b(?:{PERSON_WORDS})\.? {_P}\b", PERSON),
    _cue("age_after", rf"{_P}, \d{{1,3}}(?=,|\)| years?[ -]old\b)", PERSON),
    _cue("who_after", rf"{_P},? who\b", PERSON),
    # "@placeholder said he ...", "@placeholder admits that her story ...": a personal
    # pronoun in the placeholder's own clause (no sentence or quote boundary between)
    _cue("pronoun_after", rf"{_P}(?:'s)?\b[^.;!?\"“”]{{0,50}}?\b(?:{PRONOUNS})\b", PERSON),
    _cue("club_after", rf"\bthe {_P} (?:club|outfit)\b", ORG),
    _cue("organisation_after", rf"\bthe {_P} (?:{ORG_KINDS})\b", ORG),
    _cue("company_before", rf"\b(?:{COMPANY_BEFORE}) {_P}\b", ORG),
    _cue("company_after", rf"{_P}(?:['’]s)? (?:{COMPANY_AFTER})\b", ORG),
    _cue("party_after", rf"{_P} (?:party|parties)\b", PARTY),
    _cue("team_before", rf"\b(?:club|clubs|side|team|rivals|champions|outfit) {_P}\b", TEAM),
    _cue("team_after", rf"{_P}(?:['’]s)? (?:{TEAM_AFTER})\b", TEAM),
    _cue("place_word_before", rf"\b(?:{PLACE_WORDS}) (?:of )?{_P}\b", PLACE),
    _cue("national_after", rf"{_P}(?:['’]s)? (?:{NATIONAL_AFTER})\b", COUNTRY),
    _cue("state_after", rf"{_P}(?:['’]s)? (?:{STATE_AFTER})\b", STATE),
    _cue("based_after", rf"{_P}-based\b", PLACE),
    _cue("place_preposition_before",
         rf"\b(?:in|near|outside|across|throughout) {_P}\b(?!['’]s?\b|-)", PLACE),
    # "... @placeholder noticed that the rims had been painted, and her steering wheel":
    # a personal pronoun further on in the same sentence, no capitalised word (another
    # name a pronoun could stand for) and no sentence or quote mark between (case kept)
    _cue("pronoun_in_sentence",
         rf"{_P}(?:'s)?\b[^.;!?\"“”A-Z]{{0,150}}?\b(?:{PRONOUNS})\b", PERSON, 0),
)


def query_cue(query: str) -> Optional[Cue]:
    """The first cue of the table the query's words around the placeholder match."""
    text = plain(query)
    for cue in CUES:
        if cue.pattern.search(text):
            return cue
    return None

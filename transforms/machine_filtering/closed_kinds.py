"""Closed kinds a reader knows from a name alone, for the release rule `only_of_kind`
(issue 32): a political party, a named storm, an ethnic group, a sports competition, a
university or school, a US state where the query asks for a state (`Kind.slot`), and a
social platform where the query posts on or via one (fresh27's readers: "comments made by
others on @placeholder", Facebook the passage's only platform).
`only_country` asks "is the answer the passage's only country?"; this asks the same of
these kinds, whatever NER's label ("Republican" tagged NORP beside
"Texans"; "Liberty University" tagged ORG beside CNN), so `only_entity_of_label` cannot
see them.

Held-out CNN readers (fresh13 to fresh16) called such items trivial: "Republican/GOP is
the only party in the passage", "Latinos is the only ethnic group", "Champions League is
the only competition entity", "Liberty University is the only university in the
passage", "Cyclone Pam is the only storm entity". Not kinds here, by the same readers'
labels: an armed group (of 7 released items whose answer was the passage's only one, 11
of 14 labels good: states and armies fit the same slots) and a religion (3 of 4 good).

Each kind is a named pure function of a mention and its passage (`KINDS`), from a
lexicon of names fixed in English news (parties, ethnic groups), a name's own words
("... League", "... University") or the words the passage writes before it ("Cyclone X").
No Beam.
"""
import collections
import re
from typing import Callable, NamedTuple, Optional

from transforms.curation.countries import country_of
from transforms.machine_filtering.entity_types import named_in_query
from transforms.machine_filtering.place_types import us_state_code
from transforms.quality.aliases import PLACEHOLDER, clusters

# lexicon: party names as `_key` writes them (lower case, no dots, hyphens as spaces);
# a plural is read as its singular
PARTIES = frozenset({
    "republican", "democrat", "democratic", "gop", "conservative", "tory", "tories",
    "labour", "liberal democrat", "lib dem", "ukip", "snp", "scottish national party",
    "plaid cymru", "sinn fein", "dup", "likud", "zionist union", "syriza", "podemos",
    "bjp", "anc", "national front", "front national", "tea party", "green party",
    "liberal party", "communist party", "kuomintang", "kmt", "cdu", "spd",
})
_BEFORE_STORM = re.compile(
    r"\b(?:Hurricane|Typhoon|Cyclone|Superstorm|(?:Tropical|Winter)\s+Storm|Storm|"
    r"Tropical\s+Depression)\s+$")
_STORM_NAME = re.compile(r"^(?:Hurricane|Typhoon|Cyclone|Superstorm|Tropical Storm) [A-Z]")
# lexicon: ethnic groups (not nationalities: "Nigerians" is `countries`' business)
ETHNIC_GROUPS = frozenset({
    "latino", "latina", "hispanic", "african american", "asian american", "native american",
    "aboriginal", "roma", "kurd", "kurdish", "uighur", "uyghur", "tamil", "pashtun", "hazara",
    "tutsi", "hutu", "maori", "inuit", "berber", "arab", "rohingya", "bedouin", "zulu",
})
_COMPETITION = re.compile(
    r"\w.* (?:League|Cup|Championships?|Open|Grand Prix|Trophy|Bowl|Derby|Marathon|"
    r"Olympics|Paralympics)$"
    r"|^(?:the )?(?:Olympics|Paralympics|Masters|Super Bowl|World Series|La Liga|Bundesliga|"
    r"Serie A|Ligue 1|Eredivisie|Premiership|Six Nations|Tour de France|Formula (?:One|1)|"
    r"Euro \d{4}|(?:Olympic|Paralympic|Commonwealth|Asian|Winter|Summer) Games)$")
_SCHOOL = re.compile(r"^(?:the )?(?:University|College) of [A-Z]|\w.* (?:University|College|"
                     r"School|Academy|Institute of Technology)$")
_CONTEXT = 40
_STATE_WORD = re.compile(
    r"(?<!\bof )(?<!\bof the )(?<!\bin )(?<![Ii]slamic )\bstates?\b(?! that\b)"
    r"(?![- ](?i:run|owned|funded|backed|sponsored|media|television|tv|news|broadcaster|"
    r"department|funeral|visit|dinner|secrets?|prosecutors?|schools?|of)\b)")
# the names next to the slot in a list ("Texas, Ohio, @placeholder and Rhode Island")
_NAME = r"([A-Z][\w.]*(?: [A-Z][\w.]*){0,2})"
_LIST_GAP = r"(?:,| and| or|, and|, or) "
_BEFORE_IN_LIST = re.compile(rf"\b{_NAME}{_LIST_GAP}$")
_AFTER_IN_LIST = re.compile(rf"{_LIST_GAP}{_NAME}\b")


def _key(text: str) -> str:
    words = re.sub(r"[.’]", lambda m: "'" if m.group(0) == "’" else "", text.lower())
    words = re.sub(r"[-\s]+", " ", words).strip()
    return re.sub(r"^the ", "", words)


def _singular(key: str) -> str:
    return key[:-1] if key.endswith("s") and not key.endswith("ss") else key


def is_party(text: str, before: str) -> bool:
    """A political party: a name of `PARTIES` ("Tories", "Republicans", "GOP"), or a name
    ending in "Party" ("the Communist Party")."""
    key = _key(text)
    return key in PARTIES or _singular(key) in PARTIES or (
        key.endswith(" party") and text[:1].isupper())


def is_storm(text: str, before: str) -> bool:
    """A named storm: "Cyclone Pam" (the designation is no part of the name, so it stands
    before the mention) or a mention that keeps it."""
    return bool(_BEFORE_STORM.search(before)) or bool(_STORM_NAME.match(text))


def is_ethnic_group(text: str, before: str) -> bool:
    """An ethnic group: a name of `ETHNIC_GROUPS` ("Latinos", "Kurds")."""
    key = _key(text)
    return key in ETHNIC_GROUPS or _singular(key) in ETHNIC_GROUPS


def is_competition(text: str, before: str) -> bool:
    """A sports competition by its name's last words: "Champions League", "Ryder Cup",
    "U.S. Open", "Boston Marathon", "the Olympics"."""
    return bool(_COMPETITION.search(text.strip()))


def is_school(text: str, before: str) -> bool:
    """A university or school by its name's words: "Liberty University", "University of
    Virginia", "Columbine High School"."""
    return bool(_SCHOOL.search(text.strip()))


def is_us_state(text: str, before: str) -> bool:
    """A US state by GeoNames' list ("Vermont", "North Carolina"), not a country's name too
    ("Georgia")."""
    return us_state_code(text.strip()) is not None and not country_of(text.strip())


def asks_us_state(query: str) -> bool:
    """The slot asks for a US state: the query says "state" in lower case, not as a
    modifier ("state media", "state TV") or another noun's ("head of state"), not the verb
    ("the report states that"): "to the other 49 states"; or the slot stands in a list
    next to a US state ("Texas, Ohio, @placeholder and Rhode Island")."""
    if _STATE_WORD.search(query):
        return True
    at = query.find(PLACEHOLDER)
    if at < 0:
        return False
    before = _BEFORE_IN_LIST.search(query[:at])
    after = _AFTER_IN_LIST.match(query[at + len(PLACEHOLDER):])
    return any(m and is_us_state(m.group(1), "") for m in (before, after))


# social platforms by name: where a query posts, comments or unveils something "on" or "via"
SOCIAL_PLATFORMS = frozenset({
    "twitter", "facebook", "instagram", "youtube", "snapchat", "tiktok", "reddit", "whatsapp",
    "linkedin", "tumblr", "pinterest", "weibo", "wechat", "myspace"})   # no surnames ("Vine")
_ON_PLATFORM = re.compile(r"\b(?:on|via|onto) " + re.escape(PLACEHOLDER) + r"(?![\w'’])")
_POSTING = re.compile(r"(?i)\b(?:post(?:s|ed|ing)?|comment(?:s|ed|ing)?|tweet(?:s|ed|ing)?|"
                      r"shar(?:e|es|ed|ing)|upload(?:s|ed|ing)?|wrote|writ(?:es|ing)|"
                      r"message(?:s|d)?|video|photo|picture|selfie|page|account|feed|"
                      r"followers|unveil(?:s|ed)?|announc(?:e|es|ed|ing))\b")
_PLATFORM_NOUN = re.compile(re.escape(PLACEHOLDER) + r" (?:posts?|page|feed|followers|"
                            r"handle|timeline)\b")   # not "users", "account": any firm's


def is_platform(text: str, before: str) -> bool:
    """A social platform by its name: "Twitter", "Facebook's"."""
    return re.sub(r"['’]s?$", "", text.strip()).lower() in SOCIAL_PLATFORMS


def asks_platform(query: str) -> bool:
    """The slot is where something is posted: "comments made by others on @placeholder",
    "unveiled the cover via @placeholder", "@placeholder page"; not "reported to
    @placeholder" (a company, the police, the platform alike)."""
    return bool(_PLATFORM_NOUN.search(query)
                or (_ON_PLATFORM.search(query) and _POSTING.search(query)))


class Kind(NamedTuple):
    name: str
    test: Callable[[str, str], bool]
    reason: str
    # what the query must show for the kind to count (None: nothing): a kind whose
    # members fill slots of other kinds too ("in Vermont" as "in Burlington")
    slot: Optional[Callable[[str], bool]] = None
    # NER labels every mention of the answer must carry for it to be of the kind (None:
    # any): "Washington" of Denzel Washington, tagged PERSON, is no state; a rival of any
    # label still counts
    answer_labels: Optional[frozenset] = None


KINDS = (
    Kind("party", is_party, "readers know a party by its name: the only one fits any "
         "party slot"),
    Kind("storm", is_storm, "the only storm is the one that makes landfall or rips roofs"),
    Kind("ethnic group", is_ethnic_group, "the only ethnic group fits any slot about one"),
    Kind("competition", is_competition, "the only competition is the one played, won or "
         "lost"),
    Kind("school", is_school, "the only university or school is the one whose students, "
         "campus or staff the query speaks of"),
    Kind("US state", is_us_state, "the query asks for a state, and the only one fits",
         asks_us_state, frozenset({"GPE", "LOC"})),
    Kind("social platform", is_platform, "the query posts or comments on or via a platform, "
         "and the only one fits", asks_platform),
)


def mention_kinds(mention: dict, passage: str) -> set:
    """The names of `KINDS` one passage mention is, by its words and the words before it."""
    start = mention.get("start")
    text = mention.get("text") or ""
    before = passage[max(0, start - _CONTEXT):start] if isinstance(start, int) else ""
    return {k.name for k in KINDS if k.test(text, before)}


def only_of_kind(row: dict) -> Optional[str]:
    """Release rule `only_of_kind`: the answer is of a closed kind (`KINDS`) and no other
    passage entity (alias cluster) is of it but those the query names ("Democrats" the only
    party beside the "Republicans" the query names; "Cyclone Pam" the only storm).
    None when another entity of the kind stands beside it."""
    passage = row.get("passage") or ""
    kinds, labels = collections.defaultdict(set), set()
    for key, m in clusters(row):
        kinds[key] |= mention_kinds(m, passage)
        if key == "@answer":
            labels.add(m.get("label"))
    answer = {k.name for k in KINDS if k.name in kinds.get("@answer", ())
              and (k.answer_labels is None or labels <= k.answer_labels)}
    if not answer:
        return None
    named, query = named_in_query(row), row.get("query") or ""
    for kind in (k for k in KINDS if k.name in answer and (k.slot is None or k.slot(query))):
        if not any(kind.name in ks for key, ks in kinds.items()
                   if key != "@answer" and key not in named):
            return (f"the answer is the only {kind.name} of the passage the query does not "
                    f"name ({kind.reason})")
    return None

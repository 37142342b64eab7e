"""Closed kinds a reader knows from a name alone, for the release rule `only_of_kind`
(issue 32): a political party, an armed group, a named storm, a religion, an ethnic
group, a sports competition, a university or school. `only_country` asks "is
the answer the passage's only country?"; this asks the same of these kinds, whatever
NER's label (ISIS tagged ORG beside CNN and a school; "Republican" tagged NORP beside
"Texans"), so `only_entity_of_label` cannot see them.

Held-out CNN readers (fresh15, fresh16) called such items trivial: "ISIS is the only
militant group; only one that can launch attacks", "Republican/GOP is the only party in
the passage", "Cyclone Pam is the only storm entity", "Buddhist is the only religious NORP", "Latinos is
the only ethnic group", "Champions League is the only competition entity", "Liberty
University is the only university in the passage".

Each kind is a named pure function of a mention and its passage (`KINDS`), from a
lexicon of names fixed in English news (parties, armed groups) or from the words the
passage writes around the mention ("the militant group X", "X fighters", "Cyclone X").
No Beam.
"""
import collections
import re
from typing import Callable, NamedTuple, Optional

from transforms.curation.aliases import NAME_GROUPS
from transforms.machine_filtering.entity_types import named_in_query
from transforms.quality.aliases import clusters

# lexicon: party names as `_key` writes them (lower case, no dots, hyphens as spaces);
# a plural is read as its singular
PARTIES = frozenset({
    "republican", "democrat", "democratic", "gop", "conservative", "tory", "tories",
    "labour", "liberal democrat", "lib dem", "ukip", "snp", "scottish national party",
    "plaid cymru", "sinn fein", "dup", "likud", "zionist union", "syriza", "podemos",
    "bjp", "anc", "national front", "front national", "tea party", "green party",
    "liberal party", "communist party", "kuomintang", "kmt", "cdu", "spd",
})
# lexicon: armed groups named in English news, as `_key` writes them
ARMED_GROUPS = frozenset(NAME_GROUPS[0]) | frozenset({
    "al qaeda", "al qaida", "al qa'ida", "aqap", "al qaeda in the arabian peninsula",
    "al qaeda in iraq", "taliban", "pakistani taliban", "afghan taliban", "boko haram",
    "al shabaab", "al shabab", "hezbollah", "hizbollah", "hamas", "houthi", "houthis",
    "al nusra", "nusra front", "al nusra front", "jabhat al nusra", "pkk", "ira",
    "farc", "eta", "lashkar e taiba", "khorasan", "abu sayyaf", "jemaah islamiyah",
    "lord's resistance army", "free syrian army", "ypg", "peshmerga",
})
_BEFORE_GROUP = re.compile(
    r"\b(?:militant|terror|terrorist|extremist|jihadist|jihadi|rebel|insurgent|Islamist|"
    r"armed)\s+(?:group|organi[sz]ation|network|movement|faction|militia)s?\s*,?\s*"
    r"(?:the\s+)?$", re.I)
_AFTER_GROUP = re.compile(
    r"^(?:'s?)?\s*(?:militants?|fighters?|rebels?|jihadis?|jihadists?|insurgents?|"
    r"extremists?|gunmen|militiam[ae]n|terrorists?)\b", re.I)
_BEFORE_STORM = re.compile(
    r"\b(?:Hurricane|Typhoon|Cyclone|Superstorm|(?:Tropical|Winter)\s+Storm|Storm|"
    r"Tropical\s+Depression)\s+$")
_STORM_NAME = re.compile(r"^(?:Hurricane|Typhoon|Cyclone|Superstorm|Tropical Storm) [A-Z]")
# lexicon: religions and their faithful, as `_key` writes them (a plural read as singular)
RELIGIONS = frozenset({
    "buddhist", "buddhism", "muslim", "islam", "christian", "christianity", "catholic",
    "catholicism", "roman catholic", "protestant", "jewish", "jew", "judaism", "hindu",
    "hinduism", "sikh", "sikhism", "mormon", "evangelical", "sunni", "shiite", "shia",
    "shi'ite", "copt", "coptic", "anglican", "baptist", "methodist", "lutheran",
    "scientologist", "scientology", "yazidi", "amish", "orthodox christian",
})
# lexicon: ethnic groups (not nationalities: "Nigerians" is `countries`' business)
ETHNIC_GROUPS = frozenset({
    "latino", "latina", "hispanic", "african american", "asian american", "native american",
    "aboriginal", "roma", "kurd", "kurdish", "uighur", "uyghur", "tamil", "pashtun", "hazara",
    "tutsi", "hutu", "maori", "inuit", "berber", "arab", "rohingya", "bedouin", "zulu",
})
_COMPETITION = re.compile(
    r"\w.* (?:League|Cup|Championships?|Open|Olympics|Paralympics|Grand Prix|Trophy|Bowl|"
    r"Derby|Marathon|World Series)$|^(?:the )?(?:Olympics|Paralympics|Masters|Super Bowl|"
    r"(?:Olympic|Paralympic|Commonwealth|Asian|Winter|Summer) Games)$")
_SCHOOL = re.compile(r"^(?:the )?(?:University|College) of [A-Z]|\w.* (?:University|College|"
                     r"School|Academy|Institute of Technology)$")
_CONTEXT = 40


def _key(text: str) -> str:
    words = re.sub(r"[.’]", lambda m: "'" if m.group(0) == "’" else "", text.lower())
    words = re.sub(r"[-\s]+", " ", words).strip()
    return re.sub(r"^the ", "", words)


def _singular(key: str) -> str:
    return key[:-1] if key.endswith("s") and not key.endswith("ss") else key


def is_party(text: str, before: str, after: str) -> bool:
    """A political party: a name of `PARTIES` ("Tories", "Republicans", "GOP"), or a name
    ending in "Party" ("the Communist Party")."""
    key = _key(text)
    return key in PARTIES or _singular(key) in PARTIES or (
        key.endswith(" party") and text[:1].isupper())


def is_armed_group(text: str, before: str, after: str) -> bool:
    """An armed group: a name of `ARMED_GROUPS` ("ISIS", "al-Shabaab", "Taliban"), or a
    name the passage calls one ("the militant group X", "X fighters")."""
    key = _key(text)
    return (key in ARMED_GROUPS or _singular(key) in ARMED_GROUPS
            or bool(_BEFORE_GROUP.search(before)) or bool(_AFTER_GROUP.match(after)))


def is_storm(text: str, before: str, after: str) -> bool:
    """A named storm: "Cyclone Pam" (the designation is no part of the name, so it stands
    before the mention) or a mention that keeps it."""
    return bool(_BEFORE_STORM.search(before)) or bool(_STORM_NAME.match(text))


def is_religion(text: str, before: str, after: str) -> bool:
    """A religion or its faithful: a name of `RELIGIONS` ("Buddhists", "Sunni")."""
    key = _key(text)
    return key in RELIGIONS or _singular(key) in RELIGIONS


def is_ethnic_group(text: str, before: str, after: str) -> bool:
    """An ethnic group: a name of `ETHNIC_GROUPS` ("Latinos", "Kurds")."""
    key = _key(text)
    return key in ETHNIC_GROUPS or _singular(key) in ETHNIC_GROUPS


def is_competition(text: str, before: str, after: str) -> bool:
    """A sports competition by its name's last words: "Champions League", "Ryder Cup",
    "U.S. Open", "Boston Marathon", "the Olympics"."""
    return bool(_COMPETITION.search(text.strip()))


def is_school(text: str, before: str, after: str) -> bool:
    """A university or school by its name's words: "Liberty University", "University of
    Virginia", "Columbine High School"."""
    return bool(_SCHOOL.search(text.strip()))


class Kind(NamedTuple):
    name: str
    test: Callable[[str, str, str], bool]
    reason: str


KINDS = (
    Kind("party", is_party, "readers know a party by its name: the only one fits any "
         "party slot"),
    Kind("armed group", is_armed_group, "the only armed group is the one that attacks, "
         "threatens or holds a city"),
    Kind("storm", is_storm, "the only storm is the one that makes landfall or rips roofs"),
    Kind("religion", is_religion, "the only faith fits any slot about belief or worship"),
    Kind("ethnic group", is_ethnic_group, "the only ethnic group fits any slot about one"),
    Kind("competition", is_competition, "the only competition is the one played, won or "
         "lost"),
    Kind("school", is_school, "the only university or school is the one whose students, "
         "campus or staff the query speaks of"),
)


def mention_kinds(mention: dict, passage: str) -> set:
    """The names of `KINDS` one passage mention is, by its words and the words around it."""
    start, end = mention.get("start"), mention.get("end")
    text = mention.get("text") or ""
    before = passage[max(0, start - _CONTEXT):start] if isinstance(start, int) else ""
    after = passage[end:end + _CONTEXT] if isinstance(end, int) else ""
    return {k.name for k in KINDS if k.test(text, before, after)}


def only_of_kind(row: dict) -> Optional[str]:
    """Release rule `only_of_kind`: the answer is of a closed kind (`KINDS`) and no other
    passage entity (alias cluster) is of it but those the query names ("ISIS" the only
    armed group; "Democrats" the only party beside the "Republicans" the query names).
    None when another entity of the kind stands beside it."""
    passage = row.get("passage") or ""
    kinds = collections.defaultdict(set)
    for key, m in clusters(row):
        kinds[key] |= mention_kinds(m, passage)
    answer = kinds.get("@answer") or set()
    if not answer:
        return None
    named = named_in_query(row)
    for kind in (k for k in KINDS if k.name in answer):
        if not any(kind.name in ks for key, ks in kinds.items()
                   if key != "@answer" and key not in named):
            return (f"the answer is the only {kind.name} of the passage the query does not "
                    f"name ({kind.reason})")
    return None

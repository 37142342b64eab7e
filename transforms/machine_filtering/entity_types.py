"""The type of a passage entity as a reader takes it, not NER's label alone (issue 32):
for the release rule `only_compatible_entity`, which counts the passage entities a query's
type cue fits. NER mislabels rivals ("Austria" tagged PERSON, a club tagged PERSON, a
person tagged ORG): a count by label finds rivals that are not there, or misses some.

Each mention of an entity (alias cluster, `quality.aliases.clusters`) votes for the labels
it may carry: the cue its own passage sentence gives it (`quality.cues` but the pronoun
and "X government" cues, plus "people of X" and "head of X"; read with the
mention in the placeholder's place: "said Mr Fischer" -> PERSON, "in Austria" -> a place,
"the Chelsea boss" -> a team), else its NER label; a name with a club's or an
organisation's word ("United", "plc", "Party") also votes ORG, one opening
with a title ("Mr", "President") PERSON, a full name opening with a listed given name
PERSON too ("Rio Ferdinand" tagged GPE), a country's name or demonym `COUNTRY` ("Iran",
"British"); a PERSON-tagged name ending in a place's head noun ("Kevin Lynch Park") a
place instead, a one-word one with no evidence of a person any other label
(`person_evidence`). An entity fits a cue when at least half its mentions vote for one
of the cue's labels (a tie fits: an unclear rival still counts). No gazetteer. Query cues: `quality.cues` and `ROLE_CUES` here (works, sides, parties, a
quote's speaker); an entity the query names is no rival (`named_in_query`: its mention's
words, or a surname one passage person carries, "Ms O'Neill"); a role word of the query
written before the answer alone (`role_holder`) is a cue too, and so are links
(`only_linked_entity`): the placeholder coordinated with or set against an entity the
query names takes its kind ("a row between @placeholder and the UK": a country, Tehran no
rival; "@placeholder and Rangers"; "@placeholder v Porto": a side), and "Guardiola's side"
in the query with "Bayern Munich manager Pep Guardiola" in the passage names the answer.
"""
import collections
import re
from typing import Optional

from models.features import sentence_spans
from transforms.curation.countries import country_of
from transforms.curation.gender import given_name_gender
from transforms.curation.names import CLUB_WORDS, GENERIC_ORG_WORDS, ORG_SUFFIXES
from transforms.machine_filtering.person_evidence import person_votes
from transforms.machine_filtering.query_names import named_countries
from transforms.machine_filtering.vessels import called_a_thing
from transforms.quality.aliases import PLACEHOLDER, clusters, plain
from transforms.quality.cues import (
    COUNTRY,
    CUES,
    ORG,
    PARTY,
    PERSON,
    PERSON_WORDS,
    PLACE,
    STATE,
    TEAM,
    _cue,
)
from transforms.quality.neighbours import ROLE_WORDS

_ORG_NAME_WORDS = frozenset(w.lower() for w in CLUB_WORDS | GENERIC_ORG_WORDS | ORG_SUFFIXES)
_TITLES = frozenset(PERSON_WORDS.split("|"))
# a pronoun in the clause is a query's cue; a passage's sentences hold pronouns of others
# ("in Hull just over a year ago, she thought"); "X government" is said of a leader too
# ("the Blair government")
# and two a passage writes of places and organisations ("the residents of Engerwitzdorf",
# "head of Telekom Austria's fixed line division")
_P = re.escape(PLACEHOLDER)
# Role cues of a query the `quality.cues` table does not hold (issue 32), read around the
# placeholder like it: what is bought, played or read is a product or a work; what plays
# on an international day, or is watched playing, a side; what voters elect, or has MPs and
# a manifesto, a party. Each general English, no gazetteer; the answer must fit the cue's
# labels or it gives no verdict.
PRODUCT = frozenset({"PRODUCT", "WORK_OF_ART"})
SPEECH = ("said|says|told|tells|added|adds|admitted|admits|insisted|insists|explained|"
          "thinks|believes|argued|claimed|warned|revealed|confirmed|conceded|joked")
ROLE_CUES = (
    _cue("work_before", rf"\b(?:video game|game|film|movie|album|novel|book|single|sitcom|"
                        rf"console|handset|software) {_P}\b", PRODUCT),
    _cue("work_of", rf"\b(?:cop(?:y|ies)|version|edition|sequel|episodes?|sales) of (?:the )?"
                    rf"{_P}\b", PRODUCT),
    _cue("plays_after", rf"\b(?:watch|support|cheer(?: on)?) {_P} play\b|"
                        rf"\binternational\b[^.;!?]{{0,60}}{_P} play", TEAM),
    _cue("party_role", rf"{_P}(?:['’]s)? (?:MPs|manifesto|voters|activists|candidates|"
                       rf"heartlands|backbenchers|frontbench|leadership)\b|"
                       rf"\bif {_P} (?:wins|won|is (?:re-)?elected|returns? to power)\b|"
                       rf"\bvot(?:e|ed|ing) (?:for )?{_P}\b", PARTY),
    # a quote's speaker ("...," said @placeholder; "@placeholder said: \"..."): a person
    # (an organisation that says something is not read as its speaker here: no verdict)
    _cue("speaker", rf"[\"”,] (?:{SPEECH}) {_P}\b|{_P} (?:{SPEECH})[:,]? [\"“]", PERSON),
)
MENTION_CUES = tuple(c for c in CUES + ROLE_CUES
                     if c.name not in ("pronoun_after", "pronoun_in_sentence", "state_after",
                                       "national_after", "speaker")) + (
    _cue("people_of", rf"\b(?:people|residents|citizens|streets|mayor|outskirts) of "
                      rf"(?:the )?{_P}\b", STATE),
    _cue("head_of", rf"\b(?:head|chief|boss|chairman|chairwoman|founder|director|owner|"
                    rf"spokesman|spokeswoman|shareholders|staff|employees) of (?:the )?{_P}\b",
         TEAM | frozenset({"ORG"})),
)


QUERY_CUES = CUES + ROLE_CUES


def query_type_cue(query: str):
    """The first cue of `QUERY_CUES` the query's words around the placeholder match."""
    text = plain(query)
    return next((c for c in QUERY_CUES if c.pattern.search(text)), None)


def _singular(word: str) -> str:
    w = re.sub(r"['’]s$", "", word.lower()).strip(".,'’\"")    # "Estonia's": Estonia
    return w[:-3] + "y" if w.endswith("ies") else w[:-1] if w.endswith("s") else w


def _words(text: str) -> list:
    return [_singular(w) for w in re.findall(r"[\w'’-]+", plain(text))]


def named_in_query(row: dict) -> set:
    """Keys of the passage entities (alias clusters) the query itself writes (a mention's
    words in a row, plurals as singulars): not a reader's candidates for its placeholder
    ("the Tories claiming ... if @placeholder wins": the Tory party is not the answer)."""
    query = " " + " ".join(_words(row.get("query") or "")) + " "
    named = {k for k, m in clusters(row) if k != "@answer" and _words(m.get("text") or "")
             and f" {' '.join(_words(m['text']))} " in query}
    return named | _surnames_in_query(row) | named_countries(row)    # "the Mexican resort"


def _surnames_in_query(row: dict) -> set:
    """Keys of the people the query names by a surname that one passage person only
    carries ("Ms O'Neill" / "Colleen O'Neill"): a full name's last word, capitalised,
    written as a whole word (case kept)."""
    by_surname = collections.defaultdict(set)
    for key, m in clusters(row):
        words = (m.get("text") or "").split()
        if m.get("label") == "PERSON" and len(words) > 1 and words[-1][:1].isupper():
            by_surname[words[-1]].add(key)
    query = row.get("query") or ""
    return {k for name, keys in by_surname.items() if len(keys) == 1 and
            re.search(rf"(?<![\w'’-]){re.escape(name)}(?![\w-])", query) for k in keys
            if k != "@answer"}


# role words said of someone else than the placeholder as often as of it ("his wife",
# "the @placeholder spokeswoman"): no evidence of the answer's role
RELATIONAL = frozenset({
    "wife", "husband", "son", "daughter", "mother", "father", "brother", "sister",
    "girlfriend", "boyfriend", "fiance", "fiancee", "fiancé", "fiancée", "widow", "widower",
    "uncle", "aunt", "nephew", "niece", "grandson", "granddaughter", "grandmother",
    "grandfather", "cousin", "teammate", "team-mate", "colleague", "victim", "defendant",
    "spokesman", "spokeswoman", "spokesperson", "rival"})


def role_holder(row: dict) -> Optional[tuple]:
    """(role word, query word) when a role word of the query, anywhere in it, as written or
    as a verb or noun made from it ("captained", "captaincy" -> captain), is written right
    before one passage entity only (one or two words before it), and that entity is the
    answer: "to have captained the team ..., said @placeholder" / "Captain Jeremy Bates".
    Relational words (`RELATIONAL`) are left out, and so are words within three words of
    the placeholder (rule `shared_role_word` reads those)."""
    query = row.get("query") or ""
    near = set()                 # within three words of the placeholder: `shared_role_word`
    for part in re.finditer(re.escape(PLACEHOLDER), query):
        near |= set(_words(query[:part.start()])[-3:] + _words(query[part.end():])[:3])
    roles = {}
    for w in dict.fromkeys(_words(query.replace(PLACEHOLDER, " "))):
        if w in near:
            continue
        for r in (w, re.sub(r"(?:ed|ing|cy|ship|s)$", "", w)):
            if r in ROLE_WORDS and len(r) > 3 and r not in RELATIONAL:
                roles.setdefault(r, w)
    if not roles:
        return None
    passage, holders = row.get("passage") or "", collections.defaultdict(set)
    for key, m in clusters(row):
        before = _words(passage[max(0, m["start"] - 40):m["start"]])[-2:]
        for r in roles.keys() & set(before):
            holders[r].add(key)
    for r, keys in sorted(holders.items()):
        if keys == {"@answer"}:
            return r, roles[r]
    return None


def _sentence_bounds(passage: str) -> list:
    return sentence_spans(passage)


def mention_cue(passage: str, mention: dict, bounds=None) -> Optional[frozenset]:
    """The labels the first cue (`MENTION_CUES`) of the mention's own sentence gives it,
    the mention read as the placeholder; None when no cue matches."""
    s, e = next(((a, b) for a, b in (bounds or _sentence_bounds(passage))
                 if a <= mention["start"] < b), (mention["start"], mention["end"]))
    e = max(e, mention["end"])
    text = plain(passage[s:mention["start"]] + PLACEHOLDER + passage[mention["end"]:e])
    for cue in MENTION_CUES:
        if cue.pattern.search(text):
            return cue.labels
    return None


def name_labels(text: str) -> frozenset:
    """ORG for a name holding a club's or an organisation's word, PERSON for one opening
    with a title ("Mr Fischer"), else none."""
    words = [w.strip(".,'’").lower() for w in text.split()]
    out = ORG if set(words) & _ORG_NAME_WORDS else frozenset()
    return out | PERSON if len(words) > 1 and words[0] in _TITLES else out


# a name ending in one of these is a place, whatever NER said ("Kevin Lynch Park" tagged
# PERSON is an estate, not a man)
PLACE_HEADS = frozenset({"park", "street", "road", "avenue", "lane", "square", "drive",
                         "crescent", "terrace", "close", "estate", "bridge", "airport",
                         "station", "stadium", "arena", "harbour", "beach", "valley"})


def mention_votes(row: dict) -> dict:
    """{cluster key: [labels each mention votes for]} ('@answer': the answer's mentions).
    A country's name or demonym also votes `COUNTRY` (`countries.country_of`); a full
    name opening with a given name of the lists (`gender.given_name_gender`) votes PERSON
    too; a name NER tagged PERSON that ends in a place's head noun (`PLACE_HEADS`) votes
    a place instead, and an entity one of whose PERSON-tagged mentions the passage calls
    a vessel or a programme (`vessels.called_a_thing`) a product (`person_evidence`)."""
    passage = row.get("passage") or ""
    bounds = _sentence_bounds(passage)
    out, things = collections.defaultdict(list), set()
    cued = collections.defaultdict(list)            # key -> [(mention, its cue)]
    for key, m in clusters(row):
        text = m.get("text") or ""
        cue = mention_cue(passage, m, bounds)
        cued[key].append((m, cue))
        vote = cue if cue is not None else frozenset({m.get("label")} - {None})
        words = text.lower().split()
        if given_name_gender(text.lower()):     # "Rio Ferdinand" tagged GPE: a person too
            vote |= PERSON
        if m.get("label") == "PERSON" and len(words) > 1 and words[-1] in PLACE_HEADS:
            vote = vote - PERSON | PLACE
        if country_of(text):
            vote |= COUNTRY
        out[key].append(vote | name_labels(text))
        if m.get("label") == "PERSON" and called_a_thing(passage, m):
            things.add(key)                    # a vessel or a programme, not a person
    return {k: [v - PERSON | PRODUCT for v in vs] if k in things else
            person_votes(passage, cued[k], vs, PERSON) for k, vs in out.items()}


def fits(votes: list, labels: frozenset) -> bool:
    """At least half the mentions vote for one of `labels`."""
    return bool(votes) and 2 * sum(1 for v in votes if v & labels) >= len(votes)


def compatible_entities(row: dict, labels: frozenset) -> tuple:
    """(does the answer fit `labels`, [keys of the other entities that fit and that the
    query does not name itself])."""
    votes = mention_votes(row)
    named = named_in_query(row)
    rivals = sorted(k for k, v in votes.items()
                    if k != "@answer" and k not in named and fits(v, labels))
    return fits(votes.get("@answer", []), labels), rivals


# Links of the query that give the placeholder another entity's type or name it: the
# placeholder coordinated with, or set against, an entity the query names ("a row between
# @placeholder and the UK", "Leeds and @placeholder", "@placeholder v Porto", "@placeholder
# beat Chelsea"): it is of that entity's kind (a country when that entity is one: a city is
# no rival of "the UK"); a side against a side.
MATCH_VERBS = ("v|vs|versus|against|beat|beats|defeated|defeat|thrashed|edged|hammered|"
               "drew with|draw with|lost to|lose to|knocked out|eliminated|faced|face|"
               "played|play|host|hosted|visit|visited")
LINKS = (
    ("between", r"\bbetween {P} and (?:the )?{X}(?![\w'’-])|\bbetween (?:the )?{X} and {P}"),
    ("coordinated", r"{P} (?:and|or|&) (?:the )?{X}(?![\w'’-])|"
                    r"(?<![\w'’-]){X} (?:and|or|&) {P}"),
    ("match", rf"{{P}} (?:{MATCH_VERBS}) (?:the )?{{X}}(?![\w'’-])|"
              rf"(?<![\w'’-]){{X}} (?:{MATCH_VERBS}) {{P}}"),
)
_FAMILY = {"PERSON": PERSON, "ORG": ORG, "GPE": frozenset({"GPE", "LOC"}),
           "LOC": frozenset({"GPE", "LOC"}), "NORP": frozenset({"NORP"}),
           "FAC": frozenset({"FAC"})}


def _kind(votes: list, link: str) -> Optional[frozenset]:
    """The labels an entity's mentions agree on (at least half of them), as a kind:
    a country when it is one, a side (club or nation) in a match, else its label's
    family."""
    if fits(votes, COUNTRY):
        return COUNTRY
    counts = collections.Counter(lab for v in votes for lab in v & set(_FAMILY))
    if not counts:
        return None
    label = counts.most_common(1)[0][0]
    return TEAM if link == "match" and label != "PERSON" else _FAMILY[label]


def linked_slot(row: dict) -> Optional[tuple]:
    """(link name, the entity's text, labels) of the first `LINKS` pattern of the query
    that ties the placeholder to a passage entity the query names; None if none."""
    query, votes = plain(row.get("query") or ""), None
    texts = sorted({(m.get("text") or "", k) for k, m in clusters(row) if k != "@answer"},
                   key=lambda t: -len(t[0]))
    for name, pattern in LINKS:
        for text, key in texts:
            if len(text) < 2 or plain(text) not in query:
                continue      # X is matched as written: no pattern to build (and compile)
            rx = pattern.format(P=re.escape(PLACEHOLDER), X=re.escape(plain(text)))
            if re.search(rx, query):
                votes = votes or mention_votes(row)
                kind = _kind(votes.get(key, []), name)
                if kind:
                    return name, text, kind
    return None


# "Guardiola's side" in the query, "Bayern Munich manager Pep Guardiola" in the passage:
# the query names the answer through the man who runs it
_SIDE = re.compile(r"(?<![\w-])([A-Z][\w'’-]+)['’]s? (?:side|team|men|squad|charges|outfit)\b")
_RUNS = re.compile(r"(?:['’]s)?\s+(?:manager|boss|coach|head coach|gaffer|chairman|owner)\s+"
                   r"(?:[A-Z][\w'’-]+\s+)*$")


def manager_side(row: dict) -> Optional[str]:
    """The manager's name when the query writes "X's side/team/men" and the passage
    writes "<answer> manager/boss/coach ... X", never another entity before X's role."""
    names = {m.group(1) for m in _SIDE.finditer(row.get("query") or "")}
    if not names:
        return None
    passage, runs = row.get("passage") or "", collections.defaultdict(set)
    found = clusters(row)
    for key, m in found:
        if not (m.get("text") or "").split() or m["text"].split()[-1] not in names:
            continue
        for other, o in found:
            gap = passage[o["end"]:m["start"]]
            if 0 <= len(gap) <= 40 and o["end"] <= m["start"] and _RUNS.match(gap + " "):
                runs[m["text"].split()[-1]].add(other)
    for name in sorted(runs):
        if runs[name] == {"@answer"}:
            return name
    return None


def only_linked_entity(row: dict) -> Optional[str]:
    """The rejection's detail when a link of the query (`linked_slot`) gives the
    placeholder a kind the answer fits and no other passage entity the query does not
    name, or the query names the answer's manager (`manager_side`); else None."""
    link = linked_slot(row)
    if link is not None:
        name, text, kind = link
        answer_fits, rivals = compatible_entities(row, kind)
        if answer_fits and not rivals:
            return (f"link {name} with {text!r} -> {'/'.join(sorted(kind))}; the answer is "
                    f"the only other such entity in the passage (types by mention votes)")
    boss = manager_side(row)
    if boss is not None:
        return (f"the query's \"{boss}'s side\" is the answer: the passage writes the "
                f"manager's role after the answer alone")
    return None

"""Person names and person references the small NER model gets wrong, repaired after
document-level label consistency (consistency.py), one segment at a time (issue 32).
Pure functions over a segment's text and (start, end, label) triples; annotation.py's
`finish_article` calls `repair_person_spans`; passages.py calls `not_an_answer` on each
mention. Each rule is in `RULES` with its reason.

- a one-word name right before a person's name, one space between, is the given name
  of that person's name: "Gisela" (tagged GPE) + "Dulko" (PERSON) -> "Gisela Dulko"
  (an organisation's first word keeps its label: "Sony" + "Ericsson" is one ORG);
  never a known place or country ("Slovakia Hantuchova" stays two), never a nationality
  or a title (`join_given_name`);
- a demonym after a determiner and with no noun after it is a person, not the country:
  "the Ukrainian broke again", "the Swede, who ..." (`person_demonym`; "the Ukrainian
  government" is the country). passages.py flags it: it is in no answer set and a
  query on it is rejected (`person_demonym` in cloze.py), while its sentence keeps it
  as an entity the passage names (the rule on entities with a precedent). The pipeline
  runs no tagger, so "no noun after it" is read from what follows: an end mark, a comma
  or quote, the end of the text, or a verb of the closed list `VERBS_AFTER` (a
  lower-case word ending in "-ed" too);
  a demonym with no plural ("the French", "the Irish", "the Chinese") is the people or
  the team, and stays the country's;
- a mention (not a person's) inside a longer name no mention covers is no mention of
  its own entity: "Wales" in "BBC Wales Scrum V", "America" in "Central America"
  (`inside_longer_name`: a capitalised word right before it, not opening a sentence,
  or right after it unless it is a demonym, an adjective of the name after it ("a
  Russian Su-27", "the Scottish Executive": ReCoRD's answers hold such adjectives),
  one space apart; never a word with a digit, a title or role after it, "UK
  Foreign Secretary", "Labour MPs", a date, "The", an acronym, a demonym, nor in a
  title-case headline). Flagged as the demonym above;
- a demonym that is one side of a hyphenated identity of two nationality words
  ("African-American", "Irish-Americans") names that group, not its country or people
  (`hyphenated_identity`); flagged the same way, so the span stays as ReCoRD marks it.
"""
import functools
import re
from typing import List, NamedTuple, Tuple

from transforms.curation.countries import country_of, is_demonym, is_known_place
from transforms.curation.names import OFFICE_TITLES, TITLE_WORDS

Triple = Tuple[int, int, str]

_ONE_WORD = re.compile(r"[A-Z][a-z]+(?:-[A-Z][a-z]+)?")
DEMONYM_LABELS = frozenset({"NORP", "GPE"})    # "the Brit" (ORG) is an award
DETERMINERS = frozenset({"the", "a", "an"})
# what follows a noun use of a demonym: verbs news prose puts after a player or a
# speaker ("the Ukrainian broke", "the Swede said"), and relative pronouns
VERBS_AFTER = frozenset({
    "is", "was", "has", "had", "will", "would", "could", "can", "may", "might", "must",
    "did", "does", "said", "says", "won", "wins", "beat", "beats", "lost", "loses", "broke",
    "breaks", "took", "takes", "made", "makes", "hit", "hits", "went", "goes", "came",
    "comes", "saw", "sees", "got", "gets", "held", "holds", "kept", "keeps", "ran", "runs",
    "fought", "fell", "told", "tells", "added", "who", "whose", "then", "also", "now",
    "still", "never", "finally",
})
_NEXT_WORD = re.compile(r"\s*([\w'-]+|[^\w\s]|$)")


class Repair(NamedTuple):
    name: str
    reason: str


def join_given_name(text: str, left: Triple, right: Triple) -> bool:
    """`left` is one capitalised word right before the person name `right`, one space
    apart, and is neither a nationality, a known place nor a title."""
    word = text[left[0]:left[1]]
    return (right[2] == "PERSON" and text[left[1]:right[0]] == " "
            and left[2] != "NORP" and _ONE_WORD.fullmatch(word) is not None
            and _ONE_WORD.match(text, right[0]) is not None
            and (left[2] == "PERSON" or not (is_known_place(word) or country_of(word)))
            and not is_demonym(word) and word.lower() not in TITLE_WORDS | OFFICE_TITLES)


# a demonym with no plural names the people or the team, not one person: "the French",
# "the Irish", "the Chinese", "the Swiss" (and "the Ukrainians" is a plural)
COLLECTIVE_ENDINGS = ("s", "ese", "sh", "ench", "utch")


def person_demonym(text: str, start: int, end: int) -> bool:
    """A demonym after a determiner, with no noun after it: a person ("the Ukrainian")."""
    word = text[start:end]
    if " " in word or not is_demonym(word) or word.endswith(COLLECTIVE_ENDINGS):
        return False                  # a plural ("the Ukrainians") is the people
    before = text[max(0, start - 5):start].split()
    if not before or before[-1].lower() not in DETERMINERS:
        return False
    nxt = _NEXT_WORD.match(text, end).group(1)
    return (nxt == "" or nxt in {".", ",", ";", ":", "!", "?", '"', "'", "”", "’", ")"}
            or nxt in VERBS_AFTER or (nxt.islower() and nxt.endswith("ed")))


def repair_person_spans(text: str, mentions: List[Triple]) -> List[Triple]:
    """The segment's mentions, sorted, given names joined (`join_given_name`)."""
    out: List[Triple] = []
    for s, e, label in sorted(mentions):
        if out and join_given_name(text, out[-1], (s, e, label)):
            kept = "ORG" if out[-1][2] == "ORG" else "PERSON"     # "Sony" + "Ericsson"
            out[-1] = (out[-1][0], e, kept)
            continue
        out.append((s, e, label))
    return out


# capitalised words that begin no name around a mention: dates, and the pronoun "I"
_NOT_NAME_WORDS = frozenset({
    "I", "The", "A", "An", "January", "February", "March", "April", "May", "June", "July", "August",
    "September", "October", "November", "December", "Monday", "Tuesday", "Wednesday",
    "Thursday", "Friday", "Saturday", "Sunday",
})
# a role after a name is no longer name: "UK Foreign Secretary", "Labour MPs"
ROLE_WORDS = TITLE_WORDS | OFFICE_TITLES | frozenset({
    "mp", "mps", "mep", "meps", "msp", "msps", "undersecretary", "correspondent",
    "editor", "spokesman", "spokeswoman", "leader", "chief", "attorney", "councillor",
})
_CAP_WORD = re.compile(r"[A-Z][\w&-]*$")
_SENTENCE_OPENING = re.compile(r"(?:^|[.!?:;]['\"’”]?\s+|[\"“‘(]\s*)$")
MAX_TITLE_CASE = 0.6


def _name_word(word: str) -> bool:
    return (bool(_CAP_WORD.match(word)) and word not in _NOT_NAME_WORDS
            and not word.isupper()                      # "US TV", "UK PLC": a noun
            and not any(c.isdigit() for c in word)      # a model: "Su-27"
            and not is_demonym(word)
            and word.lower().strip(".") not in TITLE_WORDS | OFFICE_TITLES)


@functools.lru_cache(maxsize=256)   # asked once per mention of the same segment text
def is_title_case(text: str) -> bool:
    """A headline written in title case: most of its words capitalised."""
    words = [w for w in re.findall(r"[A-Za-z]+", text) if len(w) > 3]
    return bool(words) and sum(w[0].isupper() for w in words) / len(words) > MAX_TITLE_CASE


def inside_longer_name(text: str, start: int, end: int, mentions) -> bool:
    """The mention [start, end) sits inside a longer name no mention covers: a
    capitalised word right before it (not opening a sentence) or right after it, one
    space apart and in no other mention ("Wales" in "BBC Wales Scrum V", "America" in
    "Central America"); never titles, dates or a title-case headline."""
    if is_title_case(text):
        return False
    def untagged(s, e):
        return not any(ms < e and s < me for ms, me, *_ in mentions if (ms, me) != (start, end))

    before = re.search(r"(\S+) $", text[max(0, start - 40):start])
    if before and _name_word(before.group(1)):
        ws = start - 1 - len(before.group(1))
        if untagged(ws, start - 1) and not _SENTENCE_OPENING.search(text[max(0, ws - 4):ws]):
            return True
    if is_demonym(text[start:end]):
        return False      # an adjective before a name: "a Russian Su-27", "Scottish Executive"
    after = re.match(r" ([A-Za-z][\w&-]*)((?: [A-Z][\w&-]*){0,2})", text[end:end + 60])
    return bool(after and _name_word(after.group(1))
                and untagged(end + 1, end + 1 + len(after.group(1)))
                and not any(w.lower() in ROLE_WORDS for w in after.group(0).split()))


_DEMONYM_FORM = re.compile(r"[A-Z][a-z]+(?:an|ese|ish|ic|i)")


def hyphenated_identity(text: str, start: int, end: int) -> bool:
    """A demonym that is one side of a hyphenated identity of two nationality words
    ("African-American", "Irish-Americans", "Mexican-American"): the compound names a
    group of its own, so "American" there answers for neither the United States nor
    Americans (a held-out reader: "contemporary young @placeholder" answered by the
    "American" of "an African-American slave"). ReCoRD marks both sides as entities, so
    the mention stays; two country names joined ("US-China talks") are two entities."""
    if not is_demonym(text[start:end]):
        return False
    before = re.search(r"(?<![\w-])([A-Z][a-z]+)-$", text[max(0, start - 20):start])
    after = re.match(r"-([A-Z][a-z]+)(?![\w-])", text[end:end + 20])
    return any(m and (is_demonym(m.group(1)) or _DEMONYM_FORM.fullmatch(m.group(1)))
               for m in (before, after))


RULES = (
    Repair("join_given_name", "a one-word name before a person's name is its given name "
           "(the model tagged the two apart, the first with another label)"),
    Repair("person_demonym", "a demonym used as a noun after a determiner is a person "
           "reference, not the country"),
    Repair("inside_longer_name", "a mention inside a longer name no mention covers is "
           "no mention of the shorter name's entity"),
    Repair("hyphenated_identity", "a demonym inside a hyphenated identity of two "
           "nationality words names that group, not its country or people"),
)


def not_an_answer(text: str, start: int, end: int, label: str, spans) -> str:
    """Why a mention is in no answer set and gives no query ("" if it may): the
    `person_demonym`, `hyphenated_identity` and `inside_longer_name` rules of `RULES`."""
    if label in DEMONYM_LABELS and person_demonym(text, start, end):
        return "person_demonym"
    if hyphenated_identity(text, start, end):
        return "hyphenated_identity"
    if label != "PERSON" and inside_longer_name(text, start, end, spans):
        return "inside_longer_name"
    return ""

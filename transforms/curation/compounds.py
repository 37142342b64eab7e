"""Names of several words, kept whole or split as ReCoRD marks them. Pure functions over
a text and character offsets (entities.py and consistency.py call them).

- a name goes on over the number after it: "Formula 4", "Formula One", "Progress 59",
  "Hanover 96" (ReCoRD marks "Season 41" whole), so no "Formula" is cut out of "ADAC
  Formula 4"; a person's stage name too, over a number that is no year ("Andre 3000");
- a number before a capitalised word no name goes on from is a stage name's first word:
  "rapper 50 Cent" (the model tags "50" a number, or "50 Cent" an amount);
- a demonym right before such a name is part of it: "German Formula 4" (consistency.py);
- two names joined by a preposition are two entities: "Rayo against Real Madrid";
- so are two names of the article joined by a hyphen ("Los Angeles-San Francisco") or a
  possessive ("Tom Wood's Northampton");
- and two names glued together with nothing between them (a Daily Mail caption run into
  the text: "Matthew Stevens O'Sullivan", "Malaga Benzema", "Fowler Fowler";
  `split_glued_person`).
"""
import re
from typing import List, Optional, Tuple

from transforms.core.constants import PERSON
from transforms.curation.wordlists import CALENDAR_WORDS, NUMBER_WORDS

_CAP = re.compile(r"[A-Z]")
# a number that ends a name, and what may follow it: the end, a word that is not a name's
# ("RBS 6 Nations" goes on), closing punctuation, or a full stop that ends the text
# ("6. Manny" is a list's number, not a name's)
_NUMBER_TAIL = re.compile(r" (\d{1,3}|(?!(?:1[89]|20)\d\d\b)\d{4,5}|%s)"
                          r"(?=$|\s+[^A-Z\s]|\s*$|[,;:)'’\"”!?]|\.$)"
                          % "|".join(sorted(NUMBER_WORDS)))
# spaCy labels a number may carry and still end a name (not a date, an age or an amount)
NAME_NUMBER_LABELS = ("", "CARDINAL")


def numbered_name(text: str, start: int, end: int, label: str,
                  number_label: str = "") -> Tuple[int, str]:
    """(end, label) of a name extended over the number right after it: "Formula" + " 4"
    -> "Formula 4", "Formula One", "Progress 59", "Hanover 96". Not a date or an amount
    (`number_label`, spaCy's label of the number: "100 years ago" is a DATE), a list's
    number ("Los Angeles 6. Manny"), a score or a range ("2-1", "4-0"), nor a number a
    longer name goes on after ("RBS 6 Nations": left as it was). A name that ends
    in a number is not a person's: a PERSON label becomes ORG."""
    if number_label not in NAME_NUMBER_LABELS or not _CAP.match(text[start:start + 1]):
        return end, label
    m = _NUMBER_TAIL.match(text, end)
    if not m:
        return end, label
    if label == PERSON and len(m.group(1)) >= 4 and m.group(1).isdigit():
        return m.end(1), label          # "Andre 3000": a stage name, still a person
    return m.end(1), ("ORG" if label == PERSON else label)


# a number, then one capitalised word the model left untagged or took into an amount, then
# a word that goes on in lower case or punctuation: "rapper 50 Cent topped", "50 Cent's"
_NUMBER_NAME = re.compile(r"(\d{1,3}) ([A-Z][a-z]+)(?=['’]s\b|[\s,;:.!?)'’\"”]+(?:[a-z(]|$)|$)")
# the number and the name right after it are an amount or a date, not a stage name
NOT_STAGE_NAMES = CALENDAR_WORDS | {"Euro", "Euros", "Dollars", "Pounds", "Degrees"}


def number_first_name(text: str, start: int, number_label: str,
                      before: str) -> Optional[Tuple[int, int]]:
    """(start, end) of a stage name that opens with a number ("US rapper 50 Cent topped
    Sound of 2003", "Chart-topper 50 Cent, real name ...") where the model tagged the
    number alone (CARDINAL) or number and name an amount (MONEY); `before` is the text
    before `start`. Not after a capitalised word (a longer name goes on over the number:
    "BMW 3 Series", "Radio 5 Live"), not at a sentence start (a headline's or a list's
    number), not a date or a currency word, not a plural ("40 Tories", "3 Oscars": a
    count)."""
    if number_label not in ("CARDINAL", "MONEY"):
        return None
    m = _NUMBER_NAME.match(text, start)
    if not m or m.group(2) in NOT_STAGE_NAMES or m.group(2).endswith("s"):
        return None
    prev = re.search(r"(\S+)\s*$", before)
    if prev is None or not re.search(r"[a-z]$", prev.group(1)):
        return None
    return m.start(1), m.end(2)


def ends_in_number(span: str) -> bool:
    """A name made with a number: "Formula 4", "League Two"."""
    last = span.rsplit(" ", 1)[-1]
    return " " in span and (last.isdigit() or last in NUMBER_WORDS)


def split_possessive_pair(text: str, start: int, end: int, known: set) -> List[Tuple[int, int]]:
    """"Tom Wood's Northampton" -> "Tom Wood", "Northampton" when both sides are entities
    of the article on their own; "Franklin's Gardens" and "Crabbie's Grand National" stay
    whole."""
    span = text[start:end]
    for m in re.finditer(r"['’]s (?=[A-Z])", span):
        left, right = span[:m.start()], span[m.end():]
        if left in known and right in known:
            return [(start, start + m.start()), (start + m.end(), end)]
    return [(start, end)]


def split_hyphen_pair(text: str, start: int, end: int, known: set) -> List[Tuple[int, int]]:
    """'Los Angeles-San Francisco' -> two spans when both sides are entities of the article
    (or countries); 'Louis-Dreyfus' and 'Auschwitz-Birkenau' stay whole."""
    span = text[start:end]
    for m in re.finditer(r"(?<=[a-z.])-(?=[A-Z])", span):
        left, right = span[:m.start()], span[m.end():]
        if left in known and right in known:
            return [(start, start + m.start()), (start + m.end(), end)]
    return [(start, end)]


# words that join two names and are in neither ("Rayo against Real Madrid")
_BETWEEN_NAMES = re.compile(r" (?:against|vs\.?|v\.?|versus|beat|beats|at|in|from|with|"
                            r"after|before|over|to) (?=[A-Z])")


def split_at_preposition(text: str, start: int, end: int) -> List[Tuple[int, int]]:
    """"Rayo against Real Madrid" -> "Rayo", "Real Madrid": a lower-case word that joins two
    capitalised names (a match, a place) is in neither. "Bank of England" and "Newcastle
    upon Tyne" stay whole."""
    out, cursor = [], start
    for m in _BETWEEN_NAMES.finditer(text, start, end):
        if text[cursor:cursor + 1].isupper():
            out.append((cursor, m.start()))
            cursor = m.end()
    out.append((cursor, end))
    return out


def split_glued_person(text: str, start: int, end: int, label: str, tagged: dict,
                       seen, adjacent=frozenset()) -> List[Tuple[int, int]]:
    """A PERSON span written once that is two names of the article glued together: its
    last words a person's name the article gives on its own, its first words a name the
    article tags on its own as something else ("Malaga Benzema", "Everton Gomis"), a
    person's full name ("Matthew Stevens O'Sullivan") or the same name again ("Fowler
    Fowler"). `tagged`: {mention text: its labels in the article}; `seen`: how often
    each mention text occurs; `adjacent`: (left, right) texts of mentions the model made
    one space apart (the same name cut in two elsewhere: "Chansey" ORG + "McMillin" is no
    evidence that "Chansey" is another entity). "John Terry" (a first name alone is no
    other entity) and a name the article writes twice stay whole."""
    span = text[start:end]
    if label != PERSON or seen[span] > 1:
        return [(start, end)]
    words = [(m.start() + start, m.end() + start) for m in re.finditer(r"\S+", span)]
    for k in range(len(words) - 1, 0, -1):
        left, right = text[start:words[k - 1][1]], text[words[k][0]:end]
        if PERSON not in tagged.get(right, ()) or (left, right) in adjacent:
            continue
        other = tagged.get(left, set())
        if left == right or other - {PERSON} or (" " in left and PERSON in other):
            return [(start, words[k - 1][1]), (words[k][0], end)]
    return [(start, end)]

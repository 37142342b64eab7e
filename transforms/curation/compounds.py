"""Names of several words, kept whole or split as ReCoRD marks them. Pure functions over
a text and character offsets (entities.py and consistency.py call them).

- a name goes on over the number after it: "Formula 4", "Formula One", "Progress 59",
  "Hanover 96" (ReCoRD marks "Season 41" whole), so no "Formula" is cut out of "ADAC
  Formula 4";
- a demonym right before such a name is part of it: "German Formula 4" (consistency.py);
- two names joined by a preposition are two entities: "Rayo against Real Madrid";
- so are two names of the article joined by a hyphen ("Los Angeles-San Francisco") or a
  possessive ("Tom Wood's Northampton").
"""
import re
from typing import List, Tuple

from transforms.curation.wordlists import NUMBER_WORDS

PERSON = "PERSON"
_CAP = re.compile(r"[A-Z]")
# a number that ends a name, and what may follow it: the end, a word that is not a name's
# ("RBS 6 Nations" goes on), closing punctuation, or a full stop that ends the text
# ("6. Manny" is a list's number, not a name's)
_NUMBER_TAIL = re.compile(r" (\d{1,3}|%s)(?=$|\s+[^A-Z\s]|\s*$|[,;:)'’\"”!?]|\.$)"
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
    return m.end(1), ("ORG" if label == PERSON else label)


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

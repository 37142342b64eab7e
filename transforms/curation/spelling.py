"""Spellings of one non-person name that coreference (coref.py) joins, beyond exact match
and the person-only typo rule (`name_match.is_typo_of`). Pure functions over normalised
names (`name_match.normalise_name`); no Beam, no model.

- a one-word organisation name clipped to its first letters, with or without the
  name's last letter, is the name: "Juve" for "Juventus", "Barca" for "Barcelona"
  (`is_clipped_form`): four letters or more kept, four or more left out ("Green" is no
  "Greening"), the short form
  tagged an organisation, exactly one name of the article it clips;
- a name written with one letter doubled or tripled where the other spelling has it once
  or twice is the name: "Hezbolllah" / "Hezbollah" (`is_doubled_letter_variant`): a typing
  slip, never a different letter ("Colombia" / "Columbia" stay two), five letters or more;
- an acronym in capitals made of the first letters or syllables of a name's words in
  order, some words left out, is the name: "NORAD" for "North American Aerospace
  Defense Command" (NOR-A-D; `is_syllable_acronym`): four letters or more, the first
  word's piece first, one piece of two letters or more, half the words at least used,
  three words or more (function words aside);
- a tail of two words or more links across labels where neither is a place's (GPE or
  LOC): "Explorers Grand Slam" (ORG) / "Grand Slam" (FAC), a facility label a small model
  gives events and titles (`is_facility_tail`); one-word tails and places stay apart
  ("New York" / "York", "Central America" / "America");
- two names written the same but for apostrophes, a hyphen for a space or accents are
  one name: "King's Cross" / "Kings Cross", "Al-Qaeda" / "Al Qaeda", "Zürich" / "Zurich"
  (`spelling_key`; a final possessive is dropped first, so "William's" stays
  "William", never "Williams"), where NER tags them alike (both a person's or neither,
  both a group's or neither, genders compatible); and a name of three words or more
  ending with such a spelling of another name of two words or more is that name, as
  `coref_links.trailing_targets` reads exact tails: "London Kings Cross" / "King's
  Cross" (`join_spelling_keys`).
"""
import functools
import re
from typing import Optional

from transforms.curation.countries import is_known_place
from transforms.curation.gender import compatible
from transforms.curation.name_match import normalise_name, trailing_names

MIN_CLIPPED_KEPT = 4
MIN_CLIPPED_LEFT_OUT = 4
MIN_DOUBLED = 5
TRUE_PLACE_LABELS = frozenset({"GPE", "LOC"})


def is_clipped_form(short: str, long: str) -> bool:
    """'juve' clips 'juventus', 'barca' clips 'barcelona' (its first letters and its last):
    one word each, at least `MIN_CLIPPED_KEPT` letters kept and `MIN_CLIPPED_LEFT_OUT`
    left out."""
    if " " in short or " " in long or not short.isalpha() or not long.isalpha():
        return False
    if len(short) < MIN_CLIPPED_KEPT or len(long) - len(short) < MIN_CLIPPED_LEFT_OUT:
        return False
    return long.startswith(short) or (short[-1] == long[-1]
                                      and long.startswith(short[:-1])
                                      and len(short) - 1 >= MIN_CLIPPED_KEPT)


_REPEATED = re.compile(r"(.)\1+")


@functools.lru_cache(maxsize=4096)    # asked for each pair of an article's names
def _collapsed(text: str) -> str:
    return _REPEATED.sub(r"\1", text)


def is_doubled_letter_variant(a: str, b: str) -> bool:
    """'hezbolllah' / 'hezbollah': the same letters once each run of a repeated letter is
    written once, and different as written; both of `MIN_DOUBLED` letters or more."""
    return (a != b and min(len(a), len(b)) >= MIN_DOUBLED
            and _collapsed(a) == _collapsed(b))


MIN_SYLLABLE_ACRONYM = 4
MIN_SYLLABLE_NAME_WORDS = 3
_FUNCTION_WORDS = frozenset({"of", "and", "the", "for", "in", "on", "de", "la", "du", "&"})


def is_syllable_acronym(short: str, long: str) -> bool:
    """'norad' of 'north american aerospace defense command': `short` is pieces, each a
    prefix of a word of `long` (function words aside), the words in order, the first
    word's piece first; at least one piece of two letters (else it is a plain initialism,
    `name_match.is_acronym_of`) and at least half the words used."""
    words = [w for w in re.split(r"[\s-]+", long) if w and w not in _FUNCTION_WORDS]
    if " " in short or len(short) < MIN_SYLLABLE_ACRONYM \
            or len(words) < MIN_SYLLABLE_NAME_WORDS or not short.isalpha():
        return False
    need = (len(words) + 1) // 2

    def fits(i: int, j: int, used: int, syllable: bool) -> bool:
        if i == len(short):
            return syllable and used >= need
        if j == len(words):
            return False
        if j > 0 and fits(i, j + 1, used, syllable):      # a word left out
            return True
        word = words[j]
        for k in range(1, min(len(word), len(short) - i) + 1):
            if short[i:i + k] != word[:k]:
                break
            if fits(i + k, j + 1, used + 1, syllable or k >= 2):
                return True
        return False

    return fits(0, 0, 0, False)


def join_spelling_forms(plain, person: dict, group: dict, org: dict, union) -> None:
    """Join each non-person, non-group name to the one other name it clips
    (`is_clipped_form`, the short form an organisation's) or misspells with a repeated
    letter (`is_doubled_letter_variant`); two such names: neither."""
    ok = [n for n in plain if "#" not in n and not person[n] and not group[n]]
    for name in ok:
        targets = [w for w in ok if w != name and (
            (org[name] and is_clipped_form(name, w)) or is_doubled_letter_variant(name, w))]
        if len(targets) == 1:
            union(name, targets[0])


def is_facility_tail(tail: str, tail_label: Optional[str], name_label: Optional[str]) -> bool:
    """'grand slam' (FAC) ends 'explorers grand slam' (ORG): two words or more, no known
    place, and neither label a place's (GPE, LOC)."""
    return (len(tail.split()) >= 2 and not is_known_place(tail)
            and tail_label not in TRUE_PLACE_LABELS and name_label not in TRUE_PLACE_LABELS)


_FINAL_POSSESSIVE = re.compile(r"(?:['’]s|['’])\s*$", re.IGNORECASE)
_APOSTROPHES = re.compile(r"['’‘`]")
PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})


def spelling_key(text: str, label=None) -> str:
    """"King's Cross" and "Kings Cross" -> 'kings cross', "Al-Qaeda" -> 'al qaeda':
    the normal form (`name_match.normalise_name`, suffixes kept) once a final possessive
    is dropped, then the other apostrophes, and hyphens read as spaces."""
    bare = _FINAL_POSSESSIVE.sub("", text.strip())
    return normalise_name(_APOSTROPHES.sub("", bare).replace("-", " "), label, suffixes=False)


def spelling_keys(mentions, names) -> dict:
    """{name: its mentions' spelling keys} for the resolver's names (one per mention)."""
    keys = {}
    for mention, name in zip(mentions, names):
        if name and "#" not in name and not name.startswith("country:"):
            keys.setdefault(name, set()).add(spelling_key(mention[0], mention[1]))
    return keys


def join_spelling_keys(plain, keys: dict, person: dict, group: dict, gender: dict,
                       top: dict, union) -> None:
    """Join names that share a spelling key and are tagged alike ("King's Cross" /
    "Kings Cross"), and a name of three words or more to the one other name whose key
    its tail of two words or more spells, neither a person's nor a group's, no place
    label on either unless the tail is a facility's ("London Kings Cross" / "King's
    Cross"; `is_facility_tail`)."""
    by_key = {}
    for name in plain:
        for key in keys.get(name, ()):
            by_key.setdefault(key, []).append(name)
    for names in by_key.values():
        for other in names[1:]:
            a = names[0]
            if person[a] == person[other] and group[a] == group[other] \
                    and compatible(gender[a], gender[other]):
                union(a, other)
    for name in plain:
        if person[name] or group[name] or len(name.split()) < 3 or name not in keys:
            continue
        for tail in trailing_names(name):
            if len(tail.split()) < 2:
                continue
            found = {n for n in by_key.get(spelling_key(tail), ())
                     if n not in (name, tail) and not person[n] and not group[n]}
            if len(found) == 1:
                other = found.pop()
                if (top[other] not in PLACE_LABELS and top[name] not in PLACE_LABELS) \
                        or is_facility_tail(tail, top[other], top[name]):
                    union(name, other)
                break

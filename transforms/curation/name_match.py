"""How two written names compare (paper section 3.1, coreference): the normal form of a
name (titles, possessives, a leading "the", an organisation's legal or club suffix
dropped), its initials, and the name-part, short-form, acronym and one-edit typo tests
that `coref.RuleBasedResolver` links mentions with. Pure functions; no Beam."""
import functools
import re
import unicodedata

from rapidfuzz.distance import Levenshtein

from transforms.curation.names import (
    CAPITALS_ONLY_TITLES,
    CLUB_WORDS,
    GENERIC_ORG_WORDS,
    ORG_SUFFIXES,
    ROYAL_TITLES,
    TITLE_ABBREVIATIONS,
    TITLE_NOUNS,
    TITLE_PARTS,
)

# kept for callers that list titles; normalise_name reads the tables in names.py
TITLES = TITLE_ABBREVIATIONS | TITLE_NOUNS | ROYAL_TITLES
PERSON_LABELS = {"PERSON"}
# a nationality is never a person's name part, even inside a bad span ("Kenyan Daniel Rono");
# other labels are kept: small NER models often tag surnames as GPE or ORG
GROUP_LABELS = {"NORP"}
ORG_LABELS = {"ORG"}
_STOP_IN_ACRONYM = {"of", "and", "the", "for", "in", "on", "at", "de", "du", "la", "le", "&"}
CONNECTING_WORDS = frozenset({"of", "for"})   # no tail of a name past them is the name
_POSSESSIVE = re.compile(r"(?:'s|')$", re.IGNORECASE)
_INNER_POSSESSIVE = re.compile(r"(?<=\w)'s\b", re.IGNORECASE)
_NON_WORD = re.compile(r"[^\w\s'-]")
MIN_SURNAME_FOR_TYPO = 6
MIN_WORD_FOR_TYPO = 5


def _ascii_fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


_FULL_STOP = re.compile(r"(?<=\w)\.(?=\w)|\.")
_WORD_BREAK = re.compile(r"[\s-]+")


def name_words(text: str) -> list:
    """A name's words: accents folded, possessives and full stops dropped, lower case."""
    return list(_name_words(text))


@functools.lru_cache(maxsize=4096)    # coreference asks for each mention of the same name
def _name_words(text: str) -> tuple:
    text = _ascii_fold(text).strip().replace("’", "'").replace("‘", "'")
    text = _INNER_POSSESSIVE.sub("", _POSSESSIVE.sub("", text))
    text = _FULL_STOP.sub("", text)                        # "U.S." -> "US", "St." -> "St"
    text = _NON_WORD.sub(" ", text).lower()
    words = [w.strip("'") for w in text.replace("-", " - ").split()]
    return tuple(w for w in words if w)


def _is_title(word: str, label, capitals=frozenset()) -> bool:
    if word in CAPITALS_ONLY_TITLES and word not in capitals:
        return False              # "Di Palma" is a name, "DI Palma" a title and a name
    if word in TITLE_ABBREVIATIONS or (label is None and word == "miss"):
        return True
    return label in PERSON_LABELS and (word in TITLE_NOUNS or word in ROYAL_TITLES)


@functools.lru_cache(maxsize=4096)   # coreference asks again for every mention of a name
def normalise_name(text: str, label=None, suffixes: bool = True) -> str:
    """'Sen. Jeff Flake's' -> 'jeff flake'; 'the NBA' -> 'nba'; 'Miss King' -> 'king';
    "O'Donnell" -> "o'donnell"; 'General Motors' -> 'general motors' (a word title such
    as 'General' or 'Pope' is dropped from a person's name only); never empty for a
    name with a word in it ('Pope' -> 'pope'); an organisation's legal or club suffix is
    dropped ('Liverpool FC' -> 'liverpool') unless `suffixes` is False."""
    words = name_words(text)
    capitals = {w.strip(".,").lower() for w in text.split() if w.strip(".,").isupper()}
    while len(words) > 1 and words[0] == "the":
        words = words[1:]
    while len(words) > 1 and (_is_title(words[0], label, capitals) or (
            label in PERSON_LABELS and words[0] in TITLE_PARTS and len(words) > 2
            and _is_title(words[1], label, capitals))):
        if words[1] in ("of", "-"):
            break                     # "Duchess of Cambridge" is a name, not a title
        words = words[1:]
    while len(words) > 1 and words[-1] in {"jr", "sr"}:
        words = words[:-1]
    if label not in PERSON_LABELS and suffixes:
        while len(words) > 1 and words[-1] in ORG_SUFFIXES:
            words = words[:-1]
        if len(words) > 2 and " ".join(words[-2:]) == "football club":
            words = words[:-2]
    return " ".join(words).replace(" - ", "-")


@functools.lru_cache(maxsize=4096)    # asked for each pair of an article's names
def initials(name: str) -> str:
    """'national basketball association' -> 'nba' (function words skipped)."""
    words = [w for w in _WORD_BREAK.split(name) if w and w not in _STOP_IN_ACRONYM]
    return "".join(w[0] for w in words) if len(words) >= 2 else ""


def is_acronym_of(short: str, long: str) -> bool:
    return " " not in short and len(short) >= 2 and initials(long) == short


def acronym_of_any(short: str, longs) -> bool:
    """`is_acronym_of(short, long)` for one of `longs` (the test on `short` made once)."""
    return " " not in short and len(short) >= 2 and any(initials(n) == short for n in longs)


def is_name_part(alias: str, full: str) -> bool:
    """'morgan' is the given name or surname of 'tracy morgan'."""
    parts = full.split()
    return " " not in alias and len(parts) >= 2 and alias in (parts[0], parts[-1])


def is_short_form(alias: str, full: str) -> bool:
    """'united' for 'manchester united', 'arsenal' for 'arsenal ladies' (the last word,
    or the first of a name of two words; never a generic word). The first word of a
    longer name is what it is named after, not the name: 'hillsborough' (the disaster)
    is not 'hillsborough family support group', 'virgin' not 'virgin atlantic airways';
    a place's name is not its body's ('ferguson' / 'ferguson police', `PLACE_BODIES`)."""
    parts = full.split()
    ends = (parts[0], parts[-1]) if len(parts) == 2 else (parts[-1],)
    if len(parts) == 2 and alias == parts[0] and parts[1] in PLACE_BODIES:
        return False          # "Ferguson Police" is the town's police, not the town
    return (" " not in alias and len(parts) >= 2 and alias in ends
            and alias not in GENERIC_ORG_WORDS and len(alias) >= 3)


# a place's own bodies: "Ferguson" (the town, tagged ORG) is not "Ferguson Police"
PLACE_BODIES = frozenset({"police", "council", "government", "county", "state", "army",
                          "force", "forces", "court", "department", "assembly", "parliament"})


def is_club_word_alias(alias: str, full: str) -> bool:
    """'city' for 'manchester city', whatever label NER gave the club's name: a club's last
    word (`names.CLUB_WORDS`, generic elsewhere) tagged an organisation alone is the club;
    two clubs ending with it make it ambiguous (coref's rule for several targets)."""
    parts = full.split()
    return len(parts) >= 2 and parts[-1] == alias and alias in CLUB_WORDS


def opens_longer_name(alias: str, full: str) -> bool:
    """'detroit' opens 'detroit red wings': no short form of it (`is_short_form`), but a
    candidate all the same, so the word is ambiguous beside 'detroit tigers'."""
    parts = full.split()
    return (" " not in alias and len(parts) >= 3 and alias == parts[0]
            and alias not in GENERIC_ORG_WORDS)


def trailing_names(name: str) -> list:
    """The names a name of several words ends with, longest first: 'gran colombia' ->
    ['colombia']; 'trainwreck amy schumer' -> ['amy schumer', 'schumer']; never what
    follows a function word ('recording industry of america' does not end in a name),
    nor anything after a connecting word: the words after "of" name what the name is
    of, not the name ('red bulls of daniil kvyat', an NER span gluing a team and its
    driver, does not end in 'kvyat'; 'bank of new york' not in 'york')."""
    words = name.split()
    joins = [k for k, w in enumerate(words) if w in CONNECTING_WORDS]
    last = joins[-1] if joins else len(words)
    return [" ".join(words[k:]) for k in range(1, len(words))
            if words[k] not in GENERIC_ORG_WORDS and words[k - 1] not in _STOP_IN_ACRONYM
            and k <= last]


def is_typo_of(a: str, b: str) -> bool:
    """One edit apart, inside a long enough word (see the module docstring)."""
    if a == b or Levenshtein.distance(a, b) != 1:
        return False
    wa, wb = a.split(), b.split()
    if len(wa) >= 2 and len(wb) >= 2:
        if len(wa) != len(wb):
            return False
        diff = [(x, y) for x, y in zip(wa, wb) if x != y]
        return len(diff) == 1 and min(len(diff[0][0]), len(diff[0][1])) >= MIN_WORD_FOR_TYPO
    return len(wa) == len(wb) == 1 and min(len(a), len(b)) >= MIN_SURNAME_FOR_TYPO

"""Initialisms and model codes for coreference (issue 32, item 2): answer sets that are
exactly the entity. Pure functions; each rule is in `RULES` with its reason.

- an initialism written in capitals ("UVA", "UVa", "N.D.P.") is the one multi-word name of
  the article whose initials it spells, in a looser reading than `name_match.initials`:
  every content word gives its first letter, a function word ("of", "the", "and", "for")
  may give its own or none ("DoD" = Department of Defense), and the last word may give
  two, its first and its last, as a contraction abbreviates a word ("UVA" = University
  of VirginiA, as "Va." the state, "Dr" Doctor; not "AAA" for "Apple ArcadE")
  (`spells_initials`; never a name with the initialism for a word: "EMI" / "EMI
  Music", as `name_match` keeps "IPTV" from "IPTV World Forum"); coref.py asks it only where the exact initials find no name, and
  two names it spells make it ambiguous (no link);
- a short form defined in brackets may take more than one letter of a word: "Economic
  Community of West African States (Ecowas)" (`spells_prefixes`, brackets only);
- a short form written in brackets after a name the model tagged, even where the model
  did not tag the short form there, defines it for the whole article ("Unmanned Aircraft
  Systems (UAS)"): `defined_short_forms`;
- a longer name that adds a model or product code to a name is another entity: "Navy
  MH-60R" (a helicopter) is not "Navy" (the service), "Boeing 737" not "Boeing"
  (`adds_model_code`). A code is a word with a digit and a letter or hyphen ("MH-60R",
  "F-35", "A380") or a number of three digits or more ("737"); two digits stay a club's
  name ("Schalke 04" is Schalke), and a year is an edition of the same thing ("the 2020
  Sentra" is the Sentra, "2014 World Cup" the World Cup).
"""
import functools
import re
from typing import Iterable, List, NamedTuple, Tuple

FUNCTION_WORDS = frozenset({"of", "the", "and", "for", "&"})
MIN_LETTERS, MAX_LETTERS = 2, 6
_BRACKETED = re.compile(r" \(([A-Z][A-Za-z.]{1,11})\)")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_CODE = re.compile(r"^(?=.*\d)(?:(?=.*[a-z-]).+|\d{3,})$")


class InitialismRule(NamedTuple):
    name: str
    reason: str


_POSSESSIVE_END = re.compile(r"['’]s?$")


def is_initialism(text: str) -> bool:
    """'UVA', 'UVa', 'N.D.P.', "FAA's": 2-6 letters, the first a capital, capitals but for
    at most one lower-case letter, nothing else but dots and a possessive."""
    core = _POSSESSIVE_END.sub("", text.strip()).replace(".", "")
    if not (MIN_LETTERS <= len(core) <= MAX_LETTERS and core.isalpha() and core[0].isupper()):
        return False
    lower = sum(c.islower() for c in core)
    return lower <= 1 and len(core) - lower >= 2


def _function_word(match, word: str, short: str, i: int, j: int) -> bool:
    """A function word gives no letter or its first (both readings of a short form)."""
    return match(i + 1, j) or (j < len(short) and short[j] == word[0] and match(i + 1, j + 1))


def spells_initials(short: str, name: str) -> bool:
    """`short` (normalised, lower case) spells the initials of `name` (normalised, two
    content words or more) in the reading of the module docstring."""
    words = [w for w in re.split(r"[\s-]+", name) if w]
    if not short.isalpha() or short in words or sum(w not in FUNCTION_WORDS for w in words) < 2:
        return False          # "EMI" is no initialism of "EMI Music": it is written there
    last = max(i for i, w in enumerate(words) if w not in FUNCTION_WORDS)

    def match(i: int, j: int) -> bool:
        if i == len(words):
            return j == len(short)
        w = words[i]
        if w in FUNCTION_WORDS:
            return _function_word(match, w, short, i, j)
        if j >= len(short) or short[j] != w[0]:
            return False
        if match(i + 1, j + 1):
            return True
        return (i == last and j + 2 == len(short) and len(w) > 2 and short[j + 1] == w[-1]
                and match(i + 1, j + 2))

    return MIN_LETTERS <= len(short) <= MAX_LETTERS and match(0, 0)


def spells_prefixes(short: str, name: str) -> bool:
    """`short` (lower case, one word) is made of the starts of `name`'s words in order, as
    BBC style writes a bracket definition's short form: "ecowas" = ECOnomic community ...
    ("Co" of "Community"), "camra" = CAMpaign for Real Ale. Every content word gives 1-4
    letters, a function word its first letter or none; two content words or more, and the
    short form is no word of the name ("nhs" / "NHS Scotland"). Only for a short form
    defined in brackets: on free text it would join "Rome" and "Roman Empire"."""
    words = [w for w in re.split(r"[^a-z]+", name.lower()) if w]
    if (not short.isalpha() or short in words or not MIN_LETTERS <= len(short) <= 8
            or sum(w not in FUNCTION_WORDS for w in words) < 2):
        return False

    @functools.lru_cache(maxsize=None)
    def match(i: int, j: int) -> bool:
        if i == len(words):
            return j == len(short)
        w = words[i]
        if w in FUNCTION_WORDS:
            return _function_word(match, w, short, i, j)
        return any(short[j:j + k] == w[:k] and match(i + 1, j + k)
                   for k in range(1, min(4, len(w)) + 1) if j + k <= len(short))
    return match(0, 0)


def is_model_code(word: str) -> bool:
    """'mh-60r', 'f-35', 'a380', '737'; not '04' (a club's year), '2020' (a year) nor a
    plain word."""
    return bool(_CODE.match(word)) and not _YEAR.match(word)


def adds_model_code(short: str, long: str) -> bool:
    """`long` (normalised) is `short`'s words plus words of which one is a model code:
    'navy mh-60r' adds 'mh-60r' to 'navy'."""
    codes = _model_codes(long)
    return bool(codes) and bool(codes - set(short.split()))


@functools.lru_cache(maxsize=4096)    # coreference asks for each pair of an article's names
def _model_codes(name: str) -> frozenset:
    """The words of `name` that are model codes."""
    return frozenset(w for w in name.split() if is_model_code(w))


def defined_short_forms(text: str, mentions: Iterable, is_short_form) -> List[Tuple[tuple, tuple]]:
    """((name text, label), (short text, label)) for each tagged name written "NAME
    (SHORT)" in `text` whose bracketed word the model left untagged there;
    `is_short_form(name, label, short)` decides whether SHORT abbreviates NAME. The short form
    gets the name's label (it only names the pair for coreference)."""
    starts = {m.start for m in mentions}
    out = []
    for m in mentions:
        hit = _BRACKETED.match(text, m.end)
        if hit and hit.start(1) not in starts and is_short_form(m.text, m.label, hit.group(1)):
            out.append(((m.text, m.label), (hit.group(1), m.label)))
    return out


RULES = (
    InitialismRule("spells_initials", "an initialism is the one name whose initials it "
                   "spells (function words optional, the last word abbreviated)"),
    InitialismRule("spells_prefixes", "a short form defined in brackets may take the first "
                   "letters of each word of the name (Ecowas)"),
    InitialismRule("defined_short_form", "a short form in brackets after a name defines it "
                   "for the article, tagged or not"),
    InitialismRule("adds_model_code", "a name plus a model code is another entity"),
)


_CAPITALS_WORD = re.compile(r"(?<![\w'’&.-])[A-Z]{3,6}(?![\w&-]|\.\w)")
NAME_LABELS = frozenset({"ORG", "GPE", "FAC", "LOC", "NORP", "EVENT", "PRODUCT",
                         "WORK_OF_ART", "LAW"})


def untagged_initialism_labels(labels: dict, texts) -> dict:
    """{initialism: label} for a word of 3-6 capitals the article writes and the model
    never tagged that is the strict initials (`name_match.initials`: each content word's
    first letter) of exactly one multi-word name of the article tagged anything but a
    person ("QPR" beside "Queens Park Rangers"): a mention of that name, which
    coreference then joins to it (so the answer set is whole). Not the looser reading of
    `spells_initials` ("SFO" is no "San Francisco", "NZD" no "New Zealand")."""
    from transforms.curation.name_match import initials, normalise_name
    names = {}
    for n, lab in labels.items():
        if lab in NAME_LABELS and " " in n.strip():
            names.setdefault(normalise_name(n, lab), set()).add(lab)
    out = {}
    for word in sorted({m.group() for t in texts for m in _CAPITALS_WORD.finditer(t)}):
        if word in labels:
            continue
        fits = [labs for norm, labs in names.items() if initials(norm) == word.lower()]
        if len(fits) == 1 and len(fits[0]) == 1:
            out[word] = next(iter(fits[0]))
    return out

"""A real person's gender where the passage shows it, for the gendered cues of the release
rule `only_compatible_entity` (`fine_types.py`; issue 32): "Ms @placeholder ... her
dental x-rays" is trivial when the answer is the passage's only woman. The evidence, in
order (the first that says something decides):

1. a title or kinship noun before a mention ("Mrs Clinton", "his wife June"), a spouse
   noun after its possessive ("Bhutto's husband": a woman; `curation.gender.mention_cue`);
2. the given name of a mention of two words or more: the project's lists
   (`curation.gender`), else the name statistics of the `nomquamgender` package (MIT; the
   share of women among a given name's bearers over 36 sources): a name counted 100 times
   or more and borne 90% or more by one sex (the package's own default threshold), so
   "Andy" is a man's name and "Jordan" (89% men) is no one's;
3. pronouns: a passage sentence (each highlight one) that names this one real person and
   no other, with pronouns of one sex only after the mention ("new videotape of Bhutto's
   assassination emerged, showing her slumping").

Evidence of both sexes at one level says nothing, and the next level is read; an unknown
gender never makes a person a rival's opposite. Pure functions; the name table loads once per process,
on first use (about 0.6 s; nothing downloads).
"""
import functools
import importlib.util
import os
import re
import unicodedata
from typing import Optional

from models.features import sentence_spans
from transforms.curation.gender import FEMALE, MALE, given_name_gender, mention_cue
from transforms.quality.aliases import plain, strip_title
from transforms.quality.neighbours import ROLE_WORDS

MIN_COUNT = 100          # bearers counted in the package's sources
MAX_UNCERTAINTY = 0.1    # p(woman) <= 0.1 or >= 0.9 (nomquamgender's default threshold)
_ENTRY = re.compile(r'"([a-z]+)": \[(\d+), (\d+), ([0-9.e-]+)')
_MALE_PRONOUNS = re.compile(r"\b(?:he|him|his|himself)\b", re.IGNORECASE)
_FEMALE_PRONOUNS = re.compile(r"\b(?:she|her|hers|herself)\b", re.IGNORECASE)


def name_table() -> dict:
    """{given name (lower case, ASCII): "m" | "f"} for the names `nomquamgender` counts
    often enough and gives one sex clearly; read from the package's data file without
    importing the package (which imports pandas)."""
    return _name_data()[0]


def is_given_name(word: str) -> bool:
    """`word` is a given name the lists or the statistics know, of either sex or both
    ("Jordan", "Sydney"): as a one-word mention it may be a person's."""
    return given_name_sex(word) is not None or _ascii(word.strip(".'’")) in _name_data()[1]


@functools.lru_cache(maxsize=1)
def _name_data() -> tuple:
    """(name_table(), every given name counted `MIN_COUNT` times or more)."""
    spec = importlib.util.find_spec("nomquamgender")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the nomquamgender package is missing: pip install the project "
                           "(setup.py lists it)")
    path = os.path.join(list(spec.submodule_search_locations)[0], "name_data.json")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out, names = {}, set()
    for m in _ENTRY.finditer(text):
        count, p_woman = int(m.group(3)), float(m.group(4))
        if count >= MIN_COUNT:
            names.add(m.group(1))
            if min(p_woman, 1 - p_woman) <= MAX_UNCERTAINTY:
                out[m.group(1)] = FEMALE if p_woman >= 0.5 else MALE
    return out, frozenset(names)


def _ascii(word: str) -> str:
    return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode().lower()


def name_gender(name: str) -> Optional[str]:
    """The sex a full name's given name shows ("Andy Rickell" -> "m"; "Judge Sarah Smith"
    -> "f": titles and role words go first, the statistics know "judge" and "dr" too);
    None for one word, an unknown name, or a name borne by both sexes."""
    words = strip_title(name).split()
    if len(words) < 2 or words[0].lower().rstrip(".") in ROLE_WORDS:
        return None
    return (given_name_gender(" ".join(words).lower())
            or name_table().get(_ascii(words[0].strip(".'’"))))


def given_name_sex(word: str) -> Optional[str]:
    """The sex one word shows as a given name (the lists, then the name statistics); None
    when it is no known given name or is borne by both sexes ("Glasgow", "Jordan")."""
    word = word.strip(".'’")
    return given_name_gender(word.lower() + " x") or name_table().get(_ascii(word))


def _one(found: set) -> Optional[str]:
    found.discard(None)
    return found.pop() if len(found) == 1 else None


def pronoun_evidence(passage: str, persons: dict) -> dict:
    """{key: "m" | "f"} from the sentences that name one real person alone (`persons`:
    {key: [mentions]}) and use pronouns of one sex only after that person's first
    mention in the sentence."""
    found = {}
    firsts = sorted((m["start"], m["end"], key) for key, ms in persons.items() for m in ms)
    for s, e in sentence_spans(passage):
        inside = [(start, end, key) for start, end, key in firsts if s <= start < e]
        if not inside or len({key for _, _, key in inside}) > 1:
            continue
        after = passage[inside[0][1]:e]          # "He Jiankui" gives himself no "he"
        male, female = bool(_MALE_PRONOUNS.search(after)), bool(_FEMALE_PRONOUNS.search(after))
        if male != female:
            found.setdefault(inside[0][2], set()).add(MALE if male else FEMALE)
    return {key: g for key, gs in found.items() if (g := _one(set(gs)))}


def person_genders(passage: str, persons: dict) -> dict:
    """{key: "m" | "f" | None} for the real persons `persons` ({key: [mentions]}), by the
    evidence of the module docstring, in its order."""
    pronouns = pronoun_evidence(passage, persons)
    out = {}
    for key, ms in persons.items():
        cue = _one({mention_cue(passage, m["start"], m["end"]) for m in ms})
        name = _one({name_gender(m.get("text") or "") for m in ms})
        out[key] = cue or name or pronouns.get(key)
    return out


_WOMAN_TITLE = re.compile(r"\b(?:mrs|ms|miss)\.?\s+$", re.IGNORECASE)
_MAN_TITLE = re.compile(r"\bmr\.?\s+$", re.IGNORECASE)
TITLE_IN = re.compile(r"^(?:mr|mrs|ms|miss|dr)\.? ", re.IGNORECASE)   # a title opening a name


def title_genders(passage: str, mentions: list) -> set:
    """The sexes ("f", "m") a person's mentions show by themselves, before `person_genders`
    is read: a given name of the project's lists ("Helen Hamilton"), or a gendered title
    before a mention or opening it ("Mrs Clinton")."""
    out = set()
    for m in mentions:
        text = plain(m.get("text") or "")
        before = passage[max(0, m["start"] - 6):m["start"]]
        first = text.split()[0] + " " if text.split() else ""
        gender = given_name_gender(TITLE_IN.sub("", text).lower())
        if gender == FEMALE or _WOMAN_TITLE.search(before) or _WOMAN_TITLE.search(first):
            out.add(FEMALE)
        if gender == MALE or _MAN_TITLE.search(before) or _MAN_TITLE.search(first):
            out.add(MALE)
    return out

"""Line ends the loader's layout hides or invents (issue 32, curation; read by wraps.py).

Names a page broke over two lines:

A Daily Mail page breaks its lines where a picture stands, inside names too, and the
Hugging Face loader puts a wrap dot where each line ended: "Burberry Chief Creative
Officer Christopher . Bailey uploaded a personal thank you". Read as a sentence end, the
wrap dot cuts the name ("... Officer Christopher.") and gives a query with half a name.
The wrap dot between two capitalised words is no sentence end (`splits_name`) when
- the article writes the two words together elsewhere ("Christopher Bailey"), or
- the first is a given name (gender.py's lists) after a capitalised word ("Officer
  Christopher", "Mayor Boris") and the second a capitalised word that opens no sentence,
  followed by a lower-case word or a possessive ("Bailey uploaded", "Johnson's"); not
  after a royal or noble title, which takes the given name alone ("Prince George").
A caption ending with a name before a body line opening with one ("Kate with her son
George . Harry said") meets neither.

A line the loader left without a wrap dot, as it ended in a closing quote, run into a
sentence opener (fragments.MISSING_BREAK's form: "the photos he uploaded to his
'adventure blog' Currently, the kayaker ..."), is a line end (`QUOTE_LINE_END`: wraps.py
gives it its wrap dot, so a caption there is judged as a line). A line opening a
quotation with a speaker's first words ("'I'm not going to ...'") opens a sentence, even
after a line ending in a joining word ("... greets the crowd late on", a caption:
`opens_speech`). Pure functions; no Beam.
"""
import re

from transforms.curation.fragments import SENTENCE_OPENERS as OPENERS
from transforms.curation.gender import is_given_name
from transforms.curation.wordlists import SENTENCE_OPENERS

_TITLE_CASE = re.compile(r"^[A-Z][a-z]+(?:[A-Z'’-][A-Za-z]+)*$")     # "Bailey", "McDonald"
_WORD = re.compile(r"[A-Za-z][\w'’.-]*")
_POSSESSIVE = re.compile(r"['’]s?$")
# titles a given name alone follows: "Prince George", "Lady Mary", "Pope Francis"
_GIVEN_NAME_TITLES = frozenset({
    "Prince", "Princess", "King", "Queen", "Duke", "Duchess", "Lord", "Lady", "Sir", "Dame",
    "Pope", "Saint", "St", "Brother", "Sister", "Father", "Uncle", "Aunt", "Auntie"})


def _bare(word: str) -> str:
    return _POSSESSIVE.sub("", word.strip(",;:.!?\"“”()"))


def name_pairs(text: str) -> frozenset:
    """Each pair of title-case words the text writes next to each other, one space
    between ("Christopher Bailey"; a wrap dot between two words makes no pair)."""
    words = [m.group() for m in re.finditer(r"\S+", text)]
    return frozenset(f"{a} {_bare(b)}" for a, b in zip(words, words[1:])
                     if _TITLE_CASE.match(a) and _TITLE_CASE.match(_bare(b)))


def splits_name(before: str, after: str, names: frozenset = frozenset()) -> bool:
    """The wrap dot between `before` and `after` cuts one name in two: the module's rule."""
    left, right = before.split(), after.split()
    if not left or not right or not _TITLE_CASE.match(left[-1]):
        return False
    first, second = left[-1], _bare(right[0])
    if not _TITLE_CASE.match(second) or second in SENTENCE_OPENERS:
        return False
    if f"{first} {second}" in names:
        return True
    before_first = left[-2] if len(left) > 1 else ""
    carried = len(right) > 1 and right[1][:1].islower() or _POSSESSIVE.search(right[0])
    return (is_given_name(first) and bool(_TITLE_CASE.match(before_first))
            and before_first not in _GIVEN_NAME_TITLES and bool(carried))


# a closing quote after a word, then a sentence opener (fragments.MISSING_BREAK's openers)
QUOTE_LINE_END = re.compile(r"(?<=[a-z])['’”\"](?=[ \t]+(?:" + OPENERS
                            + r")(?:,|['’][a-z]+[ \t]+[a-z]|[ \t]+[a-z]))")
_SPEECH_LINE = re.compile(r"^[‘'\"“](?:I|I'm|I’m|I've|I’ve|We|We're|We’re|You|It's|It’s|"
                          r"My|Our|There's|There’s|This|That's|That’s)\s")


def opens_speech(line: str) -> bool:
    """The line opens a quotation with a speaker's first words ("'I'm not going ...")."""
    return bool(_SPEECH_LINE.match(line))


# TFDS's cnn_dailymail glues the wrap dot to the line's last word ("launch date of.
# iPhone", "it was a. generalisation"): given its loader space back where no sentence can
# end there (before a lower-case word, not after an abbreviation; after a lower-case
# article, "and", a determiner; not "of" or "his": "take advantage of."), so that
# wraps.py repairs it as it repairs " .". Only in an article with GLUED_LAYOUT_MIN such
# dots or more: a TFDS page has them by the dozen, other text one at most (a typo, a
# name left out: "... infection. was on form"; measured on ../shared/corpus and the
# held-out sets).
_GLUED_DOT = re.compile(r"(?<![\w.'’&-])([A-Za-z]+)\.(?= (?:([a-z])|[A-Z]))")
GLUED_LAYOUT_MIN = 3
_NO_END_WORDS = frozenset({"the", "a", "an", "and", "or", "into", "onto", "than", "their",
                           "its", "your"})
_ABBREVIATIONS = frozenset({
    "mr", "mrs", "ms", "dr", "st", "no", "nos", "sen", "sens", "rep", "reps", "gov", "gen",
    "lt", "col", "sgt", "capt", "cpl", "pvt", "maj", "adm", "supt", "insp", "fr", "msgr",
    "prof", "rev", "hon", "pres", "det", "esq", "jr", "sr", "inc", "co", "corp", "ltd",
    "llc", "plc", "dept", "univ", "vs", "etc", "approx", "cf", "al", "ca", "min", "sq",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "mt", "ft",
    "lbs", "oz", "ave", "blvd", "rd", "hwy", "bros", "est", "fig", "vol",
    # US states as AP style abbreviates them
    "ala", "ariz", "ark", "calif", "colo", "conn", "del", "fla", "ga", "ill", "ind", "kan",
    "ky", "la", "md", "mass", "mich", "minn", "miss", "mo", "mont", "neb", "nev", "okla",
    "ore", "pa", "tenn", "vt", "va", "wash", "wis", "wyo"})


def _wraps(m) -> bool:
    word = m.group(1)
    return bool(m.group(2) and len(word) > 1 and word.lower() not in _ABBREVIATIONS
                or word in _NO_END_WORDS)


def glued_dot_count(text: str) -> int:
    """How many glued wrap dots `spaced_glued_dots` would space in `text`."""
    return sum(_wraps(m) for m in _GLUED_DOT.finditer(text))


def spaced_glued_dots(text: str) -> str:
    """"date of. iPhone" -> "date of . iPhone"; "she said. The" stays."""
    return _GLUED_DOT.sub(lambda m: f"{m.group(1)} ." if _wraps(m) else m.group(0), text)

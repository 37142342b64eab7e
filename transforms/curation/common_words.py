"""Common English words the small NER model tags as names because where they stand
capitalised them (issue 32, trivial items). Pure functions over one article's segment
texts and (start, end, label) triples; consistency.py applies them before it settles one
label per name, and `RULES` names each with its reason.

en_core_web_sm reads a capital as a name: "Criminal complaint: Cop used his role ..."
gives PERSON "Cop", "Dubbed 'the Dehumaniser', it can ..." PERSON "Dubbed", "Software was
created by ..." ORG "Software", "Blurry man" PERSON "Blurry", the title-case headline "Who
Put The Marmite In The Fridge" ORG "Fridge"; and "Adventurer Tomasz Furmanek photographs
..." a person named "Adventurer Tomasz Furmanek". Such false names are fake distractors: a
query whose answer is the one person of its passage looks non-trivial to the release
rules, which count the passage's names by label.

The evidence, for each word, is two-fold:
- the word is a common English word: its lower-case form is frequent in English text
  (wordfreq's Zipf frequency, `COMMON_WORD_ZIPF`: about once in a million words or more;
  "cop" 4.4, "fridge" 4.0, "adventurer" 3.2; "furmanek" 0). Names are frequent words too
  ("bush" 4.5, "apple" 4.8, "obama" 4.9), so this alone is never enough;
- the article never writes it capitalised where no position explains the capital
  (`capitalised_by_position`: a segment, line or sentence start, after a colon, after an
  opening quote or bracket there, or anywhere in a title-case headline). A real name is
  capitalised mid-sentence somewhere ("shares in Apple", "President George W. Bush",
  "Juan Mata"); a common word capitalised by its position is not.
A given name of the lists ("Rose", "Bill"), a known place, a country, a demonym and an
acronym keep their tags whatever the evidence (`gender.is_given_name`,
`countries.is_known_place`); so does a group (NORP), a word capitalised by nature.
"""
import functools
import re
from typing import Dict, List, NamedTuple, Sequence, Set, Tuple

from transforms.core.constants import PERSON
from transforms.curation.countries import country_of, is_demonym, is_known_place
from transforms.curation.gender import is_given_name

Triple = Tuple[int, int, str]

# wordfreq's Zipf scale: log10 of a word's frequency per billion words; 3.0 is once per
# million. The words: cop 4.37, dubbed 3.81, software 4.77, fridge 4.02, blurry
# 3.27, adventurer 3.18, tycoon 3.16; unknown surnames ("furmanek") 0
COMMON_WORD_ZIPF = 3.0
# labels a word capitalised by nature carries ("Christian" NORP wherever it stands), and
# places, which the small model tags from the context ("the eastern Mediterranean"): only
# `consistency.is_common_word_opening` drops those, where the article writes the word in
# lower case
NATURAL_CAPITAL_LABELS = frozenset({"NORP", "GPE", "LOC"})
_WORD = re.compile(r"[A-Z][a-z]+")
# a capitalised word as written anywhere, before or after a hyphen too ("Nato-led",
# "pro-Trump"), not inside a word ("O'Neill" has no "Neill"); and whether a possessive
# follows it
_WRITTEN = re.compile(r"(?<!\w)(?<!\w['’.])([A-Z][a-z]+)(?!\w)(['’]s\b)?")
# what may stand before a word whose capital its position explains: the segment's or a
# line's start, a sentence's end or a colon (then closing quotes or brackets and space),
# then an opening quote or bracket; an initial's or a title's dot ends no sentence
# ("George W. Bush", "Mr. Cop")
_OPENING = re.compile(r"(?:^|\n\s*|(?<!\b[A-Z])(?<!\b[MDS][rt])(?<!\bMrs)[.!?:]"
                      r"[\"'’”)\]]*\s+)[\"'‘“(\[]?$")


class Repair(NamedTuple):
    name: str
    reason: str


RULES = (
    Repair("common_word_capitalised", "a one-word name that is a common English word the "
           "article capitalises only where a position explains the capital (a sentence "
           "or headline start, after a colon, a title-case headline) is no name"),
    Repair("descriptor_before_name", "a common noun capitalised only by its position, "
           "glued to the front of a person's full name, is no part of the name "
           "(\"Adventurer Tomasz Furmanek\" -> \"Tomasz Furmanek\")"),
)


@functools.lru_cache(maxsize=1)
def _dictionary() -> frozenset:
    from english_words import get_english_words_set
    return frozenset(get_english_words_set(["web2"], alpha=True))


# inflections a dictionary lists by their stem: "Dubbed" (dub), "Buses" (bus)
_INFLECTIONS = ("s", "es", "ed", "d", "ing", "ly")


def in_dictionary(word: str) -> bool:
    """The lower-case word, or its stem, is an entry of Webster's word list, where names
    are capitalised ("claudia", "morton" are not lower-case entries; "cop", "dub" are)."""
    w, words = word.lower(), _dictionary()
    stems = [w] + [w[:-len(x)] for x in _INFLECTIONS if w.endswith(x) and len(w) > len(x) + 2]
    stems += [x[:-1] for x in stems[1:] if x[-1] == x[-2]]       # "dubbed" -> "dub"
    return any(x in words for x in stems)


@functools.lru_cache(maxsize=8192)
def is_common_english(word: str) -> bool:
    """The word is an English word, not a name: a lower-case entry of the dictionary
    (`in_dictionary`) whose lower-case form is frequent (`COMMON_WORD_ZIPF`). wordfreq's
    and english-words' lists ship inside their packages: nothing is downloaded."""
    from wordfreq import zipf_frequency
    return in_dictionary(word) and zipf_frequency(word.lower(), "en") >= COMMON_WORD_ZIPF


# the short words a title-case heading leaves in lower case
HEADING_MINOR_WORDS = frozenset({"a", "an", "the", "and", "but", "or", "nor", "for", "on",
                                 "at", "to", "by", "of", "in", "with", "from", "as", "vs"})


@functools.lru_cache(maxsize=256)
def is_title_case_heading(text: str) -> bool:
    """A heading written in title case: no lower-case word but the short ones a title
    leaves (`HEADING_MINOR_WORDS`), two capitalised words of four letters or more ("Who Put
    The Marmite In The Fridge"). A sentence full of names keeps a lower-case verb
    ("Sources say President Donald Trump did not endorse Kelli Ward", "Kelli Ward met
    Trump on Twitter"), so the looser `split_names.is_title_case` would take its names'
    capitals for the heading's."""
    words = re.findall(r"[A-Za-z]+", text)
    return (all(w[0].isupper() or w in HEADING_MINOR_WORDS for w in words)   # stops early
            and sum(len(w) >= 4 and w[0].isupper() for w in words) >= 2)


def capitalised_by_position(text: str, start: int) -> bool:
    """The capital of the word at `start` is explained by where it stands: the start of
    the segment, of a line or of a sentence, right after a colon (an opening quote or
    bracket between), or a headline written in title case."""
    return bool(_OPENING.search(text, max(0, start - 8), start)) or is_title_case_heading(text)


def mid_sentence_capitals(texts: Sequence[str]) -> Set[str]:
    """The capitalised words ("Cop", "Apple") the article writes somewhere no position
    explains the capital, or as a possessive wherever it stands ("Labour's shadow
    minister", "Stoke's young goalkeeper" opening sentences: news writes a name's
    possessive far more than a common noun's): the evidence of a name."""
    out = set()
    for text in texts:
        if is_title_case_heading(text):
            continue
        for m in _WRITTEN.finditer(text):
            if m.group(1) not in out and (m.group(2) or not capitalised_by_position(
                    text, m.start())):
                out.add(m.group(1))
    return out


def position_only_word(word: str, mid_capitals: Set[str], lower_words=frozenset()) -> bool:
    """A capitalised word ("Cop") that is a common English word (`is_common_english`, or
    written in lower case in the article: `lower_words`) the article capitalises only
    where a position explains it, and no given name, place, country or demonym."""
    return (bool(_WORD.fullmatch(word)) and len(word) >= 3 and word not in mid_capitals
            and not is_given_name(word) and not is_known_place(word)
            and not country_of(word) and not is_demonym(word)
            and (word.lower() in lower_words or is_common_english(word)))


def is_common_word_capitalised(name: str, label: str, mid_capitals: Set[str],
                               lower_words=frozenset()) -> bool:
    """`common_word_capitalised`: a one-word name of any label but a group's that is
    `position_only_word` ("Cop" PERSON, "Software" ORG, "Fridge" ORG)."""
    return label not in NATURAL_CAPITAL_LABELS and position_only_word(name, mid_capitals,
                                                                      lower_words)


def descriptor_end(text: str, start: int, end: int, label: str,
                   mid_capitals: Set[str]) -> int:
    """`descriptor_before_name`: where a person's name starts after a leading common noun
    that only its position capitalised ("Adventurer Tomasz Furmanek" at a highlight's
    start -> "Tomasz Furmanek"), or `start`. The name left is a full name of two
    capitalised words or more, so "Will Smith", "Hope Solo" (two words) stay whole."""
    m = re.match(r"([A-Z][a-z]+) (?=[A-Z][\w'’.-]* [A-Z])", text[start:end])
    if label != PERSON or not m or not capitalised_by_position(text, start) \
            or not position_only_word(m.group(1), mid_capitals):
        return start
    return start + m.end()


def cut_descriptors(texts: Sequence[str], mention_lists,
                    mid_capitals: Set[str]) -> List[List[Triple]]:
    """The mentions with `descriptor_end` applied to each."""
    return [[(descriptor_end(t, s, e, lab, mid_capitals), e, lab) for s, e, lab in ms]
            for t, ms in zip(texts, mention_lists)]


def common_word_names(labels: Dict[str, str], mid_capitals: Set[str],
                      lower_words=frozenset()) -> Set[str]:
    """The names of `labels` ({name: label}) `is_common_word_capitalised` drops."""
    return {n for n, lab in labels.items()
            if is_common_word_capitalised(n, lab, mid_capitals, lower_words)}

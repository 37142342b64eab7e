"""Text in a news body that is not a sentence of the story (paper section 3.1, curation).

Three kinds reach news bodies with no markup left to tell them apart:
- Daily Mail stat boxes: a fact box of a player's record, "AGE: 27 CLUBS (League record
  only) Real Madrid (2006-09): 97 apps, 22 goals Valladolid (2009-13): 85 apps, 13 goals";
- CNN link headlines: the title of a linked story, a paragraph of its own in the rc-data
  layout ("Listen to Anne Frank's friends describe her concentration camp experience")
  and glued to the next sentence where paragraphs are lost ("A look at all of the charges
  Jurors will be asked to weigh ...").
- a football match's live text feed kept after a match report (XSum's BBC pages): "Foul
  by Joel Logan (Wrexham).", "James Marwood (Gateshead) wins a free kick.";
- and (read by the sentence and query rules, not cut here) two pieces of a page run
  together with no space, "abroadSit" (`has_glued_text`, `glued_around`).
None is a sentence: a query made from one reads as a list or a cut phrase (a stat box
gave queries of 64 tokens). `split_fragments` cuts them out of a paragraph as pieces of
their own; `NOT_STAT_BOX`, `NOT_LINK_HEADLINE` and `NOT_LIVE_FEED` (the
transforms/core/rules.py convention; context: clean.Piece, the source) name the pieces that are dropped and why
(clean.py's `PIECE_RULES`). Pure functions; no Beam.
"""
import re
from typing import List, Optional

from transforms.core.rules import Rule
from transforms.curation.wordlists import (
    CONTINUING_WORDS,
    NUMBER_WORDS,
    SENTENCE_OPENERS,
)

# ---------------------------------------------------------------- Daily Mail stat boxes
# an entry: a club or season, a bracket with a number, then counts ("97 apps, 22 goals")
_STATS = r"\d+ [a-z]+(?:, \d+ [a-z]+)*"
_ENTRY = (r"(?:[A-Z][\w'’.&-]*(?: [A-Z][\w'’.&-]*){0,3} )?\([^()]{0,30}\d[^()]{0,30}\):? "
          + _STATS)
# the box's heading: upper-case field names, numbers, a bracketed note ("AGE: 27 CLUBS
# (League record only)")
_HEADING = r"(?:(?:[A-Z][A-Z'’-]+:?|\d+|\([^()]{1,40}\)) )*"
STAT_BOX = re.compile(r"(?<!\S)" + _HEADING + _ENTRY + r"(?: " + _ENTRY + r")+(?!\S)")


def find_stat_boxes(text: str) -> List[tuple]:
    """(start, end) of each stat box: two or more entries of counts in a row."""
    return [(m.start(), m.end()) for m in STAT_BOX.finditer(text)]


def is_stat_box(piece: str) -> bool:
    return bool(STAT_BOX.fullmatch(piece.strip()))


# ---------------------------------------------------------------- CNN link headlines
MAX_HEADLINE_WORDS = 16
_TERMINAL_END = re.compile(r"[.!?:][\"'”’)\]]*$")
_WORD = re.compile(r"\S+")
# finite verbs a sentence after a glued headline opens with ("Jurors will", "The TSA called")
_FINITE = frozenset({
    "is", "was", "are", "were", "has", "have", "had", "will", "would", "can", "could",
    "should", "may", "might", "must", "did", "does", "do", "said", "says", "say", "told",
    "tells", "called", "calls", "wo", "won't", "isn't", "wasn't", "hasn't", "didn't",
})
# sentence openers (wordlists.py) and the plural nouns news sentences open with
_OPENERS = (SENTENCE_OPENERS - NUMBER_WORDS) | {
    "In", "On", "At", "For", "As", "With", "Jurors", "Prosecutors", "Investigators",
    "Authorities", "Witnesses", "Doctors", "Residents", "Critics", "Officers", "Lawmakers"}
# openers that start a sentence even after a capitalised word ("... the Armenians In her")
_AFTER_NAME = frozenset({"In", "The", "He", "She", "It", "They", "We", "But", "This"})
_ASKING = frozenset({"Why", "How", "What", "Who", "When", "Where", "Which"})
_ABBREVIATION = re.compile(r"^(?:[A-Z]\.)+$|^(?:Mr|Mrs|Ms|Dr|St|No|Sen|Rep|Gov|Gen|Lt|Col|"
                           r"Sgt|Capt|Prof|Rev|Jr|Sr|Inc|Co|Corp|Ltd|vs|Jan|Feb|Aug|Sept|Oct|"
                           r"Nov|Dec)\.$")


_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*$")


def _sentence_end(word: str) -> bool:
    return bool(_SENTENCE_END.search(word)) and not _ABBREVIATION.match(word)


def _capitalised(word: str) -> bool:
    core = word.lstrip("\"'“‘(")
    return core[:1].isupper()


def _opens_sentence(words: List[str], i: int) -> bool:
    """words[i] opens a sentence glued to the word before it: an opener followed by a
    lower-case word or a number ("The cost of", "In 2006,", "Jurors will"), or "The" and a
    name of up to three words followed by a finite verb ("The TSA called")."""
    w = words[i]
    nxt = words[i + 1] if i + 1 < len(words) else ""
    if w in _OPENERS and (nxt[:1].islower() or nxt[:1].isdigit()):
        return True
    if w not in ("The", "A", "An"):
        return False
    for k in range(i + 1, min(i + 4, len(words) - 1)):
        if not words[k][:1].isupper():
            return False
        if words[k + 1].lower() in _FINITE:
            return True
    return False


def headline_shaped(words: List[str]) -> bool:
    """A run of words that reads as a headline: short, opening with a capital or a number,
    no comma, no sentence end, and no finite verb unless it asks ("Why Turkey won't say
    the G-word ...")."""
    if not 2 <= len(words) <= MAX_HEADLINE_WORDS or not words[0][:1].isalnum():
        return False
    if not (words[0][:1].isupper() or words[0][:1].isdigit()):
        return False
    if any(w.endswith((",", ";")) or _sentence_end(w) for w in words):
        return False
    if words[0] in _ASKING:
        return True
    return not any(w.lower() in _FINITE or w.lower().endswith(("n't", "'s", "’s"))
                   for w in words)


def find_link_headlines(text: str) -> List[tuple]:
    """(start, end) of each headline glued to the start of the next sentence: from a
    sentence start, a headline-shaped run ending in a plain word, then a sentence that
    opens with no punctuation between ("... will be executed. A look at all of the charges
    Jurors will be asked to weigh ..."). The sentence after it must end within 80 words."""
    spans = list(_WORD.finditer(text))
    words = [m.group() for m in spans]
    out, start = [], 0
    for i in range(1, len(words)):
        prev = words[i - 1]
        if _sentence_end(prev) and (_capitalised(words[i]) or words[i][:1].isdigit()):
            start = i
            continue
        if i - start < 2 or not prev[-1:].isalnum() or prev.lower() in CONTINUING_WORDS:
            continue
        if prev[:1].isupper() and words[i] not in _AFTER_NAME:
            continue   # "The White House is", "Greater Manchester Police said": one name
        if not headline_shaped(words[start:i]) or not _opens_sentence(words, i):
            continue
        if not any(_sentence_end(w) for w in words[i:i + 80]):
            continue
        out.append((spans[start].start(), spans[i - 1].end()))
        start = i
    return out


def is_link_headline(piece: str, source: Optional[str]) -> bool:
    """A CNN piece of at most 16 words with no end punctuation: a linked story's title
    ("People we've lost in 2015", "Opinion: Sharp spike in death sentences")."""
    words = piece.split()
    return (source == "cnn" and 0 < len(words) <= MAX_HEADLINE_WORDS
            and not _TERMINAL_END.search(piece.strip()) and "(CNN)" not in piece)


# ---------------------------------------------------------------- splitting and rules
def split_fragments(text: str, source: Optional[str]) -> List[str]:
    """The paragraph cut so that each stat box (any source) and each glued link headline
    (CNN) is a piece of its own."""
    cuts = find_stat_boxes(text)
    if source == "cnn":
        cuts += find_link_headlines(text)
    if not cuts:
        return [text] if text.strip() else []
    pieces, cursor = [], 0
    for s, e in sorted(cuts):
        if s < cursor:
            continue
        pieces += [text[cursor:s], text[s:e]]
        cursor = e
    pieces.append(text[cursor:])
    return [p.strip() for p in pieces if p.strip()]


# ---------------------------------------------------------------- live match feeds
# A football match's live text feed (the wording of the Opta/BBC feed that match reports
# keep after "Match ends, A 1, B 1."): event lines, not sentences of the story. A line
# opens with an event's name, or is a player and his club in brackets, then an event.
_FEED_EVENT = re.compile(
    r"^(?:Attempt (?:missed|saved|blocked)\.|Goal!|Own Goal by|Corner, |Offside, |"
    r"Substitution, |Foul by |Hand ball by |Dangerous play by |Penalty (?:conceded|saved|"
    r"missed) by |Delay (?:in match|over)\b|Match ends, |(?:First|Second) Half (?:ends|"
    r"begins)\b|Second yellow card to )")
_FEED_PLAYER = re.compile(
    r"^[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,3} \([A-Z][^()]{1,40}\) (?:wins a free kick|"
    r"is shown the (?:yellow|red) card|(?:right|left) footed shot|header from|hits the "
    r"(?:left |right )?(?:post|bar|crossbar)|tries a through ball|is caught offside)\b")


def is_live_feed(text: str) -> bool:
    """A line of a match's live text feed ("Foul by Joel Logan (Wrexham).", "James Marwood
    (Gateshead) wins a free kick.", "Match ends, Gateshead 2, Wrexham 1.")."""
    t = text.strip()
    return bool(_FEED_EVENT.match(t) or _FEED_PLAYER.match(t))


# ---------------------------------------------------------------- glued text
# two pieces of a page run together with no space: a lower-case word of three letters or
# more and a capitalised word written as one ("Travel and living abroadSit on the sea
# wall", "Source: National Maritime MuseumMinister"): scraped link lists, fact boxes and
# captions whose line breaks were lost. None in the real corpus, BBC 2004-05 or 123 real
# ReCoRD passages but one; 42 in 381 held-out scraped articles, all such glue.
GLUE = re.compile(r"\b[a-z]{3,}[A-Z][a-z]+")
# the same with a space: a lower-case word (or one closing a quote) and then a word that
# only opens a sentence, with no end mark between: a caption that had no full stop run
# into the story ("dancing in front of the Paris landmark on his Instagram account He
# joined Spurs in 2011", "uploaded to his 'adventure blog' Currently, the intrepid
# kayaker"). 37 in 1,451 articles (the real corpus, fresh7, 800 BBC files), each such glue.
SENTENCE_OPENERS = ("However|Meanwhile|Currently|Moreover|Furthermore|Nevertheless|Instead|"
                    "Previously|Afterwards|Additionally|Unfortunately|Fortunately|Luckily|"
                    "Sadly|Thankfully|Interestingly|Initially|Eventually|Finally|He|She|"
                    "They|We")
MISSING_BREAK = re.compile(r"\b[a-z][a-z']*[a-z]['’”\"]?[ \t]+(?:" + SENTENCE_OPENERS
                           + r")(?=,|['’][a-z]+[ \t]+[a-z]|[ \t]+[a-z])")  # not a title:
# "a version of We Will Rock You", "1986 hit She's Gotta Have It"; never across a line


def has_glued_text(text: str) -> bool:
    """Text with two pieces of a page run together ("abroadSit", "deviceThe"), or a
    sentence run into the next with no end mark ("his Instagram account He joined")."""
    return bool(GLUE.search(text) or MISSING_BREAK.search(text))


# a sentence that stops on an article ("... the 6-3, 236-pound Tebow worked out with the."):
# the page cut it, and the noun is lost; a capital "A" is a name's letter ("Judge Carlos
# A.", "hepatitis A")
_CUT_OFF = re.compile(r"(?<![\w'’-])(?:the|a|an)\s*[.!?]['\"’”]?$")


def is_cut_off(text: str) -> bool:
    """A sentence that ends on a lower-case article: text cut short, not a sentence."""
    return bool(_CUT_OFF.search(text.strip()))


def glued_around(text: str, start: int, end: int, reach: int = 200) -> bool:
    """The sentence around [start, end) (to the end marks before and after it, at most
    `reach` characters each way) holds glued text."""
    left = text[max(0, start - reach):start]
    cut = max(left.rfind(". "), left.rfind("! "), left.rfind("? "), left.rfind("\n"))
    right = text[end:end + reach]
    stop = min([i for i in (right.find(". "), right.find("! "), right.find("? "),
                            right.find("\n")) if i >= 0] or [len(right)])
    return has_glued_text(left[cut + 1:] + text[start:end] + right[:stop])


NOT_LIVE_FEED = Rule("not_live_feed", "live_feed", lambda piece, ctx, c: not is_live_feed(piece))
NOT_STAT_BOX = Rule("not_stat_box", "stat_box", lambda piece, ctx, c: not is_stat_box(piece))
NOT_LINK_HEADLINE = Rule("not_link_headline", "link_headline",
                         lambda piece, ctx, c: not is_link_headline(piece, ctx.source))


def cut_spans(text: str, spans, why, cut_out: list) -> list:
    """`text` cut at each (start, end) of `spans` (in order, not overlapping): the pieces
    between them, stripped and non-empty; each cut span goes to `cut_out` with `why`."""
    pieces, cursor = [], 0
    for s, e in spans:
        pieces.append(text[cursor:s])
        cut_out.append((text[s:e].strip(), why))
        cursor = e
    pieces.append(text[cursor:])
    return [p.strip() for p in pieces if p.strip()]

"""Highlight bullets as the passage ends with them (paper section 3.1, curation).

The editors' bullets are a passage's second part, so what is not a bullet of the story
goes, each with its reason (clean.py counts them with the pieces it drops):
- a promotion (promotions.py: "CLICK HERE for all the latest Chelsea news", "READ: ...")
  is dropped (`highlight_promotion`, `BULLET_RULES`: each @highlight line as written);
- a bullet broken mid-sentence over several `@highlight` lines is joined again
  (`highlight_rejoined`): the next line opens with a lower-case word or a joining mark,
  the line ends where no sentence can (a joining word or mark, lower case: "the", "of",
  ","), or two
  fragments of at most two words follow each other ("Manchester" / "United"); never
  before a whole sentence that opens as sentences do ("There is no doubt ...",
  `is_whole_sentence`), whatever the line before ends with;
- a fragment left of fewer than three words is dropped (`highlight_fragment`,
  `HIGHLIGHT_RULES`: each bullet once broken ones are joined) when the article has a
  bullet of three words or more.
The rule tables follow the transforms/core/rules.py convention. Pure functions; no Beam.
"""
import collections
import re
from typing import NamedTuple, Optional, Sequence

from transforms.core.rules import Rule, first_rejection
from transforms.curation.promotions import is_promotion
from transforms.curation.wordlists import SENTENCE_OPENERS
from transforms.curation.wraps import JOINING_MARKS

MIN_HIGHLIGHT_WORDS = 3
# words no bullet ends with: a sentence goes on after them (articles, prepositions,
# conjunctions, determiners); a verb such as "says" ends many ("..., police say")
JOINING = frozenset({
    "the", "a", "an", "of", "to", "in", "on", "at", "by", "for", "with", "from", "into",
    "onto", "about", "as", "than", "and", "or", "but", "nor", "his", "their", "its", "my",
    "our", "your", "this", "these", "those", "who", "whom", "whose", "which", "that"})
FRAGMENT_WORDS = 2
_TERMINAL = re.compile(r"[.!?…]['\"’”)\]]*$")
_JOINING_START = tuple(",;:)-–—")


def _words(text: str) -> int:
    return len(text.split())


def continues(previous: str, line: str) -> bool:
    """`line` carries on the bullet `previous` broke off."""
    if _TERMINAL.search(previous):
        return False
    last = previous.split()[-1] if previous.split() else ""
    if is_whole_sentence(line):
        return False      # a title and the lead: "... slow to catch on" / "There is ..."
    if line[:1].islower() or line.startswith(_JOINING_START) \
            or previous.endswith(JOINING_MARKS) or last in JOINING:
        return True
    return _words(previous) <= FRAGMENT_WORDS and _words(line) <= FRAGMENT_WORDS


def is_whole_sentence(line: str) -> bool:
    """A sentence of its own: it opens with a word sentences open with ("The", "There",
    "He"; wordlists.SENTENCE_OPENERS), ends with an end mark and has three words or more.
    Such a line never carries on the line before it, even one ending in a joining word
    (a BBC title "Mobile multimedia slow to catch on" before its lead)."""
    words = line.split()
    return (len(words) >= MIN_HIGHLIGHT_WORDS and words[0] in SENTENCE_OPENERS
            and bool(_TERMINAL.search(line)))


class Bullets(NamedTuple):
    """What the highlight rules see beside a joined bullet."""
    has_whole: bool     # the article has a bullet of MIN_HIGHLIGHT_WORDS words or more


BULLET_RULES = (
    Rule("not_promotion", "highlight_promotion", lambda h, ctx, c: not is_promotion(h)),
)
HIGHLIGHT_RULES = (
    Rule("min_highlight_words", "highlight_fragment",
         lambda h, ctx, c: not ctx.has_whole or _words(h) >= MIN_HIGHLIGHT_WORDS),
)


def clean_highlights(highlights: Sequence[str],
                     dropped: Optional[collections.Counter] = None) -> tuple:
    """The bullets with promotions dropped, broken ones joined and fragments dropped;
    `dropped` (when given) counts each by reason."""
    dropped = dropped if dropped is not None else collections.Counter()
    joined = []
    for h in highlights:
        h = h.strip()
        if not h:
            continue
        why = first_rejection(BULLET_RULES, h)
        if why is not None:
            dropped[why.reason] += 1
        elif joined and continues(joined[-1], h):
            joined[-1] = joined[-1] + " " + h
            dropped["highlight_rejoined"] += 1
        else:
            joined.append(h)
    context = Bullets(any(_words(h) >= MIN_HIGHLIGHT_WORDS for h in joined))
    kept = []
    for h in joined:
        why = first_rejection(HIGHLIGHT_RULES, h, context)
        if why is None:
            kept.append(h)
        else:
            dropped[why.reason] += 1
    return tuple(kept)

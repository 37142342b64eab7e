"""Highlight bullets as the passage ends with them (paper section 3.1, curation).

The editors' bullets are a passage's second part, so what is not a bullet of the story
goes, each with its reason (clean.py counts them with the pieces it drops):
- a promotion (promotions.py: "CLICK HERE for all the latest Chelsea news", "READ: ...")
  is dropped (`highlight_promotion`);
- a bullet broken mid-sentence over several `@highlight` lines is joined again
  (`highlight_rejoined`): the next line opens with a lower-case word or a joining mark,
  the line ends where no sentence can (a joining word or mark, lower case: "the", "of",
  ","), or two
  fragments of at most two words follow each other ("Manchester" / "United");
- a fragment left of fewer than three words is dropped (`highlight_fragment`) when the
  article has a bullet of three words or more.
Pure functions; no Beam.
"""
import collections
import re
from typing import Optional, Sequence

from transforms.curation.promotions import is_promotion
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
    if line[:1].islower() or line.startswith(_JOINING_START) \
            or previous.endswith(JOINING_MARKS) or last in JOINING:
        return True
    return _words(previous) <= FRAGMENT_WORDS and _words(line) <= FRAGMENT_WORDS


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
        if is_promotion(h):
            dropped["highlight_promotion"] += 1
        elif joined and continues(joined[-1], h):
            joined[-1] = joined[-1] + " " + h
            dropped["highlight_rejoined"] += 1
        else:
            joined.append(h)
    whole = [h for h in joined if _words(h) >= MIN_HIGHLIGHT_WORDS]
    if not whole:       # no bullet of a sentence's length: nothing is a fragment of one
        return tuple(joined)
    if len(whole) < len(joined):
        dropped["highlight_fragment"] += len(joined) - len(whole)
    return tuple(whole)

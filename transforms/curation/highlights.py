"""Highlight bullets as the passage ends with them (paper section 3.1, curation).

The editors' bullets are a passage's second part, so what is not a bullet of the story
goes, each with its reason (clean.py counts them with the pieces it drops):
- a promotion (promotions.py: "CLICK HERE for all the latest Chelsea news", "READ: ...")
  is dropped (`highlight_promotion`, `BULLET_RULES`: each @highlight line as written, and
  `HIGHLIGHT_RULES` again once broken lines are joined: "The Mail has teamed up with ." /
  "the FairPensions campaign to offer a tool that allows you ...");
- a bullet broken mid-sentence over several `@highlight` lines is joined again
  (`highlight_rejoined`): the next line opens with a lower-case word or a joining mark,
  the line ends where no sentence can (a joining word or mark, lower case: "the", "of",
  ","; not a verb's particle before a bullet of its own: "... close to jumping in" /
  "John Boehner trying to ...", `ends_with_particle`), or two
  fragments of at most two words follow each other ("Manchester" / "United"); never
  before a whole sentence that opens as sentences do ("There is no doubt ...",
  `is_whole_sentence`), whatever the line before ends with;
- a fragment left of fewer than three words is dropped (`highlight_fragment`,
  `HIGHLIGHT_RULES`: each bullet once broken ones are joined) when the article has a
  bullet of three words or more;
- a bullet cut inside its last word ("... Tiffanie Rushto" where the body says "Tiffanie
  Rushton": a capitalised word the body never writes, the start of one it does) gets
  the word back when the body has one completion (`highlight_word_completed`), else is
  dropped (`highlight_cut_word`).
The rule tables follow the transforms/core/rules.py convention. Pure functions; no Beam.
"""
import collections
import re
from typing import NamedTuple, Optional, Sequence

from transforms.core.rules import Rule, first_rejection
from transforms.curation.promotions import form_reasons, is_promotion
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
# "in" and "on" after the -ing form of a verb whose particle they often are end a bullet
# ("A signal that Marco Rubio is close to jumping in", a CNN bullet); after another verb
# they are prepositions ("driving in" / "Birmingham city centre" is one broken bullet)
PARTICLE_VERBS = {
    "in": frozenset({"jump", "weigh", "step", "chip", "pitch", "move", "cave", "kick",
                     "check", "sign", "log", "tune", "fill", "give", "join", "settle",
                     "sink", "close", "set", "pour", "roll", "butt", "cash", "zero",
                     "dig", "rein", "phase", "factor", "lock", "box", "hem", "wade"}),
    "on": frozenset({"move", "carry", "hold", "catch", "log", "sign", "press", "soldier",
                     "hang", "egg", "cheer", "spur", "urge", "lean", "pile", "weigh"}),
}
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
            or previous.endswith(JOINING_MARKS):
        return True
    if last in JOINING:
        return not ends_with_particle(previous, line)
    return _words(previous) <= FRAGMENT_WORDS and _words(line) <= FRAGMENT_WORDS


def _ing_stems(word: str) -> tuple:
    """The verbs an -ing form can be: "jumping" -> jump, "stepping" -> step, "moving" ->
    move."""
    stem = word[:-3].lower()
    return stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else stem


def ends_with_particle(previous: str, line: str) -> bool:
    """`previous` ends with a verb's particle ("... close to jumping in") and `line` opens
    a bullet of its own (a capital, three words or more: "John Boehner trying to get the
    House back on track"): two bullets, not one broken."""
    words = previous.split()
    if len(words) < 2 or not words[-2].endswith("ing") or not line[:1].isupper() \
            or _words(line) < MIN_HIGHLIGHT_WORDS:
        return False
    return bool(set(_ing_stems(words[-2])) & PARTICLE_VERBS.get(words[-1], frozenset()))


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
    words: frozenset = frozenset()     # the body's words (`body_words`); empty: unknown


MIN_CUT_PREFIX = 3
_BODY_WORD = re.compile(r"[A-Za-z][\w'’-]*[A-Za-z]")
_POSSESSIVE = re.compile(r"(?:['’]s?|s)$")
_LAST_WORD = re.compile(r"([A-Z][\w'’-]*)$")     # no end mark: a text cut short has none


def body_words(paragraphs) -> frozenset:
    """The words of the article's body, as written."""
    return frozenset(m.group() for p in paragraphs for m in _BODY_WORD.finditer(p))


def cut_word(highlight: str, words: frozenset) -> Optional[tuple]:
    """(the bullet's last word, its completions) when the bullet ends inside a word: a
    capitalised last word of three letters or more with no end mark after it, that the
    body never writes, the start of capitalised body words not by a suffix or a hyphen
    ("... Tiffanie Rushto" where the body says "Tiffanie Rushton"; not "Iran" before
    "Iranian", "Asia" before "Asia-Pacific"); None for a whole word."""
    m = _LAST_WORD.search(highlight.rstrip())
    if not m or len(m.group(1)) < MIN_CUT_PREFIX or m.group(1) in words:
        return None
    last = m.group(1)
    longer = sorted(w for w in words if w[:1].isupper() and len(w) > len(last)
                    and w.startswith(last) and not _is_suffix(last, w[len(last):]))
    longer = [w for w in longer if _POSSESSIVE.sub("", w) == w or _POSSESSIVE.sub("", w)
              not in longer]                   # "Aintree's" is "Aintree"
    return (last, longer) if longer else None


# endings that make another word of a whole one: "Obama's", "Iranian", "Cuban", "Britons"
_SUFFIXES = frozenset({"s", "es", "'s", "’s", "'", "’", "i", "an", "ian", "ans", "ians",
                       "ese", "ish", "ic", "ics", "ism", "ist", "ists", "er", "ers", "ern",
                       "ite", "ites", "land", "ed", "ing", "ly", "y"})


def _is_suffix(word: str, rest: str) -> bool:
    return rest in _SUFFIXES or rest[:1] in "-–'’" or rest in ("n", "ns") and word.endswith("a")


def complete_cut_word(highlight: str, words: frozenset) -> str:
    """The bullet with a word it cut completed when the body has one completion only
    ("Tiffanie Rushto" -> "Tiffanie Rushton"), else as it is."""
    cut = cut_word(highlight, words)
    if cut is None or len(cut[1]) != 1:
        return highlight
    at = highlight.rfind(cut[0])
    return highlight[:at] + cut[1][0] + highlight[at + len(cut[0]):]


BULLET_RULES = (
    Rule("not_promotion", "highlight_promotion", lambda h, ctx, c: not is_promotion(h)),
)
HIGHLIGHT_RULES = (
    # a promotion broken over several lines is one only once they are joined ("The Mail has
    # teamed up with ." / "the FairPensions campaign to offer a tool that allows you ...")
    Rule("not_joined_promotion", "highlight_promotion", lambda h, ctx, c: not is_promotion(h)),
    Rule("min_highlight_words", "highlight_fragment",
         lambda h, ctx, c: not ctx.has_whole or _words(h) >= MIN_HIGHLIGHT_WORDS),
    Rule("not_cut_word", "highlight_cut_word", lambda h, ctx, c: cut_word(h, ctx.words) is None),
)


def clean_highlights(highlights: Sequence[str],
                     dropped: Optional[collections.Counter] = None,
                     words: frozenset = frozenset()) -> tuple:
    """The bullets with promotions dropped, broken ones joined, fragments dropped and a
    last word cut short completed from the body's `words` (`body_words`) or dropped;
    `dropped` (when given) counts each by reason."""
    dropped = dropped if dropped is not None else collections.Counter()
    joined = []
    for h in highlights:
        h = h.strip()
        if not h:
            continue
        why = first_rejection(BULLET_RULES, h)
        if why is not None:
            dropped.update([why.reason, *form_reasons(h, why)])
        elif joined and continues(joined[-1], h):
            joined[-1] = joined[-1] + " " + h
            dropped["highlight_rejoined"] += 1
        else:
            joined.append(h)
    context = Bullets(any(_words(h) >= MIN_HIGHLIGHT_WORDS for h in joined), words)
    kept = []
    for h in joined:
        completed = complete_cut_word(h, words)
        if completed != h:
            dropped["highlight_word_completed"] += 1
            h = completed
        why = first_rejection(HIGHLIGHT_RULES, h, context)
        if why is None:
            kept.append(h)
        else:
            dropped.update([why.reason, *form_reasons(h, why)])
    return tuple(kept)

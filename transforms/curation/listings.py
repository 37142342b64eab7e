"""Lists in news bodies (issue 32, curation): a page's list keeps its items and its intro
as lines of their own, and a passage or query made from one reads as a list, not a
sentence of the story.

- a label line: a name, a colon, then a list of short items ("Elizabeth A. Burton:
  Possession of methamphetamine, possession of a Schedule IV substance, held in jail in
  lieu of $70,000 bond.", a court or police report's charge list; "Arsenal: Cech,
  Bellerin, Mertesacker, Koscielny", a line-up): a paragraph of its own, or a sentence of
  text whose line breaks were lost (`find_label_lines`, `split_label_lines`);
- a list intro: a line ending in a colon that introduces the items after it, not a
  quotation ("Here are some key points jurors will have to consider:"): kept as a line,
  it runs into the first item once the items' headings are gone ("... on Tuesday: As
  news spread ...", the Hugging Face loader's layout, wraps.py).
clean.py cuts both out of a paragraph (`split_label_lines`, `split_list_intro`: the
Rejects `LABEL_LINE`, `LIST_INTRO`, counted by reason); in the Hugging Face loader's
layout a CNN line ending in a colon is judged as a line (`NOT_LIST_INTRO_LINE`, a rule of
wraps.py's `WRAP_LINE_RULES`, the transforms/core/rules.py convention). The quality flag
`caption_like` reads a query with the same functions. Pure functions; no Beam.
"""
import re
from typing import List, Optional, Tuple

from transforms.core.rules import Reject, Rule
from transforms.curation.fragments import cut_spans
from transforms.curation.wordlists import (
    CAPTION_FINITE,
    CAPTION_PARTICIPLES,
    PAST_TENSES,
)

# a name word of a label: capitalised ("Burton", "O'Neill", "Kazim-Richards"), an initial
# ("A."), a suffix ("Jr."), or the query's placeholder standing for the name
_NAME_WORD = r"(?:[A-Z][\w'’-]*\.?|@placeholder)"
MAX_LABEL_WORDS = 5
MIN_ITEMS = 3
MAX_ITEM_WORDS = 12
# where a label line may open: the text's start, after a sentence end, or after a colon
# (the list's intro glued before the first line: "on the following charges: Elizabeth ...")
_LINE_START = re.compile(r"(?:^|(?<=[.!?:])['\"’”)]*\s+)(?=[A-Z@])")
_LABEL = re.compile(r"(?:%s )?(?:%s)(?: %s){0,%d}: (?=[^\s'‘\"“])"
                    % (r"(?:Mr|Mrs|Ms|Dr)\.?", _NAME_WORD, _NAME_WORD, MAX_LABEL_WORDS - 1))
# a sentence end: an end mark before a space and a capital (or the text's end), the word
# before it no initial or abbreviation ("3170 W. County Road", "Eighth St.")
_END = re.compile(r"[.!?]['\"’”)]*(?=\s+[A-Z@'‘\"“(]|\s*$)")
_ABBREVIATION = re.compile(r"(?:^|\s)(?:[A-Z]|Mr|Mrs|Ms|Dr|St|Jr|Sr|No|Co|Inc|Ltd|Rd|Ave|Mt)$")
_QUOTE = re.compile(r"[\"“”‘]|(?:^|\s)'|'(?:\s|$)")
_ITEM_SPLIT = re.compile(r"[,;]\s+(?![^()]*\))")
_WORDS = re.compile(r"[\w'’]+")
_CONTRACTION = re.compile(r"(?:n't|['’](?:s|re|ve|ll|d|m))$", re.IGNORECASE)


def _sentence_end(text: str, start: int) -> int:
    for m in _END.finditer(text, start):
        if not _ABBREVIATION.search(text[start:m.start()]):
            return m.end()
    return len(text)


def _past(word: str) -> bool:
    return word[:1].islower() and (word in PAST_TENSES or len(word) > 4 and word.endswith("ed")
                                   and word not in CAPTION_PARTICIPLES)


def is_list_body(body: str) -> bool:
    """Text after a label that is a list: three or more short items split by commas or
    semicolons (brackets kept whole), no quotation, no finite verb or subject pronoun and
    no name followed by a past tense (a labelled sentence is a caption or a transcript
    line: "Tragic: The man, only named as Mr Zhang, was thrown off his motorbike",
    captions.py)."""
    body = body.strip().rstrip(".!?").strip()
    if not body or _QUOTE.search(body):
        return False
    words = _WORDS.findall(body)
    if any(w.lower() in CAPTION_FINITE or _CONTRACTION.search(w) for w in words):
        return False
    if any(a[:1].isupper() and _past(b) for a, b in zip(words, words[1:])):
        return False      # a name and its verb: "Keith Anthony Allen, 27, of Columbus pleaded"
    items = _ITEM_SPLIT.split(body)
    return len(items) >= MIN_ITEMS and all(0 < len(i.split()) <= MAX_ITEM_WORDS for i in items)


def find_label_lines(text: str) -> List[Tuple[int, int]]:
    """(start, end) of each label line: from a line start, a name of at most five words
    and a colon, then a list (`is_list_body`) to the sentence's end."""
    out = []
    for m in _LINE_START.finditer(text):
        s = m.end()
        if out and s < out[-1][1]:
            continue
        label = _LABEL.match(text, s)
        if not label:
            continue
        e = _sentence_end(text, label.end())
        if is_list_body(text[label.end():e]):
            out.append((s, e))
    return out


def is_label_line(text: str) -> bool:
    """The whole text is one label line (a paragraph of a list, or a query made from one:
    "@placeholder: Dealing in methamphetamine, possession of heroin, ... bond.")."""
    spans = find_label_lines(text.strip())
    return bool(spans) and spans[0] == (0, len(text.strip()))


LABEL_LINE = Reject("not_label_line", "label_line")


def split_label_lines(text: str, cut_out: list) -> list:
    """The text cut where a label line stands; each goes to `cut_out` with `LABEL_LINE`."""
    return cut_spans(text, find_label_lines(text), LABEL_LINE, cut_out)


# ---------------------------------------------------------------- list intros
# a colon after these introduces a quotation, not a list ("Smith told reporters:")
_SPEECH = frozenset({
    "said", "says", "say", "saying", "told", "tells", "added", "adds", "explained", "wrote",
    "writes", "tweeted", "posted", "stated", "declared", "replied", "asked", "asks",
    "insisted", "claimed", "admitted", "warned", "continued", "commented", "recalled",
    "joked", "reads", "read", "according", "statement", "quote", "quoted", "words",
    "message", "reading",
})


def is_list_intro(text: str, next_text: Optional[str] = None) -> bool:
    """A line ending in a colon that introduces a list, not a quotation: no speech word
    in it ("He said:", "The statement reads:"), and, when the text after it is known,
    that text opens with no quotation mark."""
    t = text.strip()
    if not t.endswith(":") or t[:1] in "'‘\"“":
        return False
    if next_text is not None and next_text.lstrip()[:1] in "'‘\"“":
        return False
    return not any(w.lower() in _SPEECH for w in _WORDS.findall(t))


LIST_INTRO = Reject("not_list_intro", "list_intro")
_SENTENCE_END = re.compile(r"[.!?]['\"’”)]*\s+(?=\S)")


def split_list_intro(text: str, cut_out: list) -> list:
    """The text with its last sentence cut off when that sentence is a list intro (the
    text ends in a colon: "... less well-known. Here are six:"); it goes to `cut_out`
    with `LIST_INTRO`."""
    if not text.rstrip().endswith(":"):
        return [text]
    starts = [m.end() for m in _SENTENCE_END.finditer(text)
              if not _ABBREVIATION.search(text[:m.start()])]
    start = starts[-1] if starts else 0
    if not is_list_intro(text[start:]):
        return [text]
    cut_out.append((text[start:].strip(), LIST_INTRO))
    return [text[:start].strip()] if text[:start].strip() else []


def opens_line(text: str) -> bool:
    """A tail after a sentence end that may open a line: a capital or a quotation mark
    (a digit follows an abbreviation the splitter took for an end: "Jan. 17, 2015")."""
    return text[:1].isupper() or text[:1] in "'‘\"“"


def is_list_intro_line(line, source: Optional[str]) -> bool:
    """A CNN line ending in a colon that introduces a list (`is_list_intro`), in the
    loader's layout (wraps.Line: the wrap dot after it says where the line ended), not
    carried on by the next line. CNN pages break no sentence over lines; Daily Mail
    pages do (a colon there may end a broken line), so only CNN's are read."""
    return (source == "cnn" and not line.next_text[:1].islower()
            and (line.whole or opens_line(line.text))
            and is_list_intro(line.text, line.next_text))


NOT_LIST_INTRO_LINE = Rule("not_list_intro", "list_intro",
                           lambda line, source, c: not is_list_intro_line(line, source))

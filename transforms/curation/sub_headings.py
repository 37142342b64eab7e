"""Sub-headings inside a body (paper section 3.1, curation): page furniture, not text.

Text whose paragraphs are lines (XSum's BBC articles: one paragraph a line) keeps the
page's sub-headings and link titles as lines of their own: "What Spotlight was told",
"Fragile fan base", "Congenital heart defects explained", "Plaid leader no longer ruling
out coalition with Labour". Left in, one becomes a sentence's first words ("What
Spotlight was told\\nAgent: I know ...") or a query of its own. A sub-heading is a line
of a paragraph (lines the page wrapped inside a sentence are already joined by wraps.py,
so each line left is a paragraph of the story) that
- another line follows (it heads something; a last line is a cut-off end, not a heading),
- has at most 12 words, opens with no lower-case letter and ends in a letter or digit
  (no closing punctuation: no full stop, quote, bracket, comma or colon),
- is not carried on by the next line (that opens with a lower-case word, or is a list's
  item: "The government had claimed tobacco firms\\n- manipulated ..."), nor carries on
  the line before it (that ends in a joining mark: ",", ";", ":", "-"; after a colon a
  short line is a list's item),
- and is not prose that lost its full stop: no sentence end inside it, no quotation
  closed by a comma ('"We lost," he said'), not ending in an attribution ("... she
  said", `ends_in_attribution`).
`HEADING_LINE_RULES` names it and its reason (`sub_heading`), counted by clean.py with
the other pieces it drops. Text with no line breaks (CNN, Daily Mail) has no such line.
Pure functions; no Beam.
"""
import re
from typing import List, NamedTuple, Tuple

from transforms.core.rules import Rule, first_rejection
from transforms.curation.wordlists import ATTRIBUTION_VERBS

MAX_HEADING_WORDS = 12
_INNER_END = re.compile(r"\w[.!?]['\"’”)]*\s+\S")
_QUOTE_CLOSED_BY_COMMA = re.compile(r",['\"’”]|,''")
OPEN_ENDS = (",", ";", ":", "-", "–", "—", "(", "/", "&")
LIST_MARKS = ("- ", "– ", "• ", "* ")


class LineAround(NamedTuple):
    """The lines before and after a paragraph's line ("" for none)."""
    before: str
    after: str


def is_sub_heading(line: str, around: LineAround) -> bool:
    """A short line with no closing punctuation between lines of a body: the module's rule."""
    text = line.strip()
    words = text.split()
    if not around.after.strip() or not 0 < len(words) <= MAX_HEADING_WORDS:
        return False
    after = around.after.strip()
    if not text[-1].isalnum() or text[0].islower() or after[0].islower() \
            or after.startswith(LIST_MARKS):
        return False
    if around.before.rstrip().endswith(OPEN_ENDS):
        return False
    return not (_INNER_END.search(text) or _QUOTE_CLOSED_BY_COMMA.search(text)
                or ends_in_attribution(words))


_SUBJECTS = frozenset({"he", "she", "they", "we", "i", "it", "who", "you"})


def ends_in_attribution(words: List[str]) -> bool:
    """The words end as a quote's attribution does: a speech verb after a subject pronoun
    or a name ("... she said", "Smith told"); "What Spotlight was told" and "Congenital
    heart defects explained" are headings."""
    if len(words) < 2 or words[-1].lower() not in ATTRIBUTION_VERBS:
        return False
    subject = words[-2].strip("\"'’”,")
    return subject.lower() in _SUBJECTS or subject[:1].isupper()


NOT_SUB_HEADING = Rule("not_sub_heading", "sub_heading",
                       lambda line, around, c: not is_sub_heading(line, around))
# a line of a cleaned paragraph that is not text of the story: dropped by clean
HEADING_LINE_RULES = (NOT_SUB_HEADING,)


def strip_sub_headings(paragraph: str) -> Tuple[str, List[tuple]]:
    """(the paragraph without its sub-heading lines, [(line, Reject)] of those dropped).
    A paragraph of one line is left as it is."""
    if "\n" not in paragraph:
        return paragraph, []
    lines = paragraph.split("\n")
    kept, dropped = [], []
    for i, line in enumerate(lines):
        before = kept[-1] if kept else ""
        after = next((ln for ln in lines[i + 1:] if ln.strip()), "")
        why = first_rejection(HEADING_LINE_RULES, line, LineAround(before, after))
        if why is None:
            kept.append(line)
        else:
            dropped.append((line, why))
    return "\n".join(kept), dropped

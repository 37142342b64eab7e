"""Line-wrap repair (paper section 3.1, curation): sentences back from text whose lines
were broken where the web page broke them.

Daily Mail pages broke lines inside sentences (around pictures) and after photo captions.
In the rc-data `.story` files each such line is a paragraph of its own; the Hugging Face
`cnn_dailymail` loader strips each line, appends " ." to every line that ends in none of
`. ! ? ' ` " ’ ” )`, and joins the article's lines with single spaces. So its text reads
"... said the . couple were ..." and "... in 2009 . Frank with one of his three
grandchildren . He ...": a "wrap dot" (space, dot) where a line ended. A sentence end of
the raw text has no space before its dot ("in the U.S. He said"), so the two are told
apart by the space.

Both layouts are repaired the same way: a `.story` whose lines are broken mid-sentence is
first put into the loader's layout (`loader_join`), then each line ending in a wrap dot
(`repair`) is
- joined to the next (the dot removed) when the next opens with a lower-case word, the
  line ends in a word or mark that cannot end a sentence ("the", "of", ",", ":"), it
  ends inside an open quotation, or the dot cuts a name in two ("Officer Christopher .
  Bailey"; wrapped_lines.py, also for the line ends the loader hides or invents);
- dropped when it is a caption: a short line set off by wrap dots with no finite verb
  ("Frank with one of his three grandchildren"), a video line ("VIDEO Scroll down to
  watch"), a promotion ("CLICK HERE for all the latest news", promotions.py), or, in
  Daily Mail text, any line the page ended with no mark that the next line does not
  carry on (a caption with a verb: "Race winner Rosberg celebrates on the podium"):
  `WRAP_LINE_RULES` names them and their reasons (the transforms/core/rules.py
  convention), counted by clean.py with the other pieces it drops;
- else a sentence end: the wrap dot becomes the line's full stop.
Pure functions; no Beam.
"""
import re
from typing import List, NamedTuple, Optional, Tuple

from transforms.core.rules import Rule, first_rejection
from transforms.curation.captions import caption_labels
from transforms.curation.fragments import headline_shaped, is_link_headline
from transforms.curation.listings import NOT_LIST_INTRO_LINE, opens_line
from transforms.curation.promotions import is_promotion
from transforms.curation.wordlists import (
    CAPTION_FINITE,
    CAPTION_PARTICIPLES,
    JOINING_WORDS,
    PAST_TENSES,
    SENTENCE_HEADS,
)
from transforms.curation.wrapped_lines import QUOTE_LINE_END as _QUOTE_END
from transforms.curation.wrapped_lines import name_pairs, opens_speech, splits_name

# what the loader takes as a line's end (its END_TOKENS): any other line gets " ."
LINE_ENDS = (".", "!", "?", "'", "`", '"', "’", "”", ")")
WRAP_DOT = re.compile(r"(?<=[^\s.!?]) \.(?=\s|$)")
# a wrap dot left behind a line that cleaning removed ("... September. Watch X » .")
_STRAY_DOT = re.compile(r"(?<=[.!?'\"’”)]) \.(?=\s|$)")
# text tokenised PTB-style ("He said , ...") has spaces before every mark: not this layout
_TOKENISED = re.compile(r" [,;:] | n't\b| 's\b")
# the end of a line the loader left without a dot (a closing bracket or quote) before a
# capital: the last such one in a line's tail
_GLUED_LINE = re.compile(r"[)\"”’](?<![.!?,;:][)\"”’]) +(?=[A-Z])(?!.*[)\"”’] +[A-Z])")
MAX_CAPTION_WORDS = 25
MAX_LABELLED_CAPTION_WORDS = 45     # "Lurking: Smith was outside the house ..."
MAX_VIDEO_CHARS = 200
# a sentence end inside a line; the word before it is no abbreviation
_END = re.compile(r"[.!?][\"'”’)\]]*\s+(?=\S)")
_ABBREVIATION = re.compile(r"(?:^|\s)(?:[A-Z]\.)+$|(?:^|\s)(?:Mr|Mrs|Ms|Dr|St|No|Sen|Rep|Gov|Gen|"
                           r"Lt|Col|Sgt|Capt|Prof|Rev|Jr|Sr|Inc|Co|Corp|Ltd|vs|[A-Z])\.$")
JOINING_MARKS = (",", ";", ":", "-", "–", "—", "(", "/", "&", "+")
_CONTRACTION = re.compile(r"(?:n't|'re|'ve|'ll|'d|'m)$")     # "'s" is a possessive too
VIDEO_LINE = re.compile(
    r"^\(?(?:VIDEO|WATCH|Watch(?: the)? video|Video)\b.*$|^.*\b(?i:scroll (?:down|up))\b.*$")
_WORD_CORE = re.compile(r"^[^\w]+|[^\w']+$")


class Line(NamedTuple):
    """A line that ended in a wrap dot, with what a rule needs to judge it."""
    text: str               # from its start (a wrap dot or a sentence end) to its wrap dot
    whole: bool             # the whole part between two wrap dots (no sentence end inside)
    after_open: bool        # whole, and the part before it ends in a wrap dot too
    next_text: str          # the text after its wrap dot
    later_text: str = ""    # the text after the next wrap dot
    names: frozenset = frozenset()   # name pairs the text writes whole (wrapped_lines.py)


def _core(word: str) -> str:
    return _WORD_CORE.sub("", word).lower().replace("’", "'")


def ends_line(text: str) -> bool:
    """The loader's test: a line ending in one of LINE_ENDS gets no dot."""
    return text.endswith(LINE_ENDS)


def loader_join(lines) -> str:
    """Lines as the Hugging Face loader joins them: " ." after each line that ends in
    none of LINE_ENDS, single spaces between."""
    lines = [ln.strip() for ln in lines]
    return " ".join(ln if ends_line(ln) else ln + " ." for ln in lines if ln)


def story_lines(paragraphs) -> List[str]:
    return [ln.strip() for p in paragraphs for ln in p.split("\n") if ln.strip()]


def broken_lines(paragraphs) -> bool:
    """A `.story` laid out as the web page's lines: a line with no end mark followed by one
    opening with a lower-case word (a sentence broken over two lines), or a Daily Mail
    byline broken over lines ("By" alone)."""
    lines = story_lines(paragraphs)
    if lines and lines[0] == "By":
        return True
    return any(not ends_line(a) and b[:1].islower() for a, b in zip(lines, lines[1:]))


def as_loader_layout(paragraphs) -> tuple:
    """A `.story` whose lines are broken (`broken_lines`) as the loader joins it (one
    paragraph, so both layouts are repaired alike); other paragraphs as they are."""
    if broken_lines(paragraphs):
        return (loader_join(story_lines(paragraphs)),)
    return tuple(paragraphs)


def has_wrap_dots(text: str) -> bool:
    """Text in the loader's layout: a wrap dot, and no PTB tokenisation."""
    return bool(WRAP_DOT.search(text)) and len(_TOKENISED.findall(text)) < 3


_QUOTE_MARKS = re.compile(r"“|”|\"|(?:^|(?<=[\s(\[—–-]))[‘'](?=\w)"
                          r"|(?<=[\w.,!?;:…])[’'](?=[\s.,;:!?)\]—–-]|$)")


def in_quote(text: str) -> bool:
    """An opening quotation mark with no closing one after it (the last 600 characters).
    A single quote opens at a word's start and closes at a word's end; inside a word it
    is an apostrophe."""
    double = straight = single = 0
    for m in _QUOTE_MARKS.finditer(text[-600:]):
        mark = m.group()
        if mark == "“":
            double += 1
        elif mark == "”":
            double = max(0, double - 1)
        elif mark == '"':
            straight ^= 1
        elif m.end() < len(text[-600:]) and text[-600:][m.end()].isalnum() and \
                (m.start() == 0 or not text[-600:][m.start() - 1].isalnum()):
            single += 1
        else:
            single = max(0, single - 1)
    return double > 0 or straight > 0 or single > 0


def split_tail(text: str) -> Tuple[str, str]:
    """(head, tail): the tail is the last line of `text`, after its last sentence end."""
    cut = 0
    for m in _END.finditer(text):
        if not _ABBREVIATION.search(text[:m.start() + 1]):
            cut = m.end()
    return text[:cut].rstrip(), text[cut:].strip()


def in_sentence_quote(text: str) -> bool:
    """A quotation opened in the sentence `text` ends with and not closed (a quotation
    running over paragraphs leaves its paragraphs unclosed, so earlier ones do not count)."""
    return in_quote(split_tail(text)[1])


def ends_open(text: str) -> bool:
    """The text stops where no sentence can: a joining word or mark, inside a quotation
    opened in its last sentence, or in a last sentence that is only an opening phrase
    with no verb ("In the summer of 2009 . Frank moved to Spain")."""
    text = text.rstrip()
    if text.endswith(JOINING_MARKS):
        return True
    words = text.split()
    if not words:
        return False
    if _core(words[-1]) in JOINING_WORDS or in_sentence_quote(text):
        return True
    last = split_tail(text)[1].split()
    return bool(last) and last[0] in SENTENCE_HEADS and not any(
        _finite(w, i) for i, w in enumerate(last))


def joins(before: str, after: str, names: frozenset = frozenset()) -> bool:
    """The wrap dot between `before` and `after` is no sentence end (a name cut in two:
    wrapped_lines.py)."""
    if after[:1].islower() or splits_name(before, after, names):
        return True
    return ends_open(before) and not (opens_speech(after)
                                      and not before.rstrip().endswith(JOINING_MARKS))


def end_sentence(text: str) -> str:
    text = text.rstrip()
    return text + "." if text[-1:].isalnum() or text[-1:] in "%]}" else text


def _finite(word: str, i: int) -> bool:
    """A finite verb or a subject pronoun; a lower-case past tense after the first word."""
    w = _core(word)
    if w in CAPTION_FINITE or _CONTRACTION.search(w):
        return True
    return i > 0 and word[:1].islower() and (
        w in PAST_TENSES or len(w) > 4 and w.endswith("ed") and w not in CAPTION_PARTICIPLES)


def is_video_line(line: Line) -> bool:
    """"VIDEO Scroll down to watch", "Scroll down for video", "WATCH: ..." ending in a wrap dot."""
    return len(line.text) <= MAX_VIDEO_CHARS and bool(VIDEO_LINE.match(line.text))


def is_wrap_caption(line: Line) -> bool:
    """A photo caption: a line ending in a wrap dot that opens with a caption label
    ("Lurking: Smith was outside", captions.py), or a short one opening with a capital or a
    number with no finite verb or subject pronoun ("Frank with one of his three
    grandchildren"); not ending where a sentence goes on, and not the start of a sentence
    the next line carries on ("The couple's son . was born"). Set off by wrap dots on both
    sides, it may stand inside a broken sentence ("said the . Frank with his grandchildren
    . couple were")."""
    words = line.text.split()
    carried_on = (line.next_text[:1].islower() or splits_name(line.text, line.next_text,
                                                              line.names)) \
        and not (line.whole and line.after_open)
    if carried_on or len(words) < 2:
        return False
    labels = caption_labels(line.text)      # a label makes a caption, "Under fire: X ..."
    if labels and labels[0][0] == 0 and len(words) <= MAX_LABELLED_CAPTION_WORDS:
        return True
    if ends_open(line.text):
        return False
    if len(words) > MAX_CAPTION_WORDS:
        return False
    if not (words[0][:1].isupper() or words[0][:1].isdigit() or words[0][:1] in "'‘\"“"):
        return False
    return not any(_finite(w, i) for i, w in enumerate(words))


def is_link_headline_line(line: Line, source: Optional[str]) -> bool:
    """A CNN line with no end mark that the next line does not carry on, from a sentence
    end to its wrap dot (fragments.py: CNN pages end every sentence with a mark, so it is
    a linked story's title or a heading: "'Treated like cattle': Yazidi women sold,
    raped, enslaved by ISIS ."), as `not_link_headline` drops it in a .story."""
    return (not line.next_text[:1].islower() and is_link_headline(line.text, source)
            and (line.whole or headline_shaped(line.text.split())
                 or opens_line(line.text) and not ends_open(line.text)))


MAX_UNPUNCTUATED_WORDS = 60


def is_unpunctuated_line(line: Line, source: Optional[str]) -> bool:
    """A Daily Mail line the page ended with no mark, that no sentence carries on: a photo
    caption with a verb ("Race winner Rosberg celebrates with the trophy on the podium"),
    which the loader's wrap dot would have made a sentence. The body's lines end with a
    mark, or are carried on by the next (`joins`); a line opening in lower case is the
    end of a sentence a line before it broke ("said the . machine would run again"), and
    one whose sentence goes on after a caption line is no caption ("a currency to pay .
    Der Spiegel with his family . its bills")."""
    words = line.text.split()
    return (source == "dailymail" and bool(line.next_text) and not line.text[:1].islower()
            and 0 < len(words) <= MAX_UNPUNCTUATED_WORDS
            and not joins(line.text, line.next_text, line.names)
            and not line.later_text[:1].islower())


NOT_VIDEO_LINE = Rule("not_video_line", "video_line", lambda line, s, c: not is_video_line(line))
NOT_PROMOTION_LINE = Rule("not_promotion", "promotion",
                          lambda line, s, c: not is_promotion(line.text))
NOT_UNPUNCTUATED_LINE = Rule("not_caption", "caption",
                             lambda line, source, c: not is_unpunctuated_line(line, source))
NOT_LINK_HEADLINE_LINE = Rule("not_link_headline", "link_headline",
                              lambda line, source, c: not is_link_headline_line(line, source))
NOT_WRAP_CAPTION = Rule("not_wrap_caption", "wrap_caption",
                        lambda line, s, c: not is_wrap_caption(line))
WRAP_LINE_RULES = (NOT_VIDEO_LINE, NOT_PROMOTION_LINE, NOT_LINK_HEADLINE_LINE,
                   NOT_LIST_INTRO_LINE, NOT_WRAP_CAPTION, NOT_UNPUNCTUATED_LINE)


def judge_line(head: str, tail: str, line: Line, source: Optional[str]) -> tuple:
    """(head, tail, Reject or None): the tail of a part ending in a wrap dot judged by
    `WRAP_LINE_RULES`; when it is kept, the line after the last one the loader left without
    a dot (ending in ")" or a quote: "... (pictured above) Medical Center staff .") is."""
    why = first_rejection(WRAP_LINE_RULES, line, source)
    glued = _GLUED_LINE.search(tail) if why is None else None
    if glued:
        inner = line._replace(text=tail[glued.end():], whole=False, after_open=False)
        why = first_rejection(WRAP_LINE_RULES, inner, source)
        if why is not None:
            head, tail = (head + " " + tail[:glued.start() + 1]).strip(), inner.text
    return head, tail, why


def repair(text: str, source: Optional[str] = None) -> Tuple[str, List[tuple]]:
    """(text with its sentences restored, [(line, Reject)] of the lines dropped)."""
    text = _STRAY_DOT.sub("", text)
    text = _QUOTE_END.sub(lambda m: m.group() + (" ." if not in_quote(
        text[:m.end()]) else ""), text)          # the line end the loader left no dot at
    names = name_pairs(text)
    parts = [p.strip() for p in WRAP_DOT.split(text)]
    opened = [True] * (len(parts) - 1) + [False]    # a part ending in a wrap dot
    dropped, buf, pending = [], "", False
    for i, (part, is_open) in enumerate(zip(parts, opened)):
        head, tail = split_tail(part) if is_open else (part, "")
        if tail:
            following = [p for p in parts[i + 1:] if p]
            nxt = following[0] if following else ""
            later = following[1] if len(following) > 1 else ""
            line = Line(tail, not head, not head and pending, nxt, later, names)
            head, tail, why = judge_line(head, tail, line, source)
            if why is not None:
                dropped.append((tail, why))
                part, is_open = head, False
        if not part:
            continue
        if pending:
            buf = (buf + " " + part) if joins(buf, part, names) \
                else end_sentence(buf) + " " + part
        else:
            buf = (buf + " " + part).strip()
        pending = is_open
    if pending:
        buf = end_sentence(buf)
    return buf.strip(), dropped


def repair_paragraphs(paragraphs, source: Optional[str] = None) -> Tuple[list, List[tuple]]:
    """The paragraphs of an article repaired when the article is in the loader's layout
    (a wrap dot in any paragraph), else as they are; and the lines dropped."""
    if not any(has_wrap_dots(p) for p in paragraphs):
        return list(paragraphs), []
    out, dropped = [], []
    for p in paragraphs:
        text, cut = repair(p, source)
        out.append(text)
        dropped += cut
    return out, dropped


def repair_highlight(text: str) -> str:
    """A highlight as the rc-data file has it: the loader's " ." at its end removed."""
    return text[:-2].rstrip() if WRAP_DOT.search(text) and text.endswith(" .") else text


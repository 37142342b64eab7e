"""Article cleaning (paper section 3.1, curation). Each rule is a pure function."""
import collections
import re
from dataclasses import dataclass
from typing import Optional, Union

from transforms.ingestion.articles import Article
from transforms.curation import wraps
from transforms.curation.fragments import NOT_LINK_HEADLINE, NOT_STAT_BOX, split_fragments
from transforms.core.config import setting
from transforms.core.rules import Reject, Rule, first_rejection
from transforms.core.schema import rejected_row

STAGE = "clean"


@dataclass(frozen=True)
class CleanConfig:
    """Limits of the cleaning stage."""
    max_article_chars: int = setting(
        100_000, "longer articles are rejected as scraping accidents, not news")
    min_highlights: int = setting(
        1, "highlight bullets an article needs (the passage ends with them)", cli=False)


_WS = re.compile(r"[ \t\u00a0\u2000-\u200b\u202f\u205f\u3000]+")
_PTB = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}
_PTB_RE = re.compile("|".join(re.escape(k) for k in _PTB))
# rc-data link lines glued to a paragraph's end: "...  Watch Bush criticize the government »"
_LINK = re.compile(r"\s*\b(?:Watch|See|Read|Listen|Hear|Click|Explore|Check out|Follow)\b[^»\n]{0,200}»")
# Daily Mail byline/timestamp boilerplate at the start of an article; the pieces are
# removed one after another until none is left, in whatever order they come.
_TIME = r"[^.|]{0,60}?"
_DM_HEAD = (
    re.compile(r"^\s*By \. [^.]{1,80}? \.(?: |$)(?:(?:and|&) [^.]{1,60}? \.(?: |$))?"),
    re.compile(r"^\s*(?:PUBLISHED|Published): \. " + _TIME + r" \.(?: |$)(?:\| \.(?: |$))?"),
    re.compile(r"^\s*(?:UPDATED|Updated): \. " + _TIME + r" \.(?: |$)"),
    re.compile(r"^\s*(?:Last updated at|Last updated on|Last updated) [^.]{0,60}?\d{4} \. ?"),
    re.compile(r"^\s*\| \.(?: |$)"),
)
_DM_BYLINE_ALONE = re.compile(r"^\s*By \. [^.]{1,80}(?: \.)?$")
# an inline "Scroll down for video", "VIDEO Scroll down to watch" (the paragraph is split there)
_SCROLL = re.compile(r"\s*(?:\bVIDEO:? )?\b(?i:scroll (?:down|up)(?:\s+\w+){0,4}?\s+(?:video|"
                     r"videos|footage|more|pictures|photos|interactive|graphic|watch|see)\b"
                     r"(?: (?:the |a )?(?:video|clip|footage)\b)?)[.…]*")
# photo positions in captions: "(pictured)", "(left)", "(far right)", "(pictured with X)"
_POSITION_WORDS = (r"(?:pictured|left|right|centre|center|above|below|top|bottom|middle|"
                   r"front|back|inset|main|far|second|third|circled|from|and|both|with|"
                   r"clockwise|to|l|r)")
_PHOTO_POSITION = re.compile(
    r"\s*\((?:pictured\b[^()]{0,80}|" + _POSITION_WORDS + r"(?:[ ,-]+" + _POSITION_WORDS
    + r")*)\)", re.IGNORECASE)
# the same between commas, as Daily Mail captions also write them: "Abase Hussen, left,
# took his daughter Amira, right, to a demonstration"
_COMMA_POSITION = re.compile(r",\s(?:(?:far|top|bottom|centre|center) )?(?:left|right|centre|"
                             r"center|above|below|pictured|inset)(?:,(?=\s)|(?=[;.]))")
# A caption label: a short label and a colon opening a photo caption ("Lurking: Smith was
# outside"), at the start, after a sentence, or glued to the text before it.
_LABEL_COLON = re.compile(r"(?<=[\w'’)]): (?=[A-Z0-9'‘\"“])")
_LABEL_WORD = re.compile(r"^[\w'’&-]+$")
_SENTENCE_END = re.compile(r"[.!?][)'’\"”]*$")
MAX_LABEL_WORDS = 4
# a colon after these introduces speech, not a caption ("told the Star-Tribune: On ...")
_SPEECH = frozenset({"told", "tells", "telling", "said", "says", "saying", "wrote", "writes",
                     "added", "explained", "according", "asked", "replied", "tweeted"})
_NOT_LABEL_WORDS = frozenset({
    "is", "was", "are", "were", "be", "been", "has", "have", "had", "will", "would", "can",
    "could", "should", "may", "might", "must", "do", "does", "did", "said", "says", "say",
    "told", "tells", "added", "adds", "explained", "wrote", "writes", "tweeted", "posted",
    "insisted", "stated", "admitted", "revealed", "warned", "continued", "commented",
    "declared", "asked", "asks", "replied", "claimed", "claims", "announced", "reads", "read",
    "include", "includes", "including", "follows", "as", "i", "he", "she", "they", "we",
    "you", "it", "this", "that", "there", "here", "which", "who", "what",
})
# words that cannot end the text a label is glued to ("told the Star-Tribune: ...")
_FUNCTION_WORDS = frozenset({
    "the", "a", "an", "of", "to", "in", "on", "at", "by", "for", "with", "from", "told", "said",
    "and", "or", "his", "her", "their", "its", "my", "our", "your", "this", "that", "these",
    "those", "about", "into", "via", "tells", "says", "than", "as",
})
_BOILERPLATE = re.compile(
    r"^(?:E-mail to a friend|Scroll down for (?:the )?video|Click here.*|"
    r"Read more\b.*|Editor's note:.*|.*contributed to this report\.?|.*reported from .{1,60}\.|"
    r"CNN(?:'s|\.com)\b.{0,200}\b(?:contributed|reported|wrote)\b.*|"
    r"Copyright \d{4}.*|(?:©|\(c\)) ?\d{4}.*|All rights reserved.*|Follow @\w+.*|RELATED:.*|"
    r"Our Standards:.*|NEW: )$", re.IGNORECASE)
_TRAILING_FRIEND = re.compile(r"\s*E-mail to a friend\s*$")
# a credit sentence closing an article that has no paragraph breaks
_TRAILING_CREDIT = re.compile(
    r"(?<=[.!?\"”'])\s+(?:CNN's|CNN\.com|The Associated Press|Reuters)\b[^.!?]{0,250}?"
    r"\b(?:contributed to this report|reported from|wrote from)\b[^.!?]{0,120}\.\s*$")
MAX_BOILERPLATE_CHARS = 300
_DATELINE_GLUE = re.compile(r"^(.{0,60}?\((?:CNN|EW\.com|CNN Student News)\))(?=[A-Z\"'])")


def normalise_whitespace(text: str) -> str:
    """Non-breaking and odd spaces become spaces; runs collapse; ends are stripped."""
    return _WS.sub(" ", text).strip()


def undo_ptb_escapes(text: str) -> str:
    """`-LRB-` and friends (left by PTB tokenisation of highlights) back to brackets."""
    return _PTB_RE.sub(lambda m: _PTB[m.group(0)], text)


def strip_link_lines(text: str) -> str:
    """Drop rc-data 'Watch ... »' / 'See ... »' links glued to a paragraph."""
    return _LINK.sub("", text)


def strip_dailymail_byline(text: str) -> str:
    """Drop `By . X . PUBLISHED: . ... | . UPDATED: . ... .` and `Last updated at ... .`
    at the start of an article, piece by piece until none is left (a "Last updated"
    behind a byline goes too)."""
    while True:
        before = text
        for pattern in _DM_HEAD:
            text = pattern.sub("", text, count=1)
        if text == before:
            break
    return "" if _DM_BYLINE_ALONE.match(text) else text


def strip_photo_positions(text: str) -> str:
    """'Smith (pictured) and Jones (far left)' -> 'Smith and Jones'; 'Hussen, left, took
    his daughter Amira, right, to' -> 'Hussen took his daughter Amira to'."""
    return _COMMA_POSITION.sub("", _PHOTO_POSITION.sub("", text))


def _is_label(label: list) -> bool:
    words = [w.lower().replace("’", "'") for w in label]
    return (label[0][:1].isupper() and sum(map(len, label)) <= 45
            and all(_LABEL_WORD.match(w) for w in label)
            and not any(w in _NOT_LABEL_WORDS for w in words))


def caption_labels(text: str) -> list:
    """(start, end) of each caption label with its colon. After a sentence (or at the
    start) the label is the words up to the colon (at most five); glued to the text
    before it, the shortest capitalised run of at most four ("... last Saturday Skilful:
    The kite" -> "Skilful: "), and never before a quote (speech)."""
    out = []
    for colon in _LABEL_COLON.finditer(text):
        before = text[:colon.start()]
        words = before.split()
        found = None
        quoted = text[colon.end()] in "'‘\"“"
        for k in range(1, min(MAX_LABEL_WORDS + 1, len(words)) + 1):
            label, rest = words[-k:], words[:-k]
            at_start = not rest or _SENTENCE_END.search(rest[-1])
            if at_start:
                found = (k, label) if _is_label(label) else found
                break
            if found is None and not quoted and k <= MAX_LABEL_WORDS and _is_label(label) and \
                    rest[-1].lower().rstrip(",") not in _FUNCTION_WORDS and \
                    not rest[-1].endswith((",", ";", ":")) and \
                    not any(w.lower() in _SPEECH for w in rest[-4:]):
                found = (k, label)
        if found:
            k, label = found
            start = len(before) - len(" ".join(label))
            out.append((start, colon.end()))
    return out


def caption_cuts(text: str) -> list:
    """(start, end, Reject) of each "Scroll down for video" line and caption label."""
    cuts = [(m.start(), m.end(), SCROLL_LINE) for m in _SCROLL.finditer(text)]
    cuts += [(s, e, CAPTION_LABEL) for s, e in caption_labels(text)]
    return sorted(cuts)


SCROLL_LINE = Reject("not_scroll_line", "scroll_line")
CAPTION_LABEL = Reject("not_caption_label", "caption_label")


def split_captions(text: str, cut_out: Optional[list] = None) -> list:
    """A paragraph cut where a photo caption's label or "Scroll down for video" stands:
    the label and the scroll line go, the caption is its own piece (so no sentence runs
    into it). 'had a taste Strictly business: Julia covers it' -> ['had a taste',
    'Julia covers it']. `cut_out`, when given, receives (text, Reject) of what went."""
    cuts = caption_cuts(text)
    if not cuts:
        return [text] if text.strip() else []
    pieces, cursor = [], 0
    for s, e, why in cuts:
        if s < cursor:
            continue
        pieces.append(text[cursor:s])
        if cut_out is not None:
            cut_out.append((text[s:e].strip(), why))
        cursor = e
    pieces.append(text[cursor:])
    return [p.strip() for p in pieces if p.strip()]


def fix_dateline(text: str) -> str:
    """`(CNN)The` -> `(CNN) The`, as in the released ReCoRD passages."""
    return _DATELINE_GLUE.sub(r"\1 ", text, count=1)


def is_boilerplate(paragraph: str) -> bool:
    """Credit lines, 'E-mail to a friend', 'Scroll down for video', copyright notices."""
    return len(paragraph) <= MAX_BOILERPLATE_CHARS and bool(_BOILERPLATE.match(paragraph))


def strip_trailing_credit(text: str) -> str:
    """Drop "CNN's X contributed to this report." ending a one-paragraph article."""
    return _TRAILING_CREDIT.sub("", text)


def clean_paragraph(text: str) -> str:
    text = strip_link_lines(text)
    text = _TRAILING_FRIEND.sub("", text)
    return normalise_whitespace(strip_photo_positions(undo_ptb_escapes(text)))


def infer_source(article: Article, raw_first_paragraph: str = "") -> Optional[str]:
    """Publisher from the record, the URL, a `(CNN)` dateline or a Daily Mail byline."""
    if article.source:
        s = article.source.strip().lower().replace(" ", "")
        return {"dailymail": "dailymail", "mailonline": "dailymail"}.get(s, s)
    url = (article.url or "").lower()
    if "dailymail.co.uk" in url:
        return "dailymail"
    if "cnn.com" in url:
        return "cnn"
    head = raw_first_paragraph[:300]
    if re.search(r"\((?:CNN|EW\.com)\)", head):
        return "cnn"
    if re.match(r"\s*By \. ", head) or "PUBLISHED: ." in head or "Daily Mail" in head:
        return "dailymail"
    if re.search(r"\(Reuters\)", head):
        return "reuters"
    return "unknown"


NOT_BOILERPLATE = Rule("not_boilerplate", "boilerplate",
                       lambda piece, source, c: not is_boilerplate(piece))
# pieces of a paragraph that are not text of the story (fragments.py): dropped by clean
PIECE_RULES = (NOT_BOILERPLATE, NOT_STAT_BOX, NOT_LINK_HEADLINE)


def paragraph_pieces(paragraph: str, source: Optional[str]) -> list:
    """(piece, Reject or None) for each piece of a cleaned paragraph: stat boxes and CNN
    link headlines cut out (fragments.py), then captions (`split_captions`); a piece with
    a Reject is not text of the story (`PIECE_RULES`, or a caption label or scroll line
    that `split_captions` cut out)."""
    out = []
    for fragment in split_fragments(paragraph, source):
        whole = first_rejection(PIECE_RULES, fragment, source)
        if whole is not None:     # a stat box or headline goes whole, labels and all
            out.append((fragment, whole))
            continue
        cut_out = []
        for piece in split_captions(fragment, cut_out):
            out.append((piece, first_rejection(PIECE_RULES, piece, source)))
        out += cut_out
    return out


def clean_article(article: Article, config: CleanConfig = CleanConfig(),
                  dropped: Optional[collections.Counter] = None) -> Union[Article, dict]:
    """The cleaned article, or a rejected row with the reason it cannot become a passage.
    `dropped`, when given, counts the pieces cut out of the body by reason."""
    def reject(reason, detail=None):
        return rejected_row(STAGE, reason, article_id=article.article_id,
                            source_file=article.source_file, detail=detail)

    if article.n_chars > config.max_article_chars:
        return reject("article_too_long",
                      f"{article.n_chars} characters > {config.max_article_chars}")
    body = wraps.as_loader_layout(article.paragraphs)   # a .story of the page's lines
    source = infer_source(article, body[0] if body else "")
    cleaned, head = [], True
    for i, p in enumerate(body):
        if head:   # byline pieces may fill the first paragraphs
            p = fix_dateline(strip_dailymail_byline(normalise_whitespace(p)))
            head = not p.strip()
        p = clean_paragraph(p)
        if i == len(body) - 1:
            p = strip_trailing_credit(p)
        if not p.strip() and dropped is not None and body[i].strip():
            dropped["cleaned_away"] += 1     # a link line, a byline, 'E-mail to a friend'
        cleaned.append(p)
    cleaned, cut = wraps.repair_paragraphs(cleaned, source)   # lines the page broke
    if dropped is not None:
        dropped.update(why.reason for _, why in cut)
    paragraphs = []
    for p in cleaned:
        for piece, why in paragraph_pieces(p, source):
            if why is None:
                paragraphs.append(piece)
            elif dropped is not None:
                dropped[why.reason] += 1
    highlights = tuple(h for h in (wraps.repair_highlight(clean_paragraph(h))
                                   for h in article.highlights) if h)
    if not paragraphs and not highlights:
        return reject("empty_article", "no text after cleaning")
    if not paragraphs:
        return reject("only_highlights", f"{len(highlights)} highlights and no body")
    if len(highlights) < config.min_highlights:
        return reject("no_highlights", f"{len(paragraphs)} paragraphs and no @highlight")
    return article.with_(paragraphs=tuple(paragraphs), highlights=highlights, source=source)

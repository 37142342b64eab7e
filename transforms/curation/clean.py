"""Article cleaning (paper section 3.1, curation). Each rule is a pure function."""
import collections
import re
from dataclasses import dataclass
from typing import Optional, Union

from transforms.ingestion.articles import Article
from transforms.curation import wraps
from transforms.curation.captions import (CAPTION, CAPTION_LABEL, SCROLL_LINE,  # noqa: F401
                                          caption_labels, count_photo_positions,
                                          is_caption_piece, split_captions,
                                          strip_photo_positions, strip_repeated_sentences)
from transforms.curation.highlights import clean_highlights
from transforms.curation.promotions import MAX_PROMOTION_WORDS, find_promotions, is_promotion
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
_BOILERPLATE = re.compile(
    r"^(?:E-mail to a friend|Scroll down for (?:the )?video|Click here.*|"
    r"Read more\b.*|Editor's note:.*|.*contributed to this report\.?|.*reported from .{1,60}\.|"
    r"CNN(?:'s|\.com)\b.{0,200}\b(?:contributed|reported|wrote)\b.*|"
    r"Copyright \d{4}.*|(?:©|\(c\)) ?\d{4}.*|All rights reserved.*|Follow @\w+.*|RELATED:.*|"
    r"Our Standards:.*|NEW: )$", re.IGNORECASE)
_TRAILING_FRIEND = re.compile(r"\s*E-mail to a friend\s*$")
# a credit sentence closing an article that has no paragraph breaks
_TRAILING_CREDIT = re.compile(
    r"(?<=[.!?\"”'])\s+(?:(?:CNN's|CNN\.com|The Associated Press|Reuters)\b[^.!?]{0,250}?"
    r"\b(?:contributed to this report|reported from|wrote from)\b[^.!?]{0,120}\.|"
    r"(?:Copyright|©) \d{4}\b.{0,300}?)\s*$")
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


def fix_dateline(text: str) -> str:
    """`(CNN)The` -> `(CNN) The`, as in the released ReCoRD passages."""
    return _DATELINE_GLUE.sub(r"\1 ", text, count=1)


def is_boilerplate(paragraph: str) -> bool:
    """Credit lines, 'E-mail to a friend', 'Scroll down for video', copyright notices."""
    return len(paragraph) <= MAX_BOILERPLATE_CHARS and bool(_BOILERPLATE.match(paragraph))


def strip_trailing_credit(text: str) -> str:
    """Drop "CNN's X contributed to this report." and copyright notices ending a
    one-paragraph article, one after another."""
    while True:
        text, n = _TRAILING_CREDIT.subn("", text)
        if not n:
            return text


_LIST_BULLET = re.compile(r"^[ \t]*[•·▪●◦■□►▶➤✓✔](?:[ \t]+|(?=\S))", re.M)


def strip_list_bullets(text: str) -> str:
    """A list item's bullet at the start of a line is layout, not text: "• Democrats are
    working to ..." (a CNN 2010 page's list of quotes) reads "Democrats are working to ..."."""
    return _LIST_BULLET.sub("", text)


def clean_paragraph(text: str) -> str:
    text = strip_list_bullets(strip_link_lines(text))
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
NOT_PROMOTION = Rule("not_promotion", "promotion",
                     lambda piece, source, c: not is_promotion_piece(piece))
# pieces of a paragraph that are not text of the story (fragments.py, promotions.py):
# dropped by clean
PIECE_RULES = (NOT_BOILERPLATE, NOT_STAT_BOX, NOT_LINK_HEADLINE, NOT_PROMOTION)
PROMOTION = Reject("not_promotion", "promotion")


def is_promotion_piece(piece: str) -> bool:
    """A piece that is a promotion and nothing else (a longer piece that opens with one is
    cut by `split_promotions`)."""
    return len(piece.split()) <= MAX_PROMOTION_WORDS and is_promotion(piece)


def split_promotions(text: str, cut_out: list) -> list:
    """The text cut where a promotion opens a sentence; each promotion goes to `cut_out`."""
    pieces, cursor = [], 0
    for s, e in find_promotions(text):
        pieces.append(text[cursor:s])
        cut_out.append((text[s:e].strip(), PROMOTION))
        cursor = e
    pieces.append(text[cursor:])
    return [p.strip() for p in pieces if p.strip()]


def paragraph_pieces(paragraph: str, source: Optional[str], alone: bool = True) -> list:
    """(piece, Reject or None) for each piece of a cleaned paragraph: stat boxes and CNN
    link headlines cut out (fragments.py), then captions (`split_captions`) and
    promotions (`split_promotions`); a piece with a Reject is not text of the story
    (`PIECE_RULES`, a caption label, scroll line or promotion cut out, or a Daily Mail
    caption left as a piece of its own: `is_caption_piece`; `alone`: the paragraph is the
    article's only one, so a piece that is all of it is its text, not a caption)."""
    out = []
    fragments = split_fragments(paragraph, source)
    for fragment in fragments:
        whole = first_rejection(PIECE_RULES, fragment, source)
        if whole is not None:     # a stat box or headline goes whole, labels and all
            out.append((fragment, whole))
            continue
        cut_out = []
        pieces = [p for c in split_captions(fragment, cut_out)
                  for p in split_promotions(c, cut_out)]
        for piece in pieces:
            followed = not (alone and len(fragments) == 1 and len(pieces) == 1)
            why = first_rejection(PIECE_RULES, piece, source)
            if why is None and is_caption_piece(piece, source, followed):
                why = CAPTION
            out.append((piece, why))
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
    heads, head = [], True
    for p in body:
        if head:   # byline pieces may fill the first paragraphs
            p = fix_dateline(strip_dailymail_byline(normalise_whitespace(p)))
            head = not p.strip()
        heads.append(p)
    repaired, cut = wraps.repair_paragraphs(heads, source)   # lines the page broke
    repaired, repeats = strip_repeated_sentences(repaired)  # a lead repeated as a caption
    if dropped is not None:
        dropped.update(why.reason for _, why in cut)
        if repeats:
            dropped["repeated_lead"] += repeats
    paragraphs = []
    for i, p in enumerate(repaired):
        notes = count_photo_positions(undo_ptb_escapes(p)) if dropped is not None else 0
        if notes:
            dropped["position_note"] += notes
        p = clean_paragraph(p)
        if i == len(body) - 1:
            p = strip_trailing_credit(p)
        if not p.strip() and dropped is not None and body[i].strip():
            dropped["cleaned_away"] += 1     # a link line, a byline, 'E-mail to a friend'
        for piece, why in paragraph_pieces(p, source, alone=len(repaired) == 1):
            if why is None:
                paragraphs.append(piece)
            elif dropped is not None:
                dropped[why.reason] += 1
    highlights = clean_highlights([wraps.repair_highlight(clean_paragraph(h))
                                   for h in article.highlights], dropped)
    if not paragraphs and not highlights:
        return reject("empty_article", "no text after cleaning")
    if not paragraphs:
        return reject("only_highlights", f"{len(highlights)} highlights and no body")
    if len(highlights) < config.min_highlights:
        return reject("no_highlights", f"{len(paragraphs)} paragraphs and no @highlight")
    return article.with_(paragraphs=tuple(paragraphs), highlights=highlights, source=source)

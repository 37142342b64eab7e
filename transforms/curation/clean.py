"""Article cleaning (paper section 3.1, curation). Each rule is a pure function.

Every cleaning rule sits in one table (the transforms/core/rules.py convention), by what
it judges, listed in `CLEANING_RULES` in the order `clean_article` applies them:

| table                       | judges                                  | a rejection    |
|-----------------------------|-----------------------------------------|----------------|
| `ARTICLE_RULES`             | the article as read                     | rejects it     |
| `wraps.WRAP_LINE_RULES`     | a line of the loader's layout           | drops the line |
| `sub_headings.HEADING_LINE_RULES` | a line of a cleaned paragraph     | drops the line |
| `PIECE_RULES`               | a piece of a cleaned paragraph          | drops the piece|
| `highlights.BULLET_RULES`   | an @highlight line as written           | drops the line |
| `highlights.HIGHLIGHT_RULES`| a bullet once broken ones are joined    | drops it       |
| `CLEANED_RULES`             | the cleaned article                     | rejects it     |

Text cut out of a paragraph by pattern (captions.py: caption labels, "Scroll down for
video"; promotions.py: a promotion opening a sentence; listings.py: a list's label lines
and its intro) carries its Reject too. Dropped
lines and pieces are counted by reason (`pieces_dropped.<reason>`); a rejected article
is a row of DIR/rejected.
"""
import collections
import re
from dataclasses import dataclass
from typing import NamedTuple, Optional, Union

from transforms.core.config import setting
from transforms.core.rules import Reject, Rule, first_rejection
from transforms.curation import (
    embeds,
    lead_captions,
    listings,
    sub_headings,
    wrapped_lines,
    wraps,
)
from transforms.curation import highlights as H
from transforms.curation.captions import (  # noqa: F401
    CAPTION_LABEL,
    SCROLL_LINE,
    caption_labels,
    count_photo_positions,
    is_caption_piece,
    is_photo_credit,
    split_captions,
    strip_photo_positions,
    strip_repeated_sentences,
)
from transforms.curation.fragments import (
    NOT_LINK_HEADLINE,
    NOT_LIVE_FEED,
    NOT_STAT_BOX,
    cut_spans,
    split_fragments,
)
from transforms.curation.notices import strip_page_notices
from transforms.curation.promotions import (
    MAX_PROMOTION_WORDS,
    find_promotions,
    form_reasons,
    is_promotion,
)
from transforms.curation.publishers import infer_source
from transforms.ingestion.articles import Article

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
# removed one after another until none is left, in whatever order they come. " ?\." :
# HF's files write "By . X . PUBLISHED: .", TFDS's "By. X. PUBLISHED:.".
_TIME = r"[^.|]{0,60}?"
_DM_HEAD = (
    re.compile(r"^\s*By ?\. [^.]{1,80}? ?\.(?: |$)(?:(?:and|&) [^.]{1,60}? ?\.(?: |$))?"),
    re.compile(r"^\s*(?:PUBLISHED|Published): ?\. " + _TIME + r" ?\.(?: |$)(?:\| ?\.(?: |$))?"),
    re.compile(r"^\s*(?:UPDATED|Updated): ?\. " + _TIME + r" ?\.(?: |$)"),
    re.compile(r"^\s*(?:Last updated at|Last updated on|Last updated) [^.]{0,60}?\d{4} ?\. ?"),
    re.compile(r"^\s*\| ?\.(?: |$)"),
    re.compile(r"^\s*Follow @@?\w{1,40} ?\.(?: |$)"),      # the author's Twitter handle
)
_DM_BYLINE_ALONE = re.compile(r"^\s*By ?\. [^.]{1,80}(?: ?\.)?$")
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
    """Drop `By . X . PUBLISHED: . ... | . UPDATED: . ... .`, `Last updated at ... .` and
    `Follow @@handle .` at the start of an article (spaced as HF or as TFDS writes them),
    piece by piece until none is left (a "Last updated" behind a byline goes too)."""
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
# a bullet after a sentence end, where the page's lines were joined ("... resignation. •
# Flanked by Snow ...", the loader's layout)
_JOINED_BULLET = re.compile(r"(?:(?<=[.!?:])|(?<=[.!?]['\"’”)]))[ \t]+[•▪●◦■□►▶➤✓✔][ \t]+")


def strip_list_bullets(text: str) -> str:
    """A list item's bullet at the start of a line, or after a sentence end where lines
    were joined, is layout, not text: "• Democrats are working to ..." (a CNN 2010 page's
    list of quotes) reads "Democrats are working to ..."."""
    return _JOINED_BULLET.sub(" ", _LIST_BULLET.sub("", text))


# a sentence end the page left without its space ("a court has heard.Shocking
# allegations"): a lower-case word, its mark, a capitalised word; not a web address
# ("www.DearAbby.com", "news.BBC.co.uk"), not an initial or an abbreviation ("Mr.Smith")
_MISSING_SPACE = re.compile(r"(?<![\w./@:-])([a-z]{2,}[.!?])(?=[A-Z][a-z]+\b(?![.@/]\w))")


def restore_missing_space(text: str) -> str:
    """"heard.Shocking" -> "heard. Shocking": the space a sentence end lost."""
    return _MISSING_SPACE.sub(r"\1 ", text)


def clean_paragraph(text: str) -> str:
    text = restore_missing_space(text)
    text = strip_list_bullets(strip_link_lines(strip_page_notices(text)[0]))
    text = _TRAILING_FRIEND.sub("", text)
    return normalise_whitespace(strip_photo_positions(undo_ptb_escapes(text)))


class Piece(NamedTuple):
    """What the piece rules see beside a piece of a paragraph."""
    source: Optional[str]
    followed: bool = False   # other text beside it (it is not the article's whole text)


NOT_BOILERPLATE = Rule("not_boilerplate", "boilerplate",
                       lambda piece, ctx, c: not is_boilerplate(piece))
NOT_PROMOTION = Rule("not_promotion", "promotion",
                     lambda piece, ctx, c: not is_promotion_piece(piece))
NOT_PHOTO_CREDIT = Rule("not_photo_credit", "photo_credit",
                        lambda piece, ctx, c: not is_photo_credit(piece))
NOT_CAPTION_PIECE = Rule("not_caption", "caption",
                         lambda piece, ctx, c: not is_caption_piece(piece, ctx.source,
                                                                    ctx.followed))
# pieces of a paragraph that are not text of the story (fragments.py, promotions.py,
# captions.py): dropped by clean
PIECE_RULES = (NOT_BOILERPLATE, NOT_STAT_BOX, NOT_LINK_HEADLINE, NOT_LIVE_FEED,
               NOT_PROMOTION, NOT_PHOTO_CREDIT, NOT_CAPTION_PIECE)
PROMOTION = Reject("not_promotion", "promotion")


def is_promotion_piece(piece: str) -> bool:
    """A piece that is a promotion and nothing else (a longer piece that opens with one is
    cut by `split_promotions`)."""
    return len(piece.split()) <= MAX_PROMOTION_WORDS and is_promotion(piece)


def split_promotions(text: str, cut_out: list) -> list:
    """The text cut where a promotion opens a sentence; each promotion goes to `cut_out`."""
    return cut_spans(text, find_promotions(text), PROMOTION, cut_out)


def paragraph_pieces(paragraph: str, source: Optional[str], alone: bool = True) -> list:
    """(piece, Reject or None) for each piece of a cleaned paragraph: stat boxes and CNN
    link headlines cut out (fragments.py), then captions (`split_captions`) and
    promotions (`split_promotions`); a piece with a Reject is not text of the story
    (`PIECE_RULES`, with a Daily Mail caption left as a piece of its own, or a caption
    label, scroll line or promotion cut out; `alone`: the paragraph is the article's only
    one, so a piece that is all of it is its text, not a caption)."""
    out = []
    fragments = split_fragments(paragraph, source)
    for fragment in fragments:
        # a stat box or headline goes whole, labels and all (no caption: not yet cut)
        whole = first_rejection(PIECE_RULES, fragment, Piece(source))
        if whole is not None:
            out.append((fragment, whole))
            continue
        cut_out = []
        pieces = [p for f in listings.split_label_lines(fragment, cut_out)
                  for c in split_captions(f, cut_out, source != "dailymail")
                  for q in split_promotions(c, cut_out)
                  for p in listings.split_list_intro(q, cut_out)]
        for piece in pieces:
            followed = not (alone and len(fragments) == 1 and len(pieces) == 1)
            out.append((piece, first_rejection(PIECE_RULES, piece, Piece(source, followed))))
        out += cut_out
    return out


ARTICLE_RULES = (      # the article as read
    Rule("max_article_chars", "article_too_long",
         lambda a, ctx, c: a.n_chars <= c.max_article_chars
         or (False, f"{a.n_chars} characters > {c.max_article_chars}")),
)
CLEANED_RULES = (      # the article once cleaned: what a passage needs
    Rule("has_text", "empty_article",
         lambda a, ctx, c: bool(a.paragraphs or a.highlights) or (False, "no text after cleaning")),
    Rule("has_body", "only_highlights",
         lambda a, ctx, c: bool(a.paragraphs)
         or (False, f"{len(a.highlights)} highlights and no body")),
    Rule("min_highlights", "no_highlights",
         lambda a, ctx, c: len(a.highlights) >= c.min_highlights
         or (False, f"{len(a.paragraphs)} paragraphs and no @highlight")),
)
#: every cleaning rule table, by what it judges, in the order clean_article applies them
CLEANING_RULES = {"article": ARTICLE_RULES, "line": wraps.WRAP_LINE_RULES,
                  "heading": sub_headings.HEADING_LINE_RULES, "piece": PIECE_RULES,
                  "bullet": H.BULLET_RULES, "highlight": H.HIGHLIGHT_RULES,
                  "cleaned": CLEANED_RULES}


def clean_article(article: Article, config: CleanConfig = CleanConfig(),
                  dropped: Optional[collections.Counter] = None) -> Union[Article, Reject]:
    """The cleaned article, or the Reject of the first rule of `ARTICLE_RULES` (before
    cleaning) or `CLEANED_RULES` (after) it fails. `dropped`, when given, counts the
    pieces cut out of the body by reason."""
    rejected = first_rejection(ARTICLE_RULES, article, None, config)
    if rejected is not None:
        return rejected
    story, lead_cut = lead_captions.strip_lead_caption(article.paragraphs)  # CNN photo
    body = wraps.as_loader_layout(story)                # a .story of the page's lines
    source = infer_source(article, body[0] if body else "")
    heads, head = [], True
    glued = sum(map(wrapped_lines.glued_dot_count, body)) >= wrapped_lines.GLUED_LAYOUT_MIN
    for p in body:
        if head:   # byline pieces may fill the first paragraphs
            p = fix_dateline(strip_dailymail_byline(normalise_whitespace(p)))
            head = not p.strip()
        heads.append(wrapped_lines.spaced_glued_dots(p) if glued else p)   # TFDS layout
    repaired, cut = wraps.repair_paragraphs(heads, source)   # lines the page broke
    repaired, repeats = strip_repeated_sentences(repaired)  # a lead repeated as a caption
    posts = embeds.tweet_embeds(repaired)                   # embedded social posts
    if dropped is not None:
        dropped.update(why.reason for _, why in cut + lead_cut)
        if repeats:
            dropped["repeated_lead"] += repeats
        if posts:
            dropped["tweet_embed"] += len(posts)
    paragraphs = []
    for i, p in enumerate(repaired):
        if i in posts:
            p = posts[i]
            if not p:
                continue
        if dropped is not None:
            dropped.update(+collections.Counter(
                position_note=count_photo_positions(undo_ptb_escapes(p)),
                page_notice=strip_page_notices(p)[1]))
        p, headings = sub_headings.strip_sub_headings(clean_paragraph(p))
        if dropped is not None:
            dropped.update(why.reason for _, why in headings)
        if i == len(body) - 1:
            p = strip_trailing_credit(p)
        if not p.strip() and dropped is not None and body[i].strip():
            dropped["cleaned_away"] += 1     # a link line, a byline, 'E-mail to a friend'
        for piece, why in paragraph_pieces(p, source, alone=len(repaired) == 1):
            if why is None:
                paragraphs.append(piece)
            elif dropped is not None:
                dropped.update([why.reason, *form_reasons(piece, why)])
    if dropped is not None:
        dropped.update(+collections.Counter(
            page_notice=sum(strip_page_notices(h)[1] for h in article.highlights)))
    highlights = H.clean_highlights([wraps.repair_highlight(clean_paragraph(fix_dateline(h)))
                                     for h in article.highlights], dropped,
                                    H.body_words(paragraphs))
    cleaned = article.with_(paragraphs=tuple(paragraphs), highlights=highlights, source=source)
    return first_rejection(CLEANED_RULES, cleaned, None, config) or cleaned

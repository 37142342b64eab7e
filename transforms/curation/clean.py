"""Article cleaning (paper section 3.1, curation). Each rule is a pure function."""
import re
from dataclasses import dataclass
from typing import Optional, Union

from transforms.curation.articles import Article
from transforms.core.config import setting
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
# Daily Mail byline/timestamp boilerplate at the start of an article.
_DM_BYLINE = re.compile(
    r"^\s*(?:By \. .{0,120}? \. )?(?:PUBLISHED: \. .{0,60}? \. \| \. )?"
    r"(?:UPDATED: \. .{0,60}? \. )")
_DM_BYLINE_SHORT = re.compile(r"^\s*By \. [^.]{1,80} \. (?=\S)")
_LAST_UPDATED = re.compile(r"^\s*(?:Last updated at|Last updated on) [^.]{0,60}\d{4} \. ?")
_BOILERPLATE = re.compile(
    r"^(?:E-mail to a friend|Scroll down for (?:the )?video|Click here.*|"
    r"Read more\b.*|Editor's note:.*|.*contributed to this report\.?|.*reported from .{1,60}\.|"
    r"CNN(?:'s|\.com)\b.{0,200}\b(?:contributed|reported|wrote)\b.*|"
    r"Copyright \d{4}.*|All rights reserved.*|Follow @\w+.*|RELATED:.*|NEW: )$", re.IGNORECASE)
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
    """Drop `By . X . PUBLISHED: . ... | . UPDATED: . ... .` at the start of an article."""
    for pattern in (_DM_BYLINE, _LAST_UPDATED, _DM_BYLINE_SHORT):
        text = pattern.sub("", text, count=1)
    return text


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
    return normalise_whitespace(undo_ptb_escapes(text))


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


def clean_article(article: Article, config: CleanConfig = CleanConfig()) -> Union[Article, dict]:
    """The cleaned article, or a rejected row with the reason it cannot become a passage."""
    def reject(reason, detail=None):
        return rejected_row(STAGE, reason, article_id=article.article_id,
                            source_file=article.source_file, detail=detail)

    if article.n_chars > config.max_article_chars:
        return reject("article_too_long",
                      f"{article.n_chars} characters > {config.max_article_chars}")
    raw_first = article.paragraphs[0] if article.paragraphs else ""
    paragraphs = []
    for i, p in enumerate(article.paragraphs):
        if i == 0:
            p = fix_dateline(strip_dailymail_byline(p))
        p = clean_paragraph(p)
        if i == len(article.paragraphs) - 1:
            p = strip_trailing_credit(p)
        if p and not is_boilerplate(p):
            paragraphs.append(p)
    highlights = tuple(h for h in (clean_paragraph(h) for h in article.highlights) if h)
    if not paragraphs and not highlights:
        return reject("empty_article", "no text after cleaning")
    if not paragraphs:
        return reject("only_highlights", f"{len(highlights)} highlights and no body")
    if len(highlights) < config.min_highlights:
        return reject("no_highlights", f"{len(paragraphs)} paragraphs and no @highlight")
    return article.with_(paragraphs=tuple(paragraphs), highlights=highlights,
                         source=infer_source(article, raw_first))

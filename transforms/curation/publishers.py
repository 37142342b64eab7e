"""The article's publisher (paper section 3.1, curation): the record's own `source` when it
names a publisher the rules know, else the page's signs (its URL, a "(CNN)" dateline, a
Daily Mail byline), else the record's value. Publisher-specific rules read it: CNN's link
headlines, Daily Mail captions, the release rule `publisher_answer`. Pure functions; no
Beam.
"""
import re
from typing import Optional

from transforms.ingestion.articles import Article

# the publishers the rules know by name (quality/publishers.py); a record's other `source`
# ("cnn_dailymail", a dataset's name) is no publisher the rules can use, so the page's own
# signs are read first, and the record's value kept only where they find none
KNOWN_PUBLISHERS = frozenset({"cnn", "dailymail", "bbc", "reuters", "guardian"})


def infer_source(article: Article, raw_first_paragraph: str = "") -> Optional[str]:
    """Publisher from the record when it names one the rules know (`KNOWN_PUBLISHERS`),
    else the URL, a `(CNN)` dateline or a Daily Mail byline, else the record's value."""
    given = None
    if article.source:
        s = article.source.strip().lower().replace(" ", "")
        given = {"dailymail": "dailymail", "mailonline": "dailymail"}.get(s, s)
        if given in KNOWN_PUBLISHERS:
            return given
    found = _source_from_page(article, raw_first_paragraph)
    return given if given and found == "unknown" else found


def _source_from_page(article: Article, raw_first_paragraph: str) -> str:
    url = (article.url or "").lower()
    if "dailymail.co.uk" in url:
        return "dailymail"
    if "cnn.com" in url:
        return "cnn"
    head = raw_first_paragraph[:300]
    if re.search(r"\((?:CNN|EW\.com)\)", head):
        return "cnn"
    if re.match(r"\s*By ?\. ", head) or re.search(r"PUBLISHED: ?\.", head) or \
            "Daily Mail" in head:
        return "dailymail"
    if re.search(r"\(Reuters\)", head):
        return "reuters"
    return "unknown"

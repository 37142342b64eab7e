"""Embedded social posts (issue 32): a page that embeds a tweet carries its text, its
picture link and its signature ("-- Name (@handle) February 23, 2023") as paragraphs of
the body. The post is not the article's prose: its sentences became queries ("Sharing my
full letter on the sentencing of @placeholder ..."). Pure functions; no Beam.

- `tweet_signature`: where a paragraph ends in an embed's signature, a dash, a name, an
  @handle in brackets and a date: the form Twitter's embed code writes.
- `tweet_embeds`: the paragraphs a signature closes. A post holds at most 280 characters
  (`TWEET_CHARS`, links not counted). Where the signature closes a paragraph, the post is
  that paragraph's text before it (a page flattened into one paragraph: its sentences from
  the end back to 280 characters; the head stays). Where the signature stands alone, the
  post is the paragraph just before it when that fits 280 characters, and the one before
  that too while the paragraph taken was only a link or emoji line ("⬇️ https://t.co/x").
  Nothing further back: the writer's own short paragraphs ("Another wondered why ...",
  "His first match in charge will be ...") sit there, and a post of several paragraphs
  keeps its first ones (seen once in 16 embeds of held-out pages).
- `strip_links`: picture and short links (pic.twitter.com, t.co) are not text.
"""
import re
from typing import Dict, List, Optional

TWEET_CHARS = 280
_MONTHS = ("January|February|March|April|May|June|July|August|September|October|"
           "November|December")
_SIGNATURE = re.compile(
    r"(?:^|(?<=\s))(?:—|–|--?)\s*[^()\n—–]{1,80}\(@\w{1,15}\)\s+"
    rf"(?:{_MONTHS})\s+\d{{1,2}},\s+\d{{4}}\s*$")
_LINK = re.compile(r"\s*(?:\bpic\.twitter\.com/\w+|https?://t\.co/\w+)")
_LETTER = re.compile(r"[^\W\d_]")
_SENTENCE_START = re.compile(r"[.!?][\"'’”)]?\s+(?=[\"'‘“(]?[A-Z0-9])")


def strip_links(text: str) -> str:
    """"... retribution ourselves? pic.twitter.com/s96jjh8AlD" -> "... ourselves?"."""
    return _LINK.sub("", text)


def tweet_signature(paragraph: str) -> Optional[int]:
    """Where the embed signature closing `paragraph` starts, or None."""
    m = _SIGNATURE.search(paragraph)
    return m.start() if m else None


def _post_start(text: str) -> int:
    """Where the post begins in `text`, the writing before an embed signature: the
    earliest sentence start from which the rest fits a post."""
    if len(strip_links(text).strip()) <= TWEET_CHARS:
        return 0
    for m in _SENTENCE_START.finditer(text):
        if len(strip_links(text[m.end():]).strip()) <= TWEET_CHARS:
            return m.end()
    return len(text)


def tweet_embeds(paragraphs: List[str]) -> Dict[int, str]:
    """{paragraph index: what stays of it ("" where all of it is the post)} for the
    paragraphs an embedded post covers; the others are not in the map."""
    out: Dict[int, str] = {}
    for i, p in enumerate(paragraphs):
        sig = tweet_signature(p)
        if sig is None:
            continue
        head = p[:sig]
        out[i] = head[:_post_start(head)].rstrip()
        if strip_links(head).strip():       # the post is in this paragraph
            continue
        budget, j = TWEET_CHARS, i - 1
        while j >= 0 and j not in out and tweet_signature(paragraphs[j]) is None:
            text = strip_links(paragraphs[j]).strip()
            if len(text) > budget:
                break
            out[j], budget, j = "", budget - len(text), j - 1
            if _LETTER.search(text):        # a line of words: the post's last paragraph
                break
    return out

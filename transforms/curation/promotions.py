"""Promotional text in news bodies and highlights (paper section 3.1, curation): lines a
web page addressed to its reader, not sentences of the story. Daily Mail pages put them
in the highlight bullets ("CLICK HERE for all the latest Manchester United news", "READ:
Arsenal stars in good spirits ...") and in the body ("Vote now in our poll", "Follow us
on Twitter @MailSport", "Share this article"); a passage or query made from one reads as
an advertisement.

A promotion is recognised by its form, not by a list of whole lines:
- it opens (past an upper-case section marker such as "READ:" or "VIDEO:") with a call
  to action: an imperative addressed to the reader ("click", "tap", "read", "see",
  "watch", "vote", "follow", "share", "sign up", "subscribe", "download", "like us",
  "check out", "find out", "join", "listen", "tweet", "email", "send", "tell us", "have
  your say", "don't miss") and names where to act: "here", "now", "us", "our", "below",
  "more", "the latest", a link, a handle, a gallery, a poll...;
- or it is a section marker of the page's own links: "READ:", "READ MORE:", "WATCH:",
  "VIDEO:", "RELATED:", "MORE:", "PICTURES:", "POLL:", "QUIZ:" and the like ("NEW:" and
  "UPDATE:" mark news, not links: they stay);
- or it opens by sending the reader "for all the latest ... news";
- or it is a gallery's or list's teaser: "Here's a look at ...", "Take a look at ...",
  a numbered list's link ("7 things you didn't know about ...", "5 facts to know ...":
  a digit, a list noun, then the reader addressed).
A quotation is never one ("'I encourage people to go check it out,' Obama said"): only
text outside quotes at the start of a line or a sentence is read. Pure functions; no Beam.
"""
import itertools
import re
from typing import List, Tuple

# upper-case markers of the page's links and media (a line opening with one is a link)
LINK_MARKERS = ("READ MORE", "READ ALSO", "READ", "SEE ALSO", "SEE", "WATCH", "VIDEO",
                "VIDEOS", "RELATED", "MORE", "PICTURES", "PHOTOS", "GALLERY", "POLL",
                "QUIZ", "INTERACTIVE", "LISTEN", "PODCAST", "CLICK HERE", "VOTE",
                "SUBSCRIBE", "FOLLOW", "SHARE", "TRENDING", "DON'T MISS", "ADVERTISEMENT",
                "SPONSORED", "PROMOTED")
_MARKER = re.compile(r"^(?:%s)\s*[:>»|-]\s*" % "|".join(re.escape(m) for m in LINK_MARKERS))
# a call to action: an imperative to the reader, then where to act within 14 words ("Listen
# to the full interview on Sport on Five and the BBC Sport website"; at 5 words that BBC line
# was kept; 14 adds 3 lines, all promotions, of 45,552 corpus sentences and flags no other)
_VERB = (r"(?:click|tap|read|see|watch|vote|follow|share|sign up|subscribe|download|"
         r"like us|check(?: it| them)? out|find out|join|listen|tweet|e-?mail us|send us|"
         r"tell us|enter|get (?:the|our|all)|don't miss|do not miss|have your say|scroll|"
         r"visit|go to|head to|catch up)")
_WHERE = (r"(?:here|now|us|our|below|above|more|the latest|latest|this (?:link|story|"
          r"article|page|video|gallery)|link|app|page|website|site|gallery|video|pictures|"
          r"photos|poll|quiz|newsletter|podcast|twitter|facebook|instagram|youtube|"
          r"online|the moment|the clip|the footage|@\w+|www\.|\w+\.com|\w+\.co\.uk)")
_CALL = re.compile(r"^(?:(?i:%s))\b(?:\W+\w+){0,14}?\W+(?i:%s)(?!\w)" % (_VERB, _WHERE))
# a call to action on its own ("Check it out", "Read more", "Vote now")
_BARE = re.compile(r"^(?i:check (?:it|them) out|click here|read more|read on|see more|"
                   r"find out more|watch now|vote now|more below|see below|listen now)\W*$")
_LATEST = re.compile(r"(?i)^for (?:all )?(?:the )?latest\b.{0,60}\bnews\b")
# a gallery's or list's teaser ("Here's a look at some of Trump's worst gaffes")
_TEASER = re.compile(r"(?i)^(?:(?:here['’]s|here is|here are|take) a (?:look|glance)(?: back)? at"
                     r"|\d{1,2} (?:things|facts|reasons|ways|secrets|questions|signs|"
                     r"moments) (?:you|to know|we)\b)")


def is_promotion(text: str) -> bool:
    """A line or a sentence that is a promotion (see the module docstring)."""
    t = text.strip().lstrip("•·*>-–— ")
    if not t or t[0] in "'‘\"“":
        return False
    if _MARKER.match(t):
        return True
    return bool(_CALL.match(t) or _BARE.match(t) or _LATEST.match(t) or _TEASER.match(t))


# ---------------------------------------------------------------- inside a paragraph
_STARTS = re.compile(r"(?:^|(?<=[.!?])['\"’”)]*\s+)(?=\S)")
_END = re.compile(r"[.!?]['\"’”)]*(?=\s|$)")
MAX_PROMOTION_WORDS = 30


def _glued_end(text: str, start: int, end: int) -> int:
    """Where a promotion with no full stop ends: before a capitalised word that opens the
    next sentence right after a lower-case word ("... latest Arsenal news Arsenal beat"
    does not split; "... the latest news The club said" does), else `end`."""
    from transforms.curation.fragments import _opens_sentence
    spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", text[start:end])]
    words = [text[start + s:start + e] for s, e in spans]
    for i in range(2, len(words)):
        if words[i - 1][-1:].isalpha() and words[i - 1][:1].islower() \
                and _opens_sentence(words, i):
            return start + spans[i][0]
    return end


def find_promotions(text: str) -> List[Tuple[int, int]]:
    """(start, end) of each promotion that opens a sentence of the paragraph, to the end
    of that sentence (at most 30 words; a promotion glued to the next sentence ends where
    that sentence opens)."""
    out = []
    for m in _STARTS.finditer(text):
        s = m.end()
        if out and s < out[-1][1]:
            continue
        stop = _END.search(text, s)
        e = stop.end() if stop else len(text)
        limit = [mm.end() for mm in itertools.islice(re.finditer(r"\S+", text[s:]),
                                                       MAX_PROMOTION_WORDS)]
        if limit:
            e = min(e, s + limit[-1])
        if not is_promotion(text[s:e]):
            continue
        out.append((s, _glued_end(text, s, e)))
    return out

"""Promotional text in news bodies and highlights (paper section 3.1, curation): lines a
web page addressed to its reader, not sentences of the story. Daily Mail pages put them
in the highlight bullets ("CLICK HERE for all the latest Manchester United news", "READ:
Arsenal stars in good spirits ...") and in the body ("Vote now in our poll", "Follow us
on Twitter @MailSport", "Share this article"); a passage or query made from one reads as
an advertisement.

A promotion is recognised by its form, one named form a row of `PROMOTION_FORMS` (what
each is, and why, beside it), not by a list of whole lines. It is addressed to the reader:
an imperative to the reader, the reader's email address, handle or link to act on, or the
publisher's "we"/"our" about its own service. News that quotes an email or a tweet ("He
said in an email to CNN ...") is none: a form opens the line or the sentence.
A quotation is never one ("'I encourage people to go check it out,' Obama said"): only
text outside quotes at the start of a line or a sentence is read, and a sentence inside a
double-quoted quotation the paragraph opened is skipped. clean counts each removal by its
form (`promotion_form.<name>`, `form_reasons`) beside its reason. Pure functions; no Beam.
"""
import itertools
import re
from typing import List, NamedTuple, Optional, Pattern, Tuple

# upper-case markers of the page's links and media (a line opening with one is a link)
LINK_MARKERS = ("READ MORE", "READ ALSO", "READ", "SEE ALSO", "SEE", "WATCH", "VIDEO",
                "VIDEOS", "RELATED", "MORE", "PICTURES", "PHOTOS", "GALLERY", "POLL",
                "QUIZ", "INTERACTIVE", "LISTEN", "PODCAST", "CLICK HERE", "VOTE",
                "SUBSCRIBE", "FOLLOW", "SHARE", "TRENDING", "DON'T MISS", "ADVERTISEMENT",
                "SPONSORED", "PROMOTED")
_MARKER = re.compile(r"^(?:%s)\s*[:>»|-]\s*" % "|".join(re.escape(m) for m in LINK_MARKERS))
# the same links labelled in title case, a colon after them ("Read more: ...", "Related:
# ...", "See also: ..."); not "Watch:" or "Video:" (a caption label may read so)
LINK_LABELS = ("Read more", "Read also", "Also read", "See also", "Related", "Related content",
               "Related articles", "Related stories", "More on this story", "Read the full story",
               "Read", "More from", "Recommended")
_LABEL = re.compile(r"^(?:%s)\s*:\s*(?=\S)" % "|".join(re.escape(m) for m in LINK_LABELS))
# who tells the reader to act: the imperative alone or "You can (also)", "Please",
# "Be sure to", "Don't forget to" before it ("You can follow Jane on Twitter @jane")
_ASK = r"(?:(?:you can (?:also )?|please |be sure to |make sure (?:to|you) |don['’]t forget to )?)"
# a call to action: an imperative to the reader, then where to act within 14 words ("Listen
# to the full interview on Sport on Five and the BBC Sport website"; at 5 words that BBC line
# was kept; 14 adds 3 lines, all promotions, of 45,552 corpus sentences and flags no other)
_VERB = (r"(?:click|read|see|watch|follow|sign up|subscribe|like us|"
         r"tap(?= (?:here|on|the|to|below|this)\b)|share(?= (?:this|your|it|the|on|with|our|"
         r"them|these|now|via)\b)|vote(?= (?:now|here|below|in our|in the poll|on our)\b)|"
         r"download(?= (?:the|our|a|an|it|this|these|them|now|here|free|your|for|from|on)\b)|"
         r"check(?: it| them)? out|find out|join|listen|tweet|e-?mail us|send us|tell us|"
         r"enter(?= (?:our|now|here|the (?:competition|contest|draw|giveaway))\b)|"
         r"get (?:the|our|all)|don't miss|do not miss|have your say|scroll|visit|go to|"
         r"head to|catch up|contact us|write to us|keep up)")
_WHERE = (r"(?:here|now|us|our|below|above|more|the latest|latest|this (?:link|story|"
          r"article|page|video|gallery)|link|app|page|website|site|gallery|video|pictures|"
          r"photos|poll|quiz|newsletters?|podcast|twitter|facebook|instagram|youtube|tiktok|"
          r"online|the moment|the clip|the footage|briefing|inbox|bulletin|"
          r"@\w+|www\.|\w+\.com|\w+\.co\.uk)")
_CALL = re.compile(r"^(?i:%s%s)(?![\w-])(?:\W+\w+){0,14}?\W+(?i:%s)(?!\w)"
                   % (_ASK, _VERB, _WHERE))
# a call to action on its own ("Check it out", "Read more", "Vote now")
_BARE = re.compile(r"^(?i:check (?:it|them) out|click here|read more|read on|see more|"
                   r"find out more|watch now|vote now|more below|see below|listen now)\W*$")
_LATEST = re.compile(r"(?i)^for (?:all )?(?:the )?latest\b.{0,60}\bnews\b")
# a gallery's or list's teaser ("Here's a look at some of Trump's worst gaffes")
_TEASER = re.compile(r"(?i)^(?:(?:here['’]s|here is|here are|take) a (?:look|glance)(?: back)? at"
                     r"|\d{1,2} (?:things|facts|reasons|ways|secrets|questions|signs|"
                     r"moments) (?:you|to know|we)\b)")
# where to reach the page: an email address, a handle, a link
_ADDRESS = r"(?:[\w.+-]+@[\w-]+\.\w[\w.]*|(?<![\w@])@\w{2,}|https?://|www\.\w)"
# the reader asked to write in, an address to write to in the same sentence ("Email your
# story ideas and tips to CNNtips@cnn.com", "Send your photos to ...", "Contact the
# author at ...@...")
_CONTACT = re.compile(r"(?i)^%s(?:e-?mail|contact|write to|send|submit)\b[^!?\n]{0,120}?%s"
                      % (_ASK, _ADDRESS))
# the page asking the reader for news ("Got a tip?", "Have a story to share?")
_ASK_TIPS = re.compile(r"(?i)^(?:got|have|do you have|have you got)(?: a| any)? "
                       r"(?:news |story )?(?:tips?|story|stories|story ideas?|news|photos?|"
                       r"videos?)\b[^.!?\n]{0,60}\?")
# the publisher about its own service ("Every week we wrap up the must-reads from our
# coverage ...", "We'll send you ...", "... delivered straight to your inbox")
_SERVICE = re.compile(
    r"(?i)^(?:(?:every|each) (?:week|weekday|day|morning|evening|night|month|weekend|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)[, ]+we (?:wrap up|round up|bring|send|"
    r"deliver|share|select|pick|highlight|gather|compile|curate|email|collect)\b"
    r"|we['’]ll (?:send|email|deliver) (?:you|it)\b|we pay for (?:your )?(?:stories|videos|"
    r"pictures|photos|tips)\b"
    r"|thanks for (?:signing up|subscribing)\b"
    r"|.{0,120}\b(?:delivered|sent|straight|direct(?:ly)?) (?:straight |directly |right )?"
    r"to your inbox\b)")
# the reader asked to pay for the journalism ("Support our journalism", "Support the Guardian")
_SUPPORT = re.compile(r"(?i)^(?:please )?(?:consider )?(?:support(?:ing)?|fund(?:ing)?) "
                      r"(?:our|independent|quality) (?:journalism|reporting|work|newsroom|"
                      r"coverage)\b|^(?:become|join us as) a (?:member|subscriber|supporter)\b"
                      r"|^(?:make|give) a (?:contribution|donation) to (?:us|our)\b")
# the reader asked to subscribe, whatever to ("Subscribe to CNN Underscored Deals")
_SUBSCRIBE = re.compile(r"(?i)^%s(?:subscribe|sign up)(?: now| today| here)?"
                        r" (?:to|for|free|at|and)\b" % _ASK)
# the reader sent elsewhere for more ("For more on this story, visit ...")
_FOR_MORE = re.compile(r"(?i)^for (?:more|further) (?:information|details|news|stories|"
                       r"coverage|updates|on|about)\b[^.!?\n]{0,80}?,?\s(?:visit|go to|see|"
                       r"click|follow|head to|check out|sign up|subscribe|download|read|"
                       r"watch|listen)\b")

# a call to action closing a line after a colon or dash ("Vote no on fat cat pay: Find out
# more", "... - click here")
_CLOSING_CALL = re.compile(r"(?i)^[^\n]{0,160}?(?:[:|]|\s[–—-])\s*(?:find out more|click here|"
                           r"read more|see more|watch now|vote now|listen now|learn more|"
                           r"sign up now|see the full list)\W*$")
# the page's partnership offered to its reader ("The Mail has teamed up with the
# FairPensions campaign to offer a tool that allows you to send your views ...")
_PARTNER_OFFER = re.compile(r"(?i)^[^.!?\n]{0,60}\b(?:has|have) (?:teamed up|partnered|joined "
                            r"forces) with\b[^.!?\n]{0,120}\b(?:to offer|to bring|to give) "
                            r"(?:you|readers|our readers|a tool|an? \w+ that (?:lets|allows) "
                            r"you)\b")

# a broadcaster's schedule notice closing a story ("Reaction Time can be heard on Radio 4
# at 1130 GMT on 11 February", "... is on BBC Radio 5 live on Tuesday at 20:30 BST"): a
# modal "can/will be seen/heard ... on" a channel, or "is on" a channel with its time or
# day; a report of what was broadcast ("was shown on BBC One") is news
_CHANNEL = (r"(?:BBC(?: One| Two| Three| Four| Scotland| Alba| Wales| News| Radio [\w ]{1,15}?"
            r"| World Service| Parliament| Sport| iPlayer)?|ITV\d?|S4C|Channel (?:4|5|Four|Five)"
            r"|Sky (?:One|Sports?(?: \w+)?|News|Atlantic|Arts)|Radio (?:1|2|3|4|5 [Ll]ive|"
            r"Scotland|Wales|Ulster|Foyle|Cymru)|(?:the )?(?:BBC )?iPlayer|5 [Ll]ive)")
_WHEN = (r"(?:at \d{1,2}(?:[:.]\d\d)?|on (?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|"
         r"on \d{1,2} [A-Z][a-z]+|from \d|tonight|tomorrow|(?:every|each) [A-Z][a-z]+day)")
# "can be seen on Sky News footage", "on BBC Radio 4's Today programme": a report of
# what was filmed, no schedule
_NOT_FOOTAGE = r"(?!\w|['’]s\b| (?:News )?(?:footage|pictures|video|images|report|coverage))"
_BROADCAST = re.compile(
    r"^[^.!?\n]{0,80}?\b(?:(?:can|will) (?:also )?be (?:seen|heard|watched|viewed|"
    r"streamed)(?: again| live| in full)?\b[^.!?\n]{0,60}?\bon " + _CHANNEL + _NOT_FOOTAGE +
    r"|(?:is|are|will be) (?:on|broadcast on|shown on|screened on|aired on|repeated on) "
    + _CHANNEL + r"\b,? " + _WHEN +
    r"|(?:is|are) available (?:to (?:watch|listen to|stream) )?(?:again |now )?on "
    r"(?:the )?(?:BBC )?iPlayer\b)")


class Form(NamedTuple):
    """A form of promotion: its name (a funnel key), its pattern, read from a line's or
    sentence's start, and why it is one."""
    name: str
    pattern: Pattern
    why: str


PROMOTION_FORMS = (
    Form("link_marker", _MARKER, "an upper-case marker of the page's links: READ:, WATCH:"),
    Form("link_label", _LABEL, "a link labelled in title case: 'Read more:', 'Related:'"),
    Form("call_to_action", _CALL, "an imperative to the reader and where to act"),
    Form("bare_call", _BARE, "a call to action alone: 'Check it out', 'Vote now'"),
    Form("latest_news", _LATEST, "'For all the latest ... news'"),
    Form("teaser", _TEASER, "a gallery's or list's link: 'Here's a look at ...'"),
    Form("contact_line", _CONTACT, "the reader asked to write in, to an address or handle"),
    Form("tip_request", _ASK_TIPS, "the page asking the reader for news: 'Got a tip?'"),
    Form("publisher_service", _SERVICE, "the publisher's 'we' about its newsletter"),
    Form("subscribe", _SUBSCRIBE, "the reader asked to subscribe: 'Subscribe to ...'"),
    Form("support_us", _SUPPORT, "the reader asked to pay: 'Support our journalism'"),
    Form("for_more", _FOR_MORE, "the reader sent elsewhere: 'For more on this, visit ...'"),
    Form("closing_call", _CLOSING_CALL, "a call to action after a colon closing the line: "
         "'...: Find out more'"),
    Form("broadcast_notice", _BROADCAST, "a broadcaster's schedule notice: '... can be seen "
         "on BBC One Wales at 11:00 GMT on 29 November'"),
    Form("partner_offer", _PARTNER_OFFER, "the page's partnership offered to the reader: "
         "'The Mail has teamed up with ... to offer a tool that allows you ...'"),
)


def promotion_form(text: str) -> Optional[str]:
    """The name of the first form of `PROMOTION_FORMS` a line or a sentence has, or None."""
    t = text.strip().lstrip("•·*>-–— ")
    if not t or t[0] in "'‘\"“":
        return None
    return next((f.name for f in PROMOTION_FORMS if f.pattern.match(t)), None)


def is_promotion(text: str) -> bool:
    """A line or a sentence that is a promotion (see the module docstring)."""
    return promotion_form(text) is not None


def form_reasons(text: str, why) -> list:
    """The funnel key of the form of a promotion clean dropped (`why`: its Reject, rule
    `not_promotion`), `promotion_form.<name>`; none for another rule's Reject."""
    if why is None or why.rule not in ("not_promotion", "not_joined_promotion"):
        return []
    return ["promotion_form." + (promotion_form(text) or "glued")]


# ---------------------------------------------------------------- inside a paragraph
# a sentence opens at the start, after an end mark and a space, or right after a closing
# quote glued to a capital (XSum's 'a huge loss. RIP"Follow us on Twitter @BBCNewsEnts')
_STARTS = re.compile(r"(?:^|(?<=[.!?])['\"’”)]*\s+|(?<=[\w.!?][\"”])(?=[A-Z]))(?=\S)")
_END = re.compile(r"[.!?]['\"’”)]*(?=\s|$)")
MAX_PROMOTION_WORDS = 30


_GLUED_PLACE = re.compile(r"\bnews from (?:[A-Z][a-z]+[ -])*[A-Z][a-z]+(?=[A-Z])")


def _glued_end(text: str, start: int, end: int) -> int:
    """Where a promotion with no full stop ends: before a capitalised word that opens the
    next sentence right after a lower-case word ("... latest Arsenal news Arsenal beat"
    does not split; "... the latest news The club said" does), or where BBC's local line
    names its place glued to the next sentence ("... and other news from EssexA woman
    ..."), else `end`."""
    from transforms.curation.fragments import _opens_sentence
    glued = _GLUED_PLACE.search(text, start, end)
    if glued:
        return glued.end()
    spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", text[start:end])]
    words = [text[start + s:start + e] for s, e in spans]
    for i in range(2, len(words)):
        if words[i - 1][-1:].isalpha() and words[i - 1][:1].islower() \
                and _opens_sentence(words, i):
            return start + spans[i][0]
    return end


QUOTE_LOOKBACK = 400
_QUOTE = re.compile(r'["“”]')


def in_quotation(text: str, at: int) -> bool:
    """`at` lies inside a double-quoted quotation: the nearest quote mark before it (within
    400 characters) opens one (a curly opening, or a straight one after a space or the
    start and before a word): a speaker's "... You can see it here" is no promotion."""
    window = text[max(0, at - QUOTE_LOOKBACK):at]
    marks = list(_QUOTE.finditer(window))
    if not marks:
        return False
    m = marks[-1]
    if m.group() != '"':
        return m.group() == "“"
    before, after = window[m.start() - 1:m.start()], window[m.end():m.end() + 1]
    return (not before or before.isspace() or before in "([—–-") and bool(after) \
        and not after.isspace()


def find_promotions(text: str) -> List[Tuple[int, int]]:
    """(start, end) of each promotion that opens a sentence of the paragraph, to the end
    of that sentence (at most 30 words; a promotion glued to the next sentence ends where
    that sentence opens)."""
    out = []
    for m in _STARTS.finditer(text):
        s = m.end()
        if out and s < out[-1][1] or in_quotation(text, s):
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

"""Page notices in news text (paper section 3.1, curation): what a web page tells its
reader about the page itself, not the story. BBC pages put "Media playback is not
supported on this device" where a video player stood, and corpora made from them (XSum)
keep it, often glued to the next sentence with no space ("... on this deviceLang, who
captains ..."); other pages say "Your browser does not support the video tag" or "Please
enable JavaScript to view the comments"; agency copy closes with "Report supplied by the Press
Association" or a copyright line ("©2015 The Hollywood Reporter."), and syndicated copy
opens with a note ("CNN is showcasing the work of The Conversation, ..."); a story says "This article was amended on ..." and a Guardian caption
closes with "Photograph: Name/Agency". A passage or query made from one reads as page
furniture.

A notice is recognised by its form, a fixed phrase of the player, browser, script or
credit kind, the page's note on its own edits, or an opinion page's disclaimer ("The
opinions expressed in this commentary are solely those of ..."), where a sentence opens (the text's start or after an end mark): the phrase and an
end mark after it go, and a sentence glued to it stays. Inside a sentence or a quotation
nothing is touched. Pure functions; no Beam.
"""
import re
from typing import Tuple

_OPEN = r"(?:^|(?<=[.!?]\s)|(?<=[.!?]['\"’”)]\s))"
_PHRASES = (
    # a media player that cannot play here (BBC, XSum)
    r"Media playback is (?:not supported|unsupported|unavailable) on (?:this|your) device",
    # a browser without the element the page embeds
    r"Your (?:web )?browser does not support (?:the |this )?(?:HTML5 )?"
    r"(?:video|audio|iframes?|embedded (?:video|media|content))(?: (?:tag|element|player))?",
    # scripts switched off
    r"(?:Please )?(?:enable|turn on|switch on) JavaScript(?: (?:to|in order to) "
    r"(?:view|watch|play|see|read)\b[^.!?\n]{0,60})?",
    # the credit line of agency copy, often glued to what follows ("... Press AssociationMatch ends")
    r"Report supplied by (?:the )?(?:Press Association|PA|Reuters|AFP|AP|Associated Press)",
    # a blog's hat tip in brackets ("(Thanks to FOX Sports for bringing this to our attention.)")
    r"\((?:Thanks|Hat tip|H/T) to [^()\n]{1,60}? for (?:bringing|pointing|sending|flagging|"
    r"alerting)\b[^()\n]{0,60}\)",
    # the page's note on its own edits ("This article was amended on 3 March 2021 to
    # correct ...", "An earlier version of this story misstated ..."): the sentence goes
    r"(?:This|The) (?:article|story|piece|report|post) (?:was|has been|had been) "
    r"(?:amended|updated|corrected|edited|changed)\b[^.!?\n]{0,300}[.!]"
    r"|An earlier version of this (?:article|story|piece|report)\b[^.!?\n]{0,300}[.!]"
    r"|This (?:is a (?:developing|breaking(?: news)?) story|story is (?:developing|breaking))"
    r"\b[^.!?\n]{0,120}[.!]",
    # a print edition's note and links closing a web story (New York Times pages)
    r"A version of this (?:article|review|story|column|report) appear(?:s|ed) in print\b"
    r"[^\n]{0,200}?with the headline: [^\n]{0,150}?(?:\.(?=\s|$)|$)"
    r"|Order Reprints ?\|[^\n]{0,80}$",
    # a photo credit in the Guardian's form closing a caption ("Photograph: Name/Agency")
    r"(?:Photograph|Illustration|Composite|Photo montage): [A-Z][^\n:]{0,80}?(?=\s*(?:\n|$))",
    # an opinion page's disclaimer ("The opinions expressed in this commentary are solely
    # those of John Avlon.", "The views expressed in the article do not necessarily
    # reflect those of Sputnik."): the sentence goes
    r"The (?:views|opinions)(?: and (?:views|opinions))? expressed (?:in|here)\b"
    r"[^.!?\n]{0,80}? (?:(?:are|is) (?:solely|entirely|only)|(?:are|is) those of (?:the "
    r"(?:author|writer|contributor)|[A-Z])|do(?:es)? not (?:necessarily )?reflect)"
    r"[^.!?\n]{0,160}[.!]",
    # a copyright line closing syndicated copy ("©2015 The Hollywood Reporter.",
    # "Copyright 2015 The Associated Press. All rights reserved.")
    r"(?:(?:©|\(c\))\s?(?:\d{4}(?:-\d{4})?,?\s)?|Copyright(?: ©)? \d{4}(?:-\d{4})?,? )"
    r"[A-Z][^.!?\n]{0,80}?"
    r"(?:[.!](?=\s|$)|$)(?:\s*All [Rr]ights [Rr]eserved\b[.!]?)?"
    r"|All [Rr]ights [Rr]eserved\b[.!]?",
    # a syndication note ("CNN is showcasing the work of The Conversation, a collaboration
    # between journalists and academics ...", "The content is produced solely by ...")
    r"[A-Z][A-Za-z]{1,20} is showcasing the work of [^.!?\n]{1,200}[.!]"
    r"|The content is produced solely by [^.!?\n]{1,80}[.!]",
    # media withdrawn or fenced
    r"(?:Sorry, )?(?:this|the) (?:video|clip|media|content) is (?:not available|unavailable)"
    r"(?: (?:in your (?:country|region|location)|on this device|to play))?",
)
_NOTICE = re.compile(_OPEN + r"(?:%s)(?:[.!]+\s*|\s+|$|(?=['\"‘“A-Z]))" % "|".join(_PHRASES))


def strip_page_notices(text: str) -> Tuple[str, int]:
    """(the text without the page notices that open a sentence, how many went):
    "Media playback is not supported on this deviceLang, who ..." -> "Lang, who ..."."""
    out, n = _NOTICE.subn("", text)
    return (out.strip() if n else text), n

"""Daily Mail photo captions inside a paragraph (paper section 3.1, curation): photo
positions and notes ("(pictured)", ", left,", ", pictured in court in January,"),
caption labels ("Lurking: Smith was outside") and "Scroll down for video" lines.
`split_captions` cuts a paragraph where a label or a scroll line stands; the label and
the line go (`CAPTION_LABEL`, `SCROLL_LINE`); a caption left as a piece of its own (no
end mark, `is_caption_piece`) goes too (clean.py's `PIECE_RULES`, `caption`). Pure
functions; no Beam. Captions on
lines of their own in the line-wrapped layout are wraps.py's."""
import calendar
import re
from typing import Optional

from transforms.core.rules import Reject

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
# a photo note the body carries between commas: "Smith, pictured left, said", "his client,
# pictured in court back in January, wanted", "Jones, pictured here in 2013 before she
# started exercising, was" (a short aside opening with "pictured" or "seen here")
_COMMA_PICTURED = re.compile(r",\s(?:pictured|seen here|shown here|photographed)\b"
                             r"(?:[^,;.!?()]{0,80}?)(?:,(?=\s)|(?=[;.]))")
# a bracket opening with a position word, with more after it: "(right with his arms
# outstretched)", "(left, in 2012)", "(centre, in red)"
_BRACKET_POSITION = re.compile(r"\s*\((?:left|right|centre|center|above|below|top|bottom|"
                               r"inset|far left|far right|second left|second right)\b"
                               r"[^()]{0,60}\)")
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


# a photo credit in brackets anywhere: "(Image: Getty Images)", "(Photo: AP)", "(Pic: PA)"
_BRACKET_CREDIT = re.compile(r"\s*\((?:Images?|Photos?|Photograph|Pictures?|Pics?|Credit|"
                             r"Photo credit|Picture credit)\s*:\s*[^()]{1,60}\)", re.IGNORECASE)
_POSITIONS = (_PHOTO_POSITION, _BRACKET_POSITION, _COMMA_PICTURED, _COMMA_POSITION,
              _BRACKET_CREDIT)


def strip_photo_positions(text: str) -> str:
    """'Smith (pictured) and Jones (far left)' -> 'Smith and Jones'; 'Hussen, left, took
    his daughter Amira, right, to' -> 'Hussen took his daughter Amira to'; 'Jones,
    pictured here in 2013, was' -> 'Jones was'; 'An employee (right with his arms
    outstretched) is' -> 'An employee is'."""
    for pattern in _POSITIONS:
        text = pattern.sub("", text)
    return text


def count_photo_positions(text: str) -> int:
    """How many photo positions and notes `strip_photo_positions` takes out."""
    n = 0
    for pattern in _POSITIONS:
        text, k = pattern.subn("", text)
        n += k
    return n


_END_MARK = re.compile(r"[.!?…]['\"’”)\]]*$")
MAX_CAPTION_PIECE_WORDS = 60


def is_caption_piece(piece: str, source, followed: bool) -> bool:
    """A Daily Mail piece with no end mark, of at most 60 words, not the article's whole
    text (`followed`: other text beside it): a photo caption on a line of its own (Daily
    Mail captions carry no full stop; the body's sentences do), or the caption a label
    was cut from ("Lurking: Smith was outside the house")."""
    words = piece.split()
    return (source == "dailymail" and followed and 0 < len(words) <= MAX_CAPTION_PIECE_WORDS
            and not _END_MARK.search(piece.strip()))


def _is_label(label: list) -> bool:
    words = [w.lower().replace("’", "'") for w in label]
    return (label[0][:1].isupper() and sum(map(len, label)) <= 45
            and all(_LABEL_WORD.match(w) for w in label)
            and not any(w in _NOT_LABEL_WORDS for w in words))


_DATE_WORDS = frozenset(w.lower() for w in list(calendar.day_name) + list(calendar.month_name)
                        if w)


# a word that ends a sentence: lower-case letters, then the end mark ("Aboriginal.",
# "month."); not an abbreviation or initialism ("Mr.", "U.S.")
_ENDS_SENTENCE = re.compile(r"[a-z]{2,}[.!?]['\"’”)]*$")


def _cuts_name(word: str) -> bool:
    """A label glued after this word would cut a capitalised name in two ("such as Total
    Recall and Rambo: First Blood", "Hellboy, Resident Evil: Apocalypse"); a day or a
    month ends a caption's sentence ("last Saturday Skilful: The kite"), and so does an
    end mark ("for the Russian-Aboriginal. Hot right now: Agency founder ...")."""
    return (word[:1].isupper() and word.lower().strip(".,") not in _DATE_WORDS
            and not _ENDS_SENTENCE.search(word))


def caption_labels(text: str, keep_names: bool = False) -> list:
    """(start, end) of each caption label with its colon. At the text's start the label is
    the words up to the colon (at most five); after other text, a sentence or not, the
    shortest capitalised run of at most four ("... last Saturday Skilful: The kite" ->
    "Skilful: "), never before a quote (speech), and with `keep_names` (text not in the
    Daily Mail layout, whose captions end with names) never cutting a capitalised name in
    two ("Resident Evil: Apocalypse", `_cuts_name`)."""
    out = []
    for colon in _LABEL_COLON.finditer(text):
        before = text[:colon.start()]
        words = before.split()
        found = None
        quoted = text[colon.end()] in "'‘\"“"
        for k in range(1, min(MAX_LABEL_WORDS + 1, len(words)) + 1):
            label, rest = words[-k:], words[:-k]
            at_start = not rest
            if at_start:
                found = (k, label) if _is_label(label) else found
                break
            if found is None and not quoted and k <= MAX_LABEL_WORDS and _is_label(label) and \
                    not (keep_names and _cuts_name(rest[-1])) and \
                    rest[-1].lower().rstrip(",") not in _FUNCTION_WORDS and \
                    not rest[-1].endswith((",", ";", ":")) and \
                    not any(w.lower() in _SPEECH for w in rest[-4:]):
                found = (k, label)
        if found:
            k, label = found
            start = len(before) - len(" ".join(label))
            out.append((start, colon.end()))
    return out


# ---------------------------------------------------------------- credited captions
# a photo credit in brackets after a sentence's end mark: a photographer and an outlet
# ("(Lacy Atkins/The Chronicle)"), an outlet in capitals ("(9NEWS)") or a photo agency;
# a dateline's "(CNN)" is none
_CREDIT = re.compile(
    r"(?<=[.!?])['\"’”]?\s+\((?!CNN\))(?:[^()/\n]{1,40}/[^()\n]{1,40}|[A-Z0-9][A-Z0-9&.-]{1,15}|"
    r"(?:AP|AFP|Reuters|Getty Images|PA|EPA|Rex Features|Shutterstock)(?: Photo| Images)?)\)")
_CREDIT_SENTENCE_END = re.compile(r"[.!?]['\"’”)]*\s+")


def credited_captions(text: str) -> list:
    """(start, end) of each sentence a photo credit closes, credit and all: a photo
    caption written as a sentence ("Chris O'Keefe revealed baby John Ghanem died ...
    (9NEWS)"), which scraped pages keep beside the story's sentences."""
    out = []
    for m in _CREDIT.finditer(text):
        ends = [e.end() for e in _CREDIT_SENTENCE_END.finditer(text, 0, m.start())]
        start = max([e for e in ends if e < m.start()] + [out[-1][1] if out else 0])
        out.append((start, m.end()))
    return out


# a label naming the picture ("Pictured: The scene of the crash on Sunday."): what follows
# it, to its sentence's end, is the caption, not a sentence of the story
_PHOTO_LABEL = re.compile(r"^(?:Pictured|Photo|Photograph|Image|Picture|Above|Below|Inset|"
                          r"Left|Right|Top|Bottom|Main picture|Main image|Credit)\b",
                          re.IGNORECASE)
_CAPTION_END = re.compile(r"[.!?…]['\"’”)]*(?=\s|$)")
MAX_PHOTO_CAPTION_WORDS = 40


def photo_caption_end(text: str, start: int) -> int:
    """The end of a photo label's caption: the end of its line (the paragraph's end) when
    the line holds at most 40 words and one sentence at most, else `start` (text whose
    line breaks are lost glues the caption to the story: only the label goes)."""
    line = text[start:].split("\n")[0].rstrip()
    ends = list(_CAPTION_END.finditer(line))
    if len(line.split()) <= MAX_PHOTO_CAPTION_WORDS and (not ends or len(ends) == 1
                                                         and ends[0].end() == len(line)):
        return start + len(line)
    return start


def caption_cuts(text: str, keep_names: bool = False) -> list:
    """(start, end, Reject) of each "Scroll down for video" line, caption label (with its
    caption when the label names the picture: "Pictured: ...") and credited caption."""
    cuts = [(m.start(), m.end(), SCROLL_LINE) for m in _SCROLL.finditer(text)]
    for s, e in caption_labels(text, keep_names):
        end = photo_caption_end(text, e) if _PHOTO_LABEL.match(text[s:e]) else e
        cuts.append((s, end, PHOTO_CAPTION if end > e else CAPTION_LABEL))
    cuts += [(s, e, CREDITED_CAPTION) for s, e in credited_captions(text)]
    return sorted(cuts)


SCROLL_LINE = Reject("not_scroll_line", "scroll_line")
CAPTION_LABEL = Reject("not_caption_label", "caption_label")
PHOTO_CAPTION = Reject("not_photo_caption", "photo_caption")
CREDITED_CAPTION = Reject("not_credited_caption", "credited_caption")


# a piece that is only a photo credit: an agency ("Getty Images", "AP Photo/Evan Vucci"),
# with or without a label ("Photo: Reuters") and brackets
_AGENCY = (r"(?:Getty(?: Images)?|AP(?: Photo)?|AFP(?:/Getty Images)?|Reuters|PA(?: Wire)?|"
           r"EPA|Rex(?: Features)?|Shutterstock|Alamy|Splash(?: News)?|Barcroft(?: Media)?|"
           r"SWNS|Instagram|Twitter|Facebook|Handout|Supplied|File)")
_CREDIT_LINE = re.compile(
    r"^\(?(?:(?:Images?|Photos?|Photograph|Pictures?|Pics?|Credit|Photo credit|Source)\s*:\s*)?"
    + _AGENCY + r"(?:\s*/\s*[^()/]{1,40})?\)?\.?$", re.IGNORECASE)


def is_photo_credit(piece: str) -> bool:
    """A piece that is only a photo credit ("Getty Images", "(Image: PA)", "Photo: AP
    Photo/Evan Vucci"), in any layout."""
    return bool(_CREDIT_LINE.match(piece.strip()))


def split_captions(text: str, cut_out: Optional[list] = None,
                   keep_names: bool = False) -> list:
    """A paragraph cut where a photo caption's label or "Scroll down for video" stands:
    the label and the scroll line go, the caption is its own piece (so no sentence runs
    into it). 'had a taste Strictly business: Julia covers it' -> ['had a taste',
    'Julia covers it']. `cut_out`, when given, receives (text, Reject) of what went."""
    cuts = caption_cuts(text, keep_names)
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


# ---------------------------------------------------------------- repeated leads
_SENTENCE = re.compile(r"[^.!?]+?[.!?]['\"’”)]*(?=\s|$)")
MIN_REPEATED_WORDS = 8
MAX_LEAD_WORDS = 60
_NON_SPACE = re.compile(r"\S+")
_END_MARK = re.compile(r"[.!?]['\"’”)]*$")


def strip_repeated_sentences(paragraphs) -> tuple:
    """(paragraphs, how many repeats went): a sentence of the article (eight words or
    more) written again further on with no end mark and glued to the next sentence is a
    photo caption repeating it ("The couple married in 2010. ... The couple married in
    2010 They met at ..."): the repeat goes. A repeat with its end mark is left to
    passages.py (a sentence said twice counts once)."""
    first = {}                 # core -> (paragraph, end of its first occurrence)
    for i, p in enumerate(paragraphs):
        for m in _SENTENCE.finditer(p):
            core = m.group().strip().rstrip("'\"’”)").rstrip(".!?")
            if len(core.split()) >= MIN_REPEATED_WORDS:
                first.setdefault(core, (i, m.end()))
    if paragraphs:             # a lead with no full stop, glued to the sentence after it
        words = list(_NON_SPACE.finditer(paragraphs[0]))[:MAX_LEAD_WORDS]
        for k in range(len(words), MIN_REPEATED_WORDS - 1, -1):
            core = paragraphs[0][:words[k - 1].end()]
            if not _END_MARK.search(core):
                first.setdefault(core, (0, len(core)))
    out, n = [], 0
    longest_first = sorted(first.items(), key=lambda kv: -len(kv[0]))
    for i, p in enumerate(paragraphs):
        for core, (j, end) in longest_first:
            start = end if j == i else 0
            while j <= i:
                k = p.find(core, start)
                if k < 0:
                    break
                after = p[k + len(core):k + len(core) + 3].replace("'", "").replace("‘", "")
                after = after.replace('"', "").replace("“", "")
                if (k == 0 or p[k - 1] == " ") and after[:1] == " " and after[1:2].isupper():
                    p = p[:k] + p[k + len(core) + 1:]
                    n += 1
                    start = k
                else:
                    start = k + 1
        out.append(p.strip())
    return out, n

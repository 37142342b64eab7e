"""Photo captions after a CNN dateline lead (issue 32, curation).

CNN pages of 2007-2010 ("WASHINGTON (CNN) -- ...") set the lead photo's caption right
after the lead paragraph; the rc-data `.story` keeps it as the second paragraph and the
Hugging Face loader's layout runs it into the body as a sentence of its own:
"WASHINGTON (CNN) -- Terrorists are likely to use a weapon ..., a report has concluded.
Police watch over travelers at New York's Grand Central Terminal before Thanksgiving.
They are more likely to ...". A query made from it asks about the picture, not the story.

Where the caption stands (the first sentence after the lead of a story whose dateline is
"(CNN) --"), a sentence is a caption when it reads as one (`CAPTION_SIGNS`, each a pure
function naming what it saw):
- `photo_noun`: a noun phrase about the picture, "U.S. Navy image of pirates operating off
  coast of Somalia ..." ("image / photo / picture of", no finite verb);
- `photo_note`: a note on the picture, "Susan Atkins, shown here after her indictment, ..."
  (", shown here", ", seen here", ", pictured", ", left,");
- `scene_present`: a scene in the present tense, a short name or noun phrase then a verb
  of what a picture shows, "Isaac Arellano holds a candle and sings during a fundraiser
  ...", "Police watch over travelers ..." (`SCENE_VERBS`: bodies and gestures, not the
  verbs of schedules, "leaves Tuesday", or of speech; one that also states a lasting
  fact, "holds", "sits", with a moment: a weekday, "during", "before", "at the"), after a
  lead that is no present-tense scene itself;
and none is one with a quotation, an attribution ("said", "according to") or a pronoun or
joining word opening it. `LEAD_CAPTION_RULES` (the transforms/core/rules.py convention)
names the rule; clean.py drops the caption (in a `.story`, its whole paragraph when that is
short) and counts it `lead_caption`. Pure functions; no Beam.
"""
import re
from typing import List, NamedTuple, Optional, Tuple

from transforms.core.rules import Rule, first_rejection
from transforms.curation.wordlists import CAPTION_FINITE, PAST_TENSES

# an old CNN dateline: "WASHINGTON (CNN) --", "BERLIN, Germany (CNN) --", "(CNN)  --"
DATELINE = re.compile(r"^[^()\n]{0,80}\(CNN\)\s*(?:--|—)\s")
# a sentence end; the word before it is no abbreviation
_END = re.compile(r"[.!?][\"'”’)\]]*\s+(?=[\"“‘']?[A-Z0-9])")
_ABBREVIATION = re.compile(r"(?:^|\s)(?:[A-Z]\.)+$|(?:^|\s)(?:Mr|Mrs|Ms|Dr|St|No|Sen|Sens|Rep|"
                           r"Reps|Gov|Gen|Lt|Col|Sgt|Capt|Prof|Rev|Jr|Sr|Inc|Co|Corp|Ltd|vs|"
                           r"Maj|Adm|Cmdr|Ft|Mt|Jan|Feb|Aug|Sept|Oct|Nov|Dec|[A-Z]|[a-z])\.$")
MAX_CAPTION_WORDS = 35
MAX_SUBJECT_WORDS = 7          # words before a scene verb: a name or a short noun phrase
MAX_CAPTION_PARAGRAPH_WORDS = 45

# verbs of what a photo shows (a body, a gesture, a crowd), base form; "-s" forms derived
SCENE_VERBS = frozenset({
    "hold", "pause", "walk", "sing", "carry", "stand", "wave", "look", "gesture", "sit",
    "smile", "watch", "listen", "pray", "mourn", "greet", "shake", "pose", "celebrate",
    "react", "hug", "embrace", "kiss", "wait", "gather", "march", "cheer", "cry", "weep",
    "kneel", "lie", "sift", "inspect", "salute", "clap", "dance", "stare", "wipe",
    "peer", "chat", "laugh", "grimace", "kick", "jump", "stroll", "clean", "sort",
    "huddle", "bow", "sweep", "dig", "climb", "ride", "hang", "lean"})


# scene verbs that also state a lasting fact ("the government holds little power", "the
# house sits on a hill"): a caption with one pins it to a moment (`_MOMENT`)
STATIVE_VERBS = frozenset({"hold", "stand", "sit", "lie", "hang", "look", "watch", "lean"})
_MOMENT = re.compile(r"\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|during|"
                     r"before|after|as|while|at (?:a|an|the|his|her|their))\b")


def _third_person(verb: str) -> str:
    if verb.endswith(("sh", "ch", "s", "x")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


SCENE_FORMS = frozenset(SCENE_VERBS | {_third_person(v) for v in SCENE_VERBS})
# what a caption never holds: quotation, attribution, a clause word before its verb
_QUOTE = re.compile(r"[\"“”]|(?:^|\s)['‘]\w")
_ATTRIBUTION = re.compile(r"\b(?:said|says|say|told|tells|according to|reported|reports|"
                          r"announced|added|stated|claimed|insisted|warned)\b")
_NOT_SUBJECT = frozenset({
    "i", "he", "she", "it", "we", "they", "you", "this", "that", "these", "those", "there",
    "but", "and", "or", "so", "yet", "however", "if", "when", "while", "as", "because",
    "to", "will", "would", "can", "could", "may", "might", "should", "must", "did", "does",
    "do", "not", "who", "which", "what", "is", "was", "are", "were", "has", "have", "had",
    "the", "a", "an", "his", "her", "their", "its", "our", "my", "your", "each", "every",
    "just", "now", "then", "here", "still", "also", "only", "even", "some", "many", "most",
    "few", "all", "both", "nothing", "everything", "someone", "another", "let's", "let",
    "imagine", "in", "on", "at", "during", "since", "after", "before", "from", "with",
    "towards", "though", "although", "for", "by", "until", "like", "unlike", "despite",
    "amid", "over", "under", "through", "once", "where", "why", "how", "already", "it's",
    "here's", "that's", "there's", "what's", "he's", "she's"})
_DETERMINERS = frozenset({"the", "a", "an", "his", "her", "their", "its", "our", "my", "your",
                          "this", "that", "these", "those", "each", "every", "no", "one"})
# "U.S. Navy image of", "A file photo of", "An undated handout photo shows": capitalised
# words or these before the noun
_PHOTO_NOUN = re.compile(r"^(?:(?:[A-Z][\w.'’&-]*|an?|the|file|undated|handout|aerial|"
                         r"satellite|official)\s+){0,5}?(?:image|photo|photograph|picture)s?"
                         r"\s+(?:of|shows|showing)\s")
_FINITE = frozenset({"is", "was", "are", "were", "has", "have", "had", "will", "would",
                     "can", "could", "did", "does", "do"})
_PHOTO_NOTE = re.compile(r",\s(?:shown|seen|pictured|photographed)(?:\s+here)?\b|"
                         r",\s(?:far\s)?(?:left|right|center|centre),\s")
_WORD_CORE = re.compile(r"^[^\w]+|[^\w'’]+$")


def _core(word: str) -> str:
    return _WORD_CORE.sub("", word).lower()


def sentences(text: str) -> List[Tuple[int, int]]:
    """(start, end) of each sentence of `text` (an end mark, space, a capital or number,
    the word before the mark no abbreviation)."""
    out, start = [], 0
    for m in _END.finditer(text):
        if _ABBREVIATION.search(text[:m.start() + 1]):
            continue
        out.append((start, m.start() + len(m.group().rstrip())))
        start = m.end()
    if text[start:].strip():
        out.append((start, len(text.rstrip())))
    return out


def scene_verb_at(words: List[str]) -> Optional[int]:
    """The index of the first scene verb after a subject of at most seven words that holds
    no clause word (pronoun, modal, auxiliary, conjunction) and opens with a capital: a
    third-person form after any subject, a base form after a plural one ("Police watch")."""
    if not words or not words[0][:1].isupper() or _core(words[0]) in _NOT_SUBJECT:
        return None
    for i, word in enumerate(words[1:MAX_SUBJECT_WORDS + 1], start=1):
        w = _core(word)
        prev = words[i - 1]
        if w in SCENE_FORMS and word[:1].islower() and not prev.endswith((",", ";", ":")):
            after = _core(words[i + 1]) if i + 1 < len(words) else ""
            if w in SCENE_VERBS and _core(prev) in _DETERMINERS or after in _FINITE:
                return None        # a noun: "The wait", "his stand", "Tornado watches were"
            if (w in STATIVE_VERBS or w[:-1] in STATIVE_VERBS) \
                    and not _MOMENT.search(" ".join(words[i + 1:])):
                return None        # a lasting fact: "The government holds little power"
            return i
        if w in _NOT_SUBJECT - _DETERMINERS or w in _FINITE or word.endswith((";", ":")):
            return None
    return None


def photo_noun(sentence: str, lead: str) -> bool:
    """A noun phrase about the picture: "U.S. Navy image of pirates ...", "A file photo
    shows ...", with no finite verb before its end."""
    m = _PHOTO_NOUN.match(sentence)
    return bool(m) and not any(_core(w) in _NOT_SUBJECT - _DETERMINERS
                               for w in sentence[:m.end()].split()[:1]) \
        and not any(w[:1].islower() and (_core(w) in CAPTION_FINITE or _core(w) in PAST_TENSES)
                    for w in sentence[m.end():].split())


def photo_note(sentence: str, lead: str) -> bool:
    """A note on the picture inside the sentence: ", shown here", ", left,"."""
    return bool(_PHOTO_NOTE.search(sentence))


def scene_present(sentence: str, lead: str) -> bool:
    """A scene in the present tense ("Isaac Arellano holds a candle ...") after a lead that
    is no present-tense scene itself."""
    return scene_verb_at(sentence.split()) is not None and scene_verb_at(
        DATELINE.sub("", lead).split()) is None


#: what makes the sentence after the lead a caption, each a pure (sentence, lead) -> bool
CAPTION_SIGNS = (("photo_noun", photo_noun), ("photo_note", photo_note),
                 ("scene_present", scene_present))


def caption_sign(sentence: str, lead: str) -> Optional[str]:
    """The name of the first sign that `sentence` (the one after the lead `lead`) is a
    photo caption, or None; a quotation, an attribution or more than 35 words rule one
    out."""
    if len(sentence.split()) > MAX_CAPTION_WORDS or _QUOTE.search(sentence) \
            or _ATTRIBUTION.search(sentence) or not sentence.rstrip().endswith("."):
        return None
    for name, sign in CAPTION_SIGNS:
        if sign(sentence, lead):
            return name
    return None


class Lead(NamedTuple):
    """What the lead-caption rule sees beside the sentence after the lead."""
    lead: str


NOT_LEAD_CAPTION = Rule("not_lead_caption", "lead_caption",
                        lambda s, ctx, c: caption_sign(s, ctx.lead) is None)
LEAD_CAPTION_RULES = (NOT_LEAD_CAPTION,)


def _span_after_lead(paragraphs) -> Optional[Tuple[int, int, int, str]]:
    """(paragraph, start, end, lead) of the sentence after the lead of a "(CNN) --" story:
    the second paragraph's first sentence when the lead is a paragraph of its own (a
    `.story`), else the lead paragraph's second sentence (the loader's one paragraph)."""
    if not paragraphs or not DATELINE.match(paragraphs[0]):
        return None
    first = sentences(paragraphs[0])
    if len(paragraphs) > 1 and len(first) <= 2:
        spans = sentences(paragraphs[1])
        if spans and len(paragraphs) > 2:
            return 1, spans[0][0], spans[0][1], paragraphs[0]
        return None
    if len(first) < 3:                   # the caption is never the article's last sentence
        return None
    (s0, e0), (s1, e1) = first[0], first[1]
    return 0, s1, e1, paragraphs[0][s0:e0]


def strip_lead_caption(paragraphs) -> Tuple[list, List[tuple]]:
    """(paragraphs, [(caption, Reject)]): the caption after a CNN dateline lead cut out; in
    a `.story` its whole paragraph goes when it holds at most 45 words (a caption of two
    sentences, "Youssif holds his sister's hand Friday. He's wearing a facial mask ...")."""
    found = _span_after_lead(list(paragraphs))
    if found is None:
        return list(paragraphs), []
    i, start, end, lead = found
    text = paragraphs[i]
    why = first_rejection(LEAD_CAPTION_RULES, text[start:end], Lead(lead))
    if why is None:
        return list(paragraphs), []
    if i > 0 and len(text.split()) <= MAX_CAPTION_PARAGRAPH_WORDS:
        start, end = 0, len(text)
    out = list(paragraphs)
    out[i] = (text[:start].rstrip() + " " + text[end:].lstrip()).strip()
    return [p for p in out if p], [(text[start:end].strip(), why)]

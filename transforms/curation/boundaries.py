"""Sentence boundaries as CoreNLP (the paper's splitter) draws them, over spaCy's tokens.

spaCy's statistical splitter is corrected by rules, so a query sentence is never cut in
the middle nor two sentences merged:
- a sentence ends only after ".", "!" or "?" (a closing quote or bracket may follow), as
  CoreNLP's boundary tokens: never at "...", "[" or a comma, nor at a Daily Mail " . "
  (a line break's remains inside a sentence);
- a sentence never starts with a lower-case word, a closing quote or punctuation: that is
  a quote's attribution ("'No,' said Stancil") or the rest of a cut sentence;
- an opening quote left at the end of a sentence starts the next one;
- after ".", "!" or "?", an opening quote followed by a capital starts a sentence;
- in text without paragraph breaks (Daily Mail captions glued to the body), a sentence
  starts at a capitalised opener ("The", "However", "He") that follows a word with no
  punctuation between ("... than a colleague The cost of divorce ..."), unless the word
  before it introduces a title ("told The Sun", "in The Times", "film The Dark Knight");
  so does a quoted sentence glued to a caption ("... his first start ‘Here he's brought
  the lads in.’", also one running on over several sentences), unless a speech verb or
  a preposition introduces it ("said ‘I am fine.’", "won by 'Bad Newz Kennels.'", also a
  few words back in the clause: "saying last spring 'Trump is a phony'") or it
  is a quoted name followed by a comma and no attribution ("'Don't Ask Don't Tell,'
  which banned ...");
- a capitalised opener after a capitalised word starts no sentence inside a
  double-quoted quotation (`in_quotation`), nor does an "A" a conjunction or
  preposition follows: "... the England A win against France A and for their club," added
  Robinson" is one sentence (issue 32: no cut before a capitalised name inside a clause);
- a number word after a capitalised word is part of a name ("Formula One champion"), as
  is "Today" or "Now" after a name, not a month or weekday ("told USA Today that", "HBO
  Now will", but "on Saturday | Today the": `NAME_TAILS`), as
  is a body's head noun after a place ("Des Moines | Police said": `place_body`), and the splitter's own
  cut is never taken inside a name the NER model marked ("Mike | Tyson": annotation.py
  leaves such cuts out of `starts`), nor a glued opener's ("the Metropolitan | Police said":
  `inside_names`);
- a caption's end is found where the body's sentence opens with a name the caption has
  just given, after a plain word ("... success later this month O'Neill told Betfred:
  ..."; `glued_name_start`);
- a Daily Mail numbered list with its line breaks lost ("... on him 7. Manny loves ...
  Cups. 8. Over the past ...") is cut at its numbers, each number a sentence of its own
  (`list_numbers`);
- a paragraph break always ends a sentence: a line break that survives cleaning (lines
  the page wrapped are rejoined by wraps.py before annotation) is never inside one, so a
  quote's closing mark then a new line ("... his blinds broken."\\nShe told the court
  ...") ends it even where the splitter proposed no cut (`breaks`).

Tokens are (text, space_after) pairs of non-space tokens; `fix_starts` returns the token
indices that start sentences.
"""
from typing import List, Sequence, Tuple

from transforms.curation.countries import is_known_place
from transforms.curation.variants import is_city
from transforms.curation.wordlists import (  # noqa: F401
    ATTRIBUTION_VERBS,
    CALENDAR_WORDS,
    CONTINUING_WORDS,
    NAME_TAILS,
    NUMBER_WORDS,
    OPENING_VERBS,
    SENTENCE_OPENERS,
    SPEECH_VERBS,
    TITLE_INTRODUCERS,
)

Token = Tuple[str, bool]   # text, followed by whitespace

TERMINALS = frozenset({".", "!", "?", "?!", "!?", "!!", "??"})
QUOTES = frozenset({"'", '"', "‘", "’", "“", "”", "«", "»", "`", "``", "''"})
OPENERS_ONLY = frozenset({"‘", "“", "«", "``"})
CLOSERS_ONLY = frozenset({"’", "”", "»", "''"})
CLOSING_PUNCT = frozenset({",", ";", ":", ")", "]", "}", "%", "-", "--", "–", "—", "...",
                           "…", "'s", "’s", "n't", "'re", "'ve", "'ll", "'d", "'m"})
NON_TERMINAL_ENDS = frozenset({"...", "…", "[", "(", "{", ",", ";", "-", "--", "–", "—"})


def _is_opening_quote(tokens: Sequence[Token], i: int) -> bool:
    text, space_after = tokens[i]
    if text in OPENERS_ONLY:
        return True
    if text not in QUOTES or text in CLOSERS_ONLY or space_after or i + 1 >= len(tokens):
        return False
    return i == 0 or tokens[i - 1][1]


def _first_word(tokens: Sequence[Token], i: int, end: int) -> str:
    """The first token from i that is not an opening quote or bracket."""
    while i < end and (_is_opening_quote(tokens, i) or tokens[i][0] in ("(", "[")):
        i += 1
    return tokens[i][0] if i < end else ""


def _last_word(tokens: Sequence[Token], i: int) -> str:
    """The last token up to i that is not a closing quote or bracket."""
    while i >= 0 and (tokens[i][0] in QUOTES or tokens[i][0] in (")", "]")) \
            and not _is_opening_quote(tokens, i):
        i -= 1
    return tokens[i][0] if i >= 0 else ""


def _ends_sentence(tokens: Sequence[Token], i: int) -> bool:
    """Token i (with closing quotes/brackets skipped back) ends a sentence."""
    j = i
    while j >= 0 and (tokens[j][0] in QUOTES or tokens[j][0] in (")", "]")) \
            and not _is_opening_quote(tokens, j):
        j -= 1
    if j < 0:
        return False
    word = tokens[j][0]
    if word in NON_TERMINAL_ENDS:
        return False
    if word == "." and j > 0 and tokens[j - 1][1] and j == i:
        return False          # "word . Word": a Daily Mail line break's remains
    return word in TERMINALS or (word.endswith(".") and len(word) > 1 and word[-2] != ".") \
        or word.endswith(("!", "?"))


def _valid_start(tokens: Sequence[Token], s: int, end: int, proposed: bool) -> bool:
    text = tokens[s][0]
    if text in CLOSING_PUNCT or text in CLOSERS_ONLY:
        return False
    if text in QUOTES and not _is_opening_quote(tokens, s):
        return False
    first = _first_word(tokens, s, end)
    if not first or (first[0].isalpha() and first[0].islower()):
        return False
    if _ends_sentence(tokens, s - 1):
        return True
    last = _last_word(tokens, s - 1)
    if proposed and last not in NON_TERMINAL_ENDS and last[-1:].isalnum() \
            and first[:1].isupper() and not place_body(tokens, s):
        return True   # the splitter's own cut between a caption and the text
    return _glued_start(tokens, s) or _glued_quote(tokens, s)


_BODIES = frozenset({"police", "council"})   # not "State media", "Government officials"


def place_body(tokens: Sequence[Token], s: int) -> bool:
    """Token s is a body's head noun ("Police", "Council") right after a place's name of
    one or two words: the name goes on ("Des Moines Police said"), no sentence starts."""
    if s < 1 or tokens[s][0].lower() not in _BODIES:
        return False
    names = [tokens[s - 1][0]] + ([tokens[s - 2][0] + " " + tokens[s - 1][0]] if s >= 2 else [])
    return any(n[:1].isupper() and (is_city(n) or is_known_place(n)) for n in names)


def _glued_start(tokens: Sequence[Token], s: int) -> bool:
    """A capitalised opener glued to the word before it, with no punctuation between."""
    if s < 1 or s + 1 >= len(tokens):
        return False
    prev, word, nxt = tokens[s - 1][0], tokens[s][0], tokens[s + 1][0]
    if word not in SENTENCE_OPENERS or not tokens[s - 1][1] or place_body(tokens, s):
        return False
    if not (prev[-1:].isalnum() or prev[-1:] in (")", "%")):
        return False
    if prev.lower() in TITLE_INTRODUCERS:
        return False
    if word in NUMBER_WORDS and prev[:1].isupper():
        return False          # "Formula One champion", "League Two side": a name goes on
    if word in NAME_TAILS and prev[:1].isupper() and prev not in CALENDAR_WORDS:
        return False          # "told USA Today that", "HBO Now will": a name ends
    if prev[:1].isupper() and ((word == "A" and nxt.lower() in _NAME_ENDERS)
                               or in_quotation(tokens, s)):
        return False          # "France A and for their club", "'... the England A win'"
    return nxt[:1].islower() or nxt == ","


# words after which a capitalised "A" closed a name ("France A and", "Plan A for")
# rather than opened a sentence: a sentence's first noun phrase does not stop at them
_NAME_ENDERS = frozenset({"and", "or", "of", "for", "to", "in", "on", "at", "with", "against",
                          "side", "team", "squad", "game", "match", ","})
QUOTE_LOOKBACK = 80


def in_quotation(tokens: Sequence[Token], s: int) -> bool:
    """Token s lies inside a quotation opened earlier in the paragraph and not yet closed
    (the nearest quote mark before it, within 80 tokens, opens one): a caption is never
    glued inside someone's words."""
    for j in range(s - 1, max(-1, s - 1 - QUOTE_LOOKBACK), -1):
        text = tokens[j][0]
        if text in ('"', "“", "”", "``", "''"):
            return _is_opening_quote(tokens, j)
    return False


def list_numbers(tokens: Sequence[Token]) -> frozenset:
    """Token indices of a numbered list's numbers: a number glued to a full stop, then a
    capitalised word, where the number before or after it is one too ("... bet $1m on
    him 7. Manny loves his Butterfinger Peanut Butter Cups. 8. Over the past ..."; a Daily
    Mail list with its line breaks lost). "He was born in 1994. Then" is no list."""
    found = {}
    for i in range(len(tokens) - 2):
        text = tokens[i][0]
        if text.isdigit() and len(text) <= 2 and not tokens[i][1] \
                and tokens[i + 1][0] == "." and tokens[i + 2][0][:1].isupper():
            found[i] = int(text)
    values = set(found.values())
    return frozenset(i for i, v in found.items() if v - 1 in values or v + 1 in values)


def _after_list_number(tokens: Sequence[Token], i: int, numbers: frozenset) -> bool:
    """A list's number is a sentence of its own: one starts at it and after its stop."""
    return i in numbers or (i >= 2 and i - 2 in numbers)


MAX_QUOTE_TOKENS = 120
ATTRIBUTION_WINDOW = 9    # "'I'm still right there,' 14-time major winner Woods said"


def _glued_quote(tokens: Sequence[Token], i: int) -> bool:
    """A quoted sentence glued to a caption: "... his first start ‘Here he’s brought the
    lads in.’" (an opening quote after a word with no punctuation, the quote a sentence),
    also when the quote runs on over several sentences ("... former Masters winner Sandy
    Lyle 'It deserves all the respect it gets. It's the best in the world ...")."""
    if i < 1 or not _is_opening_quote(tokens, i) or i + 1 >= len(tokens):
        return False
    prev = tokens[i - 1][0]
    if not tokens[i - 1][1] or not prev[-1:].isalnum() or prev.lower() in SPEECH_VERBS \
            or prev.lower() in TITLE_INTRODUCERS:    # "won by 'Bad Newz Kennels.'"
        return False
    if _speech_in_clause(tokens, i):
        return False          # "saying last spring 'Trump is a phony'": one sentence
    if not tokens[i + 1][0][:1].isupper():
        return False
    for j in range(i + 2, min(len(tokens), i + MAX_QUOTE_TOKENS)):
        text = tokens[j][0]
        if text in QUOTES and not _is_opening_quote(tokens, j):
            # "'It is bad,' he said", not "'Don't Ask Don't Tell,' which"
            if tokens[j - 1][0] == ",":
                return j - i > 4 and any(t in ATTRIBUTION_VERBS
                                         for t, _ in tokens[j + 1:j + ATTRIBUTION_WINDOW])
            return j - i > 4 and tokens[j - 1][0] in TERMINALS
        if text in TERMINALS and j - i > 4 and j + 1 < len(tokens) \
                and tokens[j + 1][0][:1].isupper():
            return True       # the quote's first sentence ends inside it
    return False


SPEECH_LOOKBACK = 5


def _speech_in_clause(tokens: Sequence[Token], i: int) -> bool:
    """A speech verb among the few words before token i, in the same clause (no mark
    between): the quote at i is what was said, not a new sentence."""
    for j in range(i - 1, max(-1, i - 1 - SPEECH_LOOKBACK), -1):
        text = tokens[j][0]
        if not text[-1:].isalnum():
            return False
        if text.lower() in ("said", "says", "saying", "told", "tells", "telling", "wrote",
                            "writes", "writing", "added", "adding", "asked", "asking",
                            "tweeted", "declared", "declaring", "insisted", "insisting"):
            return True
    return False


MIN_CAPTION_TOKENS = 6
MAX_NAME_TOKENS = 3


def glued_name_start(tokens: Sequence[Token], start: int, i: int) -> bool:
    """A Daily Mail caption glued to the body: the body's sentence opens with a name the
    caption has just given, after a plain word with no punctuation between ("Jonjo O'Neill
    hopes jockey AP McCoy rides Shutthefrontdoor to Grand National success later this
    month O'Neill told Betfred: ..."; "Aliesha Peterson, 22, ... gained a six-pack Aliesha
    wasn't always a fan ..."). Token i opens the sentence when: the word before it is a
    lower-case word that does not carry the sentence on (`CONTINUING_WORDS`); a name of up
    to three capitalised tokens follows, then a verb a sentence opens with; one of the
    name's words is already in the sentence (from `start`), at least six tokens back. A
    name said twice in one sentence with no punctuation between is two pieces of text."""
    if i - start < MIN_CAPTION_TOKENS or not tokens[i - 1][1]:
        return False
    prev, word = tokens[i - 1][0], tokens[i][0]
    if not (prev[:1].islower() and prev[-1:].isalnum()) or prev in CONTINUING_WORDS:
        return False
    if not word[:1].isupper() or word in SENTENCE_OPENERS or word == "I":
        return False
    seen = {t for t, _ in tokens[start:i - 1]}
    for k in range(i, min(i + MAX_NAME_TOKENS, len(tokens) - 1)):
        if not tokens[k][0][:1].isupper():
            return False
        if tokens[k + 1][0] in OPENING_VERBS:
            return any(tokens[n][0] in seen for n in range(i, k + 1))
    return False


# The tokens `fix_starts` may open a sentence at besides a list's numbers: an opening
# quote (`_is_opening_quote`, `_glued_quote`) or a sentence opener (`_glued_start`).
_MAY_OPEN = QUOTES | OPENERS_ONLY | SENTENCE_OPENERS


def fix_starts(tokens: Sequence[Token], starts: Sequence[int],
               breaks: Sequence[int] = (), inside_names=frozenset()) -> List[int]:
    """Sentence-start token indices after the rules above; `starts` are spaCy's, `breaks`
    the tokens that open a line (each starts a sentence, whatever the rules say),
    `inside_names` the tokens inside a name NER marked, after its first: a glued opener
    there goes on the name ("Metropolitan | Police said", "Gloucestershire | Police")."""
    n = len(tokens)
    if n == 0:
        return []
    candidates = set(s for s in starts if 0 < s < n)
    # an opening quote stranded at the end of a sentence moves to the next one
    moved = set()
    for s in candidates:
        if s >= 1 and _is_opening_quote(tokens, s - 1) and s - 1 > 0:
            moved.add(s - 1)
        else:
            moved.add(s)
    candidates = moved
    proposed = set(candidates)
    numbers = list_numbers(tokens)
    for i in range(1, n):
        if tokens[i][0] not in _MAY_OPEN and i not in numbers and i - 2 not in numbers:
            continue          # none of the tests below can hold (see `_MAY_OPEN`)
        if _is_opening_quote(tokens, i) and _ends_sentence(tokens, i - 1) \
                and i + 1 < n and tokens[i + 1][0][:1].isupper():
            candidates.add(i)
        elif (_glued_start(tokens, i) and i not in inside_names) or _glued_quote(tokens, i) \
                or _after_list_number(tokens, i, numbers):
            candidates.add(i)
    kept = [0]
    ordered = sorted(candidates)
    for k, s in enumerate(ordered):
        end = ordered[k + 1] if k + 1 < len(ordered) else n
        if s in numbers or _valid_start(tokens, s, end, s in proposed):
            kept.append(s)
    kept = _split_glued_names(tokens, sorted(set(kept) | {b for b in breaks if 0 < b < n}))
    # a sentence with no word (a stray quote or bracket) joins the one before it
    out = []
    for k, s in enumerate(kept):
        end = kept[k + 1] if k + 1 < len(kept) else n
        if out and not any(any(c.isalnum() for c in t) for t, _ in tokens[s:end]):
            continue
        out.append(s)
    return out


def _split_glued_names(tokens: Sequence[Token], starts: List[int]) -> List[int]:
    """Each sentence cut again wherever `glued_name_start` finds a caption's end."""
    out = []
    for k, s in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(tokens)
        out.append(s)
        current = s
        for i in range(s + 1, end):      # a name opens with a capital (`glued_name_start`)
            if tokens[i][0][:1].isupper() and glued_name_start(tokens, current, i):
                out.append(i)
                current = i
    return out

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
  the lads in.’"), unless a speech verb introduces it ("said ‘I am fine.’").

Tokens are (text, space_after) pairs of non-space tokens; `fix_starts` returns the token
indices that start sentences.
"""
from typing import List, Sequence, Tuple

Token = Tuple[str, bool]   # text, followed by whitespace

TERMINALS = frozenset({".", "!", "?", "?!", "!?", "!!", "??"})
QUOTES = frozenset({"'", '"', "‘", "’", "“", "”", "«", "»", "`", "``", "''"})
OPENERS_ONLY = frozenset({"‘", "“", "«", "``"})
CLOSERS_ONLY = frozenset({"’", "”", "»", "''"})
CLOSING_PUNCT = frozenset({",", ";", ":", ")", "]", "}", "%", "-", "--", "–", "—", "...",
                           "…", "'s", "’s", "n't", "'re", "'ve", "'ll", "'d", "'m"})
NON_TERMINAL_ENDS = frozenset({"...", "…", "[", "(", "{", ",", ";", "-", "--", "–", "—"})
# capitalised words that open a sentence and rarely start a name or a title
SENTENCE_OPENERS = frozenset({
    "The", "A", "An", "But", "However", "He", "She", "It", "They", "We", "His", "Her",
    "Their", "Its", "This", "These", "Those", "There", "After", "When", "While", "Although",
    "And", "Some", "Many", "Meanwhile", "Now", "Earlier", "Later", "Yesterday", "Today",
    "Both", "Police", "Officials", "Experts", "Researchers", "Scientists", "According",
    "Speaking", "Despite", "During", "Since", "Following", "If", "Pictured", "Last",
    "Yet", "So", "Instead", "Other", "Others", "Most", "Several", "Another", "One",
    "That", "What", "Then", "Once", "Even", "Still", "Also", "Only", "Two", "Three", "Every",
    "Each", "Neither", "Nor", "Though", "Because", "Before", "Under", "Over", "Among",
    "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve", "Thirteen",
    "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen", "Twenty",
})
# words after which a capitalised "The"/"A" is a title's first word, not a sentence start
TITLE_INTRODUCERS = frozenset({
    "told", "tells", "in", "of", "by", "to", "for", "on", "at", "from", "with", "the", "and",
    "or", "called", "named", "titled", "entitled", "read", "reads", "wrote", "starred",
    "film", "movie", "book", "novel", "song", "single", "album", "show", "series", "play",
    "newspaper", "paper", "magazine", "programme", "program", "musical", "hit", "track",
    "about", "as", "like", "into", "than", "said", "says", "via", "featuring", "feat",
})


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
    if proposed and _last_word(tokens, s - 1) not in NON_TERMINAL_ENDS \
            and _last_word(tokens, s - 1)[-1:].isalnum() and first[:1].isupper():
        return True   # the splitter's own cut between a caption and the text
    return _glued_start(tokens, s) or _glued_quote(tokens, s)


def _glued_start(tokens: Sequence[Token], s: int) -> bool:
    """A capitalised opener glued to the word before it, with no punctuation between."""
    if s < 1 or s + 1 >= len(tokens):
        return False
    prev, word, nxt = tokens[s - 1][0], tokens[s][0], tokens[s + 1][0]
    if word not in SENTENCE_OPENERS or not tokens[s - 1][1]:
        return False
    if not (prev[-1:].isalnum() or prev[-1:] in (")", "%")):
        return False
    if prev.lower() in TITLE_INTRODUCERS:
        return False
    return nxt[:1].islower() or nxt == ","


SPEECH_VERBS = frozenset({
    "said", "says", "say", "told", "added", "adds", "explained", "insisted", "claimed",
    "wrote", "writes", "admitted", "tweeted", "warned", "stated", "that", "saying", "declared",
    "replied", "asked", "shouted", "joked", "posted", "reads", "read", "calling", "called",
    "dubbed", "as", "of", "with", "the", "a", "an", "and", "or", "but", "was", "is", "be",
})
MAX_QUOTE_TOKENS = 120


def _glued_quote(tokens: Sequence[Token], i: int) -> bool:
    """A quoted sentence glued to a caption: "... his first start ‘Here he’s brought the
    lads in.’" (an opening quote after a word with no punctuation, the quote a sentence)."""
    if i < 1 or not _is_opening_quote(tokens, i) or i + 1 >= len(tokens):
        return False
    prev = tokens[i - 1][0]
    if not tokens[i - 1][1] or not prev[-1:].isalnum() or prev.lower() in SPEECH_VERBS:
        return False
    if not tokens[i + 1][0][:1].isupper():
        return False
    for j in range(i + 2, min(len(tokens), i + MAX_QUOTE_TOKENS)):
        text = tokens[j][0]
        if text in QUOTES and not _is_opening_quote(tokens, j):
            return j - i > 4 and tokens[j - 1][0] in TERMINALS | {","}
    return False


def fix_starts(tokens: Sequence[Token], starts: Sequence[int]) -> List[int]:
    """Sentence-start token indices after the rules above; `starts` are spaCy's."""
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
    for i in range(1, n):
        if _is_opening_quote(tokens, i) and _ends_sentence(tokens, i - 1) \
                and i + 1 < n and tokens[i + 1][0][:1].isupper():
            candidates.add(i)
        elif _glued_start(tokens, i) or _glued_quote(tokens, i):
            candidates.add(i)
    kept = [0]
    ordered = sorted(candidates)
    for k, s in enumerate(ordered):
        end = ordered[k + 1] if k + 1 < len(ordered) else n
        if _valid_start(tokens, s, end, s in proposed):
            kept.append(s)
    # a sentence with no word (a stray quote or bracket) joins the one before it
    out = []
    for k, s in enumerate(kept):
        end = kept[k + 1] if k + 1 < len(kept) else n
        if out and not any(any(c.isalnum() for c in t) for t, _ in tokens[s:end]):
            continue
        out.append(s)
    return out

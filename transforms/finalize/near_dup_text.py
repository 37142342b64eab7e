"""The text an article is signed by, folded so that look-alike spellings of one story sign
alike (pure functions; near_duplicates.py shingles what `fold` returns).

A reader sees the same words in a story and in a copy of it that an attacker, or a
careless pipeline, has re-encoded; the signature must too. `fold`, in order:
1. HTML entities unescaped (`&amp;amp;` twice, `&#x61;`, `&nbsp;`: at most 3 rounds);
2. Unicode NFKC (full-width and mathematical letters, ligatures, the Hangul filler
   U+3164 -> U+1160), then case folding;
3. canonical decomposition (NFD), then every mark (Unicode M*: accents, the combining
   grapheme joiner U+034F, variation selectors U+FE0E/U+FE0F), every default-ignorable
   code point (zero-width and bidi controls, Hangul and Khmer fillers, tag characters),
   every other format, private-use or unassigned code point, and the blank Braille
   pattern U+2800 removed, so an invisible character inside a word leaves the word whole;
4. confusable letters folded to one prototype each (Cyrillic `а` and Greek `α` to Latin
   `a`, `1`/`I`/`l` to `l`, `0`/`O` to `o`): the single-character look-alike classes of
   Unicode's confusables table (UTS #39) as the `confusable_homoglyphs` package ships it.
The folded text is only signed, never shown or released.
"""
import functools
import html
import unicodedata

import regex

_UNSEEN = regex.compile(r"[\p{M}\p{Default_Ignorable_Code_Point}\p{Cf}\p{Co}\p{Cn}\u2800]+")
_ENTITY_ROUNDS = 3


def unescape(text: str) -> str:
    """HTML entities decoded, repeatedly (an entity escaped twice is still one letter)."""
    for _ in range(_ENTITY_ROUNDS):
        if "&" not in text:
            break
        decoded = html.unescape(text)
        if decoded == text:
            break
        text = decoded
    return text


def _prototype(members) -> str:
    """The character a class of look-alikes folds to: a lower-case ASCII letter where the
    class holds one, else an ASCII letter lower-cased, else its smallest member."""
    for pick in (lambda c: c.isascii() and c.islower(), lambda c: c.isascii() and c.isalpha()):
        found = sorted(c for c in members if pick(c))
        if found:
            return found[0].lower()
    return min(members)


@functools.lru_cache(maxsize=1)
def confusable_table() -> dict:
    """{code point: prototype} for every character of a single-character look-alike class
    (union-find over the package's pairs; multi-character look-alikes such as `rn`/`m`
    are left alone)."""
    from confusable_homoglyphs.confusables import confusables_data
    parent = {}

    def find(c):
        parent.setdefault(c, c)
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for char, glyphs in confusables_data.items():
        for glyph in glyphs:
            other = glyph["c"]
            if len(char) == 1 and len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    classes = {}
    for c in list(parent):
        classes.setdefault(find(c), []).append(c)
    table = {}
    for members in classes.values():
        proto = _prototype(members)
        for c in members:
            if c != proto:
                table[ord(c)] = proto
    return table


def fold(text: str) -> str:
    """The text as the signature sees it (module docstring)."""
    text = unicodedata.normalize("NFKC", unescape(text)).casefold()
    text = _UNSEEN.sub("", unicodedata.normalize("NFD", text))
    return text.translate(confusable_table())

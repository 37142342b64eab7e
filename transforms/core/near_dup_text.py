"""The text an article is signed by, folded so that look-alike spellings of one story sign
alike (pure functions; near_duplicates.py shingles what `fold` returns).

A reader sees the same words in a story and in a copy of it that an attacker, or a
careless pipeline, has re-encoded; the signature must too. `fold`, in order:
1. HTML entities unescaped (`&amp;amp;` twice, `&#x61;`, `&nbsp;`: at most 3 rounds);
2. Unicode NFKC (full-width and mathematical letters, ligatures, the Hangul filler
   U+3164 -> U+1160), look-alike capitals to Latin (step 4), then case folding;
3. canonical decomposition (NFD), then every mark (Unicode M*: accents, the combining
   grapheme joiner U+034F, variation selectors U+FE0E/U+FE0F), every default-ignorable
   code point (zero-width and bidi controls, Hangul and Khmer fillers, tag characters),
   every other format, private-use or unassigned code point, and the blank Braille
   pattern U+2800 removed, so an invisible character inside a word leaves the word whole;
4. confusable letters folded to one prototype each (Cyrillic `а` and Greek `α` to Latin
   `a`, digit `1` to `l`, `0` to `o`; a capital such as Cyrillic `Н` to its Latin capital
   before case folding): the single-character look-alike classes of Unicode's
   confusables table (UTS #39) as the `confusable_homoglyphs` package ships it.
The folded text is only signed, never shown or released.
"""
import functools
import html
import unicodedata

import regex

from transforms.core.components import components

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


def _same_case_ascii(char: str, members) -> str:
    """The ASCII letter of `members` of `char`'s case (upper or lower), or ''."""
    found = sorted(c for c in members if c.isascii() and c.isalpha()
                   and c.isupper() == char.isupper() and c.islower() == char.islower())
    return found[0] if found else ""


@functools.lru_cache(maxsize=1)
def confusable_tables() -> tuple:
    """({code point: ASCII letter of its case} for non-ASCII letters, {code point:
    prototype} for every character): the single-character look-alike classes (union-find
    over the package's pairs; multi-character look-alikes such as `rn`/`m` are left
    alone). The first table runs before case folding: Cyrillic `Н` is Latin `H`, though
    its lower case `н` looks like no Latin letter."""
    from confusable_homoglyphs.confusables import confusables_data
    key = components((char, glyph["c"]) for char, glyphs in confusables_data.items()
                     for glyph in glyphs if len(char) == 1 and len(glyph["c"]) == 1)
    classes = {}
    for c, root in key.items():
        classes.setdefault(root, []).append(c)
    cased, table = {}, {}
    for members in classes.values():
        proto = _prototype(members)
        for c in members:
            if c != proto:
                table[ord(c)] = proto
            letter = "" if c.isascii() else _same_case_ascii(c, members)
            if letter:
                cased[ord(c)] = letter
    return cased, table


def fold(text: str) -> str:
    """The text as the signature sees it (module docstring)."""
    cased, table = confusable_tables()
    text = unicodedata.normalize("NFKC", unescape(text)).translate(cased).casefold()
    text = _UNSEEN.sub("", unicodedata.normalize("NFD", text))
    return text.translate(table)

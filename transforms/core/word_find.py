"""Whole-word tests of a literal string without a regular expression compiled per
string: a corpus has thousands of distinct names, past `re`'s cache of 512, and compiling
one pattern per name cost more than matching it (issue 31). Pure functions; the regular
expressions they stand for are their tests' oracles."""


def is_word_char(ch: str) -> bool:
    """What re's \\w matches in a str pattern: alphanumerics and the underscore."""
    return ch.isalnum() or ch == "_"


def written_as_whole_words(name: str, text: str) -> bool:
    """`name` occurs in `text` with no word character on either side: the regex
    (?<!\\w)NAME(?!\\w), found with str.find."""
    i = text.find(name)
    while i >= 0:
        end = i + len(name)
        if (i == 0 or not is_word_char(text[i - 1])) and (
                end == len(text) or not is_word_char(text[end])):
            return True
        i = text.find(name, i + 1)
    return False


def written_as_word(word: str, text: str) -> bool:
    """re.search(r"\\b%s\\b" % re.escape(word), text) for a `word` of word characters
    only (where \\b at both ends is no word character on either side); other strings
    by the regex itself."""
    if word and all(is_word_char(c) for c in word):
        return written_as_whole_words(word, text)
    import re
    return bool(re.search(r"\b%s\b" % re.escape(word), text))

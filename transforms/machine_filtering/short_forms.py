"""A short form of the answer's name written in the query (release rule `answer_in_query`,
beside `quality.aliases.alias_in_query`; issue 32, trivial items): "City had 10 men"
answered by "Manchester City", "Villa chairman Doug Ellis" by "Aston Villa", "the States"
by "United States". A reader who sees the short form needs no reading to fill the slot.

A short form is a capitalised word of a multi-word ORG, FAC or GPE answer name that the
query writes
- capitalised and standalone mid-sentence (`standalone`): not a sentence's first word
  (nor after a quote, colon or bracket), no capitalised word or placeholder beside it,
  not joined to one by "of" ("Bank of England"): part of no other name;
- where no other passage entity's name has it ("Manchester" beside "Manchester City" is
  no short form of "Manchester United"; "Windows" of "Windows 7" beside "Windows 10").
Never a word that stands for nothing alone (`NOT_SHORT`: function words, an
organisation's generic words, names.GENERIC_ORG_WORDS, but a club's word, "United", and
an institution's head, "the Court", which names.py has stand for the one such entity;
a legal suffix, "FC"), nor a place's name (`places.place_of`): "a Manchester bar" names
the city, not the club (tagged GPE or ORG), "Ireland" is no short form of "Northern
Ireland"; but a name that is a place and a suffix ("Liverpool FC") is written short as
the place. A person's surname and given name are `aliases.name_parts`' own.
Pure functions; no Beam.
"""
import re
from typing import Optional

from transforms.core.constants import PLACEHOLDER
from transforms.curation.names import (
    CLUB_WORDS,
    GENERIC_ORG_WORDS,
    INSTITUTION_HEADS,
    ORG_SUFFIXES,
)
from transforms.machine_filtering.places import place_of
from transforms.quality.aliases import answer_label, answer_spans, plain, strip_title

SHORT_FORM_LABELS = frozenset({"ORG", "FAC", "GPE"})
NOT_SHORT = (GENERIC_ORG_WORDS - CLUB_WORDS - INSTITUTION_HEADS) | ORG_SUFFIXES | frozenset(
    {"a", "an", "at", "in", "on", "to", "de", "la", "le", "del", "da", "van", "von", "st"})
_QUERY_TOKEN = re.compile(r"\x00|\w[\w'&-]*(?:\.\w+)*|[^\w\s]")
_POSSESSIVE = re.compile(r"['’]s?$")
_SENTENCE_OPENING = frozenset({".", "!", "?", ":", "'", '"', "(", "-"})


def _name_words(text: str) -> list:
    return [_POSSESSIVE.sub("", w).strip(",.") for w in plain(text).split()]


def standalone(tokens: list, i: int) -> bool:
    """Token i is a word of its own mid-sentence (module docstring); the placeholder is
    the token "\\x00"."""
    def capital(k):
        return 0 <= k < len(tokens) and (tokens[k][:1].isupper() or tokens[k] == "\x00")
    if i == 0 or tokens[i - 1] in _SENTENCE_OPENING or capital(i - 1) or capital(i + 1):
        return False
    return not (tokens[i - 1] == "of" and capital(i - 2)
                or i + 1 < len(tokens) and tokens[i + 1] == "of" and capital(i + 2))


def short_words(row: dict) -> set:
    """The words of the answer's names that may stand for it alone (module docstring)."""
    words = set()
    for a in row.get("answers") or ():
        name = _name_words(strip_title(a["text"]))
        core = [w for w in name if w.lower() not in ORG_SUFFIXES]
        for w in name if len(name) > 1 else ():
            if w[:1].isupper() and w.isalpha() and len(w) > 1 and w.lower() not in NOT_SHORT \
                    and (core == [w] or place_of(w) is None):
                words.add(w)
    return words


def short_form_in_query(row: dict) -> Optional[str]:
    """The first short form of the answer's name the query writes, or None."""
    if answer_label(row) not in SHORT_FORM_LABELS:
        return None
    words = short_words(row)
    if not words:
        return None
    spans = answer_spans(row)
    others = {w for e in row.get("entities") or () if (e["start"], e["end"]) not in spans
              for w in _name_words(e["text"])}
    tokens = [_POSSESSIVE.sub("", t) for t in _QUERY_TOKEN.findall(
        plain(row.get("query") or "").replace(PLACEHOLDER, " \x00 "))]
    for i, token in enumerate(tokens):
        if token in words and token not in others and standalone(tokens, i):
            return token
    return None

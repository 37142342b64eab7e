"""A capital stands for its country's government in the news ("Tehran denied the
reports", "talks with Beijing"), so where a passage names both a country and its capital
as places, a query answered by one of them is answered as well by the other ("a
diplomatic row between @placeholder and the UK": Iran, or Tehran). Release rule
`capital_rival` (issue 32, ambiguous items): the answer is a country (its name or
demonym: `countries.country_of`) and the passage names that country's capital as another
entity, or the answer is a capital and the passage names its country; both tagged as
places or peoples (GPE, LOC, NORP), so "Washington" the person or the paper is no rival;
a dateline's place ("WASHINGTON (CNN) --") says where the story was filed, and is none.
Capitals from GeoNames (`countries.capital_country`). Pure functions; no Beam.

Only where the slot takes a state: the placeholder as a noun ("stop @placeholder from
cheating", "a deal with @placeholder", "@placeholder's deception"), or before a word of
government (`GOVERNMENT_HEADS`: "the @placeholder government", "@placeholder officials"),
or in "@placeholder-based". Not before other nouns ("@placeholder combat troops", "nine
@placeholder companies", "@placeholder police": a capital does not say those), not in
other compounds ("the @placeholder-U.S. alliance"), and not for a people ("@placeholder
used social media to talk about the victims", answered by demonyms alone). The word after
the placeholder is read from the release rules' spaCy tokens (its part of speech).
"""
import re
from typing import Optional

from transforms.curation.countries import capital_country, country_of, is_demonym

PLACE_LABELS = frozenset({"GPE", "LOC", "NORP"})
GOVERNMENT_HEADS = frozenset({"government", "governments", "official", "officials",
                              "authorities", "authority", "administration", "regime",
                              "leadership", "leaders", "ministry", "diplomat", "diplomats",
                              "negotiator", "negotiators", "policy", "spokesman",
                              "spokeswoman", "envoy", "embassy", "state"})
MODIFIER_POS = frozenset({"NOUN", "ADJ", "PROPN", "NUM"})
_PLACEHOLDER = "@placeholder"
_DATELINE = re.compile(r"^[^.!?\n]{0,80}?\((?:CNN|AP|AFP|Reuters|UPI)\)(?:\s*--)?")


def dateline_end(passage: str) -> int:
    """Where the passage's opening dateline ends ("BAGHDAD, Iraq (CNN) --"), else 0."""
    m = _DATELINE.match(passage or "")
    return m.end() if m else 0


def takes_a_state(query: str, tokens=None) -> bool:
    """Whether the placeholder's slot in `query` is one a capital can fill for its state
    (module docstring); `tokens`: the query's `lexical.Token`s, None when not measured
    (then only the compound test applies)."""
    at = query.find(_PLACEHOLDER)
    if at < 0:
        return False
    end = at + len(_PLACEHOLDER)
    rest = query[end:]
    if rest.startswith(("-", "‑")):
        return rest[1:].lower().startswith("based")
    after = [t for t in tokens or () if t.start >= end]
    if not after or after[0].start > end + 1:
        return True
    nxt = after[0]
    word = query[nxt.start:nxt.end]
    if nxt.pos in MODIFIER_POS and word[:1].islower():
        return word.lower() in GOVERNMENT_HEADS
    return True


def capital_rival(row: dict, tokens=None) -> Optional[str]:
    """Why another passage entity fits the query as the answer's capital or country, or
    None. `tokens`: the query's tokens (`takes_a_state`)."""
    query = row.get("query") or ""
    answers = {a["text"] for a in row.get("answers") or ()}
    if not takes_a_state(query, tokens):
        return None
    if answers and all(is_demonym(a) for a in answers) and not _before_a_noun(query, tokens):
        return None                       # a people ("Kenyans used ..."), not a state
    countries, capitals = {}, {}
    for a in sorted(answers):             # the same answer named whatever the hash seed
        if code := country_of(a):
            countries.setdefault(code, a)
        if code := capital_country(a):
            capitals.setdefault(code, a)
    if not countries and not capitals:
        return None
    filed = dateline_end(row.get("passage") or "")
    for e in row.get("entities") or ():
        text = e.get("text") or ""
        if e.get("label") not in PLACE_LABELS or text in answers or e.get("start", 0) < filed:
            continue
        code = capital_country(text)
        if code in countries:
            return (f"{text!r}, {countries[code]!r}'s capital, is in the passage: a capital "
                    f"names its country's government, so it fits as well")
        code = country_of(text)
        if code in capitals:
            return (f"{text!r} is in the passage, and its capital {capitals[code]!r} names "
                    f"it: either fits")
    return None


def _before_a_noun(query: str, tokens) -> bool:
    end = query.find(_PLACEHOLDER) + len(_PLACEHOLDER)
    after = [t for t in tokens or () if t.start >= end]
    return (bool(after) and after[0].start <= end + 1 and after[0].pos in MODIFIER_POS
            and query[after[0].start:after[0].start + 1].islower())

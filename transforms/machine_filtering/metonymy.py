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
"""
import re
from typing import Optional

from transforms.curation.countries import capital_country, country_of

PLACE_LABELS = frozenset({"GPE", "LOC", "NORP"})
_DATELINE = re.compile(r"^[^.!?\n]{0,80}?\((?:CNN|AP|AFP|Reuters|UPI)\)(?:\s*--)?")


def dateline_end(passage: str) -> int:
    """Where the passage's opening dateline ends ("BAGHDAD, Iraq (CNN) --"), else 0."""
    m = _DATELINE.match(passage or "")
    return m.end() if m else 0


def capital_rival(row: dict) -> Optional[str]:
    """Why another passage entity fits the query as the answer's capital or country, or
    None."""
    answers = {a["text"] for a in row.get("answers") or ()}
    countries = {c: a for a in answers if (c := country_of(a))}
    capitals = {c: a for a in answers if (c := capital_country(a))}
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

"""Countries a query names by name or demonym ("on Estonia's border", "the Mexican beach
resort"), for the release rule `only_compatible_entity` (issue 32): a passage entity that
is such a country is no reader's candidate for the placeholder, whichever cue reads the
query (`entity_types.named_in_query`, `place_types`, `slot_syntax`, `kind_nouns`); and
the release rule `only_country` (`only_country`: the answer the only country the query
does not name). Pure functions; no Beam.
"""
import collections
import re
from typing import Optional

from transforms.curation.countries import country_of
from transforms.quality.aliases import PLACEHOLDER, clusters, plain


def query_countries(query: str) -> set:
    """The country codes the query's words name, by name or demonym, one to three words
    ("the British government" names Britain; `countries.country_of`)."""
    words = re.findall(r"[\w'’.-]+", plain(query).replace(PLACEHOLDER, " | "))
    return {code for n in (1, 2, 3) for i in range(len(words) - n + 1)
            if words[i][:1].isupper() and (code := country_of(" ".join(words[i:i + n])))}


def named_countries(row: dict) -> set:
    """Keys of the passage entities (alias clusters, the answer's aside) that are a country
    the query names (`query_countries`)."""
    codes = query_countries(row.get("query") or "")
    return {k for k, m in clusters(row) if k != "@answer" and codes
            and country_of(m.get("text") or "") in codes}


def only_country(row: dict) -> Optional[str]:
    """Release rule `only_country`: the answer is a country (`countries.country_of` of a
    mention: a name or a demonym) and no other passage entity is one but those the query
    names ("a change in @placeholder policy toward Cuba" with the U.S. the passage's only
    other country; "Beijing to warn @placeholder" with Myanmar the only country beside
    China). A reader who knows only that the slot wants a country gets it; held-out CNN
    readers called such items trivial. None when another country stands beside it."""
    mentions = collections.defaultdict(list)
    for key, m in clusters(row):
        mentions[key].append(m)
    codes = {k: {country_of(m.get("text") or "") for m in ms} - {None}
             for k, ms in mentions.items()}
    if not codes.get("@answer"):
        return None
    named = query_countries(row.get("query") or "")
    if any(k != "@answer" and c - named - codes["@answer"] for k, c in codes.items()):
        return None
    return (f"the answer ({'/'.join(sorted(codes['@answer']))}) is the only country of the "
            "passage the query does not name")

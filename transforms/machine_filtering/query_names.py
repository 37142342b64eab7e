"""Countries a query names by name or demonym ("on Estonia's border", "the Mexican beach
resort"), for the release rule `only_compatible_entity` (issue 32): a passage entity that
is such a country is no reader's candidate for the placeholder, whichever cue reads the
query (`entity_types.named_in_query`, `place_types`, `slot_syntax`, `kind_nouns`). Pure
functions; no Beam.
"""
import re

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

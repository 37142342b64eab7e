"""The article's own publisher in its passage: the names each publisher (the rows'
`source`, ingestion's inference) goes by in its text, and the passage entities that are
it ("CNN" of "(CNN)" in a CNN story). Read by the release rule `publisher_answer`
(machine_filtering/publisher.py) and by `flags.only_entity_of_label`, where the
publisher is no rival: that rule never releases it as an answer. Pure functions.
"""
import re
from typing import Optional

from transforms.quality.aliases import clusters

# the names each publisher (the rows' `source`, ingestion's inference) goes by in its text
PUBLISHER_NAMES = {
    "cnn": ("CNN", "CNN.com", "CNN International", "CNN Money", "CNNMoney"),
    "dailymail": ("Daily Mail", "The Daily Mail", "MailOnline", "Mail Online",
                  "Mail on Sunday", "The Mail on Sunday"),
    "bbc": ("BBC", "BBC News", "the BBC"),
    "reuters": ("Reuters", "Thomson Reuters"),
    "guardian": ("Guardian", "The Guardian", "Guardian Australia"),
}
_NAMES = {source: re.compile(r"^(?:" + "|".join(re.escape(n) for n in names) + r")$",
                             re.IGNORECASE)
          for source, names in PUBLISHER_NAMES.items()}


def publisher_names(row: dict) -> Optional[re.Pattern]:
    """The pattern of the row's publisher's names, None for an unknown source."""
    return _NAMES.get((row.get("source") or "").strip().lower())


def publisher_keys(row: dict) -> set:
    """Keys of the passage entities (alias clusters) every mention of which is the
    article's own publisher; never the answer's."""
    names = publisher_names(row)
    if names is None:
        return set()
    texts = {}
    for key, m in clusters(row):
        texts.setdefault(key, []).append((m.get("text") or "").strip())
    return {k for k, ts in texts.items() if k != "@answer" and all(names.match(t) for t in ts)}

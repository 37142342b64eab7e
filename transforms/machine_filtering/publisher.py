"""The article's own publisher as the answer: "The documents provided to @placeholder",
"@placeholder obtained a copy of the report", "a foreign analyst told @placeholder" in a
CNN or Reuters story. The publisher is named in the dateline, the credits and stock
phrases ("@placeholder cannot independently confirm"), and a reader who knows where the
story ran answers without reading it. Release rule `publisher_answer` (issue 32, trivial
items). Pure functions; no Beam.
"""
import re
from typing import Optional

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


def publisher_answer(row: dict) -> Optional[str]:
    """Why the answer is the article's own publisher, or None (unknown source, or another
    publisher: "CNN" in a BBC story is news about CNN)."""
    names = _NAMES.get((row.get("source") or "").strip().lower())
    if names is None:
        return None
    for a in row.get("answers") or ():
        text = (a.get("text") or "").strip()
        if names.match(text):
            return (f"the answer {text!r} is the publisher of the article "
                    f"({row.get('source')}): its dateline and stock phrases give it away")
    return None


def publisher_keys(row: dict) -> set:
    """Keys of the passage entities (alias clusters) every mention of which is the
    article's own publisher ("CNN" in "(CNN)" of a CNN story). Never a released answer
    (rule `publisher_answer`), so no reader's candidate either: `quality.flags.
    only_entity_of_label` does not count it as a rival."""
    from transforms.quality.aliases import clusters
    names = _NAMES.get((row.get("source") or "").strip().lower())
    if names is None:
        return set()
    texts = {}
    for key, m in clusters(row):
        texts.setdefault(key, []).append((m.get("text") or "").strip())
    return {k for k, ts in texts.items() if k != "@answer" and all(names.match(t) for t in ts)}

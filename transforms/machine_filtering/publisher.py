"""The article's own publisher as the answer: "The documents provided to @placeholder",
"@placeholder obtained a copy of the report", "a foreign analyst told @placeholder" in a
CNN or Reuters story. The publisher is named in the dateline, the credits and stock
phrases ("@placeholder cannot independently confirm"), and a reader who knows where the
story ran answers without reading it. Release rule `publisher_answer` (issue 32, trivial
items). Pure functions; no Beam.
"""
from typing import Optional

from transforms.quality.publishers import publisher_names


def publisher_answer(row: dict) -> Optional[str]:
    """Why the answer is the article's own publisher, or None (unknown source, or another
    publisher: "CNN" in a BBC story is news about CNN)."""
    names = publisher_names(row)
    if names is None:
        return None
    for a in row.get("answers") or ():
        text = (a.get("text") or "").strip()
        if names.match(text):
            return (f"the answer {text!r} is the publisher of the article "
                    f"({row.get('source')}): its dateline and stock phrases give it away")
    return None


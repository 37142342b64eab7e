"""The article's own publisher as the answer: "The documents provided to @placeholder",
"@placeholder obtained a copy of the report", "a foreign analyst told @placeholder" in a
CNN or Reuters story. The publisher is named in the dateline, the credits and stock
phrases ("@placeholder cannot independently confirm"), and a reader who knows where the
story ran answers without reading it. Release rule `publisher_answer` (issue 32, trivial
items). Pure functions; no Beam.

Release rule `dateline_answer` beside it: every mention of the answer lies in the opening
dateline ("WASHINGTON (CNN) --", "MIAMI, Florida (CNN) --"), which says where the story
was filed and nothing else; a query about "a channel in @placeholder" is then answered by
knowing where the desk sits, not by reading (issue 32's held-out readers: 7 such items,
14 labels, none good: 10 trivial, 2 ambiguous, 2 artefact).
"""
from typing import Optional

from transforms.machine_filtering.metonymy import dateline_end
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


def dateline_answer(row: dict) -> Optional[str]:
    """Why the answer stands only in the passage's opening dateline, or None."""
    end = dateline_end(row.get("passage") or "")
    answers = row.get("answers") or ()
    if not end or not answers or any(not isinstance(a.get("end"), int) or a["end"] > end
                                     for a in answers):
        return None
    return (f"the answer {answers[0].get('text')!r} is named only in the dateline "
            f"{row['passage'][:end].strip()!r}: where the story was filed, not what it says")

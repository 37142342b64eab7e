"""The `caption_like` flag and curation agree on list lines (issue 32): a query made from a
label line ("@placeholder: Possession of heroin, visiting a common nuisance, held in lieu
of $72,500 bond.") or a list intro is flagged, with the same functions curation cuts them
with (curation/listings.py); a query made from a sentence of the real corpus's prose
(the CNN stories, a name put to @placeholder) is not flagged as one."""
import re

import pytest

from transforms.curation import listings
from transforms.quality.flags import caption_like

pytestmark = pytest.mark.fast

_NAME = re.compile(r"\b[A-Z][a-z]+ [A-Z][a-z]+\b")
_SENTENCE = re.compile(r"(?<=[a-z][.!?])\s+(?=[A-Z])")


def _row(query):
    return {"query": query, "passage": "", "entities": [], "answers": []}


def test_label_lines_and_list_intros_are_flagged_as_curation_cuts_them():
    lines = ["Elizabeth A. Burton: Possession of methamphetamine, possession of a Schedule IV "
             "substance, held in jail in lieu of $70,000 bond.",
             "Everton: Martyn, Hibbert, Yobo, Stubbs, Naysmith, Osman, Carsley, Arteta.",
             "Replacements: William Servat (Stade Toulousain), Olivier Milloud (Bourgoin), "
             "Gregory Lamboley (Stade Toulousain)."]
    for line in lines:
        name = line.split(":")[0]
        assert listings.find_label_lines(line) == [(0, len(line))]
        assert caption_like(_row(line.replace(name, "@placeholder", 1))), line
    intro = "Here are some key points @placeholder jurors will have to consider:"
    assert listings.is_list_intro(intro) and caption_like(_row(intro))
    assert not caption_like(_row("@placeholder told reporters:"))


def test_no_query_made_from_real_prose_reads_as_a_list_line(corpus_dir):
    flagged, n = [], 0
    for path in sorted((corpus_dir / "cnn_stories").glob("*.story")):
        body = path.read_text().split("@highlight")[0]
        for sentence in _SENTENCE.split(" ".join(body.split())):
            m = _NAME.search(sentence)
            if not m:
                continue
            n += 1
            query = sentence[:m.start()] + "@placeholder" + sentence[m.end():]
            detail = caption_like(_row(query))
            if detail and detail.startswith(("label line", "list intro")):
                flagged.append(query)
    assert n > 150 and flagged == [], flagged

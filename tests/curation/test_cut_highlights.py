"""A highlight cut short inside its last word ("... Tiffanie Rushto" where the body says
"Tiffanie Rushton") gets the word back from the body when one word fits, else goes
(`highlight_word_completed`, `highlight_cut_word`, counted by clean); whole words stay,
also those a body word extends by a suffix or a hyphen ("Iran" / "Iranian", "Asia" /
"Asia-Pacific"). Bullets of our own, and the real highlights of ../shared/corpus cut."""
import collections
import json

import pytest

from transforms.curation import highlights as H
from transforms.curation.clean import clean_article
from transforms.ingestion.articles import Article

pytestmark = pytest.mark.fast

BODY = ("Mother-of-two Tiffanie Rushton, 31, was found guilty on Friday. Rushton told the "
        "court she had been to Iranian and Asia-Pacific trade fairs with Rush Hamilton.")


@pytest.mark.parametrize("bullet, completed", [
    ("Jury finds mother-of-two Tiffanie Rushto", "Jury finds mother-of-two Tiffanie Rushton"),
    ("She was convicted with Rush Hamilto", "She was convicted with Rush Hamilton"),
])
def test_a_word_cut_short_is_completed_from_the_body(bullet, completed):
    words = H.body_words([BODY])
    assert H.cut_word(bullet, words)[0] == bullet.split()[-1]
    assert H.complete_cut_word(bullet, words) == completed


@pytest.mark.parametrize("bullet", [
    "Jury finds mother-of-two Tiffanie Rushton",          # a body word
    "Jury finds mother-of-two Tiffanie Rushto.",          # an end mark: no text cut short
    "She had been to trade fairs in Iran",                # "Iranian": a suffix
    "She had been to trade fairs in Asia",                # "Asia-Pacific": a hyphen
    "She was convicted on Fri",                           # the body writes "Fri" too
])
def test_whole_words_stay(bullet):
    words = H.body_words([BODY + " Fri."])
    assert H.cut_word(bullet, words) is None
    assert H.complete_cut_word(bullet, words) == bullet


def test_a_cut_word_with_two_completions_goes_and_clean_counts_both():
    body = BODY + " Her brother Rushworth was not in court."
    article = Article("x", (body,), ("Jury finds mother-of-two Tiffanie Rus",
                                     "Rushton was found guilty of fraud on Friday",
                                     "Jury finds mother-of-two Tiffanie Rushto"),
                      None, None, "public", "test")
    dropped = collections.Counter()
    cleaned = clean_article(article, dropped=dropped)
    assert cleaned.highlights == ("Rushton was found guilty of fraud on Friday",
                                  "Jury finds mother-of-two Tiffanie Rushton")
    assert dropped["highlight_cut_word"] == 1 and dropped["highlight_word_completed"] == 1


def test_real_highlights_are_whole_and_cut_ones_come_back(corpus_dir):
    """The 1,000-odd real highlights of cnndm_test250: none is taken for a cut one; each
    that ends in a capitalised word of seven letters or more the body writes, cut by two
    letters, is completed to that word (or dropped where the body has two such words)."""
    whole_hits, cut, completed = 0, 0, 0
    for line in open(corpus_dir / "cnndm_test250.jsonl"):
        row = json.loads(line)
        words = H.body_words([row["article"]])
        for h in row["highlights"]:
            h = h.strip().rstrip(" .")
            whole_hits += H.cut_word(h, words) is not None
            last = h.split()[-1] if h.split() else ""
            if len(last) >= 7 and last[:1].isupper() and last.isalpha() and last in words:
                cut += 1
                completed += H.complete_cut_word(h[:-2], words) == h
    assert whole_hits == 0
    assert cut >= 50 and completed >= 0.8 * cut

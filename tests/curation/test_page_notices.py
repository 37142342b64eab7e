"""Page notices (transforms/curation/notices.py): a media player's or browser's notice
is page furniture, taken out where it opens a sentence, glued or not, and counted by
clean; real BBC sport text (XSum keeps BBC's "Media playback is not supported on this
device" glued to the next paragraph) reshaped with the notice put in."""
import collections

import pytest

from tests.fixtures.corpus_texts import corpus_texts
from transforms.curation.clean import clean_article
from transforms.curation.notices import strip_page_notices
from transforms.ingestion.articles import Article

pytestmark = pytest.mark.fast

NOTICE = "Media playback is not supported on this device"


@pytest.mark.parametrize("text, expected", [
    (NOTICE + "Lang, who captains the club, said.", "Lang, who captains the club, said."),
    ("They lost. " + NOTICE + "The first half was poor.", "They lost. The first half was poor."),
    (NOTICE + '"When he was with Peugeot, a lot changed."', '"When he was with Peugeot, a lot changed."'),
    (NOTICE + ".", ""),
    ("Your browser does not support the video tag. The club said so.", "The club said so."),
    ("Please enable JavaScript to view the comments powered by Disqus.", ""),
    ("Sorry, this video is not available in your region. Police said.", "Police said."),
    ("He left. (Thanks to FOX Sports for bringing this to our attention.) Fans wept.",
     "He left. Fans wept."),
    # an opinion page's disclaimer (a CNN commentary's last line, a syndicated piece's)
    ("Join the conversation on Facebook. The opinions expressed in this commentary are "
     "solely those of John Avlon.", "Join the conversation on Facebook."),
    ("The views and opinions expressed in the article do not necessarily reflect those of "
     "the agency. Talks resume today.", "Talks resume today."),
    # a copyright line closing syndicated copy, a syndication note opening it (CNN pages
    # carrying The Hollywood Reporter and The Conversation; names kept, text reshaped)
    ("The finale airs Sunday at 9 p.m. ©2015 The Hollywood Reporter.",
     "The finale airs Sunday at 9 p.m."),
    ("Police said so. Copyright 2015 The Associated Press. All rights reserved.",
     "Police said so."),
    ("CNN is showcasing the work of The Conversation, a collaboration between journalists "
     "and academics. Apple has released a watch.", "Apple has released a watch."),
])
def test_a_notice_opening_a_sentence_goes_and_the_glued_sentence_stays(text, expected):
    out, n = strip_page_notices(text)
    assert (out, n) == (expected, 1)


@pytest.mark.parametrize("text", [
    'He said "media playback is not supported on this device" was a poor excuse.',
    "Fans complained that media playback is not supported on this device by the app.",
    "The firm said its browser does not support the video tag yet.",
    # views in the news are no disclaimer (a BBC politics sentence, reshaped)
    "The views expressed by both backbenchers and Labour peers were clear.",
    "The views expressed in the survey are those of a minority.",
    "Copyright lawyers said the case would run.",
    "Copyright Tribunal judges ruled against the firm.",
    "She said all rights reserved to the club were sold.",
])
def test_inside_a_sentence_or_a_quotation_nothing_is_touched(text):
    assert strip_page_notices(text) == (text, 0)


def _bbc_sport(corpus_dir, n=20):
    files = sorted((corpus_dir / "bbc_news" / "sport").glob("*.txt"))[:n]
    out = []
    for f in files:
        title, _, body = f.read_text(encoding="latin-1").partition("\n")
        paragraphs = [p.strip() for p in body.split("\n") if p.strip()]
        out.append((f.stem, title.strip(), paragraphs))
    return out


def test_real_bbc_text_with_glued_notices_is_cleaned_and_counted(corpus_dir):
    counts, articles = collections.Counter(), _bbc_sport(corpus_dir)
    assert len(articles) == 20
    for stem, title, paragraphs in articles:
        # XSum's layout: the notice where the player stood, glued to the next paragraph,
        # once in the body and once opening a highlight
        body = list(paragraphs)
        body[1] = NOTICE + body[1]
        article = Article(stem, tuple(body), (NOTICE + title, title + " again."), "bbc",
                          None, "public", "xsum.jsonl")
        cleaned = clean_article(article, dropped=counts)
        text = " ".join(cleaned.paragraphs + cleaned.highlights)
        assert "Media playback" not in text
        assert paragraphs[1].split()[0] in " ".join(cleaned.paragraphs)   # the sentence stays
    assert counts["page_notice"] == 40, counts


@pytest.mark.parametrize("text, kept, cut", [
    ("O'Keefe accepted the award. Chris O'Keefe revealed baby John Ghanem died when he was "
     "given nitrous oxide. (9NEWS) He was nominated alongside Waleed Aly.",
     ["O'Keefe accepted the award.", "He was nominated alongside Waleed Aly."],
     "Chris O'Keefe revealed baby John Ghanem died when he was given nitrous oxide. (9NEWS)"),
    ("A verdict was announced against Darren Ray. (Lacy Atkins/The Chronicle) Larry wept.",
     ["Larry wept."], "A verdict was announced against Darren Ray. (Lacy Atkins/The Chronicle)"),
])
def test_a_sentence_a_photo_credit_closes_is_a_caption(text, kept, cut):
    from transforms.curation.captions import split_captions
    out = []
    assert split_captions(text, out) == kept
    assert [(t, why.reason) for t, why in out] == [(cut, "credited_caption")]


@pytest.mark.parametrize("text", [
    'the book "Deadline Artists." (CNN) -- Beneath Rick Santorum\'s stance, a shift.',
    "He went home. (CNN) The president said so.",
    "The deal was signed (after a long delay) on Monday. (It cost $2m.) Shares rose.",
])
def test_a_dateline_or_an_aside_is_no_credit(text):
    from transforms.curation.captions import credited_captions
    assert credited_captions(text) == []


def test_no_sentence_of_the_real_corpus_has_a_photo_credit(corpus_dir):
    from transforms.curation.captions import credited_captions
    texts = corpus_texts(corpus_dir)
    assert len(texts) > 2400
    assert [c for t in texts for c in credited_captions(t)] == []


@pytest.mark.parametrize("text, glued", [
    ("Travel and living abroadSit on the sea wall with a Spanish conversation.", True),
    ("Source: National Maritime Museum.\nThe convoys sailedThe ships went north.", True),
    ("He bought an iPhone on eBay and a McDonald's meal, then watched YouTube.", False),
    ("PlayStation and WhatsApp users met the FedEx driver.", False),
    ("He posted the video on his Instagram account He joined Spurs in 2011.", True),
    ("the photos he uploaded to his 'adventure blog' Currently, the kayaker has fans", True),
    ('He played a teenager in "Equus."  Meanwhile, he is braced for scrutiny.', False),
    ("Since then he and she have met, and they said we would too.", False),
])
def test_two_pieces_of_a_page_run_together_are_glued_text(text, glued):
    from transforms.curation.fragments import has_glued_text
    assert has_glued_text(text) is glued


def test_an_answer_only_in_glued_text_gives_no_query():
    from transforms.curation.fragments import glued_around
    text = ("He spoke Spanish at home. Travel and living abroadSit on the sea wall with "
            "Spanish conversation. Then he left.")
    first, last = text.index("Spanish"), text.rindex("Spanish")
    assert not glued_around(text, first, first + 7)
    assert glued_around(text, last, last + 7)


def test_no_text_of_the_real_corpus_is_glued_without_a_space(corpus_dir):
    from transforms.curation.fragments import GLUE
    texts = corpus_texts(corpus_dir)
    assert len(texts) > 2400 and not any(GLUE.search(t) for t in texts)


def test_a_caption_run_into_the_story_is_glued_text_and_rare_in_the_corpus(corpus_dir):
    """Daily Mail captions lost their full stop in the loader layout and run into the next
    sentence; edited prose almost never writes a sentence opener after a lower-case word."""
    from transforms.curation.fragments import MISSING_BREAK
    texts = corpus_texts(corpus_dir)
    hits = [t[max(0, m.start() - 60):m.end()] for t in texts for m in MISSING_BREAK.finditer(t)]
    assert any("on his Instagram account He" in h for h in hits)
    assert any("in charge of the club He" in h for h in hits)
    assert 0 < len(hits) <= 40                    # 2,400+ texts

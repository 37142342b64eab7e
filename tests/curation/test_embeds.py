"""Embedded social posts, numbered-list teasers and highlight datelines (issue 32): page
furniture of crawled pages, built here from real BBC text reshaped into those layouts."""
import collections

import pytest

from tests.fixtures.corpus_texts import corpus_texts
from transforms.curation.clean import clean_article
from transforms.curation.embeds import tweet_embeds, tweet_signature
from transforms.curation.promotions import is_promotion
from transforms.ingestion.articles import Article

SIG = "— Ben Moore (@benmoore_news) March 3, 2005"


def _bbc(corpus_dir, n=12):
    out = []
    for f in sorted((corpus_dir / "bbc_news" / "politics").glob("*.txt"))[:n]:
        title, *rest = f.read_text(encoding="latin-1").split("\n")
        paragraphs = [p.strip() for p in "\n".join(rest).split("\n") if p.strip()]
        out.append((f.stem, title.strip(), paragraphs))
    return out


@pytest.mark.fast
@pytest.mark.parametrize("paragraph, starts", [
    (SIG, 0),
    ("-- Led By Donkeys (@ByDonkeys) February 23, 2023", 0),
    ("Solidarity. pic.twitter.com/efRXKgDuqV -- Led By Donkeys (@ByDonkeys) February 23, 2023",
     39),
])
def test_an_embed_signature_is_found_where_it_closes_a_paragraph(paragraph, starts):
    assert tweet_signature(paragraph) == starts


@pytest.mark.fast
@pytest.mark.parametrize("paragraph", [
    "Mr Moore (@benmoore_news) said on 3 March 2005 that he would stand.",
    "Contact the reporter on Twitter (@benmoore_news) for more.",
    "— Ben Moore, March 3, 2005",
])
def test_a_handle_or_a_date_in_prose_is_no_signature(paragraph):
    assert tweet_signature(paragraph) is None


@pytest.mark.fast
def test_the_post_is_the_paragraph_before_a_lone_signature_and_a_link_line_before_that():
    prose = ["The minister defended the plan in a long statement to MPs on Tuesday, saying "
             "it would be reviewed within a year and that every council had been consulted "
             "at length before the final text was agreed by the cabinet and published for "
             "comment, a process which took three months.", "Another MP wondered why."]
    post = ["We will not back down. pic.twitter.com/AbC123", SIG]
    linked = ["This is the plan.", "⬇️ https://t.co/Xy1", SIG]
    assert tweet_embeds(prose + post) == {2: "", 3: ""}          # "Another MP..." stays
    assert tweet_embeds(prose + linked) == {2: "", 3: "", 4: ""}
    assert tweet_embeds(prose) == {}


@pytest.mark.fast
def test_a_signature_closing_a_long_paragraph_takes_its_sentences_back_to_280_characters():
    head = ("Labour says the tax plans would cost families more than the government admits, "
            "and the Conservatives say the figures were never checked by the Treasury. ")
    post = "Proud to stand with nurses today. pic.twitter.com/AbC123 "
    out = tweet_embeds([head * 3 + post + SIG])     # the post and one sentence before it
    assert out == {0: (head * 2).rstrip()}


def test_embeds_in_real_bbc_pages_are_cut_and_counted(corpus_dir):
    counts, articles = collections.Counter(), _bbc(corpus_dir)
    for stem, title, paragraphs in articles:
        body = list(paragraphs)
        quote = body[1]           # a BBC sentence as the embedded post, before the next one
        body[2:2] = [quote[:200] + " pic.twitter.com/AbC123", SIG]
        article = Article(stem, tuple(body), (title,), "bbc", None, "public", "pages.jsonl")
        cleaned = clean_article(article, dropped=counts)
        text = " ".join(cleaned.paragraphs)
        assert "@benmoore_news" not in text and "pic.twitter" not in text
        assert paragraphs[0] in text and paragraphs[2] in text    # the prose around stays
    assert counts["tweet_embed"] == 2 * len(articles), counts


def test_no_paragraph_of_the_real_corpus_is_an_embed(corpus_dir):
    texts = corpus_texts(corpus_dir)
    assert len(texts) > 2000
    assert not any(tweet_embeds(t.split("\n")) for t in texts)


@pytest.mark.fast
@pytest.mark.parametrize("text, promotion", [
    ("7 things you didn't know about the man who started WWI .", True),
    ("5 facts to know about the new Ebola vaccine", True),
    ("3 things stood out in the match.", False),
    ("10 ways were considered by the council before the vote.", False),
    ("Two things you should know came up at the hearing.", False),
])
def test_a_numbered_list_link_is_a_promotion(text, promotion):
    assert is_promotion(text) is promotion


def test_a_dateline_glued_to_a_highlight_is_spaced(corpus_dir):
    stem, title, paragraphs = _bbc(corpus_dir, 1)[0]
    lead = "Waterloo, Iowa (CNN)" + paragraphs[0]
    article = Article(stem, tuple(paragraphs[1:]), (lead,), "cnn", None, "public", "x.jsonl")
    cleaned = clean_article(article)
    assert cleaned.highlights[0].startswith("Waterloo, Iowa (CNN) " + paragraphs[0].split()[0])

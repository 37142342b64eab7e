"""The pure generation chain on real CNN/Daily Mail text (benchmarks/quality.py): no
Daily Mail artefact reaches a query, no answer includes a title, queries read as
sentences. The full numbers are measured by `python -m benchmarks.quality`."""
import pytest

from benchmarks import quality
from transforms.ingestion import readers


@pytest.fixture(scope="module")
def real_queries(corpus_dir, annotator):
    path = corpus_dir / "cnndm_test250.jsonl"
    with open(path, "rb") as f:
        articles = [a for a in readers.parse_jsonl(f, str(path), "public")
                    if not isinstance(a, dict)]
    # the first 80, and the stat box (41988ddd) and "German Formula 4" (6fc09e0d) articles
    articles = articles[:80] + [a for a in articles[80:]
                                if a.article_id.startswith(("41988ddd", "6fc09e0d"))]
    queries, counts = quality.run_chain(articles, annotator, "record")
    return articles, queries, counts


def test_no_artefacts_and_no_titled_answers(real_queries):
    articles, queries, counts = real_queries
    assert len(queries) > 2 * len(articles), counts
    found = quality.artefacts(queries, quality.tokenizer())
    for key in ("caption_label_opening", "answer_with_title", "position_between_commas") \
            + quality.ARTEFACTS:
        assert found.get(key, 0) == 0, (key, found)
    # 3 queries over 60 tokens, real sentences of an opinion piece and a quote ("But while
    # McHenry's reaction could very well have been ..."); captions, removed since issue 32,
    # took the total down to 298, so their share is just over 1%
    assert found["over_60_tokens"] <= 3 and found["over_60_share"] <= 0.012, found


def test_queries_are_whole_sentences(real_queries):
    _, queries, _ = real_queries
    for q in queries:
        text = q["query"]
        assert text.count("@placeholder") == 1
        assert not text[0].islower(), text
        assert not text.endswith((" '", ' "', " ‘")), text   # no stranded opening quote
        assert "Scroll down" not in q["passage"] and "(pictured)" not in q["passage"]


def test_record_profile_keeps_more_than_the_paper_profile(real_queries, annotator):
    articles, queries, _ = real_queries
    paper, _ = quality.run_chain(articles[:40], annotator, "paper")
    record = [q for q in queries if q["article_id"] in {a.article_id for a in articles[:40]}]
    assert len(record) > len(paper)


def test_no_stat_box_link_headline_or_glued_caption_query(real_queries):
    # real failures of the first reading (issue 12): a Daily Mail stat box ("97 apps, 22
    # goals"), a caption glued to the body ("later this month O'Neill told Betfred"), a CNN
    # link headline ("Lack of criminal background checks The TSA called"), a name cut out
    # of "German Formula 4"
    _, queries, _ = real_queries
    for q in queries:
        text = q["query"]
        assert " apps, " not in text and "this month O'Neill" not in text, text
        assert "@placeholder Formula" not in text, text


def test_caption_detector_of_the_benchmark():
    assert quality.caption_opening("Lurking: @placeholder was outside the house")
    assert not quality.caption_opening("He said: '@placeholder was outside'")
    # a CNN opinion piece's lead-in (cnndm_test250): a sentence, not a caption label
    assert not quality.caption_opening("Just look at the numbers: More than one-third of "
                                       "@placeholder adults are obese.")
    assert quality.starts_with_title("Mr Docherty") and not quality.starts_with_title("Docherty")
    assert not quality.starts_with_title("General Election", "EVENT")

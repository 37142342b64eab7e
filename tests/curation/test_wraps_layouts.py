"""Line-wrap repair end to end: `.story` files (the 20 real CNN stories and Daily Mail-style
stories made from real Daily Mail text with lines broken mid-sentence, captions and video
lines of ours) run through the Hugging Face loader's transformation into a CSV export
(`article`, `highlights`, `id`), read by the CSV reader, and through the generate job's
pure chain (benchmarks/quality.py). The same stories read directly must give the same
sentences."""
import collections

import pytest

from benchmarks import quality
from benchmarks.layouts import layout_inputs
from transforms.curation import wraps
from transforms.curation.clean import clean_article, clean_paragraph

N_DAILYMAIL = 24


@pytest.fixture(scope="module")
def layouts(corpus_dir, tmp_path_factory):
    """{layout: articles} for the same stories as `.story` files and as a CSV export of the
    loader's rows; and the captions and video lines put into the Daily Mail stories."""
    tmp = tmp_path_factory.mktemp("wraps")
    parsed, inserted = layout_inputs(corpus_dir, tmp, N_DAILYMAIL)
    hf, direct = parsed["hf_csv"], parsed["story"]
    assert len(hf) == len(direct) == 20 + N_DAILYMAIL
    assert not any(isinstance(a, dict) for a in hf + direct)
    return {"hf_csv": hf, "story": direct}, inserted


@pytest.fixture(scope="module")
def generated(layouts, annotator):
    articles, _ = layouts
    return {k: quality.run_chain(v, annotator, "record") for k, v in articles.items()}


def test_the_daily_mail_rows_carry_wrap_dots(layouts):
    articles, inserted = layouts
    wrapped = [a for a in articles["hf_csv"] if wraps.has_wrap_dots(a.paragraphs[0])]
    assert len(wrapped) >= N_DAILYMAIL and len(inserted) >= 10


def test_no_wrap_dot_and_no_glued_sentence_in_queries_or_passages(generated):
    for layout, (queries, counts) in generated.items():
        assert len(queries) > 100, (layout, counts)
        for q in queries:
            assert not wraps.WRAP_DOT.search(q["query"]), (layout, q["query"])
            assert not wraps.WRAP_DOT.search(q["passage"]), (layout, q["passage"])
        glued = [q["query"] for q in queries if quality.glued_sentences(q["query"])]
        assert len(glued) <= 0.01 * len(queries), (layout, glued)


def test_captions_and_video_lines_are_dropped_and_counted(layouts, generated):
    articles, inserted = layouts
    for layout in ("hf_csv", "story"):
        counts = collections.Counter()
        for a in articles[layout]:
            clean_article(a, dropped=counts)
        assert counts["wrap_caption"] + counts["video_line"] >= 0.9 * len(inserted), counts
        passages = {q["passage"] for q in generated[layout][0]}
        for line in inserted:
            line = clean_paragraph(line)     # "(left)" goes before the caption is judged
            assert not any(line in p for p in passages), (layout, line)


def test_the_story_read_directly_and_through_the_loader_gives_the_same_sentences(
        layouts, annotator):
    articles, _ = layouts
    sentences = {}
    for layout, batch in articles.items():
        cleaned = [clean_article(a) for a in batch]
        sentences[layout] = {
            a.article.article_id: [seg.text[s.start:s.end] for seg in a.paragraphs
                                   for s in seg.sentences]
            for a in annotator.annotate(cleaned)}
    same = total = 0
    for article_id, direct in sentences["story"].items():
        via_loader = set(sentences["hf_csv"][article_id])
        same += sum(s in via_loader for s in direct)
        total += len(direct)
    assert same >= 0.97 * total, (same, total)
